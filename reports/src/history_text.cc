// Pieces of text shared by the history renderers (history_text.h).
#include "history_text.h"

#include <cstdio>

namespace etbench::reports::internal {

std::string ShortCommit(const std::string& commit) { return commit.substr(0, 12); }

std::string CommitRange(const std::string& before, const std::string& after) {
  return (before.empty() ? "?" : ShortCommit(before)) + ".." +
         (after.empty() ? "?" : ShortCommit(after));
}

std::string CommitRange(const history::ChangePoint& c) {
  return CommitRange(c.commit_before, c.commit_after);
}

std::string CommitRange(const history::MachineShift& m) {
  return CommitRange(m.commit_before, m.commit_after);
}

std::string SignedPercent(double fraction) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%+.1f%%", 100 * fraction);
  return buffer;
}

std::string SignedInterval(double low, double high) {
  return "[" + SignedPercent(low) + ", " + SignedPercent(high) + "]";
}

std::string ChangeVerdict(const history::ChangePoint& c) {
  if (!c.regression) return "improvement";
  return c.acknowledged ? "regression (acknowledged)" : "REGRESSION";
}

std::string ShiftName(const history::MachineShift& m) {
  return m.group.empty() ? "machine shift" : "shift of block " + m.group;
}

std::string ShiftedMetrics(const history::MachineShift& m) {
  return m.group.empty() ? "every operator" : "every " + m.group + " metric";
}

std::string MachineShiftKind(const history::MachineShift& m) {
  if (m.possible_code_change) {
    return ShiftName(m) + " or a code change that slowed " + ShiftedMetrics(m);
  }
  return m.persists ? ShiftName(m) : ShiftName(m) + " (came back)";
}

std::string MachineShiftVerdict(const history::MachineShift& m) {
  if (!m.regression) return MachineShiftKind(m);
  return MachineShiftKind(m) +
         (m.acknowledged ? ": acknowledged" : ": REGRESSION until acknowledged");
}

}  // namespace etbench::reports::internal
