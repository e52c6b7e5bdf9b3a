#include "etbench/harness/etdump_processing.h"

#include <algorithm>
#include <set>

#include "etbench/inspector/etdump_file.h"
#include "etbench/inspector/etrecord_symbolicate.h"
#include "etbench/inspector/inspector.h"
#include "etbench/inspector/time_scale.h"

namespace etbench::harness {
namespace {

template <typename T>
void KeepPositions(std::vector<T>* values, const std::vector<bool>& keep) {
  if (values->size() != keep.size()) return;
  std::size_t out = 0;
  for (std::size_t i = 0; i < keep.size(); ++i) {
    if (keep[i]) (*values)[out++] = std::move((*values)[i]);
  }
  values->resize(out);
}

// Drops the runs of `block` at positions where keep is false.
void KeepRuns(EventBlock* block, const std::vector<bool>& keep) {
  for (Event& event : block->events) {
    // Statistics are recomputed once per model, in FinalizeBlockStats.
    if (event.perf_data) {
      KeepPositions(&event.perf_data->raw, keep);
      if (event.perf_data->raw.empty()) event.perf_data.reset();
    }
    KeepPositions(&event.start_ticks, keep);
    KeepPositions(&event.end_ticks, keep);
    KeepPositions(&event.delegate_debug_metadatas, keep);
  }
  for (AllocatorUsage& usage : block->allocations) {
    KeepPositions(&usage.bytes_per_run, keep);
    KeepPositions(&usage.count_per_run, keep);
  }
  KeepPositions(&block->run_indices, keep);
  block->run_count = block->run_indices.size();
  block->framework_tax = FrameworkTaxOfBlock(*block);
}

std::vector<std::string> Distinct(const std::vector<std::string>& items) {
  std::vector<std::string> out;
  for (const std::string& s : items) {
    if (std::find(out.begin(), out.end(), s) == out.end()) out.push_back(s);
  }
  return out;
}

results::BlockResult ToBlockResult(EventBlock&& block, double scale) {
  results::BlockResult r;
  r.name = std::move(block.name);
  r.run_count = block.run_count;
  r.repetition_run_counts = {block.run_count};
  for (Event& event : block.events) {
    if (!event.perf_data) continue;  // debug-only events carry no samples
    results::EventResult e;
    e.name = std::move(event.name);
    e.instruction_id = event.instruction_id;
    e.delegate_debug_identifier = std::move(event.delegate_debug_identifier);
    e.is_delegated_op = event.is_delegated_op;
    e.occurrence = event.occurrence;
    e.op_types = Distinct(event.op_types);
    e.module_paths = EventModulePaths(event);
    e.delegate_backend_name = std::move(event.delegate_backend_name);
    e.perf_data = std::move(*event.perf_data);
    if (scale != 1.0) {
      for (double& v : e.perf_data.raw) v *= scale;
    }
    r.events.push_back(std::move(e));
  }
  r.framework_tax = std::move(block.framework_tax);
  r.allocations = std::move(block.allocations);
  return r;
}

bool SameEvents(const results::BlockResult& a, const results::BlockResult& b) {
  if (a.name != b.name || a.events.size() != b.events.size()) return false;
  for (std::size_t i = 0; i < a.events.size(); ++i) {
    const results::EventResult& x = a.events[i];
    const results::EventResult& y = b.events[i];
    if (x.name != y.name || x.instruction_id != y.instruction_id ||
        x.delegate_debug_identifier != y.delegate_debug_identifier ||
        x.occurrence != y.occurrence) {
      return false;
    }
  }
  return true;
}

void Append(std::vector<double>* to, const std::vector<double>& from) {
  to->insert(to->end(), from.begin(), from.end());
}

}  // namespace

Result<ProcessedEtdump> ProcessEtdump(std::vector<uint8_t> bytes, const std::string& source_name,
                                      const EtdumpProcessOptions& options) {
  if (bytes.empty()) return InputError(source_name + ": the ETDump is empty");
  auto file = EtdumpFile::FromBytes(std::move(bytes), source_name);
  if (!file) return InputError("invalid ETDump: " + file.error().message);

  // Which runs are Execute runs, and which of them are warm-up.
  ProcessedEtdump out;
  std::vector<bool> warmup_run;
  if (const auto* runs = file->root().run_data()) {
    warmup_run.assign(runs->size(), false);
    for (flatbuffers::uoffset_t i = 0; i < runs->size(); ++i) {
      const auto* name = runs->Get(i)->name();
      if (name == nullptr || name->string_view() != "Execute") continue;
      // A run without an events vector logged nothing and forms no block.
      if (runs->Get(i)->events() == nullptr) continue;
      if (out.execute_runs < options.warmup_runs) warmup_run[i] = true;
      ++out.execute_runs;
    }
  }
  if (options.expected_execute_runs && out.execute_runs != *options.expected_execute_runs) {
    return InputError(source_name + ": the ETDump has " + std::to_string(out.execute_runs) +
                      " Execute runs, expected " + std::to_string(*options.expected_execute_runs) +
                      " (" + std::to_string(options.warmup_runs) + " warm-up + " +
                      std::to_string(*options.expected_execute_runs - options.warmup_runs) +
                      " iterations)");
  }
  if (out.execute_runs <= options.warmup_runs) {
    return InputError(source_name + ": the ETDump has " + std::to_string(out.execute_runs) +
                      " Execute runs; more than the " + std::to_string(options.warmup_runs) +
                      " warm-up runs are needed");
  }
  out.warmup_runs_dropped = options.warmup_runs;

  auto unit = ParseTimeScale(options.unit);
  if (!unit) return unit.error();
  const bool cycles = options.time_source == "cycles";
  if (!cycles && *unit == TimeScale::kCycles) {
    return InputError(source_name + ": unit cycles needs time source cycles, the run used " +
                      options.time_source);
  }
  InspectorOptions inspector;
  inspector.source_time_scale = cycles ? TimeScale::kCycles : TimeScale::kNs;
  inspector.target_time_scale = cycles ? TimeScale::kCycles : *unit;
  // Cycles are grouped as cycles, then scaled to time with the tick rate.
  double scale = 1.0;
  if (cycles && *unit != TimeScale::kCycles) {
    if (!(options.tick_rate_hz > 0)) {
      return InputError(source_name + ": cycles need a tick rate to become " + options.unit);
    }
    scale = UnitsPerSecond(*unit) / options.tick_rate_hz;
  }

  std::set<std::string> delegate_clocks(options.delegate_time_sources.begin(),
                                        options.delegate_time_sources.end());
  if (delegate_clocks.size() > 1) {
    return InputError(source_name +
                      ": delegates with different clocks in one run are not supported");
  }
  if (delegate_clocks.size() == 1 && *delegate_clocks.begin() != options.time_source) {
    const std::string other = *delegate_clocks.begin();
    if (other == "cycles") {
      if (!options.delegate_cycles_hz) {
        return InputError(source_name + ": a delegate counts cycles but its rate is unknown");
      }
      const double factor = UnitsPerSecond(*unit) / *options.delegate_cycles_hz;
      inspector.delegate_time_converter = [factor](const std::string&, uint64_t elapsed) {
        return static_cast<double>(elapsed) * factor;
      };
    } else {
      // ns delegate events in a cycles run: to cycles, scaled with the rest.
      const double factor = options.tick_rate_hz / 1e9;
      inspector.delegate_time_converter = [factor](const std::string&, uint64_t elapsed) {
        return static_cast<double>(elapsed) * factor;
      };
    }
  }

  auto blocks = BuildEventBlocks(*file, inspector);
  if (!blocks) return InputError(source_name + ": " + blocks.error().message);
  out.warnings = file->warnings();
  if (options.etrecord != nullptr) {
    for (std::string& w : Symbolicate(*options.etrecord, *blocks)) {
      out.warnings.push_back(std::move(w));
    }
  }
  for (EventBlock& block : *blocks) {
    if (options.warmup_runs > 0) {
      std::vector<bool> keep(block.run_indices.size(), true);
      bool any_dropped = false;
      for (std::size_t p = 0; p < keep.size(); ++p) {
        const std::size_t run = block.run_indices[p];
        if (run < warmup_run.size() && warmup_run[run]) {
          keep[p] = false;
          any_dropped = true;
        }
      }
      if (any_dropped) KeepRuns(&block, keep);
      if (block.run_count == 0) continue;
    }
    out.blocks.push_back(ToBlockResult(std::move(block), scale));
  }
  return out;
}

void AppendRepetitionBlocks(std::vector<results::BlockResult>* model_blocks,
                            std::vector<results::BlockResult> repetition_blocks) {
  for (results::BlockResult& block : repetition_blocks) {
    auto match = std::find_if(model_blocks->begin(), model_blocks->end(),
                              [&block](const results::BlockResult& b) { return SameEvents(b, block); });
    if (match == model_blocks->end()) {
      model_blocks->push_back(std::move(block));
      continue;
    }
    for (std::size_t i = 0; i < block.events.size(); ++i) {
      Append(&match->events[i].perf_data.raw, block.events[i].perf_data.raw);
    }
    if (block.framework_tax) {
      if (match->framework_tax) {
        Append(&match->framework_tax->raw, block.framework_tax->raw);
      } else {
        match->framework_tax = std::move(block.framework_tax);
      }
    }
    for (AllocatorUsage& usage : block.allocations) {
      auto same = std::find_if(match->allocations.begin(), match->allocations.end(),
                               [&usage](const AllocatorUsage& u) { return u.name == usage.name; });
      if (same == match->allocations.end()) {
        match->allocations.push_back(std::move(usage));
      } else {
        same->bytes_per_run.insert(same->bytes_per_run.end(), usage.bytes_per_run.begin(),
                                   usage.bytes_per_run.end());
        same->count_per_run.insert(same->count_per_run.end(), usage.count_per_run.begin(),
                                   usage.count_per_run.end());
      }
    }
    match->run_count += block.run_count;
    match->repetition_run_counts.insert(match->repetition_run_counts.end(),
                                        block.repetition_run_counts.begin(),
                                        block.repetition_run_counts.end());
  }
}

void FinalizeBlockStats(std::vector<results::BlockResult>* blocks) {
  for (results::BlockResult& block : *blocks) {
    for (results::EventResult& event : block.events) {
      event.perf_data = PerfData::FromRaw(std::move(event.perf_data.raw));
    }
    if (block.framework_tax && !block.framework_tax->raw.empty()) {
      block.framework_tax = PerfData::FromRaw(std::move(block.framework_tax->raw));
    }
  }
}

}  // namespace etbench::harness
