#!/usr/bin/env python3
"""Two builds of `etbench inspect` on one ETDump, in pairs: CPU time of the
whole process (user + system, from wait4), one run of each build back to
back, the order alternating from pair to pair; output to /dev/null.

    taskset -c 1 /usr/bin/python3 benchmarks/inspector/inspect_before_after.py \\
        --before BEFORE/tools/etbench --after build/tools/etbench \\
        --etdump DUMP [--format table|json|csv] [--pairs 30]

On a shared machine the load moves both runs of a pair alike, and a pair is
the unit: it prints each build's median, the median and quartiles of the
per-pair ratio after/before, and in how many pairs the after build used
less CPU, with the load average before and after.
"""

import argparse
import os
import statistics
import sys


def cpu_ms(argv):
    """Runs argv with stdout and stderr to /dev/null; its CPU time in ms."""
    pid = os.fork()
    if pid == 0:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, 1)
        os.dup2(devnull, 2)
        try:
            os.execv(argv[0], argv)
        finally:
            os._exit(127)
    _, status, usage = os.wait4(pid, 0)
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"{' '.join(argv)}: exit {os.waitstatus_to_exitcode(status)}")
    return (usage.ru_utime + usage.ru_stime) * 1e3


def load():
    return " ".join(open("/proc/loadavg").read().split()[:3])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", required=True)
    parser.add_argument("--after", required=True)
    parser.add_argument("--etdump", required=True)
    parser.add_argument("--format", default="table", choices=["table", "json", "csv"])
    parser.add_argument("--pairs", type=int, default=30)
    args = parser.parse_args()
    if args.pairs < 2:
        raise SystemExit("--pairs: at least 2")
    tail = ["inspect", "--etdump_path", os.path.abspath(args.etdump), "--format", args.format]
    before = [os.path.abspath(args.before)] + tail
    after = [os.path.abspath(args.after)] + tail
    print(f"{args.etdump} --format {args.format}; load average before: {load()}")
    cpu_ms(before)  # warm-up: the file and both programs in the page cache
    cpu_ms(after)
    b_runs, a_runs = [], []
    for i in range(args.pairs):
        if i % 2 == 0:
            b_runs.append(cpu_ms(before))
            a_runs.append(cpu_ms(after))
        else:
            a_runs.append(cpu_ms(after))
            b_runs.append(cpu_ms(before))
    ratios = sorted(a / b for a, b in zip(a_runs, b_runs))
    faster = sum(a < b for a, b in zip(a_runs, b_runs))
    n = len(ratios)
    print(f"before: median {statistics.median(b_runs):.1f} ms; after: median "
          f"{statistics.median(a_runs):.1f} ms; after/before per pair: median "
          f"{statistics.median(ratios):.3f} (quartiles {ratios[n // 4]:.3f}-{ratios[(3 * n) // 4]:.3f}); "
          f"after used less CPU in {faster} of {n} pairs; load average after: {load()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
