#!/usr/bin/env python3
"""weld's link-time benchmark: the implementation behind `scripts/bench` (see `--help`).

Everything here is python3's standard library. The workloads are captured once, by
`scripts/bench --prepare`, as lld `--reproduce` tars that are unpacked under
target/bench/captures/; the runner then links the very same inputs with the very same
response file with every linker, so only the link itself is timed.
"""
import argparse
import datetime
import hashlib
import json
import os
import platform
import re
import shlex
import shutil
import statistics
import struct
import subprocess
import sys
import tarfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BENCH_SRC = os.path.join(ROOT, "bench")
WORKLOAD_SRC = os.path.join(BENCH_SRC, "workloads")
# Captures, builds and results; WELD_BENCH_DIR moves them (the CI smoke test uses its own).
BENCH_DIR = os.path.abspath(os.environ.get("WELD_BENCH_DIR") or os.path.join(ROOT, "target",
                                                                             "bench"))
CAPTURES = os.path.join(BENCH_DIR, "captures")
BUILD = os.path.join(BENCH_DIR, "build")
# Where `disk` workloads write their outputs: the file system the repository is on.
DISK_OUT = os.path.join(BENCH_DIR, "disk-out")

CLANG = "clang-22"
CLANGXX = "clang++-22"
LLD = "/usr/bin/ld.lld-22"
LLVM_CONFIG = "llvm-config-22"
LLVM_AR = "llvm-ar-22"
LLVM_GOLD = "/usr/lib/llvm-22/lib/LLVMgold.so"
GNU_TIME = "/usr/bin/time"

# crates.io packages the workloads are built from (exact versions, so a capture is reproducible).
LUA_SRC = ("lua-src", "551.1.0", "lua-5.4.9")
RIPGREP = ("ripgrep", "15.2.0")

# Bump when a recipe changes in a way its inputs' hashes do not show.
RECIPE_VERSION = 2


class BenchError(Exception):
    """A failure with a message that names the workload and the linker."""


def log(msg):
    print(msg, file=sys.stderr, flush=True)


def sh(cmd, cwd=None, env=None, what=None, quiet=False, logfile=None):
    """Runs a preparation command; raises BenchError with its output if it fails."""
    pretty = " ".join(shlex.quote(c) for c in cmd)
    if not quiet:
        log(f"  $ {pretty if len(pretty) < 300 else pretty[:300] + ' ...'}")
    if logfile:
        with open(logfile, "w", encoding="utf-8") as lf:
            p = subprocess.run(cmd, cwd=cwd, env=env, stdout=lf, stderr=subprocess.STDOUT)
        if p.returncode != 0:
            with open(logfile, encoding="utf-8", errors="replace") as lf:
                tail = lf.read()[-4000:]
            raise BenchError(f"{what or cmd[0]}: command failed (exit {p.returncode}): {pretty}\n"
                             f"last output (full log: {logfile}):\n{tail}")
        return ""
    p = subprocess.run(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True, errors="replace")
    if p.returncode != 0:
        raise BenchError(f"{what or cmd[0]}: command failed (exit {p.returncode}): {pretty}\n"
                         f"{p.stdout[-2000:]}{p.stderr[-4000:]}")
    return p.stdout


def file_hash(paths, extra=""):
    h = hashlib.sha256(f"recipe-v{RECIPE_VERSION}:{extra}".encode())
    for p in sorted(paths):
        h.update(os.path.relpath(p, ROOT).encode())
        with open(p, "rb") as f:
            h.update(f.read())
    return h.hexdigest()[:16]


def tool_version(cmd):
    try:
        return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                              errors="replace").stdout.splitlines()[0].strip()
    except (OSError, IndexError):
        return "?"


# --------------------------------------------------------------------------------------------
# Captures: each recipe builds a program and links it once with ld.lld-22 --reproduce=TAR.
# --------------------------------------------------------------------------------------------

def crate_source(name, version):
    """Fetches one crate from crates.io with cargo and returns the directory of its sources."""
    d = os.path.join(BUILD, "crates", f"{name}-{version}")
    os.makedirs(os.path.join(d, "src"), exist_ok=True)
    with open(os.path.join(d, "Cargo.toml"), "w", encoding="utf-8") as f:
        f.write(f'[package]\nname = "bench-fetch-{name}"\nversion = "0.0.0"\nedition = "2021"\n'
                f'publish = false\n\n[workspace]\n\n[dependencies]\n{name} = "={version}"\n')
    with open(os.path.join(d, "src", "lib.rs"), "w", encoding="utf-8") as f:
        f.write("")
    sh(["cargo", "fetch", "--quiet"], cwd=d, what=f"cargo fetch {name} {version}")
    meta = json.loads(sh(["cargo", "metadata", "--format-version", "1", "--quiet"], cwd=d,
                         what="cargo metadata", quiet=True))
    for p in meta["packages"]:
        if p["name"] == name and p["version"] == version:
            return os.path.dirname(p["manifest_path"])
    raise BenchError(f"cargo metadata does not list {name} {version}")


def llvm_libs():
    """`llvm-config --libs all --link-static`, minus the archives Debian does not ship (Polly)."""
    libdir = sh([LLVM_CONFIG, "--libdir"], quiet=True).strip()
    libs, missing = [], []
    for flag in sh([LLVM_CONFIG, "--libs", "all", "--link-static"], quiet=True).split():
        name = flag[2:] if flag.startswith("-l") else None
        if name and not os.path.exists(os.path.join(libdir, f"lib{name}.a")):
            missing.append(flag)
            continue
        libs.append(flag)
    system = sh([LLVM_CONFIG, "--system-libs", "--link-static"], quiet=True).split()
    return libdir, libs, system, missing


def llvm_recipe(pubnames):
    """The `llvm` capture; with `pubnames`, tool.cpp also gets `-ggnu-pubnames` (the names a
    `.gdb_index` is made of: the LLVM archives' debug info has none)."""
    def recipe(work, tar):
        src = os.path.join(WORKLOAD_SRC, "llvm-static", "tool.cpp")
        cxxflags = sh([LLVM_CONFIG, "--cxxflags"], quiet=True).split()
        obj = os.path.join(work, "tool.o")
        debug = ["-g", "-ggnu-pubnames"] if pubnames else ["-g"]
        sh([CLANGXX, *debug, "-O2", *cxxflags, "-c", src, "-o", obj], what="compile tool.cpp")
        libdir, libs, system, missing = llvm_libs()
        if missing:
            log(f"  note: leaving out {' '.join(missing)} (listed by llvm-config, not installed)")
        sh([CLANGXX, "-fuse-ld=lld", f"--ld-path={LLD}", "-Wl,--gc-sections",
            f"-Wl,--reproduce={tar}", obj, f"-L{libdir}", *libs, *system,
            "-o", os.path.join(work, "bench-llvm-tool")], what="link bench-llvm-tool")
        return {"program": "bench-llvm-tool (bench/workloads/llvm-static/tool.cpp"
                           + (", -ggnu-pubnames" if pubnames else "") + ") against "
                           f"{len(libs)} LLVM 22 static archives (llvm-22-dev)"}
    return recipe


def llvm_recipe_key(pubnames):
    def key():
        return file_hash([os.path.join(WORKLOAD_SRC, "llvm-static", "tool.cpp")],
                         tool_version([CLANG, "--version"]) + (" pubnames" if pubnames else ""))
    return key


def lua_recipe(lto):
    def recipe(work, tar):
        crate, version, subdir = LUA_SRC
        lua = os.path.join(crate_source(crate, version), subdir)
        sources = sorted(os.path.join(lua, f) for f in os.listdir(lua) if f.endswith(".c"))
        sources.append(os.path.join(WORKLOAD_SRC, "c-project", "main.c"))
        flags = ["-O2", "-g", "-ffunction-sections", "-fdata-sections", "-DLUA_USE_LINUX",
                 f"-I{lua}"]
        if lto:
            flags.append("-flto=thin")
        objs = []
        for s in sources:
            o = os.path.join(work, os.path.basename(s)[:-2] + ".o")
            sh([CLANG, *flags, "-c", s, "-o", o], what=f"compile {os.path.basename(s)}",
               quiet=True)
            objs.append(o)
        log(f"  compiled {len(objs)} C files ({' '.join(flags)})")
        link = [CLANG, "-fuse-ld=lld", f"--ld-path={LLD}", "-O2", "-Wl,--gc-sections",
                f"-Wl,--reproduce={tar}", *objs, "-lm", "-ldl", "-o",
                os.path.join(work, "bench-lua")]
        if lto:
            link.insert(3, "-flto=thin")
        sh(link, what="link bench-lua")
        return {"program": f"Lua 5.4 ({len(sources) - 1} C files of crates.io's {crate} "
                           f"{version}, {subdir}/) + bench/workloads/c-project/main.c"
                           + (", ThinLTO bitcode" if lto else "")}
    return recipe


def recipe_lua_key():
    return file_hash([os.path.join(WORKLOAD_SRC, "c-project", "main.c")],
                     f"{LUA_SRC}" + tool_version([CLANG, "--version"]))


# `c-mixed-lto`: which half of Lua's 32 C files is compiled natively. It holds every function
# that is dead in the all-native `c-project` link (12 of them, in lapi.c, lauxlib.c, ldebug.c,
# lgc.c and lstate.c) and the auxiliary and standard libraries, which call Lua's C API; the
# other 16 files (parser, code generator, VM, tables, strings, ...) are ThinLTO bitcode. So
# the dead native code that exists in this program references bitcode functions.
LUA_NATIVE_HALF = ("lapi", "lauxlib", "lbaselib", "lcorolib", "ldblib", "ldebug", "lgc", "linit",
                   "liolib", "lmathlib", "loadlib", "loslib", "lstate", "lstrlib", "ltablib",
                   "lutf8lib")


