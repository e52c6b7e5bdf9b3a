// "Change point confirmed" in the nightly gate (gate_change_points.h).

#include "gate_change_points.h"

#include "etbench/cli/etbench_cli.h"

namespace etbench {

int ExitWithConfirmed(const history::ConfirmedTonight& tonight, int exit, bool advisory) {
  if (tonight.confirmed.empty() || advisory) return exit;
  if (exit == kExitOk || exit == kExitInconclusive) return kExitRegression;
  return exit;
}

}  // namespace etbench
