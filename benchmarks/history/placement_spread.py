#!/usr/bin/env python3
"""Per-process Method::execute lower deciles (placement_spread.sh).

  placement_spread.py --extract RESULTS_JSON [MODEL]   one TSV fragment: p10, p50,
      repetition medians, load_method p50 (MODEL: every entry of that model file pooled)
  placement_spread.py --slabs K TSV            per process: the pool's K slabs' effects
      (repetition i runs on slab i % K; median of log repetition medians per
      slab minus the process's median), their spread, and their consistency
      between the two halves of the process (a real placement effect repeats).
  placement_spread.py TSV...                    per placement: processes, median p10,
      robust spread across processes (1.4826 * MAD of log p10, in %), the same of
      the per-process medians, and the typical within-process spread of the
      repetition medians (median over processes of 1.4826 * MAD of log medians).
"""
import json
import math
import os
import statistics
import sys


def fail(message):
    """Bad input: one line on stderr, exit 2."""
    print("placement_spread.py: " + message, file=sys.stderr)
    sys.exit(2)


def mad_spread(values):
    logs = [math.log(v) for v in values]
    m = statistics.median(logs)
    return 100.0 * 1.4826 * statistics.median([abs(x - m) for x in logs])


def between_process_spread(processes):
    """One-way random-effects ANOVA of log repetition medians: the standard
    deviation (in %) of a process's own level, with the repetitions' noise
    removed (sqrt((MSB - MSW) / n), 0 when MSB <= MSW)."""
    groups = [[math.log(x) for x in reps] for reps in processes]
    n = statistics.mean(len(g) for g in groups)
    means = [statistics.mean(g) for g in groups]
    grand = statistics.mean(x for g in groups for x in g)
    msb = sum(len(g) * (m - grand) ** 2 for g, m in zip(groups, means)) / (len(groups) - 1)
    msw = sum((x - m) ** 2 for g, m in zip(groups, means) for x in g) / (
        sum(len(g) for g in groups) - len(groups))
    return 100.0 * math.sqrt(max(0.0, msb - msw) / n), 100.0 * math.sqrt(msw)


def percentile(values, q):
    """numpy's default (linear) percentile, as etbench's perf_data computes it."""
    x = sorted(values)
    at = q * (len(x) - 1)
    i = int(math.floor(at))
    return x[i] + (x[min(i + 1, len(x) - 1)] - x[i]) * (at - i)


def extract(path, model_name=None):
    """The session's values of one model: every entry of the suite whose model
    file is MODEL_NAME.yaml (all of them pooled, in suite order, so a suite
    listing the model several times reads as one model); default: the first."""
    with open(path) as f:
        results = json.load(f)
    entries = [m for m in results["models"]
               if model_name is None or os.path.basename(m["model_path"]) == model_name + ".yaml"]
    if model_name is None:
        entries = entries[:1]
    raw, medians, loads = [], [], []
    for model in entries:
        for block in model["blocks"]:
            for event in block["events"]:
                values = event["perf_data"]["raw"]
                if block["name"] == "Default" and event["name"] == "Program::load_method":
                    loads.extend(values)
                if block["name"] == "Execute" and event["name"] == "Method::execute":
                    at = 0
                    for size in block["repetition_run_counts"]:
                        medians.append(statistics.median(values[at:at + size]))
                        at += size
                    raw.extend(values)
    if not raw:
        fail(path + ": no Method::execute in an Execute block")
    return "%.6f\t%.6f\t%s\t%s" % (percentile(raw, 0.1), percentile(raw, 0.5),
                                    ",".join("%.6f" % m for m in medians),
                                    "%.6f" % statistics.median(loads) if loads else "nan")


def round_residuals(rows, order, column):
    """Per placement: log(value) minus its round's median over the placements,
    for rounds in which every placement ran and the round's median lies within
    20% of the overall median (episodes in which the machine ran everything
    50-90% slower, seen on this VM, are left out; they hit every placement)."""
    by_round = {}
    for p in order:
        for r in rows[p]:
            by_round.setdefault(r["round"], {})[p] = math.log(float(r[column]))
    complete = {k: v for k, v in by_round.items() if len(v) == len(order)}
    overall = statistics.median(x for v in complete.values() for x in v.values())
    kept = {k: v for k, v in complete.items()
            if abs(statistics.median(v.values()) - overall) < math.log(1.2)}
    residuals = {p: [] for p in order}
    for v in kept.values():
        level = statistics.median(v.values())
        for p in order:
            residuals[p].append(v[p] - level)
    return residuals, len(kept), len(complete)


def robust_sd(values):
    m = statistics.median(values)
    return 100.0 * 1.4826 * statistics.median([abs(x - m) for x in values])


