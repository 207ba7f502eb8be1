/* bench-lua: a minimal stand-alone Lua interpreter for the `c-project` workload of
 * scripts/bench. The Lua sources come from the crates.io crate lua-src (which ships the
 * library without lua.c); this file is the program around them.
 *
 *   bench-lua -v               prints Lua's version
 *   bench-lua -e CHUNK         runs CHUNK
 *   bench-lua SCRIPT [ARGS]    runs SCRIPT with the global `arg` set as lua.c does
 */
#include <stdio.h>
#include <string.h>

#include "lauxlib.h"
#include "lua.h"
#include "lualib.h"

static int report(lua_State *L, int status) {
    if (status != LUA_OK) {
        const char *msg = lua_tostring(L, -1);
        fprintf(stderr, "bench-lua: %s\n", msg ? msg : "(error object is not a string)");
        lua_pop(L, 1);
    }
    return status;
}

static int traceback(lua_State *L) {
    const char *msg = lua_tostring(L, 1);
    luaL_traceback(L, L, msg ? msg : "(error object is not a string)", 1);
    return 1;
}

static int run_chunk(lua_State *L, int status) {
    if (status == LUA_OK) {
        int base = lua_gettop(L);
        lua_pushcfunction(L, traceback);
        lua_insert(L, base);
        status = lua_pcall(L, 0, 0, base);
        lua_remove(L, base);
    }
    return report(L, status);
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: %s -v | -e CHUNK | SCRIPT [ARGS...]\n", argv[0]);
        return 2;
    }
    if (strcmp(argv[1], "-v") == 0) {
        printf("%s\n", LUA_COPYRIGHT);
        return 0;
    }
    lua_State *L = luaL_newstate();
    if (L == NULL) {
        fprintf(stderr, "bench-lua: cannot create state: not enough memory\n");
        return 1;
    }
    luaL_openlibs(L);
    int status;
    if (strcmp(argv[1], "-e") == 0 && argc >= 3) {
        status = run_chunk(L, luaL_loadstring(L, argv[2]));
    } else {
        lua_createtable(L, argc - 2, 2);
        for (int i = 0; i < argc; i++) {
            lua_pushstring(L, argv[i]);
            lua_rawseti(L, -2, i - 1);
        }
        lua_setglobal(L, "arg");
        status = run_chunk(L, luaL_loadfile(L, argv[1]));
    }
    lua_close(L);
    return status == LUA_OK ? 0 : 1;
}
