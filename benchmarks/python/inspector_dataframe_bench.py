#!/usr/bin/env python3
"""Times Inspector(etdump_path=…) + to_dataframe() on a 200,000-event ETDump:
etbench's, and ExecuTorch's own reference Inspector in the same process when
EXECUTORCH_SRC points at an ExecuTorch source checkout (its root: the
directory holding devtools/ and exir/).

    EXECUTORCH_SRC=/path/to/executorch PYTHONPATH=build/python /usr/bin/python3 \\
        benchmarks/python/inspector_dataframe_bench.py \\
        --writer build/benchmarks/python/write_synthetic_etdump [--repetitions 3]

The reference is upstream's code, imported through the import shims of
reference_inspector_shims.py (packages whose __init__ would import the
exporter, ETRecord modules: nothing the ETDump-only path calls). Before
timing, both frames of the big dump, and of every ETDump under
tests/fixtures (with its debug buffer when one sits beside it), must be
equal cell for cell (frame_equality.py); the script exits 1 if not.

Prints the median over the repetitions (run alternately, after one untimed
warm-up of each) of the wall time and of the CPU time of the process plus
its children (the reference runs `flatc`), and the ratios.
"""

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
import warnings
from pathlib import Path

import frame_equality

REPO = Path(__file__).resolve().parents[2]


def _cpu():
    """CPU seconds of this process (all threads; process_time resolves
    microseconds, os.times only clock ticks) and of its finished children
    (the reference's flatc)."""
    t = os.times()
    return time.process_time() + t.children_user + t.children_system


def _timed(make):
    wall, cpu = time.perf_counter(), _cpu()
    frame = make()
    return time.perf_counter() - wall, _cpu() - cpu, frame


def _reference_inspector():
    """(Inspector class, shims) from EXECUTORCH_SRC, or (None, why)."""
    src = os.environ.get("EXECUTORCH_SRC")
    if not src:
        return None, "EXECUTORCH_SRC is not set"
    import reference_inspector_shims

    try:
        shims = reference_inspector_shims.install(src)
        from executorch.devtools.inspector import Inspector as Reference
    except Exception as e:  # ImportError for torch, a missing module, …
        return None, f"cannot import executorch.devtools.inspector from {src}: {type(e).__name__}: {e}"
    return Reference, shims


def _fixtures():
    """(etdump, debug buffer or None) for every ETDump under tests/fixtures,
    plus the buffer-less variant of those that have one."""
    cases = []
    for path in sorted((REPO / "tests" / "fixtures").rglob("*.etdp")):
        cases.append((path, None))
        buffer = path.with_name(path.stem + ".debug.bin")
        if buffer.exists():
            cases.append((path, buffer))
    return cases


def _check(label, ref, ours):
    diffs = frame_equality.differences(ref, ours)
    status = "equal" if not diffs else "DIFFERENT"
    print(f"  {label}: {len(ours)} rows x {len(ours.columns)} columns, {status}")
    for d in diffs:
        print(f"    {d}")
    return not diffs


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--writer", required=True, help="build/benchmarks/python/write_synthetic_etdump")
    parser.add_argument("--runs", type=int, default=200)
    parser.add_argument("--instructions", type=int, default=500)
    parser.add_argument("--repetitions", type=int, default=3)
    args = parser.parse_args()

    from etbench.inspector import Inspector

    warnings.simplefilter("ignore")  # both print "Output Buffer not found" per construction
    Reference, shims = _reference_inspector()
    if Reference is None:
        print(f"reference: not run: {shims}")
    else:
        import torch

        print(f"reference: ExecuTorch's Inspector from {os.environ['EXECUTORCH_SRC']} "
              f"(torch {torch.__version__}); import shims: "
              + ", ".join(name for name, _, _ in shims))

    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "synthetic.etdp")
        out = subprocess.run(
            [args.writer, str(args.runs), str(args.instructions), path],
            check=True, capture_output=True, text=True,
        ).stdout.strip()
        print(f"input: {out}, {os.path.getsize(path) / 1e6:.1f} MB "
              f"({args.runs} runs x {args.instructions} instructions)")

        ours_make = lambda: Inspector(etdump_path=path).to_dataframe()  # noqa: E731
        ref_make = lambda: Reference(etdump_path=path).to_dataframe()  # noqa: E731
        _, _, ours_frame = _timed(ours_make)  # warm-up (and the frames to compare)
        ok = True
        if Reference is not None:
            _, _, ref_frame = _timed(ref_make)
            print("same DataFrame (columns, order, dtypes, every cell exactly):")
            ok = _check("synthetic dump", ref_frame, ours_frame)
            del ref_frame
            for etdump, buffer in _fixtures():
                kwargs = dict(etdump_path=str(etdump), debug_buffer_path=buffer and str(buffer))
                label = etdump.relative_to(REPO).as_posix() + (" + debug buffer" if buffer else "")
                ok &= _check(label, Reference(**kwargs).to_dataframe(), Inspector(**kwargs).to_dataframe())
            if not ok:
                print("ratio:     not reported: the frames differ")
                return 1

        ours, theirs = [], []
        for _ in range(args.repetitions):
            ours.append(_timed(ours_make)[:2])
            if Reference is not None:
                theirs.append(_timed(ref_make)[:2])
        wall = statistics.median(w for w, _ in ours)
        cpu = statistics.median(c for _, c in ours)
        print(f"etbench:   Inspector(...) + to_dataframe(): median {wall * 1e3:.1f} ms wall, "
              f"{cpu * 1e3:.1f} ms CPU over {args.repetitions} ({len(ours_frame)} rows)")
        if Reference is None:
            print("ratio:     not measured (set EXECUTORCH_SRC; see docs/python.md)")
            return 0
        ref_wall = statistics.median(w for w, _ in theirs)
        ref_cpu = statistics.median(c for _, c in theirs)
        print(f"reference: Inspector(...) + to_dataframe(): median {ref_wall * 1e3:.1f} ms wall, "
              f"{ref_cpu * 1e3:.1f} ms CPU (with flatc) over {args.repetitions}")
        print(f"ratio:     etbench is {ref_wall / wall:.0f}x faster in wall time, "
              f"{ref_cpu / cpu:.0f}x in CPU time (medians; target >= 100x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
