#!/usr/bin/env python3
"""Times Inspector(etdump_path=…) + to_dataframe() on a 200,000-event ETDump:
etbench's, and ExecuTorch's pure-Python reference in the same run when
EXECUTORCH_SRC points at an ExecuTorch source checkout whose Python
dependencies (torch, flatc, …) are importable.

    PYTHONPATH=build/python python3 benchmarks/python/inspector_dataframe_bench.py \\
        --writer build/benchmarks/python/write_synthetic_etdump [--repetitions 5]

Prints one line per implementation (median wall time of the repetitions) and
the ratio when both ran; says why when the reference could not run.
"""

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
import warnings


def _time(make, repetitions):
    """(median wall s, median CPU s of this process, rows). CPU time is
    reported too because a loaded machine stretches wall time."""
    walls, cpus = [], []
    rows = 0
    for _ in range(repetitions):
        start, cpu = time.perf_counter(), time.process_time()
        rows = len(make())
        walls.append(time.perf_counter() - start)
        cpus.append(time.process_time() - cpu)
    return statistics.median(walls), statistics.median(cpus), rows


def _reference_inspector():
    src = os.environ.get("EXECUTORCH_SRC")
    if not src:
        return None, "EXECUTORCH_SRC is not set"
    # ExecuTorch's source tree is the package `executorch`: its parent goes on sys.path.
    parent = os.path.dirname(os.path.abspath(src.rstrip("/")))
    sys.path.insert(0, parent)
    try:
        from executorch.devtools.inspector import Inspector as Reference  # noqa: E402
    except Exception as e:  # ImportError for torch, flatc bindings, …
        return None, f"cannot import executorch.devtools.inspector from {src}: {type(e).__name__}: {e}"
    return Reference, None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--writer", required=True, help="build/benchmarks/python/write_synthetic_etdump")
    parser.add_argument("--runs", type=int, default=200)
    parser.add_argument("--instructions", type=int, default=500)
    parser.add_argument("--repetitions", type=int, default=5)
    args = parser.parse_args()

    import pandas as pd

    from etbench.inspector import Inspector

    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "synthetic.etdp")
        out = subprocess.run(
            [args.writer, str(args.runs), str(args.instructions), path],
            check=True, capture_output=True, text=True,
        ).stdout.strip()
        size = os.path.getsize(path)
        print(f"input: {out}, {size / 1e6:.1f} MB ({args.runs} runs x {args.instructions} instructions)")
        warnings.simplefilter("ignore")
        ours, ours_cpu, rows = _time(lambda: Inspector(etdump_path=path).to_dataframe(), args.repetitions)
        print(f"etbench:   Inspector(...) + to_dataframe(): median {ours * 1e3:.1f} ms wall, "
              f"{ours_cpu * 1e3:.1f} ms CPU over {args.repetitions} ({rows} rows)")
        # The reference's DataFrame construction (one DataFrame per Event,
        # pandas.concat, numpy statistics per Event) over etbench's Events:
        # a lower bound of the reference's time, without its ETDump parse.
        def reference_style():
            inspector = Inspector(etdump_path=path)
            return pd.concat(
                [b.to_dataframe(include_units=True) for b in inspector.event_blocks if b.events],
                ignore_index=True,
            )

        style, style_cpu, _ = _time(reference_style, max(1, min(args.repetitions, 3)))
        print(f"reference-style frame over etbench's Events (lower bound, no ETDump parse): "
              f"median {style * 1e3:.1f} ms wall, {style_cpu * 1e3:.1f} ms CPU "
              f"({style_cpu / ours_cpu:.0f}x etbench's CPU)")
        Reference, why = _reference_inspector()
        if Reference is None:
            print(f"reference: not run: {why}")
            print("ratio:     not measured (the reference needs torch; see docs/python.md)")
            return 0
        theirs, theirs_cpu, ref_rows = _time(
            lambda: Reference(etdump_path=path).to_dataframe(), max(1, min(args.repetitions, 3))
        )
        print(f"reference: Inspector(...) + to_dataframe(): median {theirs * 1e3:.1f} ms wall, "
              f"{theirs_cpu * 1e3:.1f} ms CPU ({ref_rows} rows)")
        print(f"ratio:     {theirs / ours:.0f}x faster wall, {theirs_cpu / ours_cpu:.0f}x CPU (medians)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
