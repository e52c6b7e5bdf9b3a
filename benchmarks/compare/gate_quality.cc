// The gate-quality evaluation: how often the gate cries wolf on no change,
// and how often it catches real slowdowns, with the default thresholds.
//
//   gate_quality [--comparisons N] [--seed S] [--gates G] [--iterations I]
//                [--fdr Q] [--alpha A] [--plain-bh] [--protocol gate|ab|both]
//                [--ignore-repetitions]
//                [--skip-simulation]
//                [--skip-real]
//   gate_quality --ab-real [--scenarios aa,conv10,conv5,all3] [--null-trials N]
//                [--trials N] [--load PERCENT] [--budget S] [--config FILE]
//                [--model NAME] [--work-dir DIR] [--no-old-protocol]
//     real `etbench ab` runs (build/tools/etbench), see ab_real.cc.
//   gate_quality --traces DIR [--comparisons N] [--seed S] [--scenarios LIST]
//                [--budget S] [--source recorded|lognormal|both]
//     the trace-driven simulation on recorded runs, see trace_replay.cc.
//   gate_quality --record-trace AB_DIR --out FILE
//     reduces one recorded A/A ab session to a trace (record_traces.sh).
//   gate_quality --fast-look-nulls [--comparisons N] [--seed S]
//     the fast look on adversarial nulls, see fast_look_nulls.cc.
//   gate_quality --sub-threshold [--comparisons N] [--seed S]
//     changes below the threshold in the sequential loop, see sub_threshold.cc.
//
// Exit status 0 when every target is met, 1 otherwise.

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "gate_quality.h"

namespace etbench::gate_quality {

std::pair<double, double> WilsonInterval(std::size_t hits, std::size_t trials) {
  if (trials == 0) return {0, 1};
  const double n = static_cast<double>(trials);
  const double p = static_cast<double>(hits) / n;
  const double z = 1.959963984540054;
  const double center = (p + z * z / (2 * n)) / (1 + z * z / n);
  const double half = z * std::sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n);
  return {std::max(0.0, center - half), std::min(1.0, center + half)};
}

std::string Rate(std::size_t hits, std::size_t trials) {
  if (trials == 0) return "0/0";
  const double p = static_cast<double>(hits) / static_cast<double>(trials);
  const auto [low, high] = WilsonInterval(hits, trials);
  char buffer[128];
  std::snprintf(buffer, sizeof(buffer), "%zu/%zu = %.2f%% [95%% CI %.2f%%, %.2f%%]", hits, trials,
                p * 100, low * 100, high * 100);
  return buffer;
}

}  // namespace etbench::gate_quality

