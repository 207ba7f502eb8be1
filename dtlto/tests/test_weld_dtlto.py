"""Unit tests for weld-dtlto: job-file parsing, the scratch layout of --no-shared-fs, the worker
task, and whole runs of the distributor on a one-worker local cluster with a fake compiler.

Run with `.venv/bin/python -m pytest dtlto/tests` (or `-m unittest discover dtlto/tests`)."""

import io
import json
import os
import stat
import subprocess
import sys
import tempfile
import textwrap
import unittest
from contextlib import redirect_stderr
from unittest import mock

from weld_dtlto import cli, jobs, worker

# A stand-in for clang: `--version` prints a version line (FAKE_CC_VERSION overrides it);
# otherwise it writes, to the path after -o, the module and index it was given, and fails with
# a message when the module's name contains "bad".
FAKE_CC = textwrap.dedent("""\
    #!/bin/sh
    if [ "$1" = --version ]; then echo "${FAKE_CC_VERSION:-fake clang version 22.0.0}"; exit 0; fi
    out=; mod=; idx=
    while [ $# -gt 0 ]; do
      case "$1" in
        -o) out=$2; shift;;
        -fthinlto-index=*) idx=${1#-fthinlto-index=};;
        -*) ;;
        *) mod=$1;;
      esac
      shift
    done
    case "$mod" in *bad*) echo "fake-cc: cannot compile $mod" >&2; exit 1;; esac
    { cat "$mod"; cat "$idx"; } > "$out" || exit 1
    """)


def write(path, data):
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    with open(path, "wb" if isinstance(data, bytes) else "w") as f:
        f.write(data)


def read(path):
    with open(path, "rb") as f:
        return f.read()


def job_json(compiler, modules):
    return {
        "common": {"linker_output": "out/prog", "args": [compiler, "-c", "-O2"], "inputs": []},
        "jobs": [{"args": [m, f"-fthinlto-index={m}.thinlto.bc", "-o", f"{m}.native.o"],
                  "inputs": [m, f"{m}.thinlto.bc"], "outputs": [f"{m}.native.o"]}
                 for m in modules],
    }


class PlanTests(unittest.TestCase):
    def test_command_is_common_args_then_job_args(self):
        plan = jobs.parse_plan(job_json("/usr/bin/clang-22", ["a.o", "b.o"]))
        self.assertEqual(plan.compiler, "/usr/bin/clang-22")
        self.assertEqual(plan.command(plan.jobs[1]),
                         ["/usr/bin/clang-22", "-c", "-O2", "b.o",
                          "-fthinlto-index=b.o.thinlto.bc", "-o", "b.o.native.o"])
        self.assertEqual(plan.jobs[0].label, "a.o")
        self.assertEqual(plan.linker_output, "out/prog")

    def test_job_inputs_include_common_inputs_once(self):
        data = job_json("clang", ["a.o"])
        data["common"]["inputs"] = ["prof.data", "a.o"]
        plan = jobs.parse_plan(data)
        self.assertEqual(plan.job_inputs(plan.jobs[0]), ["prof.data", "a.o", "a.o.thinlto.bc"])

    def test_bad_shapes_are_reported(self):
        for data, needle in [
            ([], "not a JSON object"),
            ({"jobs": []}, "common"),
            ({"common": {"args": []}, "jobs": []}, "empty"),
            ({"common": {"args": ["cc"]}}, "jobs"),
            ({"common": {"args": ["cc", 3]}, "jobs": []}, "list of strings"),
            ({"common": {"args": ["cc"]}, "jobs": [{"args": [], "inputs": [], "outputs": []}]},
             "outputs"),
        ]:
            with self.assertRaises(jobs.JobFileError) as cm:
                jobs.parse_plan(data)
            self.assertIn(needle, str(cm.exception))

    def test_load_plan_reports_bad_json(self):
        with tempfile.TemporaryDirectory() as d:
            p = os.path.join(d, "j.json")
            write(p, "{not json")
            with self.assertRaises(jobs.JobFileError) as cm:
                jobs.load_plan(p)
            self.assertIn("not valid JSON", str(cm.exception))
            with self.assertRaises(jobs.JobFileError):
                jobs.load_plan(os.path.join(d, "missing.json"))