def recipe_lua_mixed(work, tar):
    crate, version, subdir = LUA_SRC
    lua = os.path.join(crate_source(crate, version), subdir)
    sources = sorted(os.path.join(lua, f) for f in os.listdir(lua) if f.endswith(".c"))
    names = [os.path.basename(s)[:-2] for s in sources]
    if sorted(set(LUA_NATIVE_HALF) & set(names)) != sorted(LUA_NATIVE_HALF) or \
            2 * len(LUA_NATIVE_HALF) != len(names):
        raise BenchError(f"the native half {LUA_NATIVE_HALF} is not half of {names}")
    native_flags = ["-O2", "-ffunction-sections", "-fdata-sections", "-DLUA_USE_LINUX",
                    f"-I{lua}"]
    bitcode_flags = ["-O2", "-flto=thin", "-DLUA_USE_LINUX", f"-I{lua}"]
    native, bitcode = [], []
    for s, n in zip(sources, names):
        is_native = n in LUA_NATIVE_HALF
        o = os.path.join(work, n + (".o" if is_native else ".bc.o"))
        sh([CLANG, *(native_flags if is_native else bitcode_flags), "-c", s, "-o", o],
           what=f"compile {n}.c", quiet=True)
        (native if is_native else bitcode).append(o)
    main_o = os.path.join(work, "main.o")
    sh([CLANG, *native_flags, "-c", os.path.join(WORKLOAD_SRC, "c-project", "main.c"), "-o",
        main_o], what="compile main.c", quiet=True)
    libs = []
    for lib, members in (("libluanative.a", native), ("libluabitcode.a", bitcode)):
        path = os.path.join(work, lib)
        if os.path.exists(path):
            os.unlink(path)
        sh([LLVM_AR, "rcs", path, *members], what=f"archive {lib}", quiet=True)
        libs.append(path)
    log(f"  compiled {len(native)} native C files ({' '.join(native_flags[:3])}) into "
        f"libluanative.a, {len(bitcode)} ThinLTO ones (-O2 -flto=thin) into libluabitcode.a")
    sh([CLANG, "-fuse-ld=lld", f"--ld-path={LLD}", "-flto=thin", "-O2", "-Wl,--gc-sections",
        f"-Wl,--reproduce={tar}", main_o, *libs, "-lm", "-ldl", "-o",
        os.path.join(work, "bench-lua-mixed")], what="link bench-lua-mixed")
    return {"program": f"Lua 5.4 ({crate} {version}) + bench/workloads/c-project/main.c: "
                       f"{len(native)} C files native in libluanative.a ("
                       f"{', '.join(n + '.c' for n in LUA_NATIVE_HALF)}), "
                       f"{len(bitcode)} ThinLTO bitcode in libluabitcode.a"}


def recipe_lua_mixed_key():
    return file_hash([os.path.join(WORKLOAD_SRC, "c-project", "main.c")],
                     f"{LUA_SRC}{LUA_NATIVE_HALF}" + tool_version([CLANG, "--version"]))


def cargo_capture(work, tar, prefix, cargo_args, target_dir, env_extra=None):
    """Runs a cargo build with bench/capture_linker.py as the linker; captures the link of the
    binary whose output name starts with `prefix`."""
    env = dict(os.environ)
    env.update({
        "CARGO_TARGET_X86_64_UNKNOWN_LINUX_GNU_LINKER": os.path.join(BENCH_SRC,
                                                                     "capture_linker.py"),
        "BENCH_CAPTURE_PREFIX": prefix,
        "BENCH_CAPTURE_TAR": tar,
        "BENCH_CAPTURE_LOG": os.path.join(work, "capture.log"),
        "BENCH_CLANG": CLANG,
        "BENCH_LLD": LLD,
    })
    env.pop("RUSTFLAGS", None)
    env.pop("CARGO_ENCODED_RUSTFLAGS", None)
    env.update(env_extra or {})
    # Make sure the final binary is linked again even if the target directory is warm.
    deps = os.path.join(target_dir, "release", "deps")
    if os.path.isdir(deps):
        for f in os.listdir(deps):
            if f.startswith(prefix):
                os.unlink(os.path.join(deps, f))
    log(f"  (cargo's log: {os.path.join(work, 'cargo.log')}; this takes minutes on 2 cores)")
    sh(["cargo", *cargo_args, "--target-dir", target_dir], cwd=work, env=env,
       what="cargo", logfile=os.path.join(work, "cargo.log"))
    if not os.path.exists(tar):
        raise BenchError(f"cargo finished but no link of `{prefix}*` was captured "
                         f"(see {os.path.join(work, 'capture.log')})")


def recipe_ripgrep(work, tar):
    name, version = RIPGREP
    cargo_capture(work, tar, "rg-",
                  ["install", name, "--version", version, "--locked", "--force",
                   "--root", os.path.join(work, "root")],
                  os.path.join(work, "target"))
    return {"program": f"ripgrep {version} from crates.io (`cargo install --locked`, "
                       "release profile), linked by rustc through clang-22"}


def recipe_ripgrep_key():
    return file_hash([], f"{RIPGREP}" + tool_version(["rustc", "--version"]))


