#!/usr/bin/env python3
"""What a model's process-to-process spread follows, read from recorded
nights (benchmarks/history/nights/*.tsv, night_data.h's format): the base
sessions' repetition medians of MODEL's Method::execute.

  session_modes.py [--model mobilenet_v2_block] [--cut MS] NIGHTS_TSV...

Prints: a histogram of the repetition medians (two modes show as two humps);
with CUT (ms; default: the emptiest 4 us bin between the two highest humps)
the sessions by how many of their repetitions are slow, beside what
independent repetitions would give; mode changes between consecutive
repetitions of a session against the same repetitions shuffled (fewer than
shuffled: a slow state lasts several repetitions); and, in recording order
(night, session), the lag-1 correlation of consecutive sessions' lower
deciles and slow counts per history (near 0: a session draws its own value);
and per history the correlation, over sessions, of MODEL's session lower
decile (log; what the nightly gate reads) with each other model's in the same
session (the same process, seconds apart: positive when a state of the
machine moves them together), with MODEL's spread raw, after removing the
other models' level (their median deviation from their own medians, log) and
after removing it times a slope fitted per history.
"""
import argparse
import collections
import math
import random
import statistics
import sys


def load(paths, model):
    sessions = []  # (history, night, session, p10, repetition medians)
    for path in paths:
        metric, runs = None, {}
        with open(path) as f:
            for line in f:
                t = line.rstrip("\n").split("\t")
                if t[0] == "M" and t[2] == model and t[3] == "Execute" and t[5] == "Method::execute":
                    metric = t[1]
                elif t[0] == "R":
                    runs[t[1]] = (t[2], int(t[4]), t[5])
                elif t[0] == "V" and t[2] == metric and runs[t[1]][2].split(".s")[0] == "base":
                    history, night, variant = runs[t[1]]
                    session = int(variant.split(".s")[1]) if ".s" in variant else 1
                    sessions.append((history, night, session, float(t[3]),
                                     [float(x) for x in t[4].split(",")]))
    sessions.sort()
    return sessions


def session_levels(paths):
    """Per history: {run id: {model: log lower decile}} of base sessions (the value the gate reads)."""
    levels = {}
    for path in paths:
        metrics, runs = {}, {}
        with open(path) as f:
            for line in f:
                t = line.rstrip("\n").split("\t")
                if t[0] == "M" and t[3] == "Execute" and t[5] == "Method::execute":
                    metrics[t[1]] = t[2]
                elif t[0] == "R":
                    runs[t[1]] = (t[2], t[5])
                elif t[0] == "V" and t[2] in metrics and runs[t[1]][1].split(".s")[0] == "base":
                    levels.setdefault(runs[t[1]][0], {}).setdefault(t[1], {})[metrics[t[2]]] = \
                        math.log(float(t[3]))
    return levels


def robust_sd(logs):
    m = statistics.median(logs)
    return 100 * 1.4826 * statistics.median([abs(x - m) for x in logs])


