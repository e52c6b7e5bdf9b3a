#pragma once
// `gate --baseline history`: "change point confirmed". A small regression
// that no single night shows is confirmed by `history detect` once
// min_segment nights sit at the new level; the nightly gate's baseline then
// restarts at it, so without this the job would go on passing ("history too
// short", then judged against the new level) and nobody would hear of it.
// The night that confirms it fails (exit 1) and says which change it is
// (reports::RenderConfirmedChangePoints); later nights only remind of the
// open ones until `history ack`.

#include "etbench/history/history_workflow.h"

namespace etbench {

/// The gate's exit code with tonight's change points: 1 when one was
/// confirmed tonight and `exit` was 0 or 3 (pass, no regression detected,
/// inconclusive), else `exit`; advisory runs keep `exit`.
int ExitWithConfirmed(const history::ConfirmedTonight& tonight, int exit, bool advisory);

}  // namespace etbench
