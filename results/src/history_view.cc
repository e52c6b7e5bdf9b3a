// The computed parts of the history view models (history_view.h).
#include "etbench/results/history_view.h"

#include <algorithm>

namespace etbench::history {

std::size_t CountOpenRegressions(const std::vector<ChangePoint>& change_points) {
  return static_cast<std::size_t>(
      std::count_if(change_points.begin(), change_points.end(),
                    [](const ChangePoint& c) { return c.regression && !c.acknowledged; }));
}

std::size_t CountOpenRegressions(const std::vector<MachineShift>& machine_shifts) {
  return static_cast<std::size_t>(
      std::count_if(machine_shifts.begin(), machine_shifts.end(),
                    [](const MachineShift& m) { return m.regression && !m.acknowledged; }));
}

std::size_t Detection::OpenRegressions() const {
  return CountOpenRegressions(change_points) + CountOpenRegressions(machine_shifts);
}

std::size_t HistoryReport::OpenRegressions() const {
  return CountOpenRegressions(change_points) + CountOpenRegressions(machine_shifts);
}

}  // namespace etbench::history
