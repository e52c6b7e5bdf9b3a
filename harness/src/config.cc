// SuiteConfig beyond YAML: names, CLI overrides, the config hash, model
// selection.
#include "etbench/harness/config.h"

#include <sched.h>

#include <cstdio>
#include <cstdlib>
#include <sstream>

#include "etbench/base/join.h"
#include "etbench/base/sha256.h"

namespace etbench::harness {
namespace {

bool ParseInt(std::string_view text, int* out) {
  if (text.empty() || text.size() > 9) return false;
  int value = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return false;
    value = value * 10 + (c - '0');
  }
  *out = value;
  return true;
}

void HashLine(std::ostringstream& s, const std::string& key, const std::string& value) {
  // Length-prefixed so that no two configs serialize alike.
  s << key << '=' << value.size() << ':' << value << '\n';
}

void HashList(std::ostringstream& s, const std::string& key, const std::vector<std::string>& v) {
  HashLine(s, key + "#", std::to_string(v.size()));
  for (const std::string& item : v) HashLine(s, key, item);
}

std::string FormatDouble(double v) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

void HashProcess(std::ostringstream& s, const std::string& prefix, const ProcessOptions& p) {
  for (const auto& [k, v] : p.env) HashLine(s, prefix + ".env." + k, v);
  HashLine(s, prefix + ".working_dir", p.working_dir);
}

}  // namespace

std::string JoinModelNames(const SuiteConfig& config) {
  std::vector<std::string> names;
  for (const ModelSpec& m : config.models) names.push_back(m.name);
  return JoinStrings(names);
}

std::string_view RunnerKindName(RunnerKind kind) {
  switch (kind) {
    case RunnerKind::kBuiltin:
      return "builtin";
    case RunnerKind::kCommand:
      return "command";
    case RunnerKind::kGbench:
      return "gbench";
  }
  return "builtin";
}

Result<RunnerKind> ParseRunnerKind(std::string_view name) {
  if (name == "builtin") return RunnerKind::kBuiltin;
  if (name == "command") return RunnerKind::kCommand;
  if (name == "gbench") return RunnerKind::kGbench;
  return UsageError("unknown runner '" + std::string(name) +
                    "' (accepted: builtin, command, gbench)");
}

Result<Shard> ParseShard(std::string_view text) {
  const auto slash = text.find('/');
  Shard shard;
  if (slash == std::string_view::npos || !ParseInt(text.substr(0, slash), &shard.index) ||
      !ParseInt(text.substr(slash + 1), &shard.count) || shard.count < 1 || shard.index < 1 ||
      shard.index > shard.count) {
    return UsageError("shard must be I/N with 1 <= I <= N (e.g. 1/3), got '" + std::string(text) +
                      "'");
  }
  return shard;
}

Status CheckSlowdownSpec(const std::string& s) {
  const auto eq = s.find('=');
  char* end = nullptr;
  const double factor = eq == std::string::npos ? 0 : std::strtod(s.c_str() + eq + 1, &end);
  if (eq == std::string::npos || eq == 0 || end == nullptr || *end != '\0' || !(factor >= 1)) {
    return UsageError("slowdown '" + s + "' must be OP=FACTOR with FACTOR >= 1");
  }
  return Ok{};
}

Status CheckCpuAffinity(const std::vector<int>& cpus) {
  if (cpus.empty()) return Ok{};
  cpu_set_t allowed;
  CPU_ZERO(&allowed);
  if (sched_getaffinity(0, sizeof allowed, &allowed) != 0) return Ok{};  // cannot tell
  std::string available;
  for (int c = 0; c < CPU_SETSIZE; ++c) {
    if (!CPU_ISSET(c, &allowed)) continue;
    int last = c;
    while (last + 1 < CPU_SETSIZE && CPU_ISSET(last + 1, &allowed)) ++last;
    available += (available.empty() ? "" : ",") + std::to_string(c) +
                 (last > c ? "-" + std::to_string(last) : "");
    c = last;
  }
  for (int cpu : cpus) {
    if (cpu < 0 || cpu >= CPU_SETSIZE || !CPU_ISSET(cpu, &allowed)) {
      return UsageError("cpu_affinity: CPU " + std::to_string(cpu) +
                        " is not available (this process may use " + available + ")");
    }
  }
  return Ok{};
}

