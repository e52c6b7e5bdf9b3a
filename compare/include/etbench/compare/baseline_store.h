#pragma once
// Baselines on disk: `baselines/<device>/<suite>.json`, a versioned JSON
// file holding a MetricSet with every raw sample, written atomically.
//
// {"schema_version": 1, "format": "etbench-baseline", "name": "...",
//  "created": "2025-01-01T00:00:00Z", "context": {...}, "metrics": [...]}

#include <optional>
#include <string>
#include <vector>

#include "etbench/base/disk.h"
#include "etbench/base/result.h"
#include "etbench/compare/comparison_warning.h"
#include "etbench/compare/metrics.h"

namespace etbench {

inline constexpr int kBaselineSchemaVersion = 1;

struct Baseline {
  std::string name;     // free text (--name), defaults to the suite
  std::string created;  // UTC, ISO 8601
  MetricSet metrics;
};

/// `<root>/baselines/<device>/<suite>.json` ("unknown-device" / "default"
/// for empty names; '/', '\\' and control characters become '_').
std::string DefaultBaselinePath(const std::string& root, const std::string& device,
                                const std::string& suite);

/// Errors unless `metrics` may become a baseline: CheckMetricSetUsable (no
/// metrics, non-finite samples), an interrupted run, or any model that did
/// not finish ok (a baseline missing models would let the gate pass them).
Status CheckBaselineSource(const MetricSet& metrics);

/// Writes `baseline` to `path` through a temporary file, fsync and rename,
/// creating parent directories. Refuses (writing nothing) what
/// CheckBaselineSource refuses. Refuses to replace an existing file unless
/// `force`, atomically: of concurrent savers without `force` exactly one
/// succeeds.
/// An empty `created` is filled with the current UTC time. Writes through
/// `disk`.
Status SaveBaseline(const std::string& path, const Baseline& baseline, bool force,
                    Disk& disk = DefaultDisk());

/// Reads a baseline. Errors: unreadable, not JSON, not a baseline, another
/// schema_version ("… has schema_version 2; this etbench reads 1"), bad
/// metrics. Reads through `disk`.
Result<Baseline> LoadBaseline(const std::string& path, Disk& disk = DefaultDisk());

/// Same, from the file's text; `path` names it in messages.
Result<Baseline> ParseBaselineJson(const std::string& text, const std::string& path);

/// What the gate expects of the baseline it loads.
struct BaselineExpectation {
  std::string suite;        // "" = not checked
  std::string time_source;  // "" = not checked
  std::string device;       // "" = not checked (warning only)
  std::optional<double> tick_rate_hz;  // nullopt = not checked (warning only; SameTickRate)
};

/// Errors when the baseline's suite or time source differ from what is
/// expected; appends loud warnings for another device or tick rate
/// (BaselineDeviceWarning, BaselineTickRateWarning; reports words them).
Status CheckBaselineMatches(const MetricSet& baseline, const BaselineExpectation& expected,
                            std::vector<ComparisonWarning>& warnings);

}  // namespace etbench