class LayoutTests(unittest.TestCase):
    def test_plain_relative_paths_stay_put(self):
        layout = jobs.layout_for(["a.o", "sub/b.o"])
        self.assertEqual(layout.cwd, ".")
        self.assertEqual(layout.place("sub/./b.o"), "sub/b.o")

    def test_upward_paths_get_room_above_the_job_directory(self):
        layout = jobs.layout_for(["a.o", "../lib/b.o", "../../x/c.o"])
        self.assertEqual(layout.cwd, "w/w")
        self.assertEqual(layout.place("a.o"), "w/w/a.o")
        self.assertEqual(layout.place("../lib/b.o"), "w/lib/b.o")
        self.assertEqual(layout.place("../../x/c.o"), "x/c.o")

    def test_absolute_paths_are_refused_with_advice(self):
        with self.assertRaises(jobs.LayoutError) as cm:
            jobs.layout_for(["/abs/a.o"])
        self.assertIn("relative", str(cm.exception))


class FakeCompilerMixin:
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.dir = self.tmp.name
        self.cc = os.path.join(self.dir, "fake-cc")
        write(self.cc, FAKE_CC)
        os.chmod(self.cc, os.stat(self.cc).st_mode | stat.S_IXUSR)

    def tearDown(self):
        self.tmp.cleanup()


class WorkerTests(FakeCompilerMixin, unittest.TestCase):
    def test_compiler_version_is_the_first_line(self):
        self.assertEqual(worker.compiler_version(self.cc), "fake clang version 22.0.0")
        host, version, err = worker.host_compiler_version(os.path.join(self.dir, "nope"))
        self.assertIsNone(version)
        self.assertIn("cannot run", err)

    def test_shared_fs_job_runs_in_place(self):
        write(os.path.join(self.dir, "a.o"), "MOD")
        write(os.path.join(self.dir, "a.o.thinlto.bc"), "IDX")
        r = worker.run_job({"argv": [self.cc, "a.o", "-fthinlto-index=a.o.thinlto.bc", "-o",
                                     "a.native.o"], "label": "a.o", "cwd": self.dir,
                            "expected_version": "fake clang version 22.0.0"})
        self.assertIsNone(r["outputs"])
        self.assertEqual(read(os.path.join(self.dir, "a.native.o")), b"MODIDX")

    def test_version_mismatch_inside_the_task(self):
        with self.assertRaises(RuntimeError) as cm:
            worker.run_job({"argv": [self.cc, "a.o"], "label": "a.o", "cwd": self.dir,
                            "expected_version": "clang version 99"})
        self.assertIn("version mismatch", str(cm.exception))

    def test_scratch_job_mirrors_relative_paths_and_returns_outputs(self):
        layout = jobs.layout_for(["../lib/m.o", "../lib/m.o.thinlto.bc", "out/m.native.o"])
        spec = {"argv": [self.cc, "../lib/m.o", "-fthinlto-index=../lib/m.o.thinlto.bc", "-o",
                         "out/m.native.o"], "label": "../lib/m.o", "cwd": None,
                "expected_version": None, "scratch_cwd": layout.cwd,
                "files": {layout.place("../lib/m.o"): b"M", layout.place("../lib/m.o.thinlto.bc"): b"I"},
                "outputs": ["out/m.native.o"]}
        r = worker.run_job(spec)
        self.assertEqual(r["outputs"], {"out/m.native.o": b"MI"})

    def test_failure_names_the_command_and_the_stderr(self):
        write(os.path.join(self.dir, "bad.o"), "X")
        with self.assertRaises(RuntimeError) as cm:
            worker.run_job({"argv": [self.cc, "bad.o", "-o", "bad.native.o"], "label": "bad.o",
                            "cwd": self.dir})
        msg = str(cm.exception)
        self.assertIn("exited with status 1", msg)
        self.assertIn(f"{self.cc} bad.o -o bad.native.o", msg)
        self.assertIn("fake-cc: cannot compile bad.o", msg)