Status ApplyOverrides(const ConfigOverrides& o, SuiteConfig* c) {
  if (o.iterations) {
    if (*o.iterations < 1) return UsageError("--iterations must be at least 1");
    c->iterations = *o.iterations;
  }
  if (o.warmup) {
    if (*o.warmup < 0) return UsageError("--warmup must be at least 0");
    c->warmup = *o.warmup;
  }
  if (o.repetitions) {
    if (*o.repetitions < 1) return UsageError("--repetitions must be at least 1");
    c->repetitions = *o.repetitions;
  }
  if (o.runner) {
    auto kind = ParseRunnerKind(*o.runner);
    if (!kind) return UsageError("--runner: " + kind.error().message);
    const bool was_gbench = c->runner == RunnerKind::kGbench;
    const bool is_gbench = *kind == RunnerKind::kGbench;
    if (was_gbench != is_gbench) {
      return UsageError("--runner " + *o.runner + ": the suite's models are " +
                        (was_gbench ? "benchmark binaries" : "model files") +
                        "; a suite cannot switch between gbench and model runners");
    }
    if (*kind == RunnerKind::kCommand) {
      if (!c->has_command) {
        return UsageError("--runner command: the suite has no 'command:' section");
      }
      for (const ModelSpec& m : c->models) {
        if (!m.slowdown.empty() || m.seed) {
          return UsageError("--runner command: model '" + m.name +
                            "' uses slowdown/seed, which only the builtin runner takes");
        }
      }
    }
    c->runner = *kind;
  }
  if (o.time_source) {
    if (*o.time_source != "ns" && *o.time_source != "cycles") {
      return UsageError("--time-source must be ns or cycles, not '" + *o.time_source + "'");
    }
    c->time_source = *o.time_source;
    if (c->unit == "cycles" && c->time_source != "cycles") {
      return UsageError("--time-source ns: the suite's unit is cycles, which needs cycles");
    }
  }
  if (o.output_dir) {
    if (o.output_dir->empty()) return UsageError("--output-dir must not be empty");
    c->output_dir = *o.output_dir;
  }
  if (o.shard) {
    auto shard = ParseShard(*o.shard);
    if (!shard) return UsageError("--shard: " + shard.error().message);
    c->shard = *shard;
  }
  for (const std::string& name : o.models) {
    bool found = false;
    for (const ModelSpec& m : c->models) found = found || m.name == name;
    if (!found) {
      return UsageError("--model '" + name +
                        "': the suite has no such model (models: " + JoinModelNames(*c) + ")");
    }
    c->model_filter.push_back(name);
  }
  for (const std::string& label : o.labels) {
    const auto eq = label.find('=');
    if (eq == std::string::npos || eq == 0) {
      return UsageError("--label must be KEY=VALUE, got '" + label + "'");
    }
    c->labels[label.substr(0, eq)] = label.substr(eq + 1);
  }
  if (o.quiet) c->quiet = true;
  return Ok{};
}

std::string ConfigHash(const SuiteConfig& c) {
  std::ostringstream s;
  HashLine(s, "etbench.suite", "1");
  HashLine(s, "suite", c.suite);
  HashLine(s, "runner", std::string(RunnerKindName(c.runner)));
  HashLine(s, "time_source", c.time_source);
  HashLine(s, "tick_rate_hz", c.tick_rate_hz ? FormatDouble(*c.tick_rate_hz) : "");
  HashLine(s, "unit", c.unit);
  HashLine(s, "warmup", std::to_string(c.warmup));
  HashLine(s, "iterations", std::to_string(c.iterations));
  HashLine(s, "repetitions", std::to_string(c.repetitions));
  std::vector<std::string> cpus;
  for (int cpu : c.cpu_affinity) cpus.push_back(std::to_string(cpu));
  HashList(s, "cpu_affinity", cpus);
  switch (c.runner) {
    case RunnerKind::kBuiltin:
      HashLine(s, "builtin.log_allocations", c.builtin.log_allocations ? "1" : "0");
      break;
    case RunnerKind::kCommand:
      HashList(s, "command.argv", c.command.argv);
      HashProcess(s, "command", c.command.process);
      break;
    case RunnerKind::kGbench:
      HashList(s, "gbench.args", c.gbench.args);
      HashLine(s, "gbench.metric", c.gbench.metric);
      HashLine(s, "gbench.min_time_s", FormatDouble(c.gbench.min_time_s));
      HashProcess(s, "gbench", c.gbench.process);
      break;
  }
  HashLine(s, "models#", std::to_string(c.models.size()));
  for (const ModelSpec& m : c.models) {
    HashLine(s, "model.name", m.name);
    HashLine(s, "model.path", m.path);
    HashList(s, "model.args", m.args);
    HashList(s, "model.slowdown", m.slowdown);
    HashLine(s, "model.seed", m.seed ? std::to_string(*m.seed) : "");
    HashLine(s, "model.etrecord", m.etrecord_path);
    HashLine(s, "model.filter", m.filter);
    // Time sizing sets per-model counts; absent, the hash stays as before.
    if (m.warmup) HashLine(s, "model.warmup", std::to_string(*m.warmup));
    if (m.iterations) HashLine(s, "model.iterations", std::to_string(*m.iterations));
  }
  return Sha256Hex(s.str());
}

Result<std::vector<std::size_t>> SelectModels(const SuiteConfig& config) {
  std::vector<std::size_t> filtered;
  for (std::size_t i = 0; i < config.models.size(); ++i) {
    const ModelSpec& m = config.models[i];
    bool wanted = config.model_filter.empty();
    for (const std::string& name : config.model_filter) wanted = wanted || name == m.name;
    if (wanted) filtered.push_back(i);
  }
  for (const std::string& name : config.model_filter) {
    bool found = false;
    for (const ModelSpec& m : config.models) found = found || m.name == name;
    if (!found) {
      return UsageError("--model '" + name +
                        "': the suite has no such model (models: " + JoinModelNames(config) + ")");
    }
  }
  if (!config.shard) return filtered;
  std::vector<std::size_t> mine;
  for (std::size_t p = 0; p < filtered.size(); ++p) {
    if (static_cast<int>(p % static_cast<std::size_t>(config.shard->count)) ==
        config.shard->index - 1) {
      mine.push_back(filtered[p]);
    }
  }
  return mine;
}

std::string ResolvedOutputDir(const SuiteConfig& config) {
  std::string dir = config.output_dir;
  const std::string key = "{suite}";
  for (auto pos = dir.find(key); pos != std::string::npos; pos = dir.find(key, pos)) {
    dir.replace(pos, key.size(), config.suite);
    pos += config.suite.size();
  }
  return dir;
}

}  // namespace etbench::harness
