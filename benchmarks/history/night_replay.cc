// The nightly gate on real recorded nights, side by side with other rules.
//
// Input: recorded nights of the default suite (night_data.h; recorded by
// record_nights.sh, converted by convert_nights.sh): per history and night
// slot a base run and, right after it, runs with every conv2d 5% and 10%
// slower (toy_cnn and mobilenet_v2_block). Sequences are spliced from them:
//   A/A      base nights 1..t−1, then base night t;
//   conv10   base nights 1..k−1, then the conv +10% run of night k (first
//            slow night; k ≥ 6, so the history holds ≥ 5 nights);
//   conv5    base nights 1..k−1, then conv +5% runs of nights k, k+1, k+2.
// Each night is judged, as `gate --baseline history` does, against the
// nights since the last change point that `history detect` finds in the
// history so far (the new gate: parts counted as it counts them; the gate as
// it was: every metric's change point, and ≥ 3 runs) by:
//   night    CompareNights (the night is the unit; ≥ 5 nights, else exit 0
//            "history too short"), confirming a suspect with the next run;
//            also with NightGateOptions::minimum_effect off ("estimate
//            beyond thr.": the estimate, not the interval, must clear it);
//   old      Compare against the nights merged as one baseline (the gate
//            before this change: repetitions as units, nearest session when
//            the sessions drift);
//   bencher  Bencher's t-test threshold per metric: per-run value, the last
//            64 runs, upper boundary at 0.99 (mean + t(0.99, n−1)·sd);
//   flat5    any metric more than 5% above the median of the previous nights.
// bencher and flat5 read every metric the gate gates (all: any metric
// alerts; e2e: only Method::execute and the load path). "Named first": the
// flagged per-operator metric that added the most time (for every rule).
//   build/benchmarks/history/night_replay [--csv OUT] [--sessions N] benchmarks/history/nights/*.tsv
// --sessions N: a night is the first N sessions (fresh processes) recorded
// in its slot (record_sessions.sh), as `gate --sessions N` measures it;
// nights with fewer are left out (default 1: one process a night).
// --pool K: K consecutive recorded night slots make one night (their
// sessions in order), so --pool 2 --sessions 6 replays 6 sessions a night.
// --spread K: like --pool K, but night j takes the slots j, j+n, j+2n, …
// (n = slots / K): its sessions lie far apart in the recording instead of
// back to back, as sessions spaced over time would. Base runs only (the
// slowed variants exist on consecutive slots), so with --blockers.
// --level-noise K: NightGateOptions::level_noise_sigmas for every night rule.
// --no-level: NightGateOptions::machine_level off (raw night values).
// --no-resolution-pass: NightGateOptions::pass_at_resolution off ("pass"
// needs every row's configured threshold).
// --no-load-path-control: NightGateOptions::load_path_control off (a model
// slow as a whole process tonight counts like any other).
// --loading-spread X: NightGateOptions::level_loading_spread (0: off).
// --sustained N: NightGateOptions::sustained_nights for every night rule
// (a small step's second and third nights judged together against the
// nights before them).
// --trace-conv5: per night of each conv +5% sequence, the gate's outcome,
// the convolution models' Method::execute rows and what `history detect`
// finds.
// --trace-aa: one line per A/A night that exits 1: the look that decided,
// the machine level, the counted rows, the change points tonight confirmed
// (their interval, first night and runs on each side).
// --trace-aa-blocked: the same for every A/A night (history of >= 5) that
// neither fails nor passes, with the gated rows that kept it from "pass".
// --no-change-point-fail: a night that confirms a regression change point
// does not fail for it (what that rule of the gate costs and buys).
// --no-change-point-confirmation: such a change point fails on tonight's
// run alone, without its models measured again (the gate before session 18).
// --confirm-after R: the variant's run of night N + R stands in for night
// N's confirmation run (default 1, the next night), as a pause of R nights'
// recording time before the gate's confirmation run would; nights without
// one are left out.
// --confirm-in-night: the confirmation run is the same night's next
// `--sessions` sessions (N+1..2N of 2N recorded, record_sessions.sh with
// SESSIONS=2N), recorded right after the night's own as the gate's is, in
// place of a later night's run; nights with fewer sessions are left out.
// --trace-conv10: the same for every first slow night of conv +10%.
// --blockers: the A/A nights only — how many pass, which gated rows keep
// the rest from passing, and every A/A regression before confirmation.
// A night is judged only where the next recorded run of its variant can
// stand in for the confirmation run (each history's last night cannot).
//   build/benchmarks/history/night_replay --convert ROOT OUT.tsv
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "etbench/compare/ab_schedule.h"
#include "etbench/compare/comparison.h"
#include "etbench/compare/night_gate.h"
#include "etbench/history/detect.h"
#include "etbench/history/history_workflow.h"
#include "etbench/stats/variance_prior.h"
#include "night_data.h"
#include "night_diagnostics.h"
#include "night_judge.h"

