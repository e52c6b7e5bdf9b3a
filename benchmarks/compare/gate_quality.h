#pragma once
// Shared pieces of the gate-quality evaluation (gate_quality.cc runs it).

#include <cstddef>
#include <string>

namespace etbench::gate_quality {

/// A rate with its 95% Wilson interval, "12/1000 = 1.20% [0.69%, 2.09%]".
std::string Rate(std::size_t hits, std::size_t trials);

/// Part 1: the simulation; prints its tables. Returns false when a target
/// is missed.
/// `thresholds` defaults to DefaultThresholds() (overridable for tuning).
struct SimulationOverrides {
  double fdr = 0;    // 0 = default
  double alpha = 0;  // 0 = default
  bool plain_bh = false;  // noise_aware_fdr off (for the ablation)
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

}  // namespace etbench::gate_quality
