#pragma once
// The trace-driven simulation's data (gate_quality --traces): synthetic
// interleaved comparisons built by resampling whole recorded runs
// (run_trace.h), with a known multiplicative change injected into side B.
//
// A synthetic comparison picks one recorded session and a starting block,
// then takes the session's recorded ABBA blocks (4 consecutive runs) in
// their recorded order from there, circularly: the drift, the outlier runs
// and the bursts arrive in the order the machine produced them. Each block
// gets a fresh random order (ABBA or BAAB, as `etbench ab` draws it), so
// under no change the A and B labels are exchangeable, as in a real A/A.
// Every B run then gets the change (Inject). Deterministic for a seed.

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "etbench/compare/ab_schedule.h"
#include "run_trace.h"

namespace etbench::gate_quality {

/// A known change of side B: every sample of the target kernels times
/// `factor`. Method::execute grows by the kernels' added time (per run:
/// × 1 + (factor − 1)·Σ target kernel medians / Method::execute median;
/// a run's samples of the two are not aligned execution by execution, so
/// the per-run medians carry the change); the kernel's OPERATOR_CALL
/// wrapper by the kernel's added time. The framework overhead stays.
struct Injection {
  std::string name = "aa";
  double factor = 1;
  /// Kernel calls (is_kernel_or_delegate_call) whose name contains `op`;
  /// "" = every kernel call.
  std::string op;
};

/// One run of a synthetic comparison.
struct SyntheticRun {
  AbVariant variant = AbVariant::kA;
  const RunTrace* trace = nullptr;
  TraceRun run;  // with the injection applied (B)
};

struct SyntheticAb {
  std::string source;  // "<trace name> from block K"
  /// The calibration runs' time (two recorded runs).
  double calibration_seconds = 0;
  std::vector<SyntheticRun> runs;  // 4 per block, in order
};

/// The recorded run with `change` applied (see Injection).
TraceRun Inject(const RunTrace& trace, const TraceRun& run, const Injection& change);

/// `blocks` blocks from one of `traces` (each with at least one block),
/// chosen by `seed` (see above).
SyntheticAb Resample(const std::vector<RunTrace>& traces, std::size_t blocks,
                     const Injection& change, uint64_t seed);

/// A log-normal model fitted to `trace`, as a trace of the same metrics,
/// run count and run times: per metric, run medians log-normal around the
/// trace's median run median with the robust spread of the run medians
/// (1.4826·MAD of their logs), and within a run iid log-normal samples with
/// the run's median and the recorded within-run spread of the body (median
/// over runs of the spread between the lowest stored order statistic and
/// the median). No bursts, no outlier runs, no drift, no ticks: what the
/// log-normal model of the simulation (part 1) assumes, on this machine's
/// scales.
RunTrace FitLogNormal(const RunTrace& trace, uint64_t seed);

}  // namespace etbench::gate_quality