def recipe_weld_self(work, tar):
    cargo_capture(work, tar, "weld-",
                  ["build", "--release", "-p", "weld", "--manifest-path",
                   os.path.join(ROOT, "Cargo.toml")],
                  os.path.join(work, "target"))
    rev = sh(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"], quiet=True).strip()
    return {"program": f"weld itself (release profile, commit {rev}), linked by rustc "
                       "through clang-22"}


def recipe_weld_self_key():
    return file_hash([], tool_version(["rustc", "--version"]))


TEXTKIT_SRC = os.path.join(WORKLOAD_SRC, "rust-plugin-lto")


def workload_files(root):
    out = []
    for dirpath, dirs, files in os.walk(root):
        dirs[:] = [d for d in dirs if d != "target"]
        out += [os.path.join(dirpath, f) for f in files if f != "Cargo.lock"]
    return sorted(out)


def recipe_textkit(work, tar):
    """bench-textkit: Rust compiled to bitcode (-C linker-plugin-lto) against the native C
    static library textkit (-O2 -ffunction-sections -fdata-sections, no LTO)."""
    src = os.path.join(work, "src")
    shutil.rmtree(src, ignore_errors=True)
    shutil.copytree(TEXTKIT_SRC, src, ignore=shutil.ignore_patterns("target", "Cargo.lock"))
    native = os.path.join(work, "native")
    os.makedirs(native, exist_ok=True)
    obj = os.path.join(native, "textkit.o")
    sh([CLANG, "-O2", "-ffunction-sections", "-fdata-sections", "-c",
        os.path.join(src, "textkit", "textkit.c"), "-o", obj], what="compile textkit.c")
    lib = os.path.join(native, "libtextkit.a")
    if os.path.exists(lib):
        os.unlink(lib)
    sh([LLVM_AR, "rcs", lib, obj], what="archive libtextkit.a")
    cargo_capture(work, tar, "bench_textkit-",
                  ["build", "--release", "--manifest-path", os.path.join(src, "Cargo.toml")],
                  os.path.join(work, "target"),
                  env_extra={"RUSTFLAGS": f"-C linker-plugin-lto -L native={native}"})
    return {"program": "bench-textkit (bench/workloads/rust-plugin-lto: a binary crate and its "
                       "path dependency textkit-host, both LLVM bitcode through "
                       "`-C linker-plugin-lto`, release profile) against libtextkit.a (C, "
                       "-O2 -ffunction-sections -fdata-sections, no LTO), linked by rustc "
                       "through clang-22"}


def recipe_textkit_key():
    return file_hash(workload_files(TEXTKIT_SRC), tool_version(["rustc", "--version"])
                     + tool_version([CLANG, "--version"]))


def recipe_smoke(work, tar):
    src = os.path.join(ROOT, "testdata", "corpus", "hello_c", "main.c")
    obj = os.path.join(work, "main.o")
    sh([CLANG, "-O1", "-c", src, "-o", obj], what="compile hello_c")
    sh([CLANG, "-fuse-ld=lld", f"--ld-path={LLD}", f"-Wl,--reproduce={tar}", obj, "-o",
        os.path.join(work, "hello")], what="link hello_c")
    return {"program": "testdata/corpus/hello_c (one C file), dynamic PIE"}


def recipe_smoke_key():
    return file_hash([os.path.join(ROOT, "testdata", "corpus", "hello_c", "main.c")])


CAPTURE_RECIPES = {
    "llvm": (llvm_recipe(False), llvm_recipe_key(False)),
    "llvm-gdb": (llvm_recipe(True), llvm_recipe_key(True)),
    "lua": (lua_recipe(False), recipe_lua_key),
    "lua-lto": (lua_recipe(True), recipe_lua_key),
    "lua-mixed": (recipe_lua_mixed, recipe_lua_mixed_key),
    "textkit": (recipe_textkit, recipe_textkit_key),
    "ripgrep": (recipe_ripgrep, recipe_ripgrep_key),
    "weld-self": (recipe_weld_self, recipe_weld_self_key),
    "smoke": (recipe_smoke, recipe_smoke_key),
}


def parse_lld_response(text):
    """lld's response.txt: one option (with its value) per line, quoted where needed."""
    return shlex.split(text, posix=True)


def quote_rsp(arg):
    if arg and not re.search(r'[\s"\'\\]', arg):
        return arg
    return '"' + arg.replace("\\", "\\\\").replace('"', '\\"') + '"'


def strip_options(args, drop_with_value, drop_flags=()):
    out, i = [], 0
    while i < len(args):
        a = args[i]
        if a in drop_with_value:
            i += 2
            continue
        if any(a.startswith(o + "=") for o in drop_with_value) or a in drop_flags:
            i += 1
            continue
        out.append(a)
        i += 1
    return out


def rewrite_linker_scripts(repro, final_repro):
    """Absolute paths in linker scripts (libc.so's GROUP) point into the capture, as lld's
    --chroot would make them, so every linker reads the captured files. `repro` is where the
    capture is now, `final_repro` where it will be used from."""
    count = 0
    for dirpath, _, files in os.walk(repro):
        for fn in files:
            p = os.path.join(dirpath, fn)
            if os.path.islink(p) or os.path.getsize(p) > 65536:
                continue
            with open(p, "rb") as f:
                data = f.read()
            if data[:4] == b"\x7fELF" or data[:7] in (b"!<arch>", b"!<thin>") or b"\0" in data:
                continue
            text = data.decode("utf-8", errors="replace")
            if not re.search(r"\b(GROUP|INPUT)\s*\(", text):
                continue

            def fix(m):
                path = m.group(1)
                inside = os.path.join(repro, path.lstrip("/"))
                return os.path.join(final_repro, path.lstrip("/")) if os.path.exists(
                    inside) else path
            new = re.sub(r"(?<![\w./-])(/[^\s()]+)", fix, text)
            if new != text:
                with open(p, "w", encoding="utf-8") as f:
                    f.write(new)
                count += 1
    return count


def capture_stats(repro):
    n, total = 0, 0
    for dirpath, _, files in os.walk(repro):
        for fn in files:
            p = os.path.join(dirpath, fn)
            if os.path.dirname(p) == repro and fn in ("response.txt", "version.txt"):
                continue
            n += 1
            total += os.path.getsize(p)
    return n, total


def capture_dir(name):
    return os.path.join(CAPTURES, name)


def load_capture(name):
    p = os.path.join(capture_dir(name), "capture.json")
    if not os.path.exists(p):
        return None
    with open(p, encoding="utf-8") as f:
        return json.load(f)


def prepare_capture(name, force=False):
    recipe, keyfn = CAPTURE_RECIPES[name]
    key = keyfn()
    have = load_capture(name)
    if have and have.get("key") == key and not force:
        log(f"prepare {name}: cached ({have['inputs']} input files, "
            f"{have['input_bytes'] / 1e6:.1f} MB) in {capture_dir(name)}")
        return have
    log(f"prepare {name}: capturing")
    start = time.time()
    work = os.path.join(BUILD, name)
    os.makedirs(work, exist_ok=True)
    tar = os.path.join(work, f"{name}-repro.tar")
    if os.path.exists(tar):
        os.unlink(tar)
    try:
        info = recipe(work, tar)
    except BenchError as e:
        raise BenchError(f"prepare {name}: {e}") from None
    if not os.path.exists(tar):
        raise BenchError(f"prepare {name}: ld.lld-22 wrote no --reproduce tar at {tar}")
    dest = capture_dir(name)
    tmp = dest + ".tmp"
    shutil.rmtree(tmp, ignore_errors=True)
    os.makedirs(tmp)
    with tarfile.open(tar) as t:
        top = {m.name.split("/")[0] for m in t.getmembers()}
        if len(top) != 1:
            raise BenchError(f"prepare {name}: unexpected layout of {tar}: {sorted(top)[:5]}")
        if hasattr(tarfile, "data_filter"):
            t.extractall(tmp, filter="fully_trusted")  # lld's own tar, paths are relative
        else:
            t.extractall(tmp)
    repro = os.path.join(tmp, "repro")
    os.rename(os.path.join(tmp, top.pop()), repro)
    with open(os.path.join(repro, "response.txt"), encoding="utf-8") as f:
        args = parse_lld_response(f.read())
    # The captured command, minus what the runner sets itself: the output (-o), lld's
    # --chroot (the linker scripts are rewritten instead) and any thread count.
    args = strip_options(args, ("-o", "--chroot", "--threads", "--thread-count",
                                "--thinlto-jobs"))
    scripts = rewrite_linker_scripts(repro, os.path.join(dest, "repro"))
    # Paths in the response file stay relative to the capture's root: the runner starts every
    # linker there (cwd), as lld's --reproduce expects.
    with open(os.path.join(tmp, "args.json"), "w", encoding="utf-8") as f:
        json.dump(args, f, indent=0)
    n, total = capture_stats(repro)
    meta = {
        "name": name, "key": key, "inputs": n, "input_bytes": total,
        "captured": datetime.datetime.now().isoformat(timespec="seconds"),
        "lld": tool_version([LLD, "--version"]), "scripts_rewritten": scripts, **info,
        "bitcode": any(is_bitcode(os.path.join(repro, a)) for a in args
                       if not a.startswith("-") and os.path.isfile(os.path.join(repro, a))),
    }
    with open(os.path.join(tmp, "capture.json"), "w", encoding="utf-8") as f:
        json.dump(meta, f, indent=2)
    shutil.rmtree(dest, ignore_errors=True)
    os.rename(tmp, dest)
    os.unlink(tar)
    log(f"prepare {name}: captured {n} input files ({total / 1e6:.1f} MB) in "
        f"{time.time() - start:.0f}s -> {dest}")
    return meta


def is_bitcode(path):
    with open(path, "rb") as f:
        return f.read(4) == b"BC\xc0\xde"


# --------------------------------------------------------------------------------------------
# Workloads: a capture, edits to its command line, and how to check the program it makes.
# --------------------------------------------------------------------------------------------

LLVM_INPUT = os.path.join(WORKLOAD_SRC, "llvm-static", "input.ll")
LUA_SCRIPT = os.path.join(WORKLOAD_SRC, "c-project", "check.lua")
TRIPLES = ["x86_64-unknown-linux-gnu", "aarch64-unknown-linux-gnu", "riscv64-unknown-linux-gnu"]

WORKLOADS = {
    "llvm-static": {
        "capture": "llvm",
        "about": "C++ tool against LLVM 22's static archives, --gc-sections",
        "checks": [(["--version"], "bench-llvm-tool (LLVM 22"),
                   ([LLVM_INPUT, *TRIPLES], "aarch64-unknown-linux-gnu: ")],
    },
    # The other workloads write their output to a tmpfs (--tmpdir), which keeps the file
    # system out of the timing; this one writes it where builds do, to a disk (target/bench/
    # disk-out, on the repository's file system): what the output's creation, writing and
    # rename cost there (a synchronous msync of the output once took a fifth of weld's link).
    "llvm-static-disk": {
        "capture": "llvm",
        "about": "llvm-static with the output written to the repository's file system "
                 "(target/bench/disk-out), not a tmpfs",
        "disk": True,
        "checks": [(["--version"], "bench-llvm-tool (LLVM 22")],
    },
    "llvm-static-nogc": {
        "capture": "llvm",
        "about": "the same link without --gc-sections",
        "drop": ["--gc-sections"],
        "checks": [(["--version"], "bench-llvm-tool (LLVM 22"),
                   ([LLVM_INPUT, *TRIPLES], "aarch64-unknown-linux-gnu: ")],
    },
    # The cost of two options lld has on the same link (issue #15): the flag goes to every
    # linker (mold has both; ld.bfd has neither and shows "n/a").
    "llvm-static-icf": {
        "capture": "llvm",
        "about": "llvm-static with --icf=all",
        "add": ["--icf=all"],
        "checks": [(["--version"], "bench-llvm-tool (LLVM 22"),
                   ([LLVM_INPUT, *TRIPLES], "aarch64-unknown-linux-gnu: ")],
    },
    "llvm-static-gdb-index": {
        "capture": "llvm-gdb",
        "about": "llvm-static (tool.cpp also -ggnu-pubnames) with --gdb-index",
        "add": ["--gdb-index"],
        "checks": [(["--version"], "bench-llvm-tool (LLVM 22"),
                   ([LLVM_INPUT, *TRIPLES], "aarch64-unknown-linux-gnu: ")],
    },
    "c-project": {
        "capture": "lua",
        "about": "Lua 5.4 (C, -ffunction-sections -fdata-sections), --gc-sections",
        "checks": [(["-v"], "Lua 5.4"), ([LUA_SCRIPT], "check.lua: ok")],
    },
    "c-project-lto": {
        "capture": "lua-lto",
        "about": "the same sources compiled with -flto=thin (ThinLTO at link time)",
        "lto": True,
        "checks": [(["-v"], "Lua 5.4"), ([LUA_SCRIPT], "check.lua: ok")],
    },
    # Distributed ThinLTO (issue #16): the ThinLTO backends run as Dask tasks on a local
    # scheduler and two workers (weld-dtlto from .venv/, made by scripts/setup), started and
    # stopped by the bench. CPU time and RSS are the linker's and the distributor's, not the
    # workers'. weld runs ThinLTO in process until it speaks DTLTO (its label says which).
    "c-project-lto-dask": {
        "capture": "lua-lto",
        "about": "c-project-lto with the ThinLTO backends on a local two-worker Dask cluster "
                 "(weld-dtlto)",
        "lto": True,
        "dask": True,
        "checks": [(["-v"], "Lua 5.4"), ([LUA_SCRIPT], "check.lua: ok")],
    },
    "rust-bin": {
        "capture": "ripgrep",
        "about": "ripgrep 15.2.0 from crates.io, linked through rustc",
        "checks": [(["--version"], "ripgrep 15.2.0"),
                   (["--no-config", "-c", "def ", os.path.join(BENCH_SRC, "bench.py")], "")],
    },
    "weld-self": {
        "capture": "weld-self",
        "about": "weld's own release binary, linked through rustc",
        "checks": [(["--version"], "weld "), (["--help"], "supported targets:")],
    },
    "c-mixed-lto": {
        "capture": "lua-mixed",
        "about": "Lua, half native, half ThinLTO bitcode (an archive each), LTO effect",
        "lto": True,
        "effect": True,
        "checks": [(["-v"], "Lua 5.4"), ([LUA_SCRIPT], "check.lua: ok")],
    },
    "rust-plugin-lto": {
        "capture": "textkit",
        "about": "Rust bitcode (-C linker-plugin-lto) + a native C library, LTO effect",
        "lto": True,
        "effect": True,
        "checks": [(["--version"], "bench-textkit 0.1.0"),
                   ([os.path.join(TEXTKIT_SRC, "textkit", "textkit.c")], "total: ")],
    },
    "smoke": {
        "capture": "smoke",
        "about": "testdata/corpus/hello_c (CI smoke run)",
        "checks": [([], "hello, world")],
        "hidden": True,
    },
}
DEFAULT_WORKLOADS = [w for w, d in WORKLOADS.items() if not d.get("hidden")]


# --------------------------------------------------------------------------------------------
# Linkers and one timed run.
# --------------------------------------------------------------------------------------------

def weld_has_dtlto(weld):
    """True once weld's --help lists --thinlto-distributor= without "not implemented yet"."""
    try:
        text = subprocess.run([weld, "--help"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              text=True, errors="replace", timeout=30).stdout
    except (OSError, subprocess.TimeoutExpired):
        return False
    line = next((ln for ln in text.splitlines() if "--thinlto-distributor=" in ln), None)
    return line is not None and "not implemented" not in line


class DaskCluster:
    """`dask scheduler` and two `dask worker`s on 127.0.0.1 (from .venv/), each in a process
    group of its own, killed with their groups on exit."""

    def __init__(self, workdir, workers=2):
        self.workdir, self.n, self.procs = workdir, workers, []
        self.venv = os.path.join(ROOT, ".venv", "bin")
        self.file = os.path.join(workdir, "scheduler.json")

    def spawn(self, name, argv):
        log_f = open(os.path.join(self.workdir, name + ".log"), "wb")
        self.procs.append(subprocess.Popen(argv, cwd=self.workdir, stdin=subprocess.DEVNULL,
                                           stdout=log_f, stderr=subprocess.STDOUT,
                                           start_new_session=True))
        log_f.close()

    def __enter__(self):
        dask = os.path.join(self.venv, "dask")
        if not os.access(dask, os.X_OK):
            raise BenchError(f"{dask} is missing: run scripts/setup (it makes .venv/ with "
                             "weld-dtlto and dask)")
        shutil.rmtree(self.workdir, ignore_errors=True)
        os.makedirs(self.workdir)
        try:
            self.spawn("scheduler", [dask, "scheduler", "--host", "127.0.0.1", "--port", "0",
                                     "--no-dashboard", "--scheduler-file", self.file])
            for i in range(self.n):
                self.spawn(f"worker{i}", [dask, "worker", "--scheduler-file", self.file,
                                          "--host", "127.0.0.1", "--nworkers", "1",
                                          "--nthreads", "1", "--no-dashboard"])
            sh([os.path.join(self.venv, "python"), "-c",
                "import sys, time\nfrom distributed import Client\n"
                "t = time.monotonic()\n"
                "while time.monotonic() - t < 60:\n"
                "    try:\n        c = Client(scheduler_file=sys.argv[1], timeout='10s'); break\n"
                "    except (OSError, ValueError): time.sleep(0.2)\n"
                f"c.wait_for_workers({self.n}, timeout=60)\nc.close()\n", self.file],
               what=f"starting a Dask cluster (logs in {self.workdir})", quiet=True)
        except BaseException:
            self.__exit__()
            raise
        log(f"  dask: scheduler and {self.n} workers up ({self.file})")
        return self

    def __exit__(self, *exc):
        for p in reversed(self.procs):
            try:
                os.killpg(p.pid, 9)
            except OSError:
                pass
            p.wait()
        self.procs = []

    def link_args(self):
        """lld's (and weld's) options that send the ThinLTO backends to this cluster."""
        return [f"--thinlto-distributor={os.path.join(self.venv, 'weld-dtlto')}",
                f"--thinlto-distributor-arg=--scheduler-file={self.file}",
                f"--thinlto-remote-compiler={shutil.which(CLANG) or CLANG}"]


def linkers(weld, use_bfd, effect=False, dtlto=None):
    """The linkers of a workload. LTO-effect workloads compare weld, weld with
    --gc-archive-members and ld.lld-22 only (mold and ld.bfd run LTO through LLVMgold.so, which
    has no part in what they measure). Distributed workloads (`dtlto`: the distributor options)
    compare weld and ld.lld-22; weld runs ThinLTO in process until it supports DTLTO."""
    if dtlto is not None:
        has = weld_has_dtlto(weld)
        return [
            {"name": "weld", "kind": "weld", "bin": weld,
             "label": "weld (DTLTO)" if has else "weld (in-process ThinLTO: no DTLTO yet)",
             "extra": list(dtlto) if has else []},
            {"name": "lld", "kind": "lld", "bin": LLD, "label": "ld.lld-22 (DTLTO)",
             "extra": list(dtlto)},
        ]
    if effect:
        return [
            {"name": "weld", "kind": "weld", "bin": weld, "label": "weld", "extra": []},
            {"name": "weld-gcam", "kind": "weld", "bin": weld,
             "label": "weld --gc-archive-members", "extra": ["--gc-archive-members"]},
            {"name": "lld", "kind": "lld", "bin": LLD, "label": "ld.lld-22", "extra": []},
        ]
    out = [
        {"name": "weld", "kind": "weld", "bin": weld, "label": "weld", "extra": []},
        {"name": "lld", "kind": "lld", "bin": LLD, "label": "ld.lld-22", "extra": []},
        {"name": "mold", "kind": "mold", "bin": shutil.which("mold") or "mold", "label": "mold",
         "extra": []},
    ]
    if use_bfd:
        out.append({"name": "bfd", "kind": "bfd", "bin": shutil.which("ld.bfd") or "ld.bfd",
                    "label": "ld.bfd", "extra": []})
    return out


def linker_argv(linker, threads, lto, rsp, output, extra=()):
    n = linker["kind"]
    argv = [linker["bin"]]
    if n in ("weld", "lld"):
        argv.append(f"--threads={threads}")
        if lto:
            argv.append(f"--thinlto-jobs={threads}")
    elif n == "mold":
        # --no-fork: mold otherwise returns from a forked child, and its CPU time and RSS
        # would not be counted.
        argv += ["--no-fork", f"--thread-count={threads}"]
        if lto:
            argv += ["-plugin", LLVM_GOLD, f"-plugin-opt=jobs={threads}"]
    elif n == "bfd":
        if lto:
            argv += ["-plugin", LLVM_GOLD, f"-plugin-opt=jobs={threads}"]
    argv += list(linker.get("extra", ()))
    argv += list(extra)
    argv += ["@" + rsp, "-o", output]
    return argv


def timed_run(argv, cwd, out_path, err_path):
    """Runs argv under GNU time. Wall time is measured here (perf_counter); CPU time
    (user+sys, microseconds) comes from wait4() on the time process, which includes its
    reaped child, the linker; peak RSS is the linker's own, as GNU time reports it (the linker
    is forked from the small `time` process, so no python memory is counted)."""
    rss_file = err_path + ".rss"
    cmd = [GNU_TIME, "-f", "%M", "-o", rss_file, "--", *argv]
    with open(out_path, "wb") as so, open(err_path, "wb") as se:
        t0 = time.perf_counter()
        p = subprocess.Popen(cmd, cwd=cwd, stdout=so, stderr=se, stdin=subprocess.DEVNULL)
        _, status, ru = os.wait4(p.pid, 0)
        wall = time.perf_counter() - t0
        p.returncode = os.waitstatus_to_exitcode(status)
    rss_kb = None
    try:
        with open(rss_file, encoding="utf-8") as f:
            lines = [ln for ln in f.read().splitlines() if ln.strip()]
        rss_kb = int(lines[-1])
    except (OSError, ValueError, IndexError):
        pass
    return {"rc": p.returncode, "wall": wall, "cpu": ru.ru_utime + ru.ru_stime,
            "rss_mb": (rss_kb or 0) / 1024.0}


def tail(path, n=25):
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            lines = f.read().splitlines()
    except OSError:
        return ""
    return "\n".join("    " + ln for ln in lines[-n:])


def run_checks(wname, wl, outputs):
    """Runs every produced program with the workload's check arguments; all must exit 0,
    print the expected text, and agree with each other."""
    errors = []
    results = {}
    for lname, exe in outputs.items():
        for args, want in wl["checks"]:
            cmd = [exe, *args]
            try:
                p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                   text=True, errors="replace", timeout=300,
                                   cwd=os.path.dirname(exe))
            except (OSError, subprocess.TimeoutExpired) as e:
                errors.append(f"{wname}: the program linked by {lname} did not run "
                              f"({' '.join(cmd)}): {e}")
                continue
            results.setdefault(tuple(args), {})[lname] = (p.returncode, p.stdout)
            if p.returncode != 0 or want not in p.stdout:
                errors.append(
                    f"{wname}: the program linked by {lname} failed its check: "
                    f"`{' '.join(shlex.quote(c) for c in cmd)}` exited {p.returncode}, "
                    f"expected exit 0 and {want!r} in stdout\n"
                    f"  stdout: {p.stdout[-800:]!r}\n  stderr: {p.stderr[-800:]!r}")
    for args, by in results.items():
        distinct = {v for v in by.values()}
        if len(distinct) > 1:
            lines = "\n".join(f"  {ln}: exit {rc}, stdout {out[-300:]!r}"
                              for ln, (rc, out) in by.items())
            errors.append(f"{wname}: the linked programs disagree on "
                          f"`{' '.join(args) or '(no arguments)'}`:\n{lines}")
    return errors


# `WALL ms CPU ms cpu  NAME` (the CPU column since 2026-11-27; older binaries print WALL only).
PHASE_RE = re.compile(r"^\s*([0-9.]+)\s*ms\s+(?:[0-9.]+\s*ms cpu\s+)?(.+?)\s*$")
STAT_RE = re.compile(r"^\s+([\w ]+):\s+(\d+)(?:\s+\((.*)\))?\s*$")


def parse_weld_stderr(text):
    """weld's `--time` phases [(name, ms)] and `--stats` counts [(name, n)]. For the LTO lines
    the parenthesised parts become counts of their own, e.g. `LTO symbols visible to regular
    objects` from `LTO symbols: S (P prevailing, V visible to regular objects)`."""
    phases, stats = [], []
    for ln in text.splitlines():
        m = PHASE_RE.match(ln)
        if m:
            phases.append((m.group(2), float(m.group(1))))
            continue
        m = STAT_RE.match(ln)
        if not m:
            continue
        key = m.group(1).strip()
        stats.append((key, int(m.group(2))))
        for part in (m.group(3) or "").split(","):
            pm = re.match(r"^\s*(\d+)\s+(.+?)\s*$", part)
            if pm:
                stats.append((f"{key} {pm.group(2)}", int(pm.group(1))))
    return phases, stats


# --------------------------------------------------------------------------------------------
# LTO effect: functions compiled by LTO, LTO time, output size (workloads with "effect").
# --------------------------------------------------------------------------------------------

def elf_sections(data):
    """(sh_type, sh_flags, sh_offset, sh_size, sh_entsize) of every section of an ELF64
    little-endian file; [] if it is not one."""
    if data[:4] != b"\x7fELF" or data[4] != 2 or data[5] != 1:
        return []
    shoff, = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum = struct.unpack_from("<HH", data, 0x3a)
    out = []
    for i in range(shnum):
        o = shoff + i * shentsize
        sh_type, sh_flags, _, sh_offset, sh_size = struct.unpack_from("<IQQQQ", data, o + 4)
        sh_entsize, = struct.unpack_from("<Q", data, o + 0x38)
        out.append((sh_type, sh_flags, sh_offset, sh_size, sh_entsize))
    return out


def count_defined_functions(path):
    """Defined functions in an object: .symtab entries of type STT_FUNC with a section index
    other than SHN_UNDEF. The same count is applied to weld's and lld's LTO objects."""
    with open(path, "rb") as f:
        data = f.read()
    n = 0
    for sh_type, _, off, size, ent in elf_sections(data):
        if sh_type != 2 or not ent:  # SHT_SYMTAB
            continue
        for j in range(size // ent):
            so = off + j * ent
            st_info = data[so + 4]
            st_shndx, = struct.unpack_from("<H", data, so + 6)
            if st_info & 0xf == 2 and st_shndx != 0:  # STT_FUNC, defined
                n += 1
    return n


def alloc_bytes(path):
    """Bytes of the sections a program loads (SHF_ALLOC, .bss included): the output size
    without symbol tables and debug information."""
    with open(path, "rb") as f:
        data = f.read()
    return sum(size for _, flags, _, size, _ in elf_sections(data) if flags & 2)


def lto_objects(prefix):
    """The files --lto-obj-path=PREFIX wrote: PREFIX for task 0 (the regular LTO partition,
    always written), PREFIX1, PREFIX2, ... for the ThinLTO modules (lld and weld alike)."""
    d, base = os.path.split(prefix)
    out = []
    for f in os.listdir(d):
        if f == base or (f.startswith(base) and f[len(base):].isdigit()):
            out.append(os.path.join(d, f))
    return sorted(out)


def lld_scope_ms(trace_path, scope):
    """Total duration of the `scope` events of lld's --time-trace, in milliseconds."""
    with open(trace_path, encoding="utf-8") as f:
        events = json.load(f).get("traceEvents", [])
    durs = [e["dur"] for e in events if e.get("name") == scope and e.get("ph") == "X"]
    if not durs:
        raise BenchError(f"{trace_path}: no `{scope}` event in lld's --time-trace")
    return sum(durs) / 1000.0


def lld_lto_ms(trace_path):
    """Duration of lld's `LTO` time-trace scope (LinkerDriver::compileBitcodeFiles: adding
    the bitcode files to the LTO and compiling them), in milliseconds."""
    return lld_scope_ms(trace_path, "LTO")


def effect_flags(lk, outdir, phase, i=0):
    """Measurement flags of an LTO-effect run. Warm-up: --lto-obj-path (every LTO object is
    kept, to count its functions) and, for weld, --stats. Counted runs: weld --time, lld
    --time-trace (for the LTO time)."""
    d = os.path.join(outdir, lk["name"])
    if phase == "warm-up":
        objs = os.path.join(d, "lto-objs")
        shutil.rmtree(objs, ignore_errors=True)
        os.makedirs(objs)
        flags = [f"--lto-obj-path={os.path.join(objs, 'lto.o')}"]
        return flags + (["--stats"] if lk["kind"] == "weld" else [])
    if lk["kind"] == "weld":
        return ["--time"]
    return [f"--time-trace={os.path.join(d, f'trace-{i}.json')}"]


def effect_summary(lk, outdir, st):
    """Functions compiled by LTO (counted in the warm-up's --lto-obj-path objects), LTO
    modules, weld's --stats counts, and the LTO time of every counted run."""
    d = os.path.join(outdir, lk["name"])
    objs = lto_objects(os.path.join(d, "lto-objs", "lto.o"))
    e = {"label": lk["label"], "functions": sum(count_defined_functions(p) for p in objs),
         "lto_objects": len(objs), "modules": max(len(objs) - 1, 0),
         "lto_ms": [r["lto_ms"] for r in st["runs"] if r.get("lto_ms") is not None],
         "walk_ms": [r["walk_ms"] for r in st["runs"] if r.get("walk_ms") is not None]}
    if lk["kind"] == "weld":
        with open(os.path.join(d, "warmup-stderr.txt"), encoding="utf-8",
                  errors="replace") as f:
            _, stats = parse_weld_stderr(f.read())
        stats = dict(stats)
        e["stats"] = {k: v for k, v in stats.items() if k.startswith("LTO")}
        e["modules"] = stats.get("LTO modules", e["modules"])
    if st["runs"]:
        e["wall"] = statistics.median(r["wall"] for r in st["runs"])
        e["output_bytes"] = os.path.getsize(st["out"])
        e["alloc_bytes"] = alloc_bytes(st["out"])
    return e


def determinism_check(wname, weld, lto, rsp, repro, out, threads):
    """weld's output must not depend on the thread count or on the run: a link at --threads
    with nothing but the workload's arguments (the warm-up of an LTO-effect workload adds
    --lto-obj-path, which names LTO's objects in the output) is compared byte for byte with
    links at 1, 2 and 8 threads, written to the same path (an output's path may be recorded
    in it)."""
    def digest():
        h = hashlib.sha256()
        with open(out, "rb") as f:
            for block in iter(lambda: f.read(1 << 20), b""):
                h.update(block)
        return h.hexdigest()
    errors = []
    p = subprocess.run(linker_argv(weld, threads, lto, rsp, out), cwd=repro,
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                       errors="replace")
    if p.returncode != 0:
        return [f"{wname}: weld --threads={threads} failed: {p.stderr[-500:]}"]
    reference = digest()
    for threads in (1, 2, 8):
        argv = linker_argv(weld, threads, lto, rsp, out)
        p = subprocess.run(argv, cwd=repro, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                           text=True, errors="replace")
        if p.returncode != 0:
            errors.append(f"{wname}: weld --threads={threads} failed: {p.stderr[-500:]}")
        elif digest() != reference:
            errors.append(f"{wname}: weld's output with --threads={threads} differs from "
                          f"the first link's: the link is not deterministic")
    log(f"  determinism: --threads=1, 2, 8 "
        + ("identical" if not errors else f"{len(errors)} difference(s)"))
    return errors


def bench_workload(wname, args_ns, weld, errors):
    if WORKLOADS[wname].get("dask"):
        with DaskCluster(os.path.join(args_ns.tmpdir, wname + "-dask")) as cluster:
            return bench_one_workload(wname, args_ns, weld, errors, cluster.link_args())
    return bench_one_workload(wname, args_ns, weld, errors)


def workload_args(wl):
    """The capture's directory and the workload's linker arguments (the captured command
    with the workload's edits; no -o, no thread count)."""
    cdir = capture_dir(wl["capture"])
    with open(os.path.join(cdir, "args.json"), encoding="utf-8") as f:
        args = json.load(f)
    args = strip_options(args, (), tuple(wl.get("drop", ())))
    # Options a variant adds for every linker, after the captured ones.
    return os.path.join(cdir, "repro"), args + list(wl.get("add", ()))


def print_capture(wname, tmpdir):
    """`--print-capture W` (scripts/profile): writes W's response file and prints the
    directory to link in and the response file's path."""
    wl = WORKLOADS[wname]
    if not load_capture(wl["capture"]):
        raise BenchError(f"{wname} is not captured yet (scripts/bench --prepare {wname})")
    repro, args = workload_args(wl)
    os.makedirs(tmpdir, exist_ok=True)
    rsp = os.path.join(os.path.abspath(tmpdir), f"{wname}.rsp")
    with open(rsp, "w", encoding="utf-8") as f:
        f.write("\n".join(quote_rsp(a) for a in args) + "\n")
    print(repro, rsp)
    return 0


def bench_one_workload(wname, args_ns, weld, errors, dtlto=None):
    wl = WORKLOADS[wname]
    cap = load_capture(wl["capture"])
    repro, args = workload_args(wl)
    lto = bool(wl.get("lto"))
    effect = bool(wl.get("effect"))
    outdir = os.path.join(DISK_OUT if wl.get("disk") else args_ns.tmpdir, wname)
    shutil.rmtree(outdir, ignore_errors=True)
    os.makedirs(outdir)
    rsp = os.path.join(outdir, "link.rsp")
    with open(rsp, "w", encoding="utf-8") as f:
        f.write("\n".join(quote_rsp(a) for a in args) + "\n")
    # mold and ld.bfd run LTO through LLVMgold.so, which spells lld's --lto-O<n> as
    # -plugin-opt=O<n>; their response file differs from lld's in that spelling only.
    plugin_args = [re.sub(r"^--lto-O(\d)$", r"-plugin-opt=O\1", a) for a in args]
    plugin_rsp = rsp
    if plugin_args != args:
        plugin_rsp = os.path.join(outdir, "link-plugin.rsp")
        with open(plugin_rsp, "w", encoding="utf-8") as f:
            f.write("\n".join(quote_rsp(a) for a in plugin_args) + "\n")
    lks = linkers(weld, args_ns.bfd, effect, dtlto)
    res = {"workload": wname, "about": wl["about"], "program": cap.get("program", ""),
           "inputs": cap["inputs"], "input_bytes": cap["input_bytes"], "linkers": {},
           "lto": lto, "effect": effect}
    state = {}
    for lk in lks:
        out = os.path.join(outdir, lk["name"], os.path.basename(wname))
        os.makedirs(os.path.dirname(out), exist_ok=True)
        state[lk["name"]] = {"out": out, "runs": [], "status": "ok", "note": ""}

    def one(lk, phase, i=0):
        st = state[lk["name"]]
        extra = effect_flags(lk, outdir, phase, i) if effect else ()
        argv = linker_argv(lk, args_ns.threads, lto,
                           plugin_rsp if lk["kind"] in ("mold", "bfd") else rsp, st["out"],
                           extra)
        if os.path.exists(st["out"]):
            os.unlink(st["out"])
        so = os.path.join(outdir, lk["name"], "stdout.txt")
        se = os.path.join(outdir, lk["name"],
                          "warmup-stderr.txt" if phase == "warm-up" else "stderr.txt")
        r = timed_run(argv, repro, so, se)
        if r["rc"] == 0 and os.path.exists(st["out"]):
            if effect and phase != "warm-up":
                if lk["kind"] == "weld":
                    with open(se, encoding="utf-8", errors="replace") as f:
                        phases = dict(parse_weld_stderr(f.read())[0])
                    r["lto_ms"] = phases.get("LTO")
                    walk = phases.get("liveness (native + bitcode)")
                    # Reading the modules' summaries is part of what the walk costs.
                    r["walk_ms"] = (None if walk is None
                                    else walk + phases.get("bitcode summaries", 0.0))
                else:
                    r["lto_ms"] = lld_lto_ms(extra[0].split("=", 1)[1])
            return r
        with open(se, encoding="utf-8", errors="replace") as f:
            stderr = f.read()
        if lk["kind"] == "bfd" and phase == "warm-up":
            first = next((ln for ln in stderr.splitlines() if "error" in ln.lower()),
                         stderr.strip().splitlines()[0] if stderr.strip() else "")
            st["status"] = "n/a"
            st["note"] = first.strip()
            log(f"  {wname}: ld.bfd cannot link this workload, left out: {first.strip()}")
            return None
        st["status"] = "failed"
        cmd = " ".join(shlex.quote(c) for c in argv)
        msg = (f"{wname}: {lk['label']} failed ({phase}, exit {r['rc']})\n"
               f"  command (cwd {repro}):\n    {cmd}\n"
               f"  stderr (last lines):\n{tail(se)}")
        st["note"] = f"exit {r['rc']}: " + next(
            (ln.strip() for ln in stderr.splitlines() if ln.strip()), "")
        errors.append(msg)
        log("ERROR: " + msg)
        return None

    log(f"== {wname}: {wl['about']} ({cap['inputs']} inputs, {cap['input_bytes'] / 1e6:.1f} MB)")
    for lk in lks:
        one(lk, "warm-up")
    ok = {n: s["out"] for n, s in state.items() if s["status"] == "ok"}
    if args_ns.determinism and state["weld"]["status"] == "ok":
        errors.extend(determinism_check(wname, lks[0], lto, rsp, repro, state["weld"]["out"],
                                        args_ns.threads))
    check_errors = run_checks(wname, wl, ok)
    for e in check_errors:
        log("ERROR: " + e)
    errors.extend(check_errors)
    for i in range(args_ns.runs):
        for lk in lks:
            st = state[lk["name"]]
            if st["status"] != "ok":
                continue
            r = one(lk, f"run {i + 1}", i + 1)
            if r:
                st["runs"].append(r)
        log(f"  run {i + 1}/{args_ns.runs}: " + ", ".join(
            f"{lk['name']} {state[lk['name']]['runs'][-1]['wall']:.3f}s"
            + (f" (LTO {state[lk['name']]['runs'][-1]['lto_ms'] / 1000:.3f}s)"
               if state[lk['name']]['runs'][-1].get("lto_ms") is not None else "")
            for lk in lks if state[lk["name"]]["status"] == "ok" and state[lk["name"]]["runs"]))
    for lk in lks:
        st = state[lk["name"]]
        entry = {"label": lk["label"], "status": st["status"], "note": st["note"],
                 "runs": st["runs"]}
        if st["runs"]:
            entry["wall"] = statistics.median(r["wall"] for r in st["runs"])
            entry["wall_min"] = min(r["wall"] for r in st["runs"])
            entry["wall_max"] = max(r["wall"] for r in st["runs"])
            entry["cpu"] = statistics.median(r["cpu"] for r in st["runs"])
            entry["rss"] = statistics.median(r["rss_mb"] for r in st["runs"])
            entry["output_bytes"] = os.path.getsize(st["out"]) if os.path.exists(
                st["out"]) else None
        res["linkers"][lk["name"]] = entry
    if effect:
        res["lto_effect"] = {lk["name"]: effect_summary(lk, outdir, state[lk["name"]])
                             for lk in lks if state[lk["name"]]["status"] == "ok"}
    # weld's own phase breakdown: one more run with --time --stats.
    if args_ns.phases and state["weld"]["status"] == "ok":
        w = lks[0]
        argv = linker_argv(w, args_ns.threads, lto, rsp, state["weld"]["out"],
                           extra=("--time", "--stats"))
        p = subprocess.run(argv, cwd=repro, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           text=True, errors="replace")
        phases, stats = parse_weld_stderr(p.stderr + p.stdout)
        res["weld_phases"] = phases
        res["weld_stats"] = stats
        if p.returncode != 0:
            errors.append(f"{wname}: weld --time failed (exit {p.returncode}): {p.stderr[-500:]}")
        lld = next((lk for lk in lks if lk["kind"] == "lld"), None)
        if lld and state[lld["name"]]["status"] == "ok":
            res["mark_phase"] = mark_phase_runs(wname, args_ns, lto, rsp, outdir, repro,
                                                w, lld, state, errors)
    return res


def lld_mark_ms(trace_path):
    """Duration of lld's `markLive` time-trace scopes (its --gc-sections mark phase, also run
    without --gc-sections), in milliseconds."""
    return lld_scope_ms(trace_path, "markLive")


def mark_phase_runs(wname, args_ns, lto, rsp, outdir, repro, weld, lld, state, errors):
    """The mark phase of weld and of lld, in interleaved runs of their own so that the tracing
    does not touch the wall-clock runs. lld's is `markLive` in `--time-trace`, which runs after
    LTO; weld's like it is its last `liveness` phase in `--time` (after LTO when there is
    bitcode). With bitcode weld also walks native sections and bitcode symbols before LTO
    (reading the modules' summaries first), a job lld does not do: reported apart. Medians and
    minimums in milliseconds; weld's are None when it ran no walk (no --gc-sections)."""
    walk, before, summaries, lld_ms = [], [], [], []
    trace = os.path.join(outdir, lld["name"], "mark-trace.json")
    for _ in range(args_ns.runs):
        argv = linker_argv(weld, args_ns.threads, lto, rsp, state[weld["name"]]["out"],
                           extra=("--time",))
        p = subprocess.run(argv, cwd=repro, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           text=True, errors="replace")
        if p.returncode != 0:
            errors.append(f"{wname}: weld --time failed (exit {p.returncode}): {p.stderr[-500:]}")
            return None
        phases = parse_weld_stderr(p.stderr)[0]
        walks = [ms for n, ms in phases if n == "liveness"]
        if walks:
            walk.append(walks[-1])
        pre = [ms for n, ms in phases if n == "liveness (native + bitcode)"]
        if pre:
            before.append(sum(pre))
            summaries.append(sum(ms for n, ms in phases if n == "bitcode summaries"))
        argv = linker_argv(lld, args_ns.threads, lto, rsp, state[lld["name"]]["out"],
                           extra=(f"--time-trace={trace}", "--time-trace-granularity=0"))
        p = subprocess.run(argv, cwd=repro, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           text=True, errors="replace")
        if p.returncode != 0:
            errors.append(f"{wname}: {lld['label']} --time-trace failed (exit {p.returncode})")
            return None
        lld_ms.append(lld_mark_ms(trace))

    def summary(xs):
        return {"median": statistics.median(xs), "min": min(xs)} if xs else None
    return {"weld": summary(walk), "lld": summary(lld_ms), "before_lto": summary(before),
            "summaries": summary(summaries), "runs": args_ns.runs}


# --------------------------------------------------------------------------------------------
# Reports: Markdown table and SVG plot.
# --------------------------------------------------------------------------------------------

def fmt_s(x):
    if x is None:
        return "—"
    return f"{x * 1000:.1f} ms" if x < 1 else f"{x:.3f} s"


def fmt_ms(ms):
    """Milliseconds with two decimals below 10 ms (small links' mark phases are fractions)."""
    return f"{ms:.2f}" if ms < 10 else f"{ms:.1f}"


def fmt_mb(b):
    if b is None:
        return "—"
    return f"{b / 1e3:.1f} kB" if b < 1e6 else f"{b / 1e6:.1f} MB"


def ratio(a, b):
    if a is None or b is None or b == 0:
        return None
    return a / b


def fmt_ratio(r):
    return "n/a" if r is None else f"{r:.2f}×"


def machine_info():
    cpu = "?"
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for ln in f:
                if ln.startswith("model name"):
                    cpu = ln.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    mem = "?"
    try:
        with open("/proc/meminfo", encoding="utf-8") as f:
            for ln in f:
                if ln.startswith("MemTotal:"):
                    mem = f"{int(ln.split()[1]) / 1024 / 1024:.1f} GiB"
                    break
    except OSError:
        pass
    return {"nproc": os.cpu_count(), "cpu": cpu, "ram": mem,
            "kernel": platform.release(),
            "lld": tool_version([LLD, "--version"]),
            "mold": tool_version(["mold", "--version"]),
            "bfd": tool_version(["ld.bfd", "--version"])}


def status_cell(e):
    if e["status"] == "n/a":
        return "n/a (cannot link it)"
    if e["status"] == "failed":
        return "**FAILED**"
    return None


def write_markdown(results, meta, path):
    L = []
    L.append(f"Measured {meta['date']} on {meta['machine']['nproc']} × {meta['machine']['cpu']}, "
             f"{meta['machine']['ram']} RAM (Linux {meta['machine']['kernel']}); "
             f"{meta['threads']} threads for every linker, output on {meta['tmpdir']}"
             + ("".join(f" (`{r['workload']}`: {os.path.relpath(DISK_OUT, ROOT)}, on disk)"
                        for r in results if WORKLOADS.get(r["workload"], {}).get("disk")))
             + ", "
             f"1 warm-up + {meta['runs']} counted runs, interleaved; medians. "
             f"Load average (1 min) {meta['load'][0]} before, {meta['load'][1]} after.")
    L.append("")
    L.append(f"Command: `{meta['command'].strip()}` (from the repository root).")
    L.append("")
    L.append(f"Linkers: weld ({meta['weld_version']}), {meta['machine']['lld']}, "
             f"{meta['machine']['mold']}, {meta['machine']['bfd']}.")
    L.append("")
    L.append("| workload | inputs | linker | wall (median) | wall min–max | CPU user+sys | "
             "peak RSS | output |")
    L.append("|---|---|---|---|---|---|---|---|")
    for r in results:
        first = True
        for name, e in r["linkers"].items():
            wcell = f"`{r['workload']}`" if first else ""
            icell = f"{r['inputs']} files, {fmt_mb(r['input_bytes'])}" if first else ""
            first = False
            st = status_cell(e)
            if st:
                note = e.get("note", "").replace("|", "\\|")
                L.append(f"| {wcell} | {icell} | {e['label']} | {st} | {note[:120]} | | | |")
                continue
            L.append(f"| {wcell} | {icell} | {e['label']} | {fmt_s(e['wall'])} | "
                     f"{fmt_s(e['wall_min'])}–{fmt_s(e['wall_max'])} | {fmt_s(e['cpu'])} | "
                     f"{e['rss']:.0f} MB | {fmt_mb(e['output_bytes'])} |")
    L.append("")
    L.append("Ratios (below 1 means weld is faster / smaller):")
    L.append("")
    L.append("| workload | wall weld/lld | wall weld/mold | CPU weld/lld | CPU weld/mold | "
             "RSS weld/lld | RSS weld/mold |")
    L.append("|---|---|---|---|---|---|---|")
    for r in results:
        rr = ratios(r)
        if rr is None:
            why = status_cell(r["linkers"]["weld"]) or "n/a"
            L.append(f"| `{r['workload']}` | {why} | | | | | |")
            continue
        L.append(f"| `{r['workload']}` | " + " | ".join(fmt_ratio(rr[k]) for k in (
            "wall_lld", "wall_mold", "cpu_lld", "cpu_mold", "rss_lld", "rss_mold")) + " |")
    L += effect_markdown(results)
    phased = [r for r in results if r.get("weld_phases")]
    if phased:
        L.append("")
        L.append("weld's phases (one extra run with `--time`, milliseconds):")
        L.append("")
        names = []
        for r in phased:
            # A phase only some links have (LTO) goes after the phase it follows there.
            prev = None
            for n, _ in r["weld_phases"]:
                if n not in names:
                    names.insert(names.index(prev) + 1 if prev in names else len(names), n)
                prev = n
        L.append("| phase | " + " | ".join(f"`{r['workload']}`" for r in phased) + " |")
        L.append("|---|" + "---|" * len(phased))
        for n in names:
            cells = []
            for r in phased:
                d = dict(r["weld_phases"])
                cells.append(f"{d[n]:.1f}" if n in d else "")
            L.append(f"| {n} | " + " | ".join(cells) + " |")
    marked = [r for r in results if r.get("mark_phase")]
    if marked:
        L.append("")
        L.append("Mark phase, milliseconds, median (minimum) of runs of their own: weld's `liveness` "
                 "phase (`--time`) against lld's `markLive` (`--time-trace`). With bitcode both "
                 "are the walk after LTO; weld also walks native sections and bitcode symbols "
                 "before LTO, which lld does not do, shown apart with the reading of the "
                 "modules' summaries that precedes it. Without --gc-sections weld walks nothing.")
        L.append("")
        L.append("| workload | weld | lld | weld/lld | weld before LTO: walk | summaries |")
        L.append("|---|---|---|---|---|---|")

        def cell(m):
            return "" if m is None else f"{fmt_ms(m['median'])} ({fmt_ms(m['min'])})"
        for r in marked:
            m = r["mark_phase"]
            w = "no walk" if m["weld"] is None else cell(m["weld"])
            rr = None if m["weld"] is None else ratio(m["weld"]["median"], m["lld"]["median"])
            L.append(f"| `{r['workload']}` | {w} | {cell(m['lld'])} | {fmt_ratio(rr)} | "
                     f"{cell(m['before_lto'])} | {cell(m['summaries'])} |")
    statted = [r for r in results if r.get("weld_stats")]
    if statted:
        L.append("")
        L.append("weld's counts (`--stats`, same run):")
        L.append("")
        names = []
        for r in statted:
            for n, _ in r["weld_stats"]:
                if n not in names:
                    names.append(n)
        L.append("| count | " + " | ".join(f"`{r['workload']}`" for r in statted) + " |")
        L.append("|---|" + "---|" * len(statted))
        for n in names:
            cells = [str(dict(r["weld_stats"]).get(n, "")) for r in statted]
            L.append(f"| {n} | " + " | ".join(cells) + " |")
    L.append("")
    L.append("Workloads:")
    L.append("")
    for r in results:
        L.append(f"- `{r['workload']}`: {r['program']}; {r['about']}.")
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(L) + "\n")
    return "\n".join(L)


EFFECT_METHOD = """\
How these are measured (same inputs and response file, `--threads=N --thinlto-jobs=N` for
both linkers): *functions compiled by LTO* counts the defined `STT_FUNC` symbols in every
object the LTO wrote, kept with `--lto-obj-path` in the warm-up run, by the same code for weld
and lld (for weld it agrees with `LTO functions` of `--stats`, which is shown only where it does
not); *LTO modules* is weld's `--stats` count, for lld the number of ThinLTO objects
`--lto-obj-path` wrote. *LTO time* is, for weld, the `LTO` phase of `--time` (adding the
modules, the ThinLTO index, every backend, up to the native objects) and, for lld, the `LTO`
scope of `--time-trace` (LinkerDriver::compileBitcodeFiles: the same work), both taken in every
counted run, which all have this instrumentation; *weld's walk before LTO* is its `bitcode
summaries` and `liveness (native + bitcode)` phases, which lld does not have. *Loaded* is the size of the SHF_ALLOC
sections (code and data, without symbol tables and debug information)."""


def effect_markdown(results):
    rows = [r for r in results if r.get("lto_effect")]
    if not rows:
        return []
    L = ["", "Precise liveness before LTO: what LTO compiles and how long it takes (weld "
         "with and without `--gc-archive-members`, next to ld.lld-22):", "",
         "| workload | linker | LTO modules | bitcode symbols visible to regular objects | "
         "functions compiled by LTO | LTO time, median (min–max) | weld's walk before LTO | "
         "link wall (median) | output | loaded |",
         "|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        eff = r["lto_effect"]
        lld = eff.get("lld")
        first = True
        for name, e in eff.items():
            funcs = str(e["functions"])
            st = e.get("stats", {})
            if "LTO functions" in st and st["LTO functions"] != e["functions"]:
                funcs += f" (`--stats`: {st['LTO functions']})"
            if name != "lld" and lld and lld["functions"]:
                d = e["functions"] - lld["functions"]
                funcs += f" ({d:+d}, {100.0 * d / lld['functions']:+.0f} % vs lld)"
            vis = (f"{st['LTO symbols visible to regular objects']} of {st['LTO symbols']}"
                   if "LTO symbols" in st and "LTO symbols visible to regular objects" in st
                   else "—")
            lt = e["lto_ms"]
            lto_cell = (f"{fmt_s(statistics.median(lt) / 1000)} ({fmt_s(min(lt) / 1000)}–"
                        f"{fmt_s(max(lt) / 1000)})" if lt else "—")
            walk = (f"{fmt_s(statistics.median(e['walk_ms']) / 1000)}" if e["walk_ms"]
                    else "—")
            L.append(f"| {'`' + r['workload'] + '`' if first else ''} | {e['label']} | "
                     f"{e['modules']} | {vis} | {funcs} | {lto_cell} | {walk} | "
                     f"{fmt_s(e.get('wall'))} | {fmt_mb(e.get('output_bytes'))} | "
                     f"{fmt_mb(e.get('alloc_bytes'))} |")
            first = False
    L += ["", EFFECT_METHOD]
    return L


def ratios(r):
    e = r["linkers"]
    w = e.get("weld")
    if not w or w["status"] != "ok":
        return None

    def g(n, k):
        x = e.get(n)
        return x.get(k) if x and x["status"] == "ok" else None
    return {f"{k}_{n}": ratio(g("weld", k), g(n, k)) for k in ("wall", "cpu", "rss")
            for n in ("lld", "mold")}


def esc(s):
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def write_svg(results, meta, path):
    """Grouped bars per workload: weld/lld and weld/mold ratios of the median wall time and of
    the median CPU time (user+sys), with 1.0 (parity) marked."""
    keys = [("wall_lld", "wall time, weld / ld.lld-22", "#2f5597"),
            ("wall_mold", "wall time, weld / mold", "#c55a11"),
            ("cpu_lld", "CPU time, weld / ld.lld-22", "#8faadc"),
            ("cpu_mold", "CPU time, weld / mold", "#f4b183")]
    rows = [(r["workload"], ratios(r), r) for r in results]
    bar_w, gap, left, top, height = 20, 36, 70, 64, 300
    vals = [rr[k] for _, rr, _ in rows if rr for k, _, _ in keys if rr[k] is not None]
    vmax = max([2.0] + [v * 1.15 for v in vals])
    group_w = len(keys) * bar_w
    width = max(760, left + len(rows) * (group_w + gap) + 40)
    total_h = top + height + 100

    def y(v):
        return top + height - v / vmax * height
    o = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{total_h}" '
         f'viewBox="0 0 {width} {total_h}" font-family="sans-serif" font-size="12">',
         f'<rect width="{width}" height="{total_h}" fill="white"/>',
         f'<text x="{left}" y="22" font-size="15" font-weight="bold">weld relative to ld.lld-22 '
         f'and mold (median of {meta["runs"]} runs; below 1 = weld is faster)</text>',
         f'<text x="{left}" y="42" fill="#555">{esc(meta["machine"]["cpu"])}, '
         f'{meta["machine"]["nproc"]} CPUs, {meta["threads"]} threads per linker, '
         f'{esc(meta["date"])}</text>']
    step = 0.5 if vmax <= 4 else 1.0
    t = 0.0
    while t <= vmax + 1e-9:
        yy = y(t)
        o.append(f'<line x1="{left}" x2="{width - 20}" y1="{yy:.1f}" y2="{yy:.1f}" '
                 f'stroke="#eee"/>')
        o.append(f'<text x="{left - 8}" y="{yy + 4:.1f}" text-anchor="end">{t:.1f}×</text>')
        t += step
    o.append(f'<line x1="{left}" x2="{width - 20}" y1="{y(1):.1f}" y2="{y(1):.1f}" '
             f'stroke="#333" stroke-dasharray="5,3"/>')
    x = left + gap / 2
    for name, rr, r in rows:
        gx = x
        for k, _, color in keys:
            v = rr[k] if rr else None
            if v is not None:
                o.append(f'<rect x="{x:.1f}" y="{y(v):.1f}" width="{bar_w - 2}" '
                         f'height="{top + height - y(v):.1f}" fill="{color}"/>')
                o.append(f'<text x="{x + bar_w / 2 - 1:.1f}" y="{y(v) - 4:.1f}" '
                         f'text-anchor="middle" font-size="9">{v:.2f}</text>')
            x += bar_w
        mid = gx + group_w / 2
        if not rr:
            why = "weld FAILED"
            o.append(f'<text x="{mid:.1f}" y="{top + height - 8}" text-anchor="middle" '
                     f'fill="#c00" font-size="10">{why}</text>')
        o.append(f'<text x="{mid:.1f}" y="{top + height + 18}" text-anchor="middle">'
                 f'{esc(name)}</text>')
        x += gap
    ly = top + height + 48
    for i, (_, label, color) in enumerate(keys):
        lx = left + (i % 2) * 260
        yy = ly + (i // 2) * 20
        o.append(f'<rect x="{lx}" y="{yy - 10}" width="12" height="12" fill="{color}"/>'
                 f'<text x="{lx + 18}" y="{yy}">{esc(label)}</text>')
    o.append("</svg>")
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(o) + "\n")


# --------------------------------------------------------------------------------------------
# Main.
# --------------------------------------------------------------------------------------------

HELP = """\
weld's link-time benchmark: weld against ld.lld-22, mold and GNU ld (ld.bfd) on real links.

usage: scripts/bench [options] [WORKLOAD...]
       scripts/bench --prepare [WORKLOAD...]
       scripts/bench --smoke

Workloads (default: all of them):
{workloads}

Each workload is captured once (`--prepare`, run automatically for workloads not captured
yet) by building a program (from crates.io, Debian's packages or bench/workloads/) and
linking it with `ld.lld-22 --reproduce`; the capture is unpacked under target/bench/captures/
(never committed). The runner then links those same inputs with the same response file with every
linker, from the capture's directory, writing the output to --tmpdir (a tmpfs; llvm-static-disk
writes it to target/bench/disk-out, on the repository's file system). Per workload:
one warm-up round (whose programs are run with trivial arguments and must exit 0, print what
is expected and agree with each other), then --runs rounds, interleaved (weld lld mold bfd
weld lld mold bfd ...). It reports the median wall time, user+sys CPU time and peak RSS per
linker, and the ratios weld/lld and weld/mold, plus weld's phase breakdown and counts (one
extra run with --time --stats). Results: target/bench/results.md, results.json and ratios.svg
(bars of the ratios).

Timing: wall time is measured around each link; CPU time (user+sys) and peak RSS come from
wait4() and GNU time (/usr/bin/time), which runs each linker. mold runs with --no-fork, or its
work would finish in a child that is not measured. On the ThinLTO workload every linker gets the
same LLVM 22 and job count: lld and weld in-process (--thinlto-jobs=N), mold and ld.bfd through
LLVM 22's LLVMgold.so (-plugin-opt=jobs=N).

LTO effect (c-mixed-lto, rust-plugin-lto): mixes of native code and bitcode linked with
--gc-sections, where weld decides which bitcode symbols native code needs from the live native
sections only (ld.lld-22 from every loaded object). They run weld, weld --gc-archive-members
and ld.lld-22 (same --thinlto-jobs=N) and report, besides the timing table, the functions
compiled by LTO (defined STT_FUNC symbols in the objects --lto-obj-path keeps in the warm-up
run, counted the same way for both linkers), the LTO time of every counted run (weld: the
`LTO` phase of --time; lld: the `LTO` scope of --time-trace), the output size and the size of
its SHF_ALLOC sections.

Distributed ThinLTO (c-project-lto-dask): c-project-lto with the ThinLTO backends sent by
--thinlto-distributor to weld-dtlto (.venv/, from scripts/setup), which runs them on a local
`dask scheduler` and two `dask worker`s (one thread each) that the bench starts and stops. Only
weld and ld.lld-22 run it; CPU time and RSS are the linker's and the distributor's, not the
workers'. Until weld supports DTLTO it runs ThinLTO in process there, and its label says so.

Exit status: non-zero if preparing a workload fails, any linker fails to link, or a linked
program fails its check. One case is reported in the table instead: ld.bfd being unable to
link a workload ("n/a"), detected in the warm-up round.

`weld-self` is captured from this checkout's sources when it is first prepared; capture the
current sources again with `scripts/bench --prepare --force weld-self`.

options:
  --prepare       only capture the workloads (idempotent; cached ones are skipped)
  --force         with --prepare: capture again even if cached
  --smoke         CI smoke run: capture and link the tiny `smoke` workload (hello_c) once
                  per linker; results go to target/bench/smoke/
  --runs N        counted runs per linker (default 5)
  --threads N     threads for every linker: --threads=N for weld and lld, --thread-count=N
                  for mold (ld.bfd is single-threaded); default: nproc ({nproc})
  --no-bfd        leave GNU ld out
  --no-phases     skip the extra `weld --time` run
  --no-determinism  skip the check that weld's output is byte-identical with
                  --threads=1, 2 and 8 and across runs (four extra links)
  --no-build      do not run `cargo build --release -p weld` first
  --tmpdir DIR    where the outputs are written (default /dev/shm/weld-bench)
  --list          list the workloads and whether they are captured
  --print-capture WORKLOAD
                  write WORKLOAD's response file to --tmpdir and print the directory to
                  link in and the response file (what scripts/profile runs under perf)
  -h, --help      this text

environment: WELD=/path/to/weld benchmarks that binary (and skips the build);
WELD_BENCH_DIR=DIR keeps captures, builds and results in DIR instead of target/bench.
"""


def main():
    ap = argparse.ArgumentParser(add_help=False)
    ap.add_argument("workloads", nargs="*")
    ap.add_argument("--prepare", action="store_true")
    ap.add_argument("--force", action="store_true")
    ap.add_argument("--smoke", action="store_true")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--threads", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--no-bfd", dest="bfd", action="store_false")
    ap.add_argument("--no-phases", dest="phases", action="store_false")
    ap.add_argument("--no-determinism", dest="determinism", action="store_false")
    ap.add_argument("--no-build", dest="build", action="store_false")
    ap.add_argument("--tmpdir", default="/dev/shm/weld-bench")
    ap.add_argument("--list", action="store_true")
    ap.add_argument("--print-capture", metavar="WORKLOAD")
    ap.add_argument("-h", "--help", action="store_true")
    a = ap.parse_args()
    if a.print_capture:
        return print_capture(a.print_capture, a.tmpdir)
    if a.help:
        print(HELP.format(nproc=os.cpu_count(), workloads="\n".join(
            f"  {n:<22} {d['about']}" for n, d in WORKLOADS.items() if not d.get("hidden"))))
        return 0
    if a.runs < 1 or a.threads < 1:
        raise BenchError("--runs and --threads must be at least 1")
    if a.smoke:
        if a.workloads:
            raise BenchError("--smoke takes no workload names")
        a.workloads, a.runs = ["smoke"], 1
        out_dir = os.path.join(BENCH_DIR, "smoke")
        a.tmpdir = os.path.join(a.tmpdir, "smoke")
    else:
        out_dir = BENCH_DIR
    names = a.workloads or DEFAULT_WORKLOADS
    for n in names:
        if n not in WORKLOADS:
            raise BenchError(f"unknown workload `{n}` (known: {', '.join(WORKLOADS)})")
    if a.list:
        for n in WORKLOADS:
            c = load_capture(WORKLOADS[n]["capture"])
            state = (f"captured: {c['inputs']} files, {c['input_bytes'] / 1e6:.1f} MB"
                     if c else "not captured")
            print(f"{n:<22} {state:<40} {WORKLOADS[n]['about']}")
        return 0

    for tool, pkg in ((CLANG, "clang-22"), (LLD, "lld-22"), (LLVM_CONFIG, "llvm-22"), (LLVM_AR, "llvm-22"),
                      (GNU_TIME, "time"), ("mold", "mold"), ("cargo", "rustup's toolchain")):
        if not shutil.which(tool):
            raise BenchError(f"`{tool}` is not installed (Debian package: {pkg}; "
                             "scripts/setup installs the toolchain)")
    caps = []
    for n in names:
        if WORKLOADS[n]["capture"] not in caps:
            caps.append(WORKLOADS[n]["capture"])
    for c in caps:
        prepare_capture(c, force=a.force)
    if a.prepare:
        log("prepare: done")
        return 0

    weld = os.environ.get("WELD")
    if not weld:
        if a.build:
            sh(["cargo", "build", "--release", "-p", "weld", "--quiet"], cwd=ROOT,
               what="cargo build weld")
        weld = os.path.join(ROOT, "target", "release", "weld")
    weld = os.path.abspath(weld)
    if not os.access(weld, os.X_OK):
        raise BenchError(f"weld binary not found at {weld} (build it or set WELD)")
    if a.bfd and not shutil.which("ld.bfd"):
        log("note: ld.bfd not found, left out")
        a.bfd = False
    os.makedirs(a.tmpdir, exist_ok=True)
    os.makedirs(out_dir, exist_ok=True)

    load_start = os.getloadavg()
    if load_start[0] > (os.cpu_count() or 1) * 0.5:
        log(f"WARNING: the machine is busy (load average {load_start[0]:.1f} on "
            f"{os.cpu_count()} CPUs): timings will be noisy")
    errors, results = [], []
    for n in names:
        results.append(bench_workload(n, a, weld, errors))
    meta = {"date": datetime.datetime.now().strftime("%Y-%m-%d %H:%M"),
            "machine": machine_info(), "threads": a.threads, "runs": a.runs,
            "tmpdir": a.tmpdir, "weld": weld,
            "load": [round(load_start[0], 2), round(os.getloadavg()[0], 2)],
            "weld_version": tool_version([weld, "--version"]),
            "command": "scripts/bench " + " ".join(shlex.quote(x) for x in sys.argv[1:])}
    md = write_markdown(results, meta, os.path.join(out_dir, "results.md"))
    write_svg(results, meta, os.path.join(out_dir, "ratios.svg"))
    with open(os.path.join(out_dir, "results.json"), "w", encoding="utf-8") as f:
        json.dump({"meta": meta, "results": results}, f, indent=1)
    print(md)
    print(f"\nwritten: {os.path.join(out_dir, 'results.md')}, "
          f"{os.path.join(out_dir, 'ratios.svg')}, {os.path.join(out_dir, 'results.json')}")
    if errors:
        log(f"\nscripts/bench: {len(errors)} failure(s):")
        for e in errors:
            log("- " + e)
        return 1
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except BenchError as e:
        log(f"scripts/bench: error: {e}")
        sys.exit(1)
    except KeyboardInterrupt:
        sys.exit(130)
