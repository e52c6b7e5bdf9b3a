#pragma once
// Shared pieces of the gate-quality evaluation (gate_quality.cc runs it).

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace etbench::gate_quality {

/// A rate with its 95% Wilson interval, "12/1000 = 1.20% [0.69%, 2.09%]".
std::string Rate(std::size_t hits, std::size_t trials);

/// The 95% Wilson interval of hits/trials (0, 1 when trials is 0).
std::pair<double, double> WilsonInterval(std::size_t hits, std::size_t trials);

/// The fast look's false-positive rates on adversarial nulls and its power
/// (fast_look_nulls.cc): `comparisons` simulated first looks per scenario,
/// seeded. Returns false when a null's 95% upper bound exceeds a nominal
/// level.
bool RunFastLookNulls(std::size_t comparisons, unsigned long long seed);

/// Lasting changes below and above the threshold through AbSequence, with
/// the half-threshold and the threshold rule for the estimate
/// (sub_threshold.cc). False when no change regresses beyond alpha.
bool RunSubThreshold(std::size_t comparisons, unsigned long long seed);

/// Part 1: the simulation; prints its tables. Returns false when a target
/// is missed.
/// `thresholds` defaults to DefaultThresholds() (overridable for tuning).
struct SimulationOverrides {
  double fdr = 0;    // 0 = default
  double alpha = 0;  // 0 = default
  bool plain_bh = false;  // noise_aware_fdr off (for the ablation)
  bool optimal_weights = false;  // Roeder–Wasserman weights on (the old default)
};
bool RunSimulation(std::size_t comparisons, unsigned long long seed,
                   const SimulationOverrides& overrides = {});

/// Part 2: real runs of toy_cnn on the reference runtime, either gated
/// against one baseline run first or with both sides interleaved (ABBA);
/// `use_repetitions` false drops the run grouping (the ablation: samples
/// as if independent). Returns false when a target is missed; prints why it
/// cannot run when the runtime is not built.
bool RunRealRuns(const std::string& source_dir, int gates, int iterations, bool interleaved,
                 bool use_repetitions = true);

/// Part 3: real `etbench ab` runs (subprocesses) of `model`, per scenario
/// (aa, conv10, conv5, all3; et_aa, et_add with `et_pair`), quiet or under `load` percent of one CPU
/// (stress-ng), with the new, previous and compare.py rules side by side;
/// every trial is appended to <work_dir>/trials.csv. Returns false when a
/// run failed.
struct AbRealOptions {
  std::string etbench;
  std::string config;
  std::string model = "toy_cnn";  ///< "all": the whole suite (no --model)
  std::vector<std::string> scenarios{"aa", "conv10"};
  int null_trials = 20;
  /// Index of the first trial: chunked runs that append to one trials.csv
  /// pass distinct offsets so every trial has its own seed and directory.
  int first_trial = 0;
  int trials = 20;
  int load = 0;
  /// 0: etbench ab's default (60 s per model run).
  double budget_s = 0;
  bool old_protocol = true;
  bool keep_runs = false;
  std::string work_dir;
  /// The two builds of ExecuTorch's executor_runner
  /// (build_executorch_pair.sh's OUT: base/, base_copy/, slow_add/) for the
  /// scenarios et_aa (base against its copy) and et_add (base against
  /// slow_add, whose add.out is several times slower); use with
  /// --config configs/executorch.yaml --model bundled_program.
  std::string et_pair;
};
bool RunAbReal(const AbRealOptions& options);

/// Part 4: the trace-driven simulation (trace_replay.cc): comparisons
/// resampled from the recorded runs in `dir` (run_trace.h), per scenario
/// (aa, conv10, conv5, all3) and recorded condition, with the new,
/// previous and compare.py rules side by side, on the recorded runs and on
/// a log-normal model fitted to them. Returns false when a trace cannot be
/// read or a comparison fails.
struct TraceOptions {
  std::string dir;
  std::size_t comparisons = 200;
  unsigned long long seed = 20261125;
  std::vector<std::string> scenarios{"aa", "conv10", "conv5", "all3"};
  double budget_s = 60;
  std::size_t max_blocks = 100;  // AbPlan::max_blocks
  bool recorded = true;   // resample the recorded runs
  bool lognormal = true;  // and the log-normal model fitted to them
};
bool RunTraceSimulation(const TraceOptions& options);

/// gate_quality --record-trace: one A/A `etbench ab` output directory
/// reduced to a run trace file (trace_record.cc). False on errors.
bool RecordTrace(const std::string& ab_dir, const std::string& out_path);

}  // namespace etbench::gate_quality
