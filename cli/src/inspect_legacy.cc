// `etbench inspect --legacy-profile FILE`: profiling, framework tax and
// memory tables of the runtime's older profiler dump, or (with --view) the
// analysis views of its conversion to ETDump.
#include "command_support.h"
#include "etbench/cli/etbench_cli.h"
#include "etbench/inspector/etdump_writer.h"
#include "etbench/inspector/legacy_convert.h"
#include "etbench/inspector/legacy_profile.h"
#include "etbench/inspector/legacy_tables.h"
#include "etbench/reports/legacy_render.h"
#include "inspect_flags.h"

namespace etbench {

namespace {

void PrintWarnings(const std::vector<std::string>& warnings, std::ostream& err) {
  for (const std::string& w : warnings) PrintWarning("inspect", w, err);
}

}  // namespace

int RunLegacyInspect(const InspectFlags& flags, std::ostream& out, std::ostream& err,
                     Disk& disk) {
  const std::string command = "inspect";
  if (flags.format == "tsv") {
    return ReportError(command, UsageError("--legacy-profile supports --format table, json or csv"),
                       err);
  }
  auto scale = ParseTimeScale(flags.time_scale);
  if (!scale.ok()) return ReportError(command, scale.error(), err);
  auto profile = ReadLegacyProfile(flags.legacy_profile);
  disk.NoteRead(flags.legacy_profile);  // the inspector reads it itself
  if (!profile.ok()) return ReportError(command, profile.error(), err);
  auto tables = ComputeLegacyTables(profile.value(), scale.value());
  if (!tables.ok()) return ReportError(command, tables.error(), err);
  PrintWarnings(tables->warnings, err);
  std::string text;
  if (flags.format == "json") {
    text = LegacyTablesToJson(tables.value());
  } else if (flags.format == "csv") {
    text = LegacyTablesToCsv(tables.value());
  } else {
    text = RenderLegacyTables(tables.value());
  }
  Status written = EmitOutput(text, flags.output, out, disk);
  if (!written.ok()) return ReportError(command, written.error(), err);
  return kExitOk;
}

Result<std::vector<EventBlock>> LegacyEventBlocks(const std::string& path,
                                                  const InspectorOptions& options,
                                                  std::ostream& err) {
  if (options.source_time_scale == TimeScale::kS) {
    return UsageError("legacy profiles take --time-scale ns, us, ms or cycles (got s)");
  }
  auto profile = ReadLegacyProfile(path);
  if (!profile.ok()) return profile.error();
  auto record = ConvertLegacyToEtdump(profile.value());
  if (!record.ok()) return record.error();
  PrintWarnings(UnfinishedScopeWarnings(profile.value()), err);
  auto file = EtdumpFile::FromBytes(WriteEtdump(record.value()), path + " (converted)");
  if (!file.ok()) return file.error();
  return BuildEventBlocks(file.value(), options);
}

}  // namespace etbench
