// Verdict names and the too-few-samples rule (see verdict.h).

#include "etbench/compare/verdict.h"

namespace etbench {

const char* VerdictName(Verdict verdict) {
  switch (verdict) {
    case Verdict::kRegression: return "regression";
    case Verdict::kImprovement: return "improvement";
    case Verdict::kUnchanged: return "unchanged";
    case Verdict::kInconclusive: return "inconclusive";
  }
  return "?";
}

bool TooFewSamples(std::size_t n_baseline, std::size_t n_candidate, std::size_t min_samples) {
  return n_baseline == 0 || n_candidate == 0 || n_baseline < min_samples ||
         n_candidate < min_samples;
}

}  // namespace etbench