int main(int argc, char** argv) {
  std::size_t comparisons = 1000;
  unsigned long long seed = 20250101;
  int gates = 20, iterations = 120;
  std::string protocol = "both";
  bool simulation = true, real = true, use_repetitions = true;
  etbench::gate_quality::SimulationOverrides overrides;
  etbench::gate_quality::AbRealOptions ab;
  ab.etbench = ETBENCH_BINARY_DIR "/tools/etbench";
  ab.config = ETBENCH_SOURCE_DIR "/configs/default.yaml";
  ab.work_dir = ETBENCH_BINARY_DIR "/gate_quality_ab";
  bool ab_real = false, fast_look_nulls = false, sub_threshold = false, comparisons_given = false, seed_given = false, scenarios_given = false;
  etbench::gate_quality::TraceOptions traces;
  std::string record_dir, record_out;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    auto next = [&]() -> const char* { return i + 1 < argc ? argv[++i] : "0"; };
    if (arg == "--comparisons") {
      comparisons = std::strtoull(next(), nullptr, 10);
      comparisons_given = true;
    }
    else if (arg == "--seed") {
      seed = std::strtoull(next(), nullptr, 10);
      seed_given = true;
    }
    else if (arg == "--gates") gates = std::atoi(next());
    else if (arg == "--iterations") iterations = std::atoi(next());
    else if (arg == "--fdr") overrides.fdr = std::atof(next());
    else if (arg == "--alpha") overrides.alpha = std::atof(next());
    else if (arg == "--plain-bh") overrides.plain_bh = true;
    else if (arg == "--optimal-weights") overrides.optimal_weights = true;
    else if (arg == "--skip-simulation") simulation = false;
    else if (arg == "--skip-real") real = false;
    else if (arg == "--ignore-repetitions") use_repetitions = false;
    else if (arg == "--protocol") protocol = next();
    else if (arg == "--ab-real") ab_real = true;
    else if (arg == "--fast-look-nulls") fast_look_nulls = true;
    else if (arg == "--sub-threshold") sub_threshold = true;
    else if (arg == "--scenarios") {
      scenarios_given = true;
      ab.scenarios.clear();
      std::string list = next();
      for (std::size_t p = 0; p != std::string::npos;) {
        const std::size_t comma = list.find(',', p);
        ab.scenarios.push_back(list.substr(p, comma == std::string::npos ? comma : comma - p));
        p = comma == std::string::npos ? comma : comma + 1;
      }
    }
    else if (arg == "--null-trials") ab.null_trials = std::atoi(next());
    else if (arg == "--trials") ab.trials = std::atoi(next());
    else if (arg == "--first-trial") ab.first_trial = std::atoi(next());
    else if (arg == "--load") ab.load = std::atoi(next());
    else if (arg == "--budget") ab.budget_s = std::atof(next());
    else if (arg == "--config") ab.config = next();
    else if (arg == "--model") ab.model = next();
    else if (arg == "--work-dir") ab.work_dir = next();
    else if (arg == "--no-old-protocol") ab.old_protocol = false;
    else if (arg == "--keep-runs") ab.keep_runs = true;
    else if (arg == "--etbench") ab.etbench = next();
    else if (arg == "--et-pair") ab.et_pair = next();
    else if (arg == "--traces") traces.dir = next();
    else if (arg == "--source") {
      const std::string source = next();
      traces.recorded = source != "lognormal";
      traces.lognormal = source != "recorded";
    }
    else if (arg == "--record-trace") record_dir = next();
    else if (arg == "--out") record_out = next();
    else {
      std::fprintf(stderr, "usage: gate_quality [--comparisons N] [--seed S] [--gates G] "
                           "[--iterations I] [--fdr Q] [--alpha A] [--plain-bh] "
                           "[--protocol gate|ab|both] [--ignore-repetitions] "
                           "[--skip-simulation] [--skip-real] | --ab-real [--scenarios LIST] "
                           "[--null-trials N] [--trials N] [--first-trial K] [--load PCT] "
                           "[--budget S] [--no-old-protocol] [--keep-runs] [--work-dir D] [--et-pair DIR] | "
                           "--traces DIR [--comparisons N] [--seed S] [--scenarios LIST] "
                           "[--budget S] [--source recorded|lognormal|both] | --record-trace AB_DIR --out FILE\n");
      return 2;
    }
  }
  bool ok = true;
  if (ab_real) return etbench::gate_quality::RunAbReal(ab) ? 0 : 1;
  if (sub_threshold) {
    return etbench::gate_quality::RunSubThreshold(comparisons_given ? comparisons : 400, seed_given ? seed : 20261127) ? 0 : 1;
  }
  if (fast_look_nulls) {
    return etbench::gate_quality::RunFastLookNulls(comparisons_given ? comparisons : 200000, seed_given ? seed : 20261127) ? 0 : 1;
  }
  if (!record_dir.empty()) {
    return etbench::gate_quality::RecordTrace(record_dir, record_out) ? 0 : 1;
  }
  if (!traces.dir.empty()) {
    if (comparisons_given) traces.comparisons = comparisons;
    if (seed_given) traces.seed = seed;
    if (scenarios_given) traces.scenarios = ab.scenarios;
    if (ab.budget_s > 0) traces.budget_s = ab.budget_s;  // else the traces' own 60 s
    return etbench::gate_quality::RunTraceSimulation(traces) ? 0 : 1;
  }
  if (simulation) ok &= etbench::gate_quality::RunSimulation(comparisons, seed, overrides);
  if (real && protocol != "ab") {
    ok &= etbench::gate_quality::RunRealRuns(ETBENCH_SOURCE_DIR, gates, iterations, false,
                                                     use_repetitions);
  }
  if (real && protocol != "gate") {
    ok &= etbench::gate_quality::RunRealRuns(ETBENCH_SOURCE_DIR, gates, iterations, true,
                                                     use_repetitions);
  }
  std::printf("\n%s\n", ok ? "All targets met." : "Some targets MISSED.");
  return ok ? 0 : 1;
}
