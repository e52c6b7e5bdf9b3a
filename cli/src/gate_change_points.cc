// "Change point confirmed" in the nightly gate (gate_change_points.h).

#include "gate_change_points.h"

#include <algorithm>
#include <cstdio>
#include <map>

#include "etbench/base/units.h"
#include "etbench/cli/etbench_cli.h"

namespace etbench {

namespace {

std::string Percent(double fraction) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%+.1f%%", 100 * fraction);
  return buf;
}

// "Execute/native_call_convolution.out#3": the label without its model.
std::string WithinModel(const history::ChangePoint& cp) {
  const std::string prefix = cp.key.model + "/";
  return cp.label.rfind(prefix, 0) == 0 ? cp.label.substr(prefix.size()) : cp.label;
}

}  // namespace

std::vector<std::string> ConfirmedChangePointLines(const history::ConfirmedTonight& tonight) {
  // One line per model: its Method::execute change (or, without one, the
  // part that added the most time) and the parts that moved with it.
  std::map<std::string, std::vector<const history::ChangePoint*>> by_model;
  for (const history::ChangePoint& cp : tonight.confirmed) by_model[cp.key.model].push_back(&cp);
  std::vector<std::string> lines;
  for (auto& [model, cps] : by_model) {
    std::stable_sort(cps.begin(), cps.end(), [](const auto* a, const auto* b) {
      if (a->end_to_end != b->end_to_end) return a->end_to_end;
      return (a->after - a->before) > (b->after - b->before);
    });
    const history::ChangePoint& head = *cps.front();
    std::string line = "change point confirmed tonight: " + head.label + " " +
                       Percent(head.change) + " [" + Percent(head.change_low) + ", " +
                       Percent(head.change_high) + "] (" + FormatQuantity(head.before, head.unit) +
                       " -> " + FormatQuantity(head.after, head.unit) + ") since " +
                       (head.commit_after.empty() ? "the run of " + head.time_after
                                                  : head.commit_after + " (" + head.time_after + ")") +
                       ", " + std::to_string(head.runs_before) + " nights before it, " +
                       std::to_string(head.runs_after) + " at the new level";
    std::string ids = head.id;
    for (std::size_t i = 1; i < cps.size(); ++i) {
      line += (i == 1 ? "; with it: " : ", ") + WithinModel(*cps[i]) + " " + Percent(cps[i]->change);
      ids += " " + cps[i]->id;
    }
    lines.push_back(line + "; found by history detect (if intended: etbench history ack " + ids +
                    ")");
  }
  if (tonight.older_open > 0) {
    lines.push_back(std::to_string(tonight.older_open) + " older regression change point" +
                    (tonight.older_open == 1 ? "" : "s") +
                    " still open, not acknowledged (etbench history detect lists them)");
  }
  return lines;
}

int ExitWithConfirmed(const history::ConfirmedTonight& tonight, int exit, bool advisory) {
  if (tonight.confirmed.empty() || advisory) return exit;
  if (exit == kExitOk || exit == kExitInconclusive) return kExitRegression;
  return exit;
}

}  // namespace etbench
