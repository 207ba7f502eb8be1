"""What runs on a Dask worker. Standard library only: the client ships this module to the
workers by value (cloudpickle), so a worker needs Python with `distributed`, not weld-dtlto."""

from __future__ import annotations

import os
import shlex
import shutil
import socket
import subprocess
import tempfile
import time

_VERSIONS = {}


def compiler_version(compiler: str, cwd: str = None) -> str:
    """The first line of `COMPILER --version` (e.g. "Debian clang version 22.1.0 (...)"), or
    raises RuntimeError saying why the compiler could not be run."""
    key = (compiler, cwd)
    if key in _VERSIONS:
        return _VERSIONS[key]
    try:
        p = subprocess.run([compiler, "--version"], stdin=subprocess.DEVNULL,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=60,
                           cwd=cwd if cwd and os.path.isdir(cwd) else None)
    except (OSError, subprocess.TimeoutExpired) as e:
        raise RuntimeError(f"cannot run {compiler} --version on {socket.gethostname()}: {e}")
    if p.returncode != 0:
        raise RuntimeError(
            f"{compiler} --version exited with status {p.returncode} on {socket.gethostname()}: "
            f"{p.stderr.decode(errors='replace').strip()}")
    lines = p.stdout.decode(errors="replace").strip().splitlines()
    version = lines[0].strip() if lines else ""
    _VERSIONS[key] = version
    return version


def host_compiler_version(compiler: str, cwd: str = None):
    """For client.run: (hostname, version or None, error or None); never raises."""
    try:
        return (socket.gethostname(), compiler_version(compiler, cwd), None)
    except RuntimeError as e:
        return (socket.gethostname(), None, str(e))


def _quote(argv) -> str:
    return " ".join(shlex.quote(a) for a in argv)


def _run(argv, cwd, label, shown_cwd):
    start = time.monotonic()
    try:
        p = subprocess.run(argv, cwd=cwd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE)
    except OSError as e:
        raise RuntimeError(
            f"cannot run the compiler for {label} on {socket.gethostname()}: {e}\n"
            f"command: cd {shlex.quote(shown_cwd)} && {_quote(argv)}")
    elapsed = time.monotonic() - start
    if p.returncode != 0:
        status = (f"was killed by signal {-p.returncode}" if p.returncode < 0
                  else f"exited with status {p.returncode}")
        stderr = p.stderr.decode(errors="replace").rstrip()
        raise RuntimeError(
            f"the compiler {status} compiling {label} on {socket.gethostname()}\n"
            f"command: cd {shlex.quote(shown_cwd)} && {_quote(argv)}\n"
            f"compiler stderr:\n{stderr if stderr else '(empty)'}")
    return p, elapsed


def run_job(spec: dict) -> dict:
    """Runs one backend compilation. spec: argv, label, expected_version (or None), and either
    cwd (shared file system: run there, outputs land in place) or files + scratch_cwd + outputs
    (no shared file system: mirror the inputs in a scratch folder and return the outputs'
    bytes). Raises RuntimeError with the command line and the compiler's stderr on failure."""
    argv = spec["argv"]
    label = spec["label"]
    expected = spec.get("expected_version")
    if expected is not None:
        have = compiler_version(argv[0], spec.get("cwd"))
        if have != expected:
            raise RuntimeError(
                f"compiler version mismatch on {socket.gethostname()}: {argv[0]} is "
                f"\"{have}\" there but the link asks for \"{expected}\"")
    if spec.get("cwd") is not None:
        p, elapsed = _run(argv, spec["cwd"], label, spec["cwd"])
        return {"host": socket.gethostname(), "elapsed": elapsed,
                "stderr": p.stderr.decode(errors="replace"), "outputs": None}
    scratch = tempfile.mkdtemp(prefix="weld-dtlto-")
    try:
        for rel, data in spec["files"].items():
            dest = os.path.join(scratch, rel)
            os.makedirs(os.path.dirname(dest), exist_ok=True)
            with open(dest, "wb") as f:
                f.write(data)
        cwd = os.path.join(scratch, spec["scratch_cwd"])
        os.makedirs(cwd, exist_ok=True)
        for out in spec["outputs"]:
            os.makedirs(os.path.dirname(os.path.join(cwd, out)) or cwd, exist_ok=True)
        p, elapsed = _run(argv, cwd, label, cwd)
        outputs = {}
        for out in spec["outputs"]:
            try:
                with open(os.path.join(cwd, out), "rb") as f:
                    outputs[out] = f.read()
            except OSError as e:
                raise RuntimeError(
                    f"the compiler succeeded on {label} on {socket.gethostname()} but did not "
                    f"write {out}: {e.strerror}\ncommand: cd {shlex.quote(cwd)} && {_quote(argv)}")
        return {"host": socket.gethostname(), "elapsed": elapsed,
                "stderr": p.stderr.decode(errors="replace"), "outputs": outputs}
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
