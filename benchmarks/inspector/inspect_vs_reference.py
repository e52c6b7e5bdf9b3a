#!/usr/bin/env python3
"""Whole-process side by side: `etbench inspect` (table, JSON) against
ExecuTorch's reference Inspector (a Python process that imports it and runs
Inspector(etdump_path=...).to_dataframe()), on the same ETDump, in one run.

    taskset -c 1 /usr/bin/python3 benchmarks/inspector/inspect_vs_reference.py \\
        --etbench build/tools/etbench --etdump DUMP [--repetitions 5]
    # the reference needs EXECUTORCH_SRC (see docs/python.md#performance)

Each repetition runs every command once, alternately (reference, table,
JSON, ...), after one untimed warm-up of each (the file and the programs
in the page cache). Per process it takes the CPU time (user + system, with
the children it waited for: the reference's `flatc`) and the peak resident
set (ru_maxrss) from wait4, and the wall time; it prints the medians, the
ratios of CPU time to the reference's and the peak RSS as a multiple of the
file's size. etbench's output goes to /dev/null (as a pipe would take it);
run pinned to one core (taskset) and note the machine's load beside the
numbers.
"""

import argparse
import os
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
SHIMS = os.path.join(os.path.dirname(HERE), "python")

REFERENCE = """
import sys, warnings
sys.path.insert(0, {shims!r})
import reference_inspector_shims
reference_inspector_shims.install({src!r})
from executorch.devtools.inspector import Inspector
warnings.simplefilter("ignore")
df = Inspector(etdump_path={path!r}).to_dataframe()
print(len(df))
"""


def timed(argv):
    """Runs argv, returning (cpu s, maxrss KiB, wall s, stdout)."""
    wall = time.perf_counter()
    devnull = os.open(os.devnull, os.O_WRONLY)
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # child: stdout to /dev/null (etbench) or the pipe (reference)
        os.dup2(write_end if argv[0] == sys.executable else devnull, 1)
        os.dup2(devnull, 2)
        os.close(read_end)
        try:
            os.execv(argv[0], argv)
        finally:
            os._exit(127)
    os.close(write_end)
    os.close(devnull)
    chunks = []
    while True:
        chunk = os.read(read_end, 65536)
        if not chunk:
            break
        chunks.append(chunk)
    os.close(read_end)
    _, status, usage = os.wait4(pid, 0)
    wall = time.perf_counter() - wall
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"{' '.join(argv)}: exit {os.waitstatus_to_exitcode(status)}")
    return usage.ru_utime + usage.ru_stime, usage.ru_maxrss, wall, b"".join(chunks)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--etbench", required=True, help="build/tools/etbench")
    parser.add_argument("--etdump", required=True, help="the ETDump to read")
    parser.add_argument("--repetitions", type=int, default=5)
    args = parser.parse_args()

    path = os.path.abspath(args.etdump)
    size = os.path.getsize(path)
    commands = {
        "etbench inspect (table)": [os.path.abspath(args.etbench), "inspect", "--etdump_path", path],
        "etbench inspect --format json": [os.path.abspath(args.etbench), "inspect", "--etdump_path",
                                          path, "--format", "json"],
    }
    src = os.environ.get("EXECUTORCH_SRC")
    if src:
        commands = {"reference Inspector + to_dataframe": [
            sys.executable, "-c", REFERENCE.format(shims=SHIMS, src=os.path.abspath(src), path=path)],
            **commands}
    else:
        print("reference: not run (set EXECUTORCH_SRC; see docs/python.md#performance)")
    print(f"input: {path} ({size / 1e6:.1f} MB); affinity: CPUs {sorted(os.sched_getaffinity(0))}; "
          f"load average before: {' '.join(open('/proc/loadavg').read().split()[:3])}")

    for argv in commands.values():  # warm-up
        timed(argv)
    samples = {name: [] for name in commands}
    for _ in range(args.repetitions):
        for name, argv in commands.items():
            samples[name].append(timed(argv)[:3])
    ref = "reference Inspector + to_dataframe"
    ref_cpu = statistics.median(c for c, _, _ in samples[ref]) if ref in samples else None
    print(f"{'command':<36} {'CPU (median)':>13} {'wall (median)':>14} {'peak RSS':>10} "
          f"{'RSS/file':>9} {'vs reference (CPU)':>19}")
    for name, runs in samples.items():
        cpu = statistics.median(c for c, _, _ in runs)
        wall = statistics.median(w for _, _, w in runs)
        rss = max(r for _, r, _ in runs)
        ratio = f"{ref_cpu / cpu:.0f}x" if ref_cpu else "-"
        print(f"{name:<36} {cpu * 1e3:>10.1f} ms {wall * 1e3:>11.1f} ms {rss / 1024:>7.1f} MB "
              f"{rss * 1024 / size:>8.2f}x {ratio:>19}")
    print(f"over {args.repetitions} repetitions, alternating; load average after: "
          f"{' '.join(open('/proc/loadavg').read().split()[:3])}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
