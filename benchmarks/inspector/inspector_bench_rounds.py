#!/usr/bin/env python3
"""Two builds of inspector_bench in alternating rounds: each round runs both
binaries once, as separate processes, the order alternating from round to
round (A B, B A, ...), and reads the events/s counter of every benchmark the
filter selects.

    python3 benchmarks/inspector/inspector_bench_rounds.py \\
        --before OLD/benchmarks/inspector/inspector_bench \\
        --after build/benchmarks/inspector/inspector_bench [--rounds 10] \\
        [--filter 'BM_OpenVerifyGroup/'] [--min-time 0.3] [--core 1]

Every run is pinned to one core (taskset) and the load average is read
before it. On a shared machine the load moves both runs of a round alike,
and a round is the unit: per benchmark it prints each build's median and
best (M profile events per CPU second), the median and quartiles of the
per-round ratio after/before, in how many rounds the after build was
faster, and in how many it reached 20 M/s (issue #29's target).
Exit codes: 0 done; 1 a benchmark run failed; 2 usage error.
"""

import argparse
import csv
import io
import statistics
import subprocess
import sys
import time


def load():
    return open("/proc/loadavg").read().split()[0]


def run(binary, args):
    """events/s (millions) per benchmark name of one run of `binary`."""
    argv = ["taskset", "-c", str(args.core), binary, "--benchmark_filter=" + args.filter,
            "--benchmark_min_time=" + args.min_time, "--benchmark_format=csv"]
    done = subprocess.run(argv, capture_output=True, text=True)
    if done.returncode != 0 or "name," not in done.stdout:
        sys.stderr.write(f"{' '.join(argv)}: exit {done.returncode}\n{done.stderr}")
        raise SystemExit(1)
    rows = csv.DictReader(io.StringIO(done.stdout[done.stdout.index("name,"):]))
    return {row["name"]: float(row["events/s"]) / 1e6 for row in rows if row.get("events/s")}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", required=True)
    parser.add_argument("--after", required=True)
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--filter", default="BM_OpenVerifyGroup/")
    parser.add_argument("--min-time", default="0.3")
    parser.add_argument("--core", type=int, default=1)
    args = parser.parse_args()
    if args.rounds < 2:
        parser.error("--rounds: at least 2")
    rates = {"before": {}, "after": {}}
    for i in range(args.rounds):
        for side in (["before", "after"] if i % 2 == 0 else ["after", "before"]):
            stamp, before_load = time.strftime("%H:%M:%S", time.gmtime()), load()
            got = run(args.before if side == "before" else args.after, args)
            for name, rate in got.items():
                rates[side].setdefault(name, []).append(rate)
            print(f"round {i} {side:6} {stamp} UTC load {before_load}: " +
                  " ".join(f"{name.split('/')[-1]}={rate:.1f}" for name, rate in got.items()),
                  flush=True)
    for name, before in rates["before"].items():
        after = rates["after"].get(name, [])
        if len(after) != len(before):
            continue
        ratios = sorted(a / b for a, b in zip(after, before))
        n = len(ratios)
        print(f"{name}: before median {statistics.median(before):.1f} (best {max(before):.1f}) "
              f"M/s; after median {statistics.median(after):.1f} (best {max(after):.1f}) M/s; "
              f"after/before per round median {statistics.median(ratios):.3f} (quartiles "
              f"{ratios[n // 4]:.2f}-{ratios[(3 * n) // 4]:.2f}), after faster in "
              f"{sum(r > 1 for r in ratios)} of {n}; after >= 20 M/s in "
              f"{sum(a >= 20 for a in after)} of {n}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
