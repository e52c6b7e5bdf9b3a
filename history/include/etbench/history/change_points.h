#pragma once
// Change points in one series of per-run statistics (one value per run).
//
// The method is Apache Otava's: E-Divisive means (Matteson & James 2014)
// locates the split that maximises the energy distance between the two
// sides, and a two-sample test decides whether the split is real; binary
// segmentation then repeats on both sides. Otava replaced the original
// permutation test by Student's t-test (deterministic, fast, and able to
// give the small p-values that false-discovery control across hundreds of
// metrics needs); etbench does the same with three changes:
//   - values are log-transformed, so a change is relative and the test is
//     scale-free (a 5% step is as visible at 1 us as at 1 s);
//   - the t-test is Yuen's on 20%-trimmed means with pooled winsorised
//     variance: runs hit by background load (a fifth of a segment) do not
//     hide a change, and three runs after a change are already decidable;
//   - the p-value is multiplied by the number of candidate splits (a
//     Bonferroni bound on picking the best split), so a flat series does not
//     produce change points by selection alone.
// The per-run statistic given to it is the run's lower decile (see
// SeriesPoint::p10), so outlier samples within a run do not move it.

#include <cstddef>
#include <vector>

namespace etbench::history {

/// Yuen's 20%-trimmed two-sample test (pooled winsorised variance),
/// two-sided, of the values as given (no log): the test BestSplit applies
/// to the two sides of its split.
double TrimmedTwoSampleP(std::vector<double> a, std::vector<double> b);

struct SplitTest {
  std::size_t index = 0;  // first element of the right side
  double energy = 0;      // E-Divisive's Q at the split
  double p_value = 1;     // selection-corrected, two-sided
};

/// The best split of values[begin, end) with at least `min_segment` values
/// on each side, and its p-value. p_value = 1 when the range is too short.
/// Series of positive values are log-transformed first.
SplitTest BestSplit(const std::vector<double>& values, std::size_t begin, std::size_t end,
                    std::size_t min_segment);

struct SeriesChangePoint {
  std::size_t index = 0;  // first run of the new segment
  double p_value = 1;
};

/// Binary segmentation: every split with p_value ≤ alpha, recursively, in
/// index order.
std::vector<SeriesChangePoint> FindChangePoints(const std::vector<double>& values, double alpha,
                                                std::size_t min_segment);

/// Whether segment `segment` (≥ 1) of a series enters a level the series has
/// not occupied before. `levels` are the segments' levels in order (each
/// segment's median, positive). The segment moved up (down) from the one
/// before it; its level is new when it is at least `min_change` (relative)
/// above every earlier segment's level (below every earlier one). A machine
/// that comes back to a state it has shown is the machine; a code change
/// goes where the series has not been (MachineShift::possible_code_change).
/// Per metric the same rule did not help on the real histories and is not
/// applied (docs/history.md).
bool IsNewLevel(const std::vector<double>& levels, std::size_t segment, double min_change);

}  // namespace etbench::history
