"""weld-dtlto: the DTLTO distributor. The linker runs `weld-dtlto [OPTIONS] JOBS.json`.

Exit status: 0 when every job's outputs are in place; 1 when a job failed on every try (its
command line and the compiler's stderr are printed); 2 for usage errors, an unreadable job file,
an unreachable scheduler or a compiler version mismatch. Any non-zero status fails the link.
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
import time
import uuid

from . import jobs as jobs_mod
from . import worker as worker_mod

PROG = "weld-dtlto"


class Fatal(Exception):
    """Stops the distributor with a message and exit status 2."""


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog=PROG,
        description="Runs the ThinLTO backend compilations of a DTLTO link on a Dask cluster. "
        "Use it as --thinlto-distributor=weld-dtlto, passing these options with "
        "--thinlto-distributor-arg=OPTION.")
    where = p.add_mutually_exclusive_group()
    where.add_argument("--scheduler", metavar="ADDRESS",
                       help="address of a running Dask scheduler, e.g. tcp://host:8786")
    where.add_argument("--scheduler-file", metavar="FILE",
                       help="a scheduler file written by `dask scheduler --scheduler-file FILE`")
    p.add_argument("--workers", type=int, default=None, metavar="N",
                   help="without a scheduler: worker processes of the local cluster "
                   "(default: the number of CPUs)")
    p.add_argument("--no-shared-fs", action="store_true",
                   help="the workers do not see the linker's files: send each job's inputs, "
                   "run it in a scratch folder, and bring its outputs back")
    p.add_argument("--connect-timeout", type=float, default=10.0, metavar="SECONDS",
                   help="give up when the scheduler cannot be reached, or has no workers, "
                   "within this time (default 10)")
    p.add_argument("--retries", type=int, default=2, metavar="N",
                   help="run a failing job up to N more times, possibly on other workers "
                   "(default 2); jobs whose worker dies are rerun by the scheduler anyway")
    p.add_argument("--no-version-check", action="store_true",
                   help="do not check that every worker's compiler is the version the link "
                   "asks for")
    p.add_argument("--verbose", action="store_true", help="print Dask's log messages and a "
                   "line per finished job")
    p.add_argument("job_file", metavar="JOBS.json", help="the job file the linker wrote")
    return p


def _say(msg: str) -> None:
    sys.stderr.write(f"{PROG}: {msg}\n")
    sys.stderr.flush()


class Progress:
    """`weld-dtlto: 3/10 jobs done` on one line, only when stderr is a terminal."""

    def __init__(self, total: int):
        self.total = total
        self.done = 0
        self.on = sys.stderr.isatty()
        self.show()

    def show(self) -> None:
        if self.on:
            sys.stderr.write(f"\r{PROG}: {self.done}/{self.total} jobs done")
            sys.stderr.flush()

    def step(self) -> None:
        self.done += 1
        self.show()

    def clear(self) -> None:
        if self.on:
            sys.stderr.write("\r\033[K")
            sys.stderr.flush()


def _connect(opts):
    """Returns (client, cluster or None)."""
    from distributed import Client, LocalCluster
    timeout = opts.connect_timeout
    if opts.scheduler or opts.scheduler_file:
        if opts.scheduler_file:
            if not os.path.exists(opts.scheduler_file):
                raise Fatal(f"scheduler file {opts.scheduler_file} does not exist "
                            "(is `dask scheduler --scheduler-file` running?)")
            where = f"the scheduler in {opts.scheduler_file}"
            kwargs = {"scheduler_file": opts.scheduler_file}
        else:
            where = f"the Dask scheduler at {opts.scheduler}"
            kwargs = {"address": opts.scheduler}
        start = time.monotonic()
        try:
            client = Client(timeout=f"{timeout}s", set_as_default=False, **kwargs)
        except Exception as e:  # OSError/TimeoutError mostly; anything means "unreachable"
            why = str(e).strip() or type(e).__name__
            raise Fatal(f"cannot reach {where} within {timeout:g}s: {why}") from None
        cluster = None
    else:
        n = opts.workers or os.cpu_count() or 1
        start = time.monotonic()
        try:
            cluster = LocalCluster(n_workers=n, threads_per_worker=1, processes=True,
                                   dashboard_address=None,
                                   silence_logs=logging.WARNING if opts.verbose else logging.CRITICAL)
            client = Client(cluster, set_as_default=False)
        except Exception as e:
            raise Fatal(f"cannot start a local Dask cluster of {n} workers: {e}") from None
        where = "the local cluster"
    left = max(1.0, timeout - (time.monotonic() - start))
    try:
        client.wait_for_workers(1, timeout=left)
    except Exception:
        client.close()
        raise Fatal(f"{where} has no workers (waited {timeout:g}s); start some with "
                    "`dask worker SCHEDULER_ADDRESS`") from None
    return client, cluster


def _check_versions(client, plan, cwd) -> str:
    """Returns the local compiler version; raises Fatal naming every worker that differs."""
    compiler = plan.compiler
    try:
        expected = worker_mod.compiler_version(compiler, cwd)
    except RuntimeError as e:
        raise Fatal(f"cannot learn the version of the compiler the link asks for: {e} "
                    "(pass --no-version-check to skip the check)") from None
    results = client.run(worker_mod.host_compiler_version, compiler, cwd, on_error="return")
    bad = []
    for addr, r in sorted(results.items()):
        if isinstance(r, BaseException):
            bad.append(f"  worker {addr}: cannot ask it: {r}")
            continue
        host, version, err = r
        if err is not None:
            bad.append(f"  worker {addr} ({host}): {err}")
        elif version != expected:
            bad.append(f"  worker {addr} ({host}): \"{version}\"")
    if bad:
        raise Fatal(f"compiler version mismatch: the link asks for {compiler}, "
                    f"\"{expected}\" here, but\n" + "\n".join(bad) +
                    "\nevery worker needs the same clang version as the linker")
    return expected


def _spec(plan, job, cwd, shared_fs, expected):
    spec = {"argv": plan.command(job), "label": job.label, "expected_version": expected}
    if shared_fs:
        spec["cwd"] = cwd
        return spec
    layout = jobs_mod.layout_for(plan.job_inputs(job) + job.outputs)
    files = {}
    for path in plan.job_inputs(job):
        try:
            with open(path, "rb") as f:
                files[layout.place(path)] = f.read()
        except OSError as e:
            raise Fatal(f"cannot read {path}, an input of the job for {job.label}: "
                        f"{e.strerror}") from None
    spec.update(cwd=None, files=files, scratch_cwd=layout.cwd, outputs=list(job.outputs))
    return spec


def _write_outputs(outputs: dict) -> None:
    for path, data in outputs.items():
        d = os.path.dirname(path)
        if d:
            os.makedirs(d, exist_ok=True)
        tmp = f"{path}.{os.getpid()}.tmp"
        with open(tmp, "wb") as f:
            f.write(data)
        os.replace(tmp, path)


def _timeouts():
    import asyncio
    import distributed
    return (TimeoutError, asyncio.TimeoutError,
            getattr(distributed, "TimeoutError", TimeoutError))


class _Alone:
    """How long the cluster has had no worker (or no scheduler) while jobs are left: past
    `grace` seconds they would wait forever, and the link gives up."""

    def __init__(self, client, grace: float):
        self.client, self.grace, self.since = client, grace, None

    def progress(self):
        self.since = None

    def check(self, left: int, total: int):
        try:
            workers = len(self.client.nthreads()) if self.client.status == "running" else 0
        except Exception:
            workers = 0
        if workers:
            self.since = None
        elif self.since is None:
            self.since = time.monotonic()
        elif time.monotonic() - self.since > self.grace:
            raise Fatal(f"the cluster has had no workers (or lost its scheduler) for "
                        f"{self.grace:g}s with {left} of {total} jobs left; giving up")


def _finished(client, futures, grace: float):
    """Yields the futures as they finish. Raises Fatal when the cluster has had no worker (or
    no scheduler) for `grace` seconds while jobs are left: they would wait forever."""
    import distributed
    pending = list(futures)
    alone = _Alone(client, grace)
    while pending:
        try:
            # wait() works on the current client; ours is not the process-wide default.
            with client.as_current():
                done, not_done = distributed.wait(pending, timeout=1.0,
                                                  return_when="FIRST_COMPLETED")
        except _timeouts():  # nothing finished in the last second
            done, not_done = set(), pending
        for fut in pending:
            if fut in done:
                yield fut
        pending = [f for f in pending if f in not_done]
        if not pending or done:
            alone.progress()
            continue
        alone.check(len(pending), len(futures))


def _result(client, fut, grace: float, left: int, total: int):
    """A finished job's result. Fetching it can wait for ever: when the worker holding it
    died, the scheduler runs the job again, which needs a worker; with none for `grace`
    seconds this raises Fatal as `_finished` does."""
    alone = _Alone(client, grace)
    while True:
        try:
            return fut.result(timeout=1.0)
        except _timeouts():
            alone.check(left, total)


def _describe_failure(job, exc, tries: int) -> str:
    name = type(exc).__name__
    if name == "KilledWorker":
        return (f"the job for {job.label} was running on every worker that died while running "
                f"it ({exc}); giving up")
    if name == "CancelledError":
        return f"the job for {job.label} was cancelled (did the scheduler go away?)"
    return f"the job for {job.label} failed on every try ({tries} in all):\n{exc}"


def run(opts) -> int:
    try:
        plan = jobs_mod.load_plan(opts.job_file)
    except jobs_mod.JobFileError as e:
        raise Fatal(str(e)) from None
    if not plan.jobs:
        return 0
    cwd = os.getcwd()
    shared_fs = not opts.no_shared_fs
    if not shared_fs:
        for job in plan.jobs:
            try:
                jobs_mod.layout_for(plan.job_inputs(job) + job.outputs)
            except jobs_mod.LayoutError as e:
                raise Fatal(f"--no-shared-fs: {e}") from None

    import cloudpickle
    cloudpickle.register_pickle_by_value(worker_mod)

    client, cluster = _connect(opts)
    try:
        expected = None if opts.no_version_check else _check_versions(client, plan, cwd)
        run_id = uuid.uuid4().hex[:8]
        futures = {}
        for i, job in enumerate(plan.jobs):
            spec = _spec(plan, job, cwd, shared_fs, expected)
            key = f"weld-dtlto-{run_id}-{i}-{os.path.basename(job.label)}"
            fut = client.submit(worker_mod.run_job, spec, key=key, pure=False,
                                retries=opts.retries)
            futures[fut] = job
        progress = Progress(len(futures))
        failures = []
        for done, fut in enumerate(_finished(client, list(futures), opts.connect_timeout)):
            job = futures[fut]
            if fut.status == "finished":
                try:
                    result = _result(client, fut, opts.connect_timeout, len(futures) - done,
                                     len(futures))
                except Fatal:
                    raise
                except Exception as e:  # the rerun of a job whose result was lost failed
                    failures.append((job, e))
                    progress.step()
                    continue
                if result["outputs"] is not None:
                    _write_outputs(result["outputs"])
                if opts.verbose:
                    progress.clear()
                    _say(f"{job.label}: {result['elapsed']:.1f}s on {result['host']}")
            else:
                try:
                    exc = fut.exception()
                except BaseException as e:  # cancelled futures raise here
                    exc = e
                failures.append((job, exc))
            progress.step()
        progress.clear()
    finally:
        try:
            client.close(timeout=10)
        except Exception:
            pass
        if cluster is not None:
            try:
                cluster.close(timeout=10)
            except Exception:
                pass
    if failures:
        for job, exc in failures:
            _say(_describe_failure(job, exc, opts.retries + 1))
        _say(f"{len(failures)} of {len(plan.jobs)} backend compilations failed")
        return 1
    missing = [o for job in plan.jobs for o in job.outputs if not os.path.exists(o)]
    if missing:
        _say("the jobs finished but these outputs are missing (do the workers share this "
             "file system? if not, pass --no-shared-fs): " + ", ".join(missing))
        return 1
    return 0


def main(argv=None) -> int:
    opts = _parser().parse_args(argv)
    if not opts.verbose:
        logging.getLogger("distributed").setLevel(logging.CRITICAL)
    if opts.workers is not None and opts.workers < 1:
        _say("--workers must be at least 1")
        return 2
    try:
        return run(opts)
    except Fatal as e:
        _say(str(e))
        # Leave at once: a half-connected Dask client can spend seconds closing itself in
        # finalizers, and the message is all the user needs.
        sys.stdout.flush()
        os._exit(2)
    except KeyboardInterrupt:
        _say("interrupted")
        return 130


if __name__ == "__main__":
    sys.exit(main())
