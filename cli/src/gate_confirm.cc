// The nightly gate's confirmation by the builds themselves (gate_confirm.h).

#include "gate_confirm.h"

#include <ostream>

#include "etbench/base/join.h"
#include "etbench/base/terminal_text.h"
#include "etbench/cli/etbench_cli.h"

namespace etbench {

CommandArgs ConfirmAbArgs(const ConfirmRequest& request) {
  CommandArgs args = {request.config_path};
  for (const std::string& s : request.settings) args.insert(args.end(), {"--a", s});
  for (const std::string& m : request.models) args.insert(args.end(), {"--model", m});
  for (const std::string& l : request.labels) args.insert(args.end(), {"--label", l});
  if (!request.thresholds_path.empty()) {
    args.insert(args.end(), {"--thresholds", request.thresholds_path});
  }
  args.push_back("--fail-on-inconclusive");
  return args;
}

int ConfirmWithBuilds(const ConfirmRequest& request, int night_exit, const CliDeps& deps) {
  std::ostream& err = *deps.err;
  if (night_exit != kExitRegression || request.models.empty()) return night_exit;
  err << "etbench gate: confirming with the builds: " << JoinStrings(request.models, " ")
      << " interleaved, A = " << TerminalText(JoinStrings(request.settings, " "))
      << " (the previous build), B = tonight's (etbench ab)\n";
  // stdout keeps the gate's own comparison (a pipe reading JSON gets one
  // document); the builds' table is a diagnostic, on stderr.
  CliDeps confirm_deps = deps;
  confirm_deps.out = deps.err;
  const int ab = RunAbCommand(ConfirmAbArgs(request), confirm_deps);
  switch (ab) {
    case kExitRegression:
      err << "etbench gate: regression confirmed by the builds: the interleaved A/B of "
          << JoinStrings(request.models, " ") << " found it too (exit 1)\n";
      return kExitRegression;
    case kExitOk:
      err << "etbench gate: not confirmed by the builds: the interleaved A/B of "
          << JoinStrings(request.models, " ")
          << " found no regression, so tonight's first-night alert was the machine, not the "
             "code (exit 0)\n";
      return kExitOk;
    case kExitInconclusive:
      err << "etbench gate: the builds' A/B was inconclusive within its budget; the night's "
             "first-night alert stands (exit 1)\n";
      return kExitRegression;
    default:
      return ab;  // an error (2) or Ctrl-C (130): no verdict from the builds
  }
}

}  // namespace etbench
