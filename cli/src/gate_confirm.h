#pragma once
// `gate --baseline history --confirm-with SETTING…`: a first-night alert
// checked against the builds themselves. When the nightly model finds a
// regression and the previous good build can still be run (runner settings
// such as program=PATH or config=FILE describe it), the suspect models run
// interleaved, old build (A) against tonight's (B), exactly as `etbench ab`
// runs them — what Chromium's Pinpoint does after a perf alert. The A/B
// decides, because interleaving cancels the night's machine state that the
// nightly model can only estimate:
//   A/B regression    → exit 1, "confirmed by the builds";
//   A/B pass/no change → exit 0, the alert withdrawn (the night moved, the
//                        code did not);
//   A/B inconclusive  → the night's verdict stands (exit 1);
//   errors (2) and Ctrl-C (130) pass through.

#include <string>
#include <vector>

#include "commands.h"

namespace etbench {

struct ConfirmRequest {
  std::string config_path;
  std::vector<std::string> settings;  // variant A: the previous good build
  std::vector<std::string> models;    // the suspects (SuspectModels)
  std::vector<std::string> labels;    // passed on as --label
  std::string thresholds_path;        // passed on when given
};

/// The `ab` arguments of the confirmation: CONFIG, --a for each setting,
/// --model for each suspect, the labels and thresholds, and
/// --fail-on-inconclusive (so that an undecided A/B is told apart).
CommandArgs ConfirmAbArgs(const ConfirmRequest& request);

/// Runs the confirmation after the night's comparison was emitted with
/// `night_exit` (1: a regression). Prints what it does, and ab's comparison,
/// on `deps.err` (stdout keeps the night's), and returns the gate's exit code (above).
int ConfirmWithBuilds(const ConfirmRequest& request, int night_exit, const CliDeps& deps);

}  // namespace etbench
