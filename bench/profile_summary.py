#!/usr/bin/env python3
"""Summarises `perf script` output of one weld link (scripts/profile): per phase of weld's
`--time`, its wall time, its share of the samples (all threads) and the functions that take
them.

    profile_summary.py PERF_SCRIPT_TXT TIME_TXT > summary.md
    profile_summary.py --simplify < stacks.folded > simple.folded

`--simplify` drops generic arguments from the frames of folded stacks, which keeps a flame
graph of a Rust program readable and small.

A sample belongs to the phase whose entry point is on its stack; samples on the thread pool
carry the closure of the phase that spawned them (`write_output::{{closure}}`), and the
threads that parse archive members ahead of resolution run `parse_ahead`. A sample's function
is the innermost weld function on its stack (`weld::`, `gc::`, `archive::`), else the innermost
frame (the C library, the kernel)."""

import collections
import re
import sys

# Checked in order: the first phase whose marker is on the stack takes the sample.
PHASES = [
    ("input loading and resolution", r"weld::resolve::resolve\b|Resolver::|parse_ahead"),
    ("liveness", r"mark_live|collect_garbage|gc::walk"),
    ("relocation scan", r"relocations::scan::scan$"),
    ("layout", r"lay_out|layout::build::layout"),
    ("write", r"write_output|write::writer::"),
    ("argument parsing", r"parse_args"),
]
OWN = ("weld::", "gc::", "archive::")


def stacks(path):
    """(command, frames innermost first) per sample."""
    comm, frames = None, []
    with open(path, errors="replace") as f:
        for line in f:
            line = line.rstrip("\n")
            if not line.strip():
                if frames:
                    yield comm, frames
                comm, frames = None, []
                continue
            if line[0] not in " \t":
                comm = line.split()[0]
                continue
            parts = line.strip().split(" ", 1)
            if len(parts) == 2:
                sym = re.sub(r"\+0x[0-9a-f]+$", "", parts[1].rsplit(" (", 1)[0])
                frames.append(sym)
    if frames:
        yield comm, frames


def simplify():
    for line in sys.stdin:
        stack, n = line.rstrip("\n").rsplit(" ", 1)
        print(";".join(without_generics(f) for f in stack.split(";")), n)


def without_generics(frame):
    prev = None
    while prev != frame:
        prev, frame = frame, re.sub(r"<[^<>]*>", "", frame)
    return frame


def main():
    if sys.argv[1:] == ["--simplify"]:
        return simplify()
    perf_txt, time_txt = sys.argv[1], sys.argv[2]
    wall = {}
    for line in open(time_txt, errors="replace"):
        m = re.match(r"^\s*([\d.]+) ms\s+(?:[\d.]+ ms cpu\s+)?(.+?)\s*$", line)
        if m:
            wall[m.group(2)] = float(m.group(1))
    total = 0
    by_phase = collections.Counter()
    funcs = collections.defaultdict(collections.Counter)
    for comm, frames in stacks(perf_txt):
        if comm != "weld":
            continue
        total += 1
        phase = next((name for name, rx in PHASES
                      if any(re.search(rx, f) for f in frames)), "other")
        own = next((f for f in frames if f.startswith(OWN)), frames[0])
        by_phase[phase] += 1
        funcs[phase][own] += 1
    print(f"{total} samples of weld's threads.\n")
    print("| phase | wall (`--time`) | samples | top functions (share of the phase's samples) |")
    print("|---|---|---|---|")
    order = [name for name, _ in PHASES] + ["other"]
    for phase in sorted(order, key=lambda p: -by_phase[p]):
        n = by_phase[phase]
        if not n:
            continue
        top = ", ".join(f"`{short(f)}` {100 * c / n:.0f}%" for f, c in funcs[phase].most_common(5))
        w = f"{wall[phase]:.0f} ms" if phase in wall else ""
        print(f"| {phase} | {w} | {100 * n / total:.0f}% | {top} |")
    if "total" in wall:
        print(f"\nTotal (`--time`): {wall['total']:.0f} ms.")


def short(f):
    """A function name without generic arguments and the `weld::` prefix."""
    f = without_generics(f).replace("weld::", "").replace("{{closure}}", "{closure}")
    return f[:70]


if __name__ == "__main__":
    main()
