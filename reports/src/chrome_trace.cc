// Event trees → Chrome trace event format (complete events per run track).

#include "etbench/reports/chrome_trace.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <map>
#include <string>
#include <type_traits>
#include <vector>

#include "etbench/base/json_writer.h"
#include "etbench/inspector/event_role.h"
#include "etbench/inspector/event_tree.h"

namespace etbench::reports {
namespace {

// Ticks per microsecond of the source clock (an unknown cycle rate draws a
// cycle as one nanosecond).
double TicksPerUs(const TraceSource& source) {
  if (source.source_time_scale == TimeScale::kCycles) {
    return source.tick_rate_hz > 0 ? source.tick_rate_hz / 1e6 : 1e3;
  }
  return UnitsPerSecond(source.source_time_scale) / 1e6;
}

// Tree values (ns, or cycles) per microsecond.
double ValuesPerUs(const TraceSource& source) {
  return source.source_time_scale == TimeScale::kCycles ? TicksPerUs(source) : 1e3;
}

const char* Category(const Event& event) {
  switch (event.role) {
    case EventRole::kDelegateEvent: return "delegate_event";
    case EventRole::kDelegateCall: return "delegate";
    case EventRole::kOperatorCall: return "operator";
    case EventRole::kKernelCall: return "kernel";
    case EventRole::kLoadMethod:
    case EventRole::kMethodInit:
    case EventRole::kMethodExecute:
    case EventRole::kFrameworkEvent: break;
  }
  return "framework";
}

// A metadata event ("M") whose args hold one member, `arg` = `value`.
template <typename Value>
void WriteMetadata(JsonWriter& json, const char* name, int pid, int tid, const char* arg,
                   const Value& value) {
  json.BeginObject();
  json.Key("name").String(name);
  json.Key("ph").String("M");
  json.Key("pid").Int(pid);
  json.Key("tid").Int(tid);
  json.Key("args").BeginObject().Key(arg);
  if constexpr (std::is_same_v<Value, int>) {
    json.Int(value);
  } else {
    json.String(value);
  }
  json.EndObject();
  json.EndObject();
}

// Smallest start tick of the timed (not instruction-placed) nodes.
uint64_t FirstTick(const RunEventTree& run) {
  uint64_t first = std::numeric_limits<uint64_t>::max();
  for (const EventTreeNode& node : run.nodes) {
    if (!node.placed_by_instruction) first = std::min(first, node.start_ticks);
  }
  return first;
}

struct Placement {
  double ts = 0;   // us
  double dur = 0;  // us
  bool clamped = false;
};

// Positions of a run's nodes (pre-order, so parents come first).
std::vector<Placement> PlaceRun(const TraceSource& source, const RunEventTree& run,
                                uint64_t base) {
  const double ticks_per_us = TicksPerUs(source);
  const double values_per_us = ValuesPerUs(source);
  std::vector<Placement> placed(run.nodes.size());
  // Next free time inside each node for children laid out by instruction.
  std::vector<double> cursor(run.nodes.size(), 0);
  for (std::size_t i = 0; i < run.nodes.size(); ++i) {
    const EventTreeNode& node = run.nodes[i];
    Placement& p = placed[i];
    if (!node.placed_by_instruction || node.parent < 0) {
      p.ts = static_cast<double>(node.start_ticks - std::min(base, node.start_ticks)) / ticks_per_us;
      p.dur = static_cast<double>(node.end_ticks - node.start_ticks) / ticks_per_us;
      cursor[i] = p.ts;
      continue;
    }
    const auto parent = static_cast<std::size_t>(node.parent);
    const EventTreeNode& up = run.nodes[parent];
    const Placement& pp = placed[parent];
    p.dur = std::max(0.0, node.total) / values_per_us;
    if (up.placed_by_instruction && up.end_ticks > up.start_ticks) {
      // Nested by time within the delegate's own clock: keep the relative
      // position, scaled to the parent's drawn width.
      const double scale = pp.dur / static_cast<double>(up.end_ticks - up.start_ticks);
      p.ts = pp.ts + static_cast<double>(node.start_ticks - std::min(up.start_ticks, node.start_ticks)) * scale;
      p.dur = static_cast<double>(node.end_ticks - node.start_ticks) * scale;
    } else {
      p.ts = std::max(cursor[parent], pp.ts);
      cursor[parent] = p.ts + p.dur;
    }
    cursor[i] = p.ts;
    const double parent_end = pp.ts + pp.dur;
    if (p.ts > parent_end) p.ts = parent_end, p.clamped = true;
    if (p.ts + p.dur > parent_end) p.dur = parent_end - p.ts, p.clamped = true;
  }
  return placed;
}

void WriteEventArgs(JsonWriter& json, const EventBlock& block, std::size_t run,
                    const Event& event, const EventTreeNode& node, const char* unit,
                    const Placement& p) {
  json.BeginObject();
  json.Key("block").String(block.name);
  json.Key("run").Uint(run);
  if (event.instruction_id) json.Key("instruction_id").Int(*event.instruction_id);
  const std::string delegate_id = DelegateDebugIdToString(event.delegate_debug_identifier);
  if (!delegate_id.empty()) json.Key("delegate_debug_id").String(delegate_id);
  if (event.occurrence != 0) json.Key("occurrence").Int(event.occurrence);
  json.Key("total").Double(node.total);
  json.Key("self").Double(node.self);
  json.Key("unit").String(unit);
  if (!event.op_types.empty()) json.Key("op_types").StringArray(event.op_types);
  if (event.delegate_backend_name) {
    json.Key("delegate_backend").String(*event.delegate_backend_name);
  }
  if (node.placed_by_instruction) json.Key("placed_by_instruction").Bool(true);
  if (p.clamped) json.Key("clamped_to_parent").Bool(true);
  json.EndObject();
}

// The trace's events, one compact object per line: readable and diffable.
class EventLines {
 public:
  /// The writer for the next event; its text is taken by the next call.
  JsonWriter& Next() {
    Collect();
    return json_;
  }
  /// Every event, each line but the last ending in ",".
  std::string Lines() {
    Collect();
    return std::move(lines_);
  }

