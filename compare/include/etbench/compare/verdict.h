#pragma once
// The per-metric verdict: regression, improvement, unchanged or
// inconclusive. The rules that choose it from a row's interval live in
// interval_verdict.h (one model per row); this header names the verdicts
// and the one rule that comes before any model: too few samples.

#include <cstddef>

namespace etbench {

enum class Verdict { kRegression, kImprovement, kUnchanged, kInconclusive };

/// "regression", "improvement", "unchanged", "inconclusive".
const char* VerdictName(Verdict verdict);

/// Whether a side has fewer than `min_samples` samples (then the row is
/// inconclusive, without an interval; its note is TooFewSamplesNote).
bool TooFewSamples(std::size_t n_baseline, std::size_t n_candidate, std::size_t min_samples);

}  // namespace etbench
