#!/usr/bin/env python3
"""Writes the per-run statistics of a real history as a compact fixture.

Usage: real_history_fixture.py HISTORY.db OUT.json NOTE

The fixture is a MetricSet JSON (compare/metric_set_json.h): one metric per
stored metric, its "samples" the per-run lower deciles (what `history detect`
tests) in run order; the context carries the
run count and NOTE. Raw samples and ETDumps are not kept. Standard library only.
"""
import json
import sqlite3
import sys


def main():
    db, out, note = sys.argv[1], sys.argv[2], sys.argv[3]
    c = sqlite3.connect(db)
    runs = [r[0] for r in c.execute("SELECT id FROM runs ORDER BY time, id")]
    position = {run: i for i, run in enumerate(runs)}
    metrics = []
    for mid, definition in c.execute("SELECT id, definition FROM metrics ORDER BY id"):
        metric = json.loads(definition)["metrics"][0]
        p10 = [None] * len(runs)
        for run, value in c.execute("SELECT run, p10 FROM measurements WHERE metric = ?", (mid,)):
            p10[position[run]] = value
        if any(v is None for v in p10):
            sys.exit(f"{db}: metric {mid} is missing in some runs")
        metric["samples"] = [float(f"{v:.6g}") for v in p10]
        metrics.append(metric)
    fixture = {"context": {"runs": str(len(runs)), "note": note}, "metrics": metrics}
    with open(out, "w") as f:
        json.dump(fixture, f, separators=(",", ":"))
        f.write("\n")


if __name__ == "__main__":
    main()