def summarise(paths):
    rows = {}
    order = []
    for path in paths:
        with open(path) as f:
            header = f.readline().rstrip("\n").split("\t")
            for line in f:
                r = dict(zip(header, line.rstrip("\n").split("\t")))
                if r["placement"] not in rows:
                    order.append(r["placement"])
                rows.setdefault(r["placement"], []).append(r)
    print("placement\tprocesses\tmedian_p10_ms\tspread_p10_%\tspread_p50_%\twithin_process_%"
          "\tanova_between_%\tanova_within_%\tspread_level_%\tload_method_p50_ms\tload1")
    for p in order:
        rs = rows[p]
        p10 = [float(r["p10"]) for r in rs]
        p50 = [float(r["p50"]) for r in rs]
        within = [mad_spread([float(x) for x in r["rep_medians"].split(",")]) for r in rs]
        loads = [float(r["load1"]) for r in rs]
        between, within_sd = between_process_spread(
            [[float(x) for x in r["rep_medians"].split(",")] for r in rs])
        # A process's level: the median of its repetition medians.
        levels = [statistics.median(float(x) for x in r["rep_medians"].split(",")) for r in rs]
        load_method = [float(r.get("load_method_p50", "nan")) for r in rs]
        print("%s\t%d\t%.4f\t%.2f\t%.2f\t%.2f\t%.2f\t%.2f\t%.2f\t%.3f\t%.1f-%.1f" % (
            p, len(rs), statistics.median(p10), mad_spread(p10), mad_spread(p50),
            statistics.median(within), between, within_sd, mad_spread(levels),
            statistics.median(load_method), min(loads), max(loads)))
    if len(order) < 3:
        # With two conditions each residual is half their difference: both
        # spreads come out equal whatever the data.
        print("\n(round levels need 3 or more conditions, e.g. two labels of each)")
        return
    for column in ("p10", "p50"):
        residuals, kept, complete = round_residuals(rows, order, column)
        print("\n%s after removing each round's level (%d of %d rounds kept):" % (
            column, kept, complete))
        print("placement\trobust_sd_%\tsd_%\tmedian_shift_%")
        # Labels NAME-a, NAME-b, ... (the same condition run under several
        # labels, an A/A inside the run) are also pooled as NAME.
        groups = {}
        for p in order:
            groups.setdefault(p.split("-")[0], []).append(p)
        pooled = [(g, [x for p in ps for x in residuals[p]]) for g, ps in groups.items() if len(ps) > 1]
        for p, res in [(p, residuals[p]) for p in order] + pooled:
            print("%s\t%.2f\t%.2f\t%+.2f" % (p, robust_sd(res), 100.0 * statistics.stdev(res),
                                            100.0 * statistics.median(res)))


def slabs(k, paths):
    print("placement\tround\tslab_effects_%\tspread_%\thalves_corr")
    summary = {}
    for path in paths:
        with open(path) as f:
            header = f.readline().rstrip("\n").split("\t")
            for line in f:
                r = dict(zip(header, line.rstrip("\n").split("\t")))
                reps = [math.log(float(x)) for x in r["rep_medians"].split(",")]
                if len(reps) < 2 * k:
                    fail("%s: round %s has %d repetitions; --slabs %d needs at least %d" % (
                        path, r["round"], len(reps), k, 2 * k))
                level = statistics.median(reps)
                effects = []
                halves = ([], [])
                for s in range(k):
                    mine = [reps[i] for i in range(s, len(reps), k)]
                    effects.append(100.0 * (statistics.median(mine) - level))
                    half = len(mine) // 2
                    halves[0].append(statistics.median(mine[:half]) - level)
                    halves[1].append(statistics.median(mine[half:]) - level)
                ma, mb = statistics.mean(halves[0]), statistics.mean(halves[1])
                cov = sum((a - ma) * (b - mb) for a, b in zip(*halves))
                var = math.sqrt(sum((a - ma) ** 2 for a in halves[0]) *
                                sum((b - mb) ** 2 for b in halves[1]))
                spread, halves_corr = robust_sd([e / 100.0 for e in effects]), cov / var if var else 0.0
                summary.setdefault(r["placement"], []).append((spread, halves_corr))
                print("%s\t%s\t%s\t%.2f\t%.2f" % (
                    r["placement"], r["round"], " ".join("%+.1f" % e for e in effects),
                    spread, halves_corr))
    print("\nplacement\tprocesses\tmedian_slab_spread_%\tmean_halves_corr")
    for p, values in summary.items():
        print("%s\t%d\t%.2f\t%+.2f" % (p, len(values), statistics.median(v[0] for v in values),
                                        statistics.mean(v[1] for v in values)))


if __name__ == "__main__":
    if len(sys.argv) in (3, 4) and sys.argv[1] == "--extract":
        print(extract(sys.argv[2], sys.argv[3] if len(sys.argv) == 4 else None))
    elif len(sys.argv) >= 4 and sys.argv[1] == "--slabs":
        slabs(int(sys.argv[2]), sys.argv[3:])
    elif len(sys.argv) >= 2:
        summarise(sys.argv[1:])
    else:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