 private:
  void Collect() {
    std::string event = json_.Take();
    if (event.empty()) return;
    if (!lines_.empty()) lines_ += ",\n";
    lines_ += event;
  }
  JsonWriter json_;
  std::string lines_;
};

}  // namespace

std::string RenderChromeTrace(const std::vector<TraceSource>& sources,
                              const ChromeTraceOptions& options) {
  EventLines events;
  std::vector<std::string> source_names;
  int pid = 0;
  for (const TraceSource& source : sources) {
    ++pid;
    source_names.push_back(source.name);
    WriteMetadata(events.Next(), "process_name", pid, 0, "name", source.name);
    WriteMetadata(events.Next(), "process_sort_index", pid, 0, "sort_index", pid);
    const std::vector<BlockEventTrees> trees = BuildEventTrees(source.blocks);
    uint64_t file_base = std::numeric_limits<uint64_t>::max();
    for (const BlockEventTrees& block_trees : trees) {
      for (const RunEventTree& run : block_trees.runs) file_base = std::min(file_base, FirstTick(run));
    }
    const char* unit = TraceValueUnit(source);
    int tid = 0;
    std::map<std::string, int> seen_blocks;
    for (const BlockEventTrees& block_trees : trees) {
      const EventBlock& block = source.blocks[block_trees.block_index];
      const int nth = seen_blocks[block.name]++;
      const std::string block_label = nth == 0 ? block.name : block.name + " #" + std::to_string(nth);
      for (const RunEventTree& run : block_trees.runs) {
        if (options.run && *options.run != run.run) continue;
        ++tid;
        WriteMetadata(events.Next(), "thread_name", pid, tid, "name",
                      block_label + " run " + std::to_string(run.run));
        WriteMetadata(events.Next(), "thread_sort_index", pid, tid, "sort_index", tid);
        const uint64_t base = options.align_runs ? FirstTick(run) : file_base;
        const std::vector<Placement> placed = PlaceRun(source, run, base);
        for (std::size_t i = 0; i < run.nodes.size(); ++i) {
          const EventTreeNode& node = run.nodes[i];
          const Event& event = block.events[node.event_index];
          JsonWriter& json = events.Next();
          json.BeginObject();
          json.Key("name").String(event.name);
          json.Key("cat").String(Category(event));
          json.Key("ph").String("X");
          json.Key("ts").Double(placed[i].ts);
          json.Key("dur").Double(placed[i].dur);
          json.Key("pid").Int(pid);
          json.Key("tid").Int(tid);
          json.Key("args");
          WriteEventArgs(json, block, run.run, event, node, unit, placed[i]);
          json.EndObject();
        }
      }
    }
  }
  std::string out = "{\"traceEvents\": [\n";
  const std::string lines = events.Lines();
  if (!lines.empty()) out += lines + "\n";
  JsonWriter other;
  other.BeginObject();
  other.Key("generator").String("etbench export --chrome-trace");
  other.Key("sources").StringArray(source_names);
  other.Key("time_origin").String(options.align_runs ? "start of each run"
                                                     : "first event of each source");
  other.EndObject();
  out += "],\n\"displayTimeUnit\": \"ns\",\n\"otherData\": " + other.Take() + "}\n";
  return out;
}

}  // namespace etbench::reports
