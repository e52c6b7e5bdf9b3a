#pragma once
// night_replay's diagnostics: why the gate decided what it did on recorded
// nights (--show, --blockers, --trace-conv5, --trace-aa, --trace-conv10).
// Each prints to stdout; none changes the tables.

#include <cstddef>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "night_data.h"
#include "night_judge.h"

namespace etbench::bench {

/// history → variant → night → run
using ByHistory = std::map<std::string, std::map<std::string, std::map<int, const NightRun*>>>;

/// --show HISTORY:NIGHT:VARIANT — the new gate's rows for that night against
/// the base nights before it, with the flags' options: the single look
/// before any confirmation run, then, where the replay takes one, the rows
/// as judged with it: `stand_in(history, variant, night)` is the run
/// standing in for the confirmation run, or null.
/// 2 when the night is unknown or too early to judge.
using StandIn = std::function<const NightRun*(const std::string&, const std::string&, int)>;
int Show(const ByHistory& by, const std::string& spec, const Thresholds& thresholds,
         const ReplayOptions& replay, const StandIn& stand_in);

/// --blockers: A/A nights (base night t against base nights 1..t−1, the
/// stable segment as the gate picks it) — how many pass, and which gated
/// rows keep the others from passing, by model and name, with their typical
/// upper bound; every A/A regression before confirmation.
int Blockers(const ByHistory& by, const std::map<std::string, std::string>& condition,
             const Thresholds& thresholds, const NightGateOptions& options);

/// --trace-conv5: one line per night of a conv +5% sequence (slow night
/// `step` of 3): the new gate's outcome `night` (after confirmation, as
/// replayed), its single look's Method::execute rows of the models with
/// convolutions (before confirmation), and the regression change points of
/// those models that `history detect` finds with tonight, or the best
/// split's p of toy_cnn's Method::execute when it finds none.
void TraceConv5Night(const std::vector<const NightRun*>& before, const NightRun& tonight, int step,
                     std::size_t first_slow, const Verdict2& night, const Thresholds& thresholds,
                     const ReplayOptions& options);

/// --trace-aa / --trace-conv10: one line for a replayed night (`what`, e.g.
/// "aa" or "conv10"): the gate's outcome `night` (after confirmation and
/// the change-point rule), the look that decided, tonight's machine level
/// (and the confirmation run's), every counted regression row of the final
/// judgement (largest added time first: the first is what is named first),
/// and the change points tonight confirmed.
void TraceNight(const char* what, const std::vector<const NightRun*>& before,
                const NightRun& tonight, const NightRun* again, const Verdict2& night,
                const Thresholds& thresholds, const ReplayOptions& options);

}  // namespace etbench::bench
