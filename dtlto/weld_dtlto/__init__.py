"""weld-dtlto: runs the ThinLTO backend compilations of a DTLTO link on a Dask cluster.

The linker (ld.lld-22, or weld) writes a JSON description of the backend jobs and runs
`weld-dtlto [OPTIONS] JOBS.json`; see `weld_dtlto.cli` for the options and `weld_dtlto.jobs`
for the protocol.
"""

__version__ = "0.1.0"
