#!/usr/bin/env python3
"""Linker wrapper that `scripts/bench --prepare` gives to cargo/rustc (`-C linker=`).

It links every program with clang-22 and ld.lld-22. When the output's file name starts with
$BENCH_CAPTURE_PREFIX (for example `rg-` for cargo's `deps/rg-<hash>`), it also asks lld for
`--reproduce=$BENCH_CAPTURE_TAR`, which captures that final link (every input and the command
line) as a tar. Build scripts and other links pass through untouched.
"""
import os
import sys

CLANG = os.environ.get("BENCH_CLANG", "clang-22")
LLD = os.environ.get("BENCH_LLD", "/usr/bin/ld.lld-22")


def unescape_rsp_line(line):
    # rustc writes one argument per line with `\` escaping (GNU style).
    out, i = [], 0
    while i < len(line):
        if line[i] == "\\" and i + 1 < len(line):
            i += 1
        out.append(line[i])
        i += 1
    return "".join(out)


def expanded(args):
    for a in args:
        if a.startswith("@") and os.path.isfile(a[1:]):
            with open(a[1:], encoding="utf-8", errors="surrogateescape") as f:
                for line in f.read().splitlines():
                    yield unescape_rsp_line(line)
        else:
            yield a


def output_of(args):
    args = list(expanded(args))
    for i, a in enumerate(args):
        if a == "-o" and i + 1 < len(args):
            return args[i + 1]
        if a.startswith("-o") and len(a) > 2:
            return a[2:]
    return None


def main():
    args = sys.argv[1:]
    cmd = [CLANG, "-fuse-ld=lld", "--ld-path=" + LLD] + args
    prefix = os.environ.get("BENCH_CAPTURE_PREFIX")
    tar = os.environ.get("BENCH_CAPTURE_TAR")
    out = output_of(args)
    if prefix and tar and out and os.path.basename(out).startswith(prefix):
        if os.path.exists(tar):
            os.unlink(tar)
        cmd.append("-Wl,--reproduce=" + tar)
        log = os.environ.get("BENCH_CAPTURE_LOG")
        if log:
            with open(log, "a", encoding="utf-8") as f:
                f.write(repr(cmd) + "\n")
    os.execvp(cmd[0], cmd)


if __name__ == "__main__":
    main()
