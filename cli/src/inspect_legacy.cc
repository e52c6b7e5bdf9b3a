// `etbench inspect --legacy_profile FILE`: profiling, framework tax and
// memory tables of the runtime's older profiler dump.
#include "command_support.h"
#include "etbench/cli/etbench_cli.h"
#include "etbench/inspector/legacy_profile.h"
#include "etbench/inspector/legacy_tables.h"
#include "etbench/reports/legacy_render.h"
#include "inspect_flags.h"

namespace etbench {

int RunLegacyInspect(const InspectFlags& flags, std::ostream& out, std::ostream& err) {
  const std::string command = "inspect";
  if (flags.format == "tsv") {
    return ReportError(command, UsageError("--legacy_profile supports --format table, json or csv"),
                       err);
  }
  auto scale = ParseTimeScale(flags.time_scale);
  if (!scale.ok()) return ReportError(command, scale.error(), err);
  auto profile = ReadLegacyProfile(flags.legacy_profile);
  if (!profile.ok()) return ReportError(command, profile.error(), err);
  auto tables = ComputeLegacyTables(profile.value(), scale.value());
  if (!tables.ok()) return ReportError(command, tables.error(), err);
  std::string text;
  if (flags.format == "json") {
    text = LegacyTablesToJson(tables.value());
  } else if (flags.format == "csv") {
    text = LegacyTablesToCsv(tables.value());
  } else {
    text = RenderLegacyTables(tables.value());
  }
  Status written = EmitOutput(text, flags.output, out);
  if (!written.ok()) return ReportError(command, written.error(), err);
  return kExitOk;
}

}  // namespace etbench
