// Runs script.lua (path in argv[1]) in a fresh Lua state with the standard libraries and prints
// what it returns or the error it raised.
#include <stdio.h>
#include "lauxlib.h"
#include "lua.h"
#include "lualib.h"

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s script.lua\n", argv[0]);
    return 2;
  }
  lua_State *L = luaL_newstate();
  luaL_openlibs(L);
  int status = luaL_dofile(L, argv[1]);
  if (status != LUA_OK) {
    printf("error: %s\n", lua_tostring(L, -1));
    lua_close(L);
    return 1;
  }
  printf("script returned %d value(s)\n", lua_gettop(L));
  lua_close(L);
  return 0;
}