class DistributorTests(FakeCompilerMixin, unittest.TestCase):
    """Whole runs of weld-dtlto, each on its own one-worker local cluster."""

    def run_cli(self, modules, *options, env=None):
        for m in modules:
            write(os.path.join(self.dir, m), f"<{m}>")
            write(os.path.join(self.dir, f"{m}.thinlto.bc"), f"[{m}]")
        write(os.path.join(self.dir, "jobs.json"), json.dumps(job_json(self.cc, modules)))
        p = subprocess.run([sys.executable, "-m", "weld_dtlto.cli", "--workers=1", *options,
                            "jobs.json"], cwd=self.dir, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, timeout=120, env={**os.environ, **(env or {})})
        return p.returncode, p.stderr.decode()

    def test_shared_fs(self):
        rc, err = self.run_cli(["a.o", "sub/b.o"])
        self.assertEqual(rc, 0, err)
        self.assertEqual(err, "", "no progress or chatter when stderr is not a terminal")
        self.assertEqual(read(os.path.join(self.dir, "sub/b.o.native.o")), b"<sub/b.o>[sub/b.o]")

    def test_no_shared_fs(self):
        rc, err = self.run_cli(["a.o", "sub/b.o"], "--no-shared-fs")
        self.assertEqual(rc, 0, err)
        self.assertEqual(read(os.path.join(self.dir, "a.o.native.o")), b"<a.o>[a.o]")

    def test_a_failing_job_fails_the_run_and_says_why(self):
        rc, err = self.run_cli(["a.o", "bad.o"], "--retries=1")
        self.assertEqual(rc, 1, err)
        self.assertIn("the job for bad.o failed on every try (2 in all)", err)
        self.assertIn("fake-cc: cannot compile bad.o", err)
        self.assertIn("-fthinlto-index=bad.o.thinlto.bc", err)

    def test_unreachable_scheduler(self):
        rc, err = self.run_cli(["a.o"], "--scheduler=tcp://127.0.0.1:9", "--connect-timeout=2")
        self.assertEqual(rc, 2, err)
        self.assertIn("cannot reach the Dask scheduler at tcp://127.0.0.1:9 within 2s", err)

    def test_missing_scheduler_file(self):
        rc, err = self.run_cli(["a.o"], "--scheduler-file=nowhere.json")
        self.assertEqual(rc, 2, err)
        self.assertIn("scheduler file nowhere.json does not exist", err)

    def test_no_shared_fs_refuses_absolute_paths(self):
        m = os.path.join(self.dir, "abs.o")
        rc, err = self.run_cli([m], "--no-shared-fs")
        self.assertEqual(rc, 2, err)
        self.assertIn("absolute path", err)


class VersionCheckTests(FakeCompilerMixin, unittest.TestCase):
    def plan(self):
        return jobs.parse_plan(job_json(self.cc, ["a.o"]))

    def test_mismatch_names_each_worker(self):
        client = mock.Mock()
        client.run.return_value = {
            "tcp://w1": ("host1", "fake clang version 22.0.0", None),
            "tcp://w2": ("host2", "clang version 21.1.0", None),
            "tcp://w3": ("host3", None, "cannot run fake-cc --version on host3: no such file"),
        }
        with self.assertRaises(cli.Fatal) as cm:
            cli._check_versions(client, self.plan(), self.dir)
        msg = str(cm.exception)
        self.assertIn("compiler version mismatch", msg)
        self.assertIn("tcp://w2 (host2): \"clang version 21.1.0\"", msg)
        self.assertIn("no such file", msg)
        self.assertNotIn("tcp://w1", msg)

    def test_match_returns_the_version(self):
        client = mock.Mock()
        client.run.return_value = {"tcp://w1": ("h", "fake clang version 22.0.0", None)}
        self.assertEqual(cli._check_versions(client, self.plan(), self.dir),
                         "fake clang version 22.0.0")


class ProgressTests(unittest.TestCase):
    def test_silent_unless_stderr_is_a_terminal(self):
        buf = io.StringIO()
        with redirect_stderr(buf):
            p = cli.Progress(3)
            p.step()
            p.clear()
        self.assertEqual(buf.getvalue(), "")

    def test_counts_on_a_terminal(self):
        class Tty(io.StringIO):
            def isatty(self):
                return True
        buf = Tty()
        with redirect_stderr(buf):
            p = cli.Progress(2)
            p.step()
            p.step()
        self.assertIn("1/2 jobs done", buf.getvalue())
        self.assertIn("2/2 jobs done", buf.getvalue())


if __name__ == "__main__":
    unittest.main()
