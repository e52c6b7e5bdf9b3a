// Loading ETDumps (directly or through a results file) for the timeline
// exports.

#include "etbench/reports/trace_source.h"

#include <filesystem>

#include "etbench/inspector/etdump_file.h"
#include "etbench/inspector/event_block_reader.h"
#include "etbench/inspector/inspector.h"
#include "etbench/results/results.h"

namespace etbench::reports {

const char* TraceValueUnit(const TraceSource& source) {
  return source.source_time_scale == TimeScale::kCycles ? "cycles" : "ns";
}

Result<TraceSource> LoadEtdumpTraceSource(const std::string& path,
                                          const TraceLoadOptions& options,
                                          const std::string& name, Disk& disk) {
  InspectorOptions inspector_options;
  inspector_options.source_time_scale = options.source_time_scale;
  // Totals in ns keep integer-tick precision; cycles can only stay cycles.
  inspector_options.target_time_scale =
      options.source_time_scale == TimeScale::kCycles ? TimeScale::kCycles : TimeScale::kNs;
  // One pass: each run grouped as it is verified (EtdumpFile::Open then
  // BuildEventBlocks, with the same blocks and errors).
  EventBlockReader reader(std::move(inspector_options));
  auto file = reader.Open(path);
  disk.NoteRead(path);  // the inspector maps the file itself
  if (!file.ok()) return file.error();
  auto blocks = reader.Finish();
  if (!blocks.ok()) return blocks.error();
  TraceSource source;
  source.name = name.empty() ? std::filesystem::path(path).filename().string() : name;
  source.blocks = std::move(blocks).value();
  source.source_time_scale = options.source_time_scale;
  source.tick_rate_hz = options.tick_rate_hz;
  return source;
}

Result<std::vector<TraceSource>> LoadResultsTraceSources(const std::string& results_path,
                                                        Disk& disk) {
  auto results = results::ReadResultsFile(results_path, disk);
  if (!results.ok()) return results.error();
  const std::filesystem::path dir = std::filesystem::path(results_path).parent_path();
  std::vector<TraceSource> sources;
  for (const results::ModelResult& model : results->models) {
    for (const results::RepetitionRecord& rep : model.repetitions) {
      if (rep.etdump_path.empty()) continue;
      auto scale = ParseTimeScale(rep.time_source);
      if (!scale.ok()) {
        return InputError(results_path + ": model " + model.name + " repetition " +
                          std::to_string(rep.index) + ": " + scale.error().message);
      }
      TraceLoadOptions options;
      options.source_time_scale = scale.value();
      options.tick_rate_hz = rep.tick_rate_hz;
      auto source = LoadEtdumpTraceSource((dir / rep.etdump_path).string(), options,
                                          model.name + " rep " + std::to_string(rep.index), disk);
      if (!source.ok()) return source.error();
      sources.push_back(std::move(source).value());
    }
  }
  if (sources.empty()) {
    return InputError(results_path + ": no model has an ETDump to export");
  }
  return sources;
}

}  // namespace etbench::reports