namespace etbench::bench {
namespace {

// The night gate's options for every replayed night rule (--level-noise,
// --sustained, --recheck-inconclusive, ...).
ReplayOptions g_replay;
// --trace-conv5: print what the gate and `history detect` see on each
// night of every conv +5% sequence (why a small step is missed by night 3).
bool g_trace_conv5 = false;
// --trace-aa: one line per A/A night that exits 1 (why it failed).
bool g_trace_aa = false;
// --trace-aa-blocked: the A/A nights (>= 5) that neither fail nor pass.
bool g_trace_aa_blocked = false;
// --trace-conv10: one line per first slow night of conv +10% (what failed
// and what it named first).
bool g_trace_conv10 = false;
// --confirm-after R: the run standing in for the confirmation run is the
// variant's run R nights after tonight's (default 1, the next one): how a
// pause before the gate's confirmation run would decide.
int g_confirm_after = 1;
// --confirm-in-night: the confirmation run is the night's next sessions.
bool g_confirm_in_night = false;

// The night's value of a metric for the per-run rules: the median of its
// repetitions' medians.
std::map<MetricKey, double> Values(const NightRun& run) {
  std::map<MetricKey, double> v;
  for (const Metric& m : run.metrics.metrics) {
    v[m.key] = StatisticOf(m.samples, Statistic::kP50);
  }
  return v;
}

bool Judged(const Metric& m, bool e2e_only) {
  if (m.key.kind == MetricKind::kFrameworkTax) return false;  // not gated by default
  if (m.key.name == "OPERATOR_CALL") return false;            // wrappers: not gated
  return !e2e_only || m.end_to_end;
}

// Bencher's t-test threshold and the flat 5% rule, per metric; any alert fails.
Verdict2 PerRunRule(const std::vector<const NightRun*>& before, const NightRun& tonight,
                    bool bencher, bool e2e_only) {
  Verdict2 v;
  std::vector<std::map<MetricKey, double>> history;
  const std::size_t from = before.size() > 64 ? before.size() - 64 : 0;
  for (std::size_t i = from; i < before.size(); ++i) history.push_back(Values(*before[i]));
  const std::map<MetricKey, double> now = Values(tonight);
  double best = -1;
  MetricKey first;
  for (const Metric& m : tonight.metrics.metrics) {
    if (!Judged(m, e2e_only)) continue;
    std::vector<double> xs;
    for (const auto& h : history) {
      auto it = h.find(m.key);
      if (it != h.end()) xs.push_back(it->second);
    }
    if (xs.size() < 2) continue;
    const double x = now.at(m.key);
    double limit;
    if (bencher) {
      double mean = 0, var = 0;
      for (double y : xs) mean += y / static_cast<double>(xs.size());
      for (double y : xs) var += (y - mean) * (y - mean) / static_cast<double>(xs.size() - 1);
      limit = mean + StudentUpperQuantile(0.01, static_cast<double>(xs.size() - 1)) * std::sqrt(var);
    } else {
      std::sort(xs.begin(), xs.end());
      limit = 1.05 * ComputeStatistic(xs, Statistic::kP50);
    }
    if (x > limit) {
      v.fail = true;
      const double excess = x - limit;  // time added beyond the limit
      if (!m.end_to_end && excess > best) {
        best = excess;
        first = m.key;
      }
    }
  }
  v.pass = !v.fail;
  v.named = IsConv(first.name);
  v.named_or_delegate = v.named || IsConvDelegate(first);
  v.named_attributed = v.named_or_delegate || (first.model == "mobilenet_v2_block" &&
                                               MetricEventRole(first) == EventRole::kDelegateEvent);
  return v;
}

struct Rules {
  Verdict2 night, night_estimate, old, bencher, bencher_e2e, flat, flat_e2e;
};

std::vector<const Verdict2*> All(const Rules& r) {
  return {&r.night, &r.night_estimate, &r.old, &r.bencher, &r.bencher_e2e, &r.flat, &r.flat_e2e};
}

// `again`: the run standing in for the gate's confirmation run (the next
// recorded run of the same variant, ~10 s later), or null.
Rules JudgeAll(const std::vector<const NightRun*>& before, const NightRun& tonight,
               const NightRun* again, const Thresholds& thresholds) {
  Rules r;
  const std::vector<const NightRun*> segment = Segment(before, false, thresholds);
  const std::vector<MetricSet> nights = FastTails(segment);
  const MetricSet candidate = FastTail(tonight);
  const Thresholds& night_thresholds = WithoutMeasuredMinDelta(thresholds);
  r.night = NightGateVerdict(nights, candidate, again, night_thresholds, g_replay);
  // The gate also fails the night that confirms a regression change point
  // (history::ConfirmedByNewestRun, with the gate's detect options).
  std::vector<const NightRun*> with_tonight = before;
  with_tonight.push_back(&tonight);
  history::DetectOptions detect_options;
  detect_options.thresholds = thresholds;
  if (g_replay.change_point_fails) {
    const history::HistoryWindow window = WindowOf(with_tonight);
    history::ConfirmedTonight confirmed = history::ConfirmedByNewestRun(window, detect_options);
    if (!confirmed.confirmed.empty() && g_replay.change_point_confirmation_run && again) {
      // As the gate does: the change points' models measured again, and
      // tonight's value of their metrics the faster of the two runs.
      std::set<std::string> models;
      for (const history::ChangePoint& cp : confirmed.confirmed) models.insert(cp.key.model);
      confirmed = history::ConfirmedByNewestRun(
          history::WithNewestFaster(window, LowerDeciles(*again, models)), detect_options);
    }
    if (!confirmed.confirmed.empty()) {
      r.night.fail = true;
      r.night.pass = false;
      r.night.short_history = false;
    }
  }
  ReplayOptions estimate = g_replay;
  estimate.gate.minimum_effect = false;
  r.night_estimate = NightGateVerdict(nights, candidate, again, night_thresholds, estimate);
  const std::vector<const NightRun*> old_segment = Segment(before, true, thresholds);
  if (old_segment.size() >= 3) {
    std::vector<MetricSet> newest_first = SetsOf(old_segment);
    std::reverse(newest_first.begin(), newest_first.end());
    auto merged = MergeMetricSets(newest_first);
    if (merged.ok()) {
      auto c = Compare(merged.value(), tonight.metrics, thresholds);
      if (c.ok()) r.old = FromComparison(c.value());
    }
  } else {
    r.old.short_history = true;
  }
  r.bencher = PerRunRule(before, tonight, true, false);
  r.bencher_e2e = PerRunRule(before, tonight, true, true);
  r.flat = PerRunRule(before, tonight, false, false);
  r.flat_e2e = PerRunRule(before, tonight, false, true);
  return r;
}

struct Tally {
  std::size_t n = 0, fail = 0, pass = 0, named = 0, named_or_delegate = 0, named_attributed = 0,
              short_history = 0;
  void Add(const Verdict2& v) {
    ++n;
    fail += v.fail;
    pass += v.pass;
    named += v.fail && v.named;
    named_or_delegate += v.fail && v.named_or_delegate;
    named_attributed += v.fail && v.named_attributed;
    short_history += v.short_history;
  }
};

int Main(int argc, char** argv) {
  if (argc == 4 && std::strcmp(argv[1], "--convert") == 0) {
    const Status s = ConvertNights(argv[2], argv[3]);
    if (!s.ok()) {
      std::fprintf(stderr, "night_replay: %s\n", s.error().message.c_str());
      return 2;
    }
    return 0;
  }
  std::vector<std::string> paths;
  std::string csv, show;
  std::size_t sessions = 1;
  int pool = 1, spread = 1;
  bool blockers = false;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--csv") == 0 && i + 1 < argc) {
      csv = argv[++i];
    } else if (std::strcmp(argv[i], "--sessions") == 0 && i + 1 < argc) {
      sessions = static_cast<std::size_t>(std::atoi(argv[++i]));
      if (sessions == 0) {
        std::fprintf(stderr, "night_replay: --sessions must be a positive number\n");
        return 2;
      }
    } else if (std::strcmp(argv[i], "--pool") == 0 && i + 1 < argc) {
      pool = std::atoi(argv[++i]);
      if (pool <= 0) {
        std::fprintf(stderr, "night_replay: --pool must be a positive number\n");
        return 2;
      }
    } else if (std::strcmp(argv[i], "--spread") == 0 && i + 1 < argc) {
      spread = std::atoi(argv[++i]);
      if (spread <= 0) {
        std::fprintf(stderr, "night_replay: --spread must be a positive number\n");
        return 2;
      }
    } else if (std::strcmp(argv[i], "--blockers") == 0) {
      blockers = true;
    } else if (std::strcmp(argv[i], "--no-level") == 0) {
      g_replay.gate.machine_level = false;
    } else if (std::strcmp(argv[i], "--level-noise") == 0 && i + 1 < argc) {
      g_replay.gate.level_noise_sigmas = std::atof(argv[++i]);
    } else if (std::strcmp(argv[i], "--recheck-inconclusive") == 0) {
      g_replay.recheck_inconclusive = true;
    } else if (std::strcmp(argv[i], "--sustained") == 0 && i + 1 < argc) {
      g_replay.gate.sustained_nights = static_cast<std::size_t>(std::atoi(argv[++i]));
    } else if (std::strcmp(argv[i], "--trace-conv5") == 0) {
      g_trace_conv5 = true;
    } else if (std::strcmp(argv[i], "--no-change-point-confirmation") == 0) {
      g_replay.change_point_confirmation_run = false;
    } else if (std::strcmp(argv[i], "--trace-aa-blocked") == 0) {
      g_trace_aa_blocked = true;
    } else if (std::strcmp(argv[i], "--trace-aa") == 0) {
      g_trace_aa = true;
    } else if (std::strcmp(argv[i], "--trace-conv10") == 0) {
      g_trace_conv10 = true;
    } else if (std::strcmp(argv[i], "--no-resolution-pass") == 0) {
      g_replay.gate.pass_at_resolution = false;
    } else if (std::strcmp(argv[i], "--no-change-point-fail") == 0) {
      g_replay.change_point_fails = false;
    } else if (std::strcmp(argv[i], "--no-load-path-control") == 0) {
      g_replay.gate.load_path_control = false;
    } else if (std::strcmp(argv[i], "--loading-spread") == 0 && i + 1 < argc) {
      g_replay.gate.level_loading_spread = std::atof(argv[++i]);
    } else if (std::strcmp(argv[i], "--confirm-after") == 0 && i + 1 < argc) {
      g_confirm_after = std::atoi(argv[++i]);
      if (g_confirm_after <= 0) {
        std::fprintf(stderr, "night_replay: --confirm-after must be a positive number\n");
        return 2;
      }
    } else if (std::strcmp(argv[i], "--confirm-in-night") == 0) {
      g_confirm_in_night = true;
    } else if (std::strcmp(argv[i], "--show") == 0 && i + 1 < argc) {
      show = argv[++i];
    } else {
      paths.emplace_back(argv[i]);
    }
  }
  if (paths.empty()) {
    std::fprintf(stderr,
                 "usage: night_replay [--csv OUT] [--sessions N] [--pool K | --spread K] [--level-noise K] [--no-level] "
                 "[--no-resolution-pass] [--no-load-path-control] [--loading-spread X] [--sustained N] [--confirm-after R | --confirm-in-night] [--no-change-point-fail] [--no-change-point-confirmation] [--recheck-inconclusive] [--blockers] [--trace-conv5] [--trace-aa] [--trace-aa-blocked] [--trace-conv10] "
                 "NIGHTS.tsv... | --convert ROOT OUT.tsv\n");
    return 2;
  }
  auto runs = LoadNights(paths);
  if (!runs.ok()) {
    std::fprintf(stderr, "night_replay: %s\n", runs.error().message.c_str());
    return 2;
  }
  if (pool > 1) PoolSlots(&runs.value(), pool);
  if (spread > 1) SpreadSlots(&runs.value(), spread);
  // history → variant → night → run
  // Each night's first `sessions` sessions make the night (nights with
  // fewer are left out).
  std::map<std::tuple<std::string, std::string, int>, std::vector<const NightRun*>> parts;
  for (const NightRun& r : runs.value()) parts[{r.history, r.variant, r.night}].push_back(&r);
  std::vector<std::unique_ptr<NightRun>> nights;
  ByHistory by, in_night;  // in_night: the night's next sessions (--confirm-in-night)
  std::map<std::string, std::string> condition;
  for (auto& [slot, list] : parts) {
    std::sort(list.begin(), list.end(),
              [](const NightRun* a, const NightRun* b) { return a->session < b->session; });
    auto night = CombineSessions(list, sessions);
    if (!night) continue;
    if (g_confirm_in_night && list.size() >= 2 * sessions) {
      auto again = CombineSessions({list.begin() + static_cast<std::ptrdiff_t>(sessions), list.end()},
                                   sessions);
      if (again) {
        in_night[night->history][night->variant][night->night] = again.get();
        nights.push_back(std::move(again));
      }
    }
    by[night->history][night->variant][night->night] = night.get();
    condition[night->history] = night->condition;
    nights.push_back(std::move(night));
  }
  const Thresholds thresholds = DefaultThresholds();
  // The run standing in for night `night`'s confirmation run (null: none).
  const auto stand_in = [&](const std::string& h, const std::string& variant,
                            int night) -> const NightRun* {
    const ByHistory& from = g_confirm_in_night ? in_night : by;
    const auto history = from.find(h);
    if (history == from.end()) return nullptr;
    const auto of_variant = history->second.find(variant);
    if (of_variant == history->second.end()) return nullptr;
    const auto it = of_variant->second.find(g_confirm_in_night ? night : night + g_confirm_after);
    return it == of_variant->second.end() ? nullptr : it->second;
  };
  if (!show.empty()) return Show(by, show, thresholds, g_replay, stand_in);
  if (blockers) return Blockers(by, condition, thresholds, g_replay.gate);
  const char* names[] = {"night (new gate)", "night, estimate beyond thr.", "old gate", "bencher t-test (all metrics)",
                         "bencher t-test (end to end)", "flat 5% (all metrics)",
                         "flat 5% (end to end)"};
  // condition → rule → tallies
  struct Tallies {
    Tally aa_all, aa_5, conv10;
    std::size_t conv5_n = 0, conv5_gate = 0, conv5_any = 0;
  };
  std::map<std::string, std::vector<Tallies>> table;
  std::ofstream out_csv;
  if (!csv.empty()) {
    out_csv.open(csv);
    out_csv << "history,condition,sequence,night,rule,fail,pass,named,named_or_delegate,short,named_attributed\n";
  }
  const auto record = [&](const std::string& h, const char* seq, int night, const Rules& r) {
    if (!out_csv) return;
    const auto vs = All(r);
    for (int k = 0; k < 7; ++k) {
      out_csv << h << "," << condition[h] << "," << seq << "," << night << "," << names[k] << ","
              << vs[k]->fail << "," << vs[k]->pass << "," << vs[k]->named << "," << vs[k]->named_or_delegate << ","
              << vs[k]->short_history << "," << vs[k]->named_attributed << "\n";
    }
  };
  // A night is judged only where the next recorded run of its variant can
  // stand in for the gate's confirmation run (the gate always has one):
  // each history's last night of each variant is left out.
  std::size_t unconfirmable = 0;
  for (const auto& [h, variants] : by) {
    auto& t = table[condition[h]];
    t.resize(7);
    if (!variants.count("base")) continue;
    const auto& base = variants.at("base");
    std::vector<const NightRun*> seq;
    for (const auto& [night, run] : base) {
      const NightRun* again = stand_in(h, "base", night);
      if (!seq.empty() && !again) ++unconfirmable;
      if (!seq.empty() && again) {
        const Rules r = JudgeAll(seq, *run, again, thresholds);
        record(h, "aa", night, r);
        if ((g_trace_aa && r.night.fail) ||
            (g_trace_aa_blocked && seq.size() >= 5 && !r.night.fail && !r.night.pass)) {
          TraceNight("aa", seq, *run, again, r.night, thresholds, g_replay);
        }
        const auto vs = All(r);
        for (int k = 0; k < 7; ++k) {
          t[k].aa_all.Add(*vs[k]);
          if (seq.size() >= 5) t[k].aa_5.Add(*vs[k]);
        }
      }
      seq.push_back(run);
    }
    std::fprintf(stderr, "night_replay: %s (%s) A/A done\n", h.c_str(), condition[h].c_str());
    // Slow from night k: the k−1 base nights before it.
    std::vector<const NightRun*> prefix;
    for (const auto& [k, run] : base) {
      if (prefix.size() >= 5) {
        const NightRun* again = stand_in(h, "conv10", k);
        if (variants.count("conv10") && variants.at("conv10").count(k) && again) {
          const auto& c10 = variants.at("conv10");
          const Rules r = JudgeAll(prefix, *c10.at(k), again, thresholds);
          record(h, "conv10", k, r);
          if (g_trace_conv10) {
            TraceNight("conv10", prefix, *c10.at(k), again, r.night, thresholds, g_replay);
          }
          const auto vs = All(r);
          for (int i = 0; i < 7; ++i) t[i].conv10.Add(*vs[i]);
        }
        if (variants.count("conv5")) {
          const auto& c5 = variants.at("conv5");
          if (c5.count(k) && c5.count(k + 1) && c5.count(k + 2) && stand_in(h, "conv5", k) &&
              stand_in(h, "conv5", k + 1) && stand_in(h, "conv5", k + 2)) {
            std::vector<const NightRun*> s = prefix;
            bool gate[7] = {}, any = false;
            for (int j = k; j <= k + 2; ++j) {
              const Rules r = JudgeAll(s, *c5.at(j), stand_in(h, "conv5", j), thresholds);
              record(h, "conv5", j, r);
              if (g_trace_conv5) {
                TraceConv5Night(s, *c5.at(j), j - k + 1, prefix.size(), r.night, thresholds, g_replay);
              }
              const auto vs = All(r);
              for (int i = 0; i < 7; ++i) gate[i] = gate[i] || vs[i]->fail;
              s.push_back(c5.at(j));
              any = any || DetectFinds(s, prefix.size(), thresholds);
            }
            for (int i = 0; i < 7; ++i) {
              ++t[i].conv5_n;
              t[i].conv5_gate += gate[i];
              t[i].conv5_any += gate[i] || (i <= 1 && any);
            }
          }
        }
      }
      prefix.push_back(run);
    }
    std::fprintf(stderr, "night_replay: %s slow sequences done\n", h.c_str());
  }
  for (const auto& [cond, t] : table) {
    std::printf("\n== %s ==\n", cond.c_str());
    // A/A exit 1 over the judged nights (the history holds >= 5 nights) is
    // the headline: the gate exits 0 by rule on shorter histories, which
    // the "all" column counts too.
    std::printf("%-30s %-20s %-9s %-20s %-9s %-20s %-20s %-20s %-20s %-20s %-20s\n", "rule",
                "A/A exit 1 (all)", "95% upper", "A/A exit 1 (>=5)", "95% upper",
                "A/A pass (>=5 nights)", "conv10 exit 1", "conv10 named first",
                "..conv or its deleg.", "..or attributed", "conv5 within 3");
    for (int k = 0; k < 7; ++k) {
      char upper[16], upper5[16];
      std::snprintf(upper, sizeof upper, "%.1f%%", 100 * UpperBound(t[k].aa_all.fail, t[k].aa_all.n));
      std::snprintf(upper5, sizeof upper5, "%.1f%%", 100 * UpperBound(t[k].aa_5.fail, t[k].aa_5.n));
      std::printf("%-30s %-20s %-9s %-20s %-9s %-20s %-20s %-20s %-20s %-20s %-20s\n", names[k],
                  Rate(t[k].aa_all.fail, t[k].aa_all.n).c_str(), upper,
                  Rate(t[k].aa_5.fail, t[k].aa_5.n).c_str(), upper5,
                  Rate(t[k].aa_5.pass, t[k].aa_5.n).c_str(),
                  Rate(t[k].conv10.fail, t[k].conv10.n).c_str(),
                  Rate(t[k].conv10.named, t[k].conv10.n).c_str(),
                  Rate(t[k].conv10.named_or_delegate, t[k].conv10.n).c_str(),
                  Rate(t[k].conv10.named_attributed, t[k].conv10.n).c_str(),
                  Rate(k <= 1 ? t[k].conv5_any : t[k].conv5_gate, t[k].conv5_n).c_str());
    }
    std::printf("night gate: A/A nights with a history too short to judge: %zu of %zu; conv5 "
                "found by the gate alone: %s\n",
                t[0].aa_all.short_history, t[0].aa_all.n,
                Rate(t[0].conv5_gate, t[0].conv5_n).c_str());
  }
  std::printf("left out: %zu A/A nights with no later run to stand in for the confirmation run "
              "(each history's last night; the conv sequences likewise)\n", unconfirmable);
  return 0;
}

}  // namespace
}  // namespace etbench::bench

int main(int argc, char** argv) { return etbench::bench::Main(argc, argv); }