def corr(a, b):
    ma, mb = statistics.mean(a), statistics.mean(b)
    den = math.sqrt(sum((x - ma) ** 2 for x in a) * sum((y - mb) ** 2 for y in b))
    return sum((x - ma) * (y - mb) for x, y in zip(a, b)) / den if den else 0.0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--model", default="mobilenet_v2_block")
    ap.add_argument("--cut", type=float)
    ap.add_argument("nights", nargs="+")
    args = ap.parse_args()
    try:
        sessions = load(args.nights, args.model)
    except (OSError, ValueError, IndexError, KeyError) as e:
        print("session_modes.py: cannot read the nights: %s" % e, file=sys.stderr)
        sys.exit(2)
    if not sessions:
        print("session_modes.py: no base session of %s in %s" % (args.model, " ".join(args.nights)),
              file=sys.stderr)
        sys.exit(2)
    reps = [x for s in sessions for x in s[4]]
    width = 0.004
    hist = collections.Counter(round(x / width) for x in reps)
    print("repetition medians of %s Method::execute, %d sessions, %d repetitions:" % (
        args.model, len(sessions), len(reps)))
    top = max(hist.values())
    for k in sorted(hist):
        if hist[k] * 200 >= len(reps):  # bins holding >= 0.5%
            print("  %.3f ms %5d %s" % (k * width, hist[k], "#" * round(60 * hist[k] / top)))
    cut = args.cut
    if cut is None:
        bins = [k for k in sorted(hist) if hist[k] * 200 >= len(reps)]
        a, b = sorted(sorted(bins, key=lambda k: -hist[k])[:1] +
                      [max((k for k in bins if abs(k - max(bins, key=lambda k: hist[k])) >= 4),
                           key=lambda k: hist[k])])
        cut = (min(range(a, b + 1), key=lambda k: hist.get(k, 0)) + 0.5) * width
    slow = [[x > cut for x in s[4]] for s in sessions]
    n = len(slow[0])
    counts = collections.Counter(sum(s) for s in slow)
    p = sum(sum(s) for s in slow) / (n * len(slow))
    print("\nslow mode: repetition median > %.3f ms (%.0f%% of repetitions)" % (cut, 100 * p))
    print("sessions by slow repetitions (of %d):  %s" % (
        n, "  ".join("%d:%d" % (k, counts.get(k, 0)) for k in range(n + 1))))
    print("if repetitions were independent:       %s" % "  ".join(
        "%d:%.0f" % (k, len(slow) * math.comb(n, k) * p ** k * (1 - p) ** (n - k))
        for k in range(n + 1)))

    def changes(seqs):
        return sum(s[i] != s[i + 1] for s in seqs for i in range(len(s) - 1))
    rng = random.Random(1)
    shuffled = []
    for _ in range(200):
        copies = [rng.sample(s, len(s)) for s in slow]
        shuffled.append(changes(copies))
    print("mode changes between consecutive repetitions: %d, shuffled within sessions %.0f (sd %.0f)"
          % (changes(slow), statistics.mean(shuffled), statistics.stdev(shuffled)))

    print("\nconsecutive sessions (recording order), per history: lag-1 correlation of")
    print("history\tsessions\tp10\tslow_count\tp10 robust spread %")
    for history in sorted({s[0] for s in sessions}):
        mine = [s for s in sessions if s[0] == history]
        p10 = [math.log(s[3]) for s in mine]
        cnt = [sum(x > cut for x in s[4]) for s in mine]
        med = statistics.median(p10)
        spread = 100 * 1.4826 * statistics.median([abs(x - med) for x in p10])
        print("%s\t%d\t%+.2f\t%+.2f\t%.2f" % (history, len(mine), corr(p10[:-1], p10[1:]),
                                             corr(cnt[:-1], cnt[1:]), spread))

    levels = session_levels(args.nights)
    others = sorted({m for h in levels.values() for r in h.values() for m in r} - {args.model})
    print("\ncorrelation over a history's sessions of %s's lower decile with each other model's:" % args.model)
    print("history\t" + "\t".join(others) + "\tspread_raw_%\tminus_level_%\tslope\tminus_slope_level_%")
    for history in sorted(levels):
        runs = [r for r in levels[history].values() if args.model in r and all(m in r for m in others)]
        mine = [r[args.model] for r in runs]
        centre = {m: statistics.median(r[m] for r in runs) for m in others}
        level = [statistics.median(r[m] - centre[m] for m in others) for r in runs]
        ml, mm = statistics.mean(level), statistics.mean(mine)
        slope = sum((a - ml) * (b - mm) for a, b in zip(level, mine)) / sum((a - ml) ** 2 for a in level)
        print(history + "\t" + "\t".join("%+.2f" % corr(mine, [r[m] for r in runs]) for m in others) +
              "\t%.2f\t%.2f\t%.2f\t%.2f" % (
                  robust_sd(mine), robust_sd([b - a for a, b in zip(level, mine)]), slope,
                  robust_sd([b - slope * a for a, b in zip(level, mine)])))


if __name__ == "__main__":
    main()
