"""Reading a DTLTO job file and planning where each job's files go.

The linker (LLVM 22's out-of-process ThinLTO backend, in ld.lld-22 or weld) writes a JSON file:

    {"common": {"linker_output": PATH, "args": [COMPILER, ARGS...], "inputs": [PATHS...]},
     "jobs": [{"args": [ARGS...], "inputs": [MODULE, INDEX, IMPORTS...], "outputs": [OBJECT, ...]}]}

Each backend compilation runs `common.args + job.args`; the first element of `common.args` is
the compiler. Paths are relative to the linker's working directory (the distributor's own
working directory) unless absolute. Every path in `outputs` must exist once the distributor
exits 0; a non-zero exit fails the link.
"""

from __future__ import annotations

import json
import os
import posixpath
import shlex
from dataclasses import dataclass, field
from typing import Dict, List, Sequence


class JobFileError(Exception):
    """The job file is missing, unreadable or not in the expected shape."""


@dataclass
class Job:
    args: List[str]
    inputs: List[str]
    outputs: List[str]

    @property
    def label(self) -> str:
        """The module this job compiles (its first input), for messages."""
        if self.inputs:
            return self.inputs[0]
        return self.outputs[0] if self.outputs else "<job>"


@dataclass
class Plan:
    linker_output: str
    common_args: List[str]
    common_inputs: List[str]
    jobs: List[Job] = field(default_factory=list)

    @property
    def compiler(self) -> str:
        return self.common_args[0]

    def command(self, job: Job) -> List[str]:
        """The full compiler command line of one job: common args, then the job's args."""
        return list(self.common_args) + list(job.args)

    def job_inputs(self, job: Job) -> List[str]:
        """Every file the job reads: the common inputs and the job's own, without repeats."""
        seen = set()
        out = []
        for p in list(self.common_inputs) + list(job.inputs):
            if p not in seen:
                seen.add(p)
                out.append(p)
        return out


def _str_list(obj: dict, key: str, where: str, required: bool = True) -> List[str]:
    if key not in obj:
        if required:
            raise JobFileError(f"{where}: missing \"{key}\"")
        return []
    value = obj[key]
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise JobFileError(f"{where}: \"{key}\" must be a list of strings")
    return list(value)


def parse_plan(data: object) -> Plan:
    """Checks the shape of a decoded job file and returns it as a Plan."""
    if not isinstance(data, dict):
        raise JobFileError("the job file is not a JSON object")
    common = data.get("common")
    if not isinstance(common, dict):
        raise JobFileError("missing \"common\" object")
    args = _str_list(common, "args", "common")
    if not args:
        raise JobFileError("common: \"args\" is empty (its first element must be the compiler)")
    inputs = _str_list(common, "inputs", "common", required=False)
    linker_output = common.get("linker_output", "")
    if not isinstance(linker_output, str):
        raise JobFileError("common: \"linker_output\" must be a string")
    jobs_json = data.get("jobs")
    if not isinstance(jobs_json, list):
        raise JobFileError("missing \"jobs\" array")
    jobs = []
    for i, j in enumerate(jobs_json):
        where = f"jobs[{i}]"
        if not isinstance(j, dict):
            raise JobFileError(f"{where} is not an object")
        job = Job(_str_list(j, "args", where), _str_list(j, "inputs", where),
                  _str_list(j, "outputs", where))
        if not job.outputs:
            raise JobFileError(f"{where}: \"outputs\" is empty")
        jobs.append(job)
    return Plan(linker_output, args, inputs, jobs)


def load_plan(path: str) -> Plan:
    try:
        with open(path, "rb") as f:
            data = json.load(f)
    except OSError as e:
        raise JobFileError(f"cannot read the job file {path}: {e.strerror}") from e
    except ValueError as e:
        raise JobFileError(f"the job file {path} is not valid JSON: {e}") from e
    return parse_plan(data)


def quote_command(argv: Sequence[str]) -> str:
    return " ".join(shlex.quote(a) for a in argv)


# --- running without a shared file system ---------------------------------------------------
#
# The worker recreates, in a scratch folder, the part of the linker's directory tree the job
# touches: the job runs in SCRATCH/w/w/.../ (one "w" per leading ".." any path needs), so that a
# path P relative to the linker's directory names the same file relative to the job's directory.
# Paths are never rewritten: the summary index shards name the modules to import from by the
# paths the linker was given, so the tree has to match, not the command line.


class LayoutError(Exception):
    """A path the job needs cannot be mirrored in a scratch folder."""


def _normalized(path: str) -> str:
    if os.path.isabs(path):
        raise LayoutError(
            f"{path} is an absolute path; --no-shared-fs mirrors the linker's directory tree "
            "relative to its working directory, so link with relative input and output paths "
            "(or use a shared file system)")
    return posixpath.normpath(path.replace(os.sep, "/"))


def _ups(norm: str) -> int:
    n = 0
    for part in norm.split("/"):
        if part != "..":
            break
        n += 1
    return n


@dataclass
class Layout:
    """Where a job's working directory sits inside its scratch folder."""
    cwd: str  # relative to the scratch folder, "/"-separated ("." when no path goes upwards)

    def place(self, path: str) -> str:
        """The scratch-relative location of a path given relative to the linker's directory."""
        return posixpath.normpath(posixpath.join(self.cwd, _normalized(path)))


def layout_for(paths: Sequence[str]) -> Layout:
    depth = max([_ups(_normalized(p)) for p in paths] + [0])
    return Layout("/".join(["w"] * depth) if depth else ".")


def plan_files(plan: Plan, job: Job) -> Dict[str, str]:
    """For --no-shared-fs: maps each input path to its scratch-relative location."""
    layout = layout_for(plan.job_inputs(job) + job.outputs)
    return {p: layout.place(p) for p in plan.job_inputs(job)}
