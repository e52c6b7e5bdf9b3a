#pragma once
// The contract between producing numbers (harness results, baselines,
// Google Benchmark JSON) and judging them (comparison, gate, reports): a
// flat set of metrics, each a series of raw samples with a stable identity.
//
// Everything that compares works on MetricSet, so a baseline from last week,
// a candidate run now, a Google Benchmark JSON and a device ETDump compare
// the same way.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "etbench/inspector/event_role.h"

namespace etbench {

/// What a metric measures.
enum class MetricKind {
  kEvent,         // one ETDump Event's duration (operator, delegate, framework event)
  kFrameworkTax,  // framework tax of a block's runs, in percent
  kAllocation,    // bytes allocated per run by one allocator
  kBenchmark,     // a Google Benchmark benchmark (one sample per repetition)
};

/// Identity of a metric: equal keys in baseline and candidate are the same
/// metric. Events are matched by signature (name, instruction id, delegate
/// id, occurrence), as the reference Inspector groups them.
struct MetricKey {
  std::string model;  // model (or gbench binary) name within the suite
  std::string block;  // EventBlock name, e.g. "Execute"; "" for benchmarks
  MetricKind kind = MetricKind::kEvent;
  /// Event name (delegated events: their delegate id), allocator name,
  /// benchmark name; "framework_tax" for kFrameworkTax.
  std::string name;
  std::optional<int32_t> instruction_id;
  std::string delegate_id;  // "" when not delegated
  int32_t occurrence = 0;

  bool operator==(const MetricKey& o) const {
    return model == o.model && block == o.block && kind == o.kind && name == o.name &&
           instruction_id == o.instruction_id && delegate_id == o.delegate_id &&
           occurrence == o.occurrence;
  }
  bool operator<(const MetricKey& o) const;
};

/// "toy_cnn/Execute/native_call_convolution.out#3" style label for people.
std::string MetricLabel(const MetricKey& key);

/// The EventRole of the event a kEvent metric measures, by the one rule
/// (EventRoleOf) over what the key keeps of the event: its name and whether
/// it has a delegate id. kFrameworkEvent for the other kinds.
EventRole MetricEventRole(const MetricKey& key);

struct Metric {
  MetricKey key;
  /// Unit of the samples: a time scale ("ms", "us", "ns", "s", "cycles"),
  /// "percent" or "bytes".
  std::string unit;
  std::vector<double> samples;  // raw, one per run (or repetition), run order
  /// Consecutive samples that came from one repetition (one process or one
  /// loaded method), in order; sums to samples.size(). Empty = unknown
  /// (treated as independent). Samples of one repetition share memory
  /// layout, caches and clock state, so they vary together: the comparison
  /// measures that clustering and widens its uncertainty by it.
  std::vector<uint64_t> group_sizes;
  /// Repetitions (entries of group_sizes) per session — one `etbench run`,
  /// one machine state — in order; sums to group_sizes.size(). Empty = all
  /// in one session. Baselines merged from several runs have several.
  std::vector<uint64_t> session_sizes;
  /// End-to-end metrics (Method::execute, Program::load_method, Method::init,
  /// framework tax, benchmarks) are gated on their own; the others are
  /// per-operator metrics whose false discoveries are controlled together.
  bool end_to_end = false;
  /// From an ETRecord when available; for reports and attribution.
  std::vector<std::string> op_types;
  std::vector<std::string> module_paths;
  std::optional<std::string> delegate_backend_name;
  /// Event nesting for attribution: true for events that are direct parts of
  /// Method::execute's time (native_call_*, DELEGATE_CALL), false for
  /// wrappers (OPERATOR_CALL), delegate-internal and framework events.
  bool is_kernel_or_delegate_call = false;
};

/// A set of metrics plus the context needed to decide whether two sets are
/// comparable (time source, device, tick rate, ...).
struct MetricSet {
  /// Free-form context: "suite", "device", "cpu", "time_source",
  /// "tick_rate_hz", "git_commit", "branch", "date", "model_sha256:<model>"…
  std::map<std::string, std::string> context;
  std::vector<Metric> metrics;
};

/// The context value of `key`, "" when absent.
std::string ContextValue(const MetricSet& set, const std::string& key);

/// How many sessions the set's metrics hold (the most session_sizes of any
/// metric; 1 when none says: all in one session).
std::size_t SessionCount(const MetricSet& set);

}  // namespace etbench
