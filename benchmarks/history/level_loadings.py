#!/usr/bin/env python3
"""How unevenly time metrics follow the machine's level (kLevelLoadingSpread).

Reads recorded nights (benchmarks/history/nights/*.tsv, night_data.h). Per
history, base variant, night and time metric: the night value (numpy's
linear lower decile of the sessions' lower deciles, as NightValue), its log
deviation from the metric's median night; per model and night the level is
the median deviation of the other models' metrics (as ModelLevels). On the
nights whose level moved by --min-level or more, a metric's loading is its
deviation over the level; prints their quantiles and robust standard
deviation (1.4826 MAD), overall and per model.

    python3 benchmarks/history/level_loadings.py benchmarks/history/nights/r[0-9]*.tsv
"""
import argparse
import math
import statistics


def lower_decile(values):
    xs = sorted(values)
    if len(xs) == 1:
        return xs[0]
    at = 0.1 * (len(xs) - 1)
    below = int(at)
    return xs[below] + (at - below) * (xs[below + 1] - xs[below])


def night_values(path):
    """{(night, metric id): night value} of the base variant, {metric id: model}."""
    model_of, unit_of, run_night, per_night = {}, {}, {}, {}
    for line in open(path):
        f = line.rstrip("\n").split("\t")
        if f[0] == "M":
            model_of[int(f[1])] = f[2]
            unit_of[int(f[1])] = f[9]
        elif f[0] == "R" and f[5].split(".s")[0] == "base":
            run_night[int(f[1])] = int(f[4])
        elif f[0] == "V" and int(f[1]) in run_night and unit_of[int(f[2])] in ("us", "ms"):
            per_night.setdefault((run_night[int(f[1])], int(f[2])), []).append(float(f[3]))
    timed = {m: model_of[m] for m in model_of if unit_of[m] in ("us", "ms")}
    return {k: lower_decile(v) for k, v in per_night.items()}, timed


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("tsv", nargs="+")
    parser.add_argument("--min-level", type=float, default=0.08)
    args = parser.parse_args()
    loadings = []  # (loading, model)
    for path in args.tsv:
        values, timed = night_values(path)
        deviation = {}
        for metric in timed:
            logs = {n: math.log(v) for (n, m), v in values.items() if m == metric and v > 0}
            if not logs:
                continue
            mid = statistics.median(logs.values())
            deviation.update({(n, metric): x - mid for n, x in logs.items()})
        nights = sorted({n for n, _ in deviation})
        for model in sorted(set(timed.values())):
            for n in nights:
                others = [d for (k, m), d in deviation.items() if k == n and timed[m] != model]
                if not others:
                    continue
                level = statistics.median(others)
                if abs(level) < args.min_level:
                    continue
                loadings += [(d / level, model) for (k, m), d in deviation.items()
                             if k == n and timed[m] == model]

    def summary(xs):
        xs = sorted(xs)
        q = lambda p: xs[int(p * (len(xs) - 1))]
        spread = 1.4826 * statistics.median(abs(x - q(0.5)) for x in xs)
        return (f"{len(xs)} metric-nights: quartiles {q(0.25):.2f} {q(0.5):.2f} {q(0.75):.2f}, "
                f"robust SD {spread:.2f}")

    if not loadings:
        print(f"no night's level moved by {args.min_level:.0%} or more")
        return
    print("all:", summary([x for x, _ in loadings]))
    for model in sorted({m for _, m in loadings}):
        print(f"{model}:", summary([x for x, m in loadings if m == model]))


if __name__ == "__main__":
    main()
