// Results files: the JSON layout of docs/results.md, written by hand (one
// event per line, exact doubles) and read back with nlohmann::json.
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "etbench/base/atomic_file.h"
#include "etbench/base/json_writer.h"
#include "etbench/results/results.h"
#include "etbench/inspector/etdump_writer.h"
#include "etbench/base/input_file.h"

namespace etbench::results {
namespace {

using Json = nlohmann::json;

// ---------------------------------------------------------------- writing

class Writer {
 public:
  std::string& out() { return out_; }

  void Key(int indent, const char* key) {
    out_.append(static_cast<std::size_t>(indent), ' ');
    AppendJsonString(&out_, key);
    out_ += ": ";
  }
  void String(const std::string& s) { AppendJsonString(&out_, s); }
  void StringOrNull(const std::string& s) {
    if (s.empty()) {
      out_ += "null";
    } else {
      String(s);
    }
  }
  void Number(double v) { AppendJsonNumber(&out_, v); }
  void Int(int64_t v) { AppendJsonInt(&out_, v); }
  void Bool(bool v) { out_ += v ? "true" : "false"; }

  void PerfData(const etbench::PerfData& p) {
    out_ += "{\"raw\": ";
    AppendJsonNumberArray(&out_, p.raw);
    const std::pair<const char*, double> stats[] = {
        {"p10", p.p10}, {"p50", p.p50}, {"p90", p.p90},      {"avg", p.avg},
        {"min", p.min}, {"max", p.max}, {"stddev", p.stddev}};
    for (const auto& [name, value] : stats) {
      out_ += ", \"";
      out_ += name;
      out_ += "\": ";
      Number(value);
    }
    out_ += ", \"count\": ";
    Int(static_cast<int64_t>(p.count));
    out_ += "}";
  }

 private:
  std::string out_;
};

void WriteDelegateId(Writer& w, const DelegateDebugId& id) {
  if (const auto* i = std::get_if<int32_t>(&id)) {
    w.Int(*i);
  } else if (const auto* s = std::get_if<std::string>(&id)) {
    w.String(*s);
  } else {
    w.out() += "null";
  }
}

void WriteEvent(Writer& w, const EventResult& e) {
  std::string& o = w.out();
  o += "            {\"name\": ";
  w.String(e.name);
  o += ", \"instruction_id\": ";
  if (e.instruction_id) {
    w.Int(*e.instruction_id);
  } else {
    o += "null";
  }
  o += ", \"delegate_debug_identifier\": ";
  WriteDelegateId(w, e.delegate_debug_identifier);
  o += ", \"is_delegated_op\": ";
  w.Bool(e.is_delegated_op);
  o += ", \"occurrence\": ";
  w.Int(e.occurrence);
  o += ", \"op_types\": ";
  AppendJsonStringArray(&o, e.op_types);
  o += ", \"module_paths\": ";
  AppendJsonStringArray(&o, e.module_paths);
  o += ", \"delegate_backend_name\": ";
  if (e.delegate_backend_name) {
    w.String(*e.delegate_backend_name);
  } else {
    o += "null";
  }
  o += ", \"perf_data\": ";
  w.PerfData(e.perf_data);
  o += "}";
}

void WriteBlock(Writer& w, const BlockResult& b) {
  std::string& o = w.out();
  o += "        {\n";
  w.Key(10, "name");
  w.String(b.name);
  o += ",\n";
  w.Key(10, "run_count");
  w.Int(static_cast<int64_t>(b.run_count));
  o += ",\n";
  if (!b.repetition_run_counts.empty()) {
    w.Key(10, "repetition_run_counts");
    AppendJsonUintArray(&o, b.repetition_run_counts);
    o += ",\n";
  }
  w.Key(10, "framework_tax");
  if (b.framework_tax) {
    w.PerfData(*b.framework_tax);
  } else {
    o += "null";
  }
  o += ",\n";
  w.Key(10, "allocations");
  o += "[";
  for (std::size_t i = 0; i < b.allocations.size(); ++i) {
    const AllocatorUsage& a = b.allocations[i];
    o += i == 0 ? "\n            {\"name\": " : ",\n            {\"name\": ";
    w.String(a.name);
    o += ", \"bytes_per_run\": ";
    AppendJsonUintArray(&o, a.bytes_per_run);
    o += ", \"count_per_run\": ";
    AppendJsonUintArray(&o, a.count_per_run);
    o += "}";
  }
  o += b.allocations.empty() ? "],\n" : "\n          ],\n";
  w.Key(10, "events");
  o += "[";
  for (std::size_t i = 0; i < b.events.size(); ++i) {
    o += i == 0 ? "\n" : ",\n";
    WriteEvent(w, b.events[i]);
  }
  o += b.events.empty() ? "]\n" : "\n          ]\n";
  o += "        }";
}

void WriteRepetition(Writer& w, const RepetitionRecord& r) {
  std::string& o = w.out();
  o += "        {\"index\": ";
  w.Int(r.index);
  o += ", \"etdump_path\": ";
  w.StringOrNull(r.etdump_path);
  o += ", \"metadata_path\": ";
  w.StringOrNull(r.metadata_path);
  o += ", \"debug_output_path\": ";
  w.StringOrNull(r.debug_output_path);
  o += ", \"time_source\": ";
  w.String(r.time_source);
  o += ", \"tick_rate_hz\": ";
  w.Number(r.tick_rate_hz);
  o += ", \"execute_runs\": ";
  w.Int(static_cast<int64_t>(r.execute_runs));
  o += ", \"warmup_runs_dropped\": ";
  w.Int(static_cast<int64_t>(r.warmup_runs_dropped));
  o += ", \"wall_ms\": ";
  w.Number(r.wall_ms);
  o += "}";
}

void WriteBenchmark(Writer& w, const BenchmarkResult& b) {
  std::string& o = w.out();
  o += "        {\"name\": ";
  w.String(b.name);
  o += ", \"metric\": ";
  w.String(b.metric);
  o += ", \"iterations\": ";
  AppendJsonIntArray(&o, b.iterations);
  o += ", \"perf_data\": ";
  w.PerfData(b.perf_data);
  o += "}";
}

template <typename T, typename F>
void WriteList(Writer& w, int indent, const char* key, const std::vector<T>& items, F write,
               bool last = false) {
  std::string& o = w.out();
  w.Key(indent, key);
  o += "[";
  for (std::size_t i = 0; i < items.size(); ++i) {
    o += i == 0 ? "\n" : ",\n";
    write(w, items[i]);
  }
  if (!items.empty()) {
    o += "\n";
    o.append(static_cast<std::size_t>(indent), ' ');
  }
  o += last ? "]\n" : "],\n";
}

void WriteModel(Writer& w, const ModelResult& m) {
  std::string& o = w.out();
  o += "    {\n";
  auto field = [&w, &o](const char* key, auto write) {
    w.Key(6, key);
    write();
    o += ",\n";
  };
  field("name", [&] { w.String(m.name); });
  field("suite_index", [&] { w.Int(m.suite_index); });
  field("status", [&] { w.String(ModelStatusName(m.status)); });
  field("error", [&] { w.StringOrNull(m.error); });
  field("model_path", [&] { w.String(m.model_path); });
  field("model_sha256", [&] { w.String(m.model_sha256); });
  field("unit", [&] { w.String(m.unit); });
  field("wall_ms", [&] { w.Number(m.wall_ms); });
  field("stdout", [&] { w.StringOrNull(m.stdout_text); });
  field("stderr", [&] { w.StringOrNull(m.stderr_text); });
  field("warnings", [&] { AppendJsonStringArray(&o, m.warnings); });
  WriteList(w, 6, "repetitions", m.repetitions, WriteRepetition);
  WriteList(w, 6, "blocks", m.blocks, WriteBlock);
  WriteList(w, 6, "benchmarks", m.benchmarks, WriteBenchmark, /*last=*/true);
  o += "    }";
}

void WriteMetadata(Writer& w, const ResultsMetadata& m) {
  std::string& o = w.out();
  o += "  \"metadata\": {\n";
  auto str = [&w, &o](const char* key, const std::string& value) {
    w.Key(4, key);
    w.String(value);
    o += ",\n";
  };
  str("suite", m.suite);
  str("config_path", m.config_path);
  str("config_hash", m.config_hash);
  str("runner", m.runner);
  str("runner_version", m.runner_version);
  str("tool_version", m.tool_version);
  str("time_source", m.time_source);
  w.Key(4, "tick_rate_hz");
  w.Number(m.tick_rate_hz);
  o += ",\n";
  str("unit", m.unit);
  const std::pair<const char*, int> counts[] = {
      {"warmup", m.warmup}, {"iterations", m.iterations}, {"repetitions", m.repetitions}};
  for (const auto& [key, value] : counts) {
    w.Key(4, key);
    w.Int(value);
    o += ",\n";
  }
  w.Key(4, "cpu_affinity");
  std::vector<int64_t> cpus(m.cpu_affinity.begin(), m.cpu_affinity.end());
  AppendJsonIntArray(&o, cpus);
  o += ",\n";
  str("host", m.host);
  str("cpu", m.cpu);
  str("os", m.os);
  if (!m.boot_id.empty()) str("boot_id", m.boot_id);
  str("device", m.device);
  str("branch", m.branch);
  str("git_commit", m.git_commit);
  str("date", m.date);
  w.Key(4, "labels");
  o += "{";
  bool first = true;
  for (const auto& [k, v] : m.labels) {
    o += first ? "" : ", ";
    first = false;
    w.String(k);
    o += ": ";
    w.String(v);
  }
  o += "},\n";
  str("thresholds_path", m.thresholds_path);
  w.Key(4, "shard");
  if (m.shard_index && m.shard_count) {
    o += "{\"index\": ";
    w.Int(*m.shard_index);
    o += ", \"count\": ";
    w.Int(*m.shard_count);
    o += "}";
  } else {
    o += "null";
  }
  o += ",\n";
  w.Key(4, "merged_from");
  AppendJsonStringArray(&o, m.merged_from);
  o += "\n  },\n";
}

// ---------------------------------------------------------------- reading

struct ParseFailure {
  std::string path;
  std::string message;
};

[[noreturn]] void Fail(const std::string& path, const std::string& message) {
  throw ParseFailure{path, message};
}

const Json& Field(const Json& object, const char* key, const std::string& path) {
  if (!object.is_object()) Fail(path, "expected an object");
  auto it = object.find(key);
  if (it == object.end()) Fail(path, std::string("missing key \"") + key + "\"");
  return *it;
}

std::string Sub(const std::string& path, const char* key) { return path + "." + key; }
std::string Sub(const std::string& path, std::size_t index) {
  return path + "[" + std::to_string(index) + "]";
}

std::string GetString(const Json& o, const char* key, const std::string& path) {
  const Json& v = Field(o, key, path);
  if (!v.is_string()) Fail(Sub(path, key), "expected a string");
  return v.get<std::string>();
}

std::string GetStringOrNull(const Json& o, const char* key, const std::string& path) {
  const Json& v = Field(o, key, path);
  if (v.is_null()) return "";
  if (!v.is_string()) Fail(Sub(path, key), "expected a string or null");
  return v.get<std::string>();
}

double GetNumber(const Json& o, const char* key, const std::string& path) {
  const Json& v = Field(o, key, path);
  if (v.is_null()) return std::numeric_limits<double>::quiet_NaN();
  if (!v.is_number()) Fail(Sub(path, key), "expected a number");
  return v.get<double>();
}

int64_t GetInt(const Json& o, const char* key, const std::string& path) {
  const Json& v = Field(o, key, path);
  if (!v.is_number_integer()) Fail(Sub(path, key), "expected an integer");
  return v.get<int64_t>();
}

bool GetBool(const Json& o, const char* key, const std::string& path) {
  const Json& v = Field(o, key, path);
  if (!v.is_boolean()) Fail(Sub(path, key), "expected true or false");
  return v.get<bool>();
}

const Json& GetArray(const Json& o, const char* key, const std::string& path) {
  const Json& v = Field(o, key, path);
  if (!v.is_array()) Fail(Sub(path, key), "expected a list");
  return v;
}

std::vector<std::string> GetStrings(const Json& o, const char* key, const std::string& path) {
  const Json& list = GetArray(o, key, path);
  std::vector<std::string> out;
  for (std::size_t i = 0; i < list.size(); ++i) {
    if (!list[i].is_string()) Fail(Sub(Sub(path, key), i), "expected a string");
    out.push_back(list[i].get<std::string>());
  }
  return out;
}

template <typename T>
std::vector<T> GetNumbers(const Json& o, const char* key, const std::string& path) {
  const Json& list = GetArray(o, key, path);
  std::vector<T> out;
  out.reserve(list.size());
  for (std::size_t i = 0; i < list.size(); ++i) {
    const Json& v = list[i];
    if constexpr (std::is_floating_point_v<T>) {
      if (v.is_null()) {
        out.push_back(std::numeric_limits<double>::quiet_NaN());
        continue;
      }
      if (!v.is_number()) Fail(Sub(Sub(path, key), i), "expected a number");
    } else if constexpr (std::is_unsigned_v<T>) {
      if (!v.is_number_unsigned()) Fail(Sub(Sub(path, key), i), "expected a non-negative integer");
    } else {
      if (!v.is_number_integer()) Fail(Sub(Sub(path, key), i), "expected an integer");
    }
    out.push_back(v.get<T>());
  }
  return out;
}

PerfData ReadPerfData(const Json& p, const std::string& path, SampleKind kind) {
  PerfData d;
  d.raw = GetNumbers<double>(p, "raw", path);
  for (std::size_t i = 0; i < d.raw.size(); ++i) {
    if (auto problem = CheckSample(d.raw[i], kind)) Fail(Sub(Sub(path, "raw"), i), *problem);
  }
  d.p10 = GetNumber(p, "p10", path);
  d.p50 = GetNumber(p, "p50", path);
  d.p90 = GetNumber(p, "p90", path);
  d.avg = GetNumber(p, "avg", path);
  d.min = GetNumber(p, "min", path);
  d.max = GetNumber(p, "max", path);
  d.stddev = GetNumber(p, "stddev", path);
  const int64_t count = GetInt(p, "count", path);
  if (count < 0 || static_cast<std::size_t>(count) != d.raw.size()) {
    Fail(Sub(path, "count"), "does not match the number of raw samples");
  }
  d.count = static_cast<std::size_t>(count);
  return d;
}

EventResult ReadEvent(const Json& e, const std::string& path) {
  EventResult r;
  r.name = GetString(e, "name", path);
  const Json& instr = Field(e, "instruction_id", path);
  if (!instr.is_null()) {
    if (!instr.is_number_integer())
      Fail(Sub(path, "instruction_id"), "expected an integer or null");
    r.instruction_id = instr.get<int32_t>();
  }
  const Json& id = Field(e, "delegate_debug_identifier", path);
  if (id.is_number_integer()) {
    r.delegate_debug_identifier = id.get<int32_t>();
  } else if (id.is_string()) {
    r.delegate_debug_identifier = id.get<std::string>();
  } else if (!id.is_null()) {
    Fail(Sub(path, "delegate_debug_identifier"), "expected an integer, a string or null");
  }
  r.is_delegated_op = GetBool(e, "is_delegated_op", path);
  r.occurrence = static_cast<int32_t>(GetInt(e, "occurrence", path));
  r.op_types = GetStrings(e, "op_types", path);
  r.module_paths = GetStrings(e, "module_paths", path);
  const std::string backend = GetStringOrNull(e, "delegate_backend_name", path);
  if (!Field(e, "delegate_backend_name", path).is_null()) r.delegate_backend_name = backend;
  r.perf_data =
      ReadPerfData(Field(e, "perf_data", path), Sub(path, "perf_data"), SampleKind::kDuration);
  return r;
}

BlockResult ReadBlock(const Json& b, const std::string& path) {
  BlockResult r;
  r.name = GetString(b, "name", path);
  const int64_t runs = GetInt(b, "run_count", path);
  if (runs < 0) Fail(Sub(path, "run_count"), "must not be negative");
  r.run_count = static_cast<std::size_t>(runs);
  if (b.contains("repetition_run_counts")) {  // optional: older results lack it
    r.repetition_run_counts = GetNumbers<uint64_t>(b, "repetition_run_counts", path);
    uint64_t sum = 0;
    for (uint64_t n : r.repetition_run_counts) sum += n;
    for (std::size_t i = 0; i < r.repetition_run_counts.size(); ++i) {
      // An empty group would count as a cluster and shift the verdict.
      if (r.repetition_run_counts[i] == 0) {
        Fail(Sub(Sub(path, "repetition_run_counts"), i), "a repetition with 0 runs");
      }
    }
    if (!r.repetition_run_counts.empty() && sum != r.run_count) {
      Fail(Sub(path, "repetition_run_counts"),
           "adds up to " + std::to_string(sum) + ", not run_count " + std::to_string(r.run_count));
    }
  }
  const Json& tax = Field(b, "framework_tax", path);
  if (!tax.is_null()) {
    r.framework_tax = ReadPerfData(tax, Sub(path, "framework_tax"), SampleKind::kPercent);
  }
  const Json& allocations = GetArray(b, "allocations", path);
  for (std::size_t i = 0; i < allocations.size(); ++i) {
    const std::string p = Sub(Sub(path, "allocations"), i);
    AllocatorUsage a;
    a.name = GetString(allocations[i], "name", p);
    a.bytes_per_run = GetNumbers<uint64_t>(allocations[i], "bytes_per_run", p);
    a.count_per_run = GetNumbers<uint64_t>(allocations[i], "count_per_run", p);
    r.allocations.push_back(std::move(a));
  }
  const Json& events = GetArray(b, "events", path);
  r.events.reserve(events.size());
  for (std::size_t i = 0; i < events.size(); ++i) {
    r.events.push_back(ReadEvent(events[i], Sub(Sub(path, "events"), i)));
  }
  return r;
}

ModelStatus ReadStatus(const std::string& s, const std::string& path) {
  if (s == "ok") return ModelStatus::kOk;
  if (s == "failed") return ModelStatus::kFailed;
  if (s == "interrupted") return ModelStatus::kInterrupted;
  Fail(path, "unknown status '" + s + "' (ok, failed, interrupted)");
}

ModelResult ReadModel(const Json& m, const std::string& path) {
  ModelResult r;
  r.name = GetString(m, "name", path);
  r.suite_index = static_cast<int>(GetInt(m, "suite_index", path));
  r.status = ReadStatus(GetString(m, "status", path), Sub(path, "status"));
  r.error = GetStringOrNull(m, "error", path);
  r.model_path = GetString(m, "model_path", path);
  r.model_sha256 = GetString(m, "model_sha256", path);
  r.unit = GetString(m, "unit", path);
  r.wall_ms = GetNumber(m, "wall_ms", path);
  r.stdout_text = GetStringOrNull(m, "stdout", path);
  r.stderr_text = GetStringOrNull(m, "stderr", path);
  r.warnings = GetStrings(m, "warnings", path);
  const Json& reps = GetArray(m, "repetitions", path);
  for (std::size_t i = 0; i < reps.size(); ++i) {
    const std::string p = Sub(Sub(path, "repetitions"), i);
    const Json& x = reps[i];
    RepetitionRecord rec;
    rec.index = static_cast<int>(GetInt(x, "index", p));
    rec.etdump_path = GetStringOrNull(x, "etdump_path", p);
    rec.metadata_path = GetStringOrNull(x, "metadata_path", p);
    rec.debug_output_path = GetStringOrNull(x, "debug_output_path", p);
    rec.time_source = GetString(x, "time_source", p);
    rec.tick_rate_hz = GetNumber(x, "tick_rate_hz", p);
    rec.execute_runs = static_cast<std::size_t>(GetInt(x, "execute_runs", p));
    rec.warmup_runs_dropped = static_cast<std::size_t>(GetInt(x, "warmup_runs_dropped", p));
    rec.wall_ms = GetNumber(x, "wall_ms", p);
    r.repetitions.push_back(std::move(rec));
  }
  const Json& blocks = GetArray(m, "blocks", path);
  for (std::size_t i = 0; i < blocks.size(); ++i) {
    r.blocks.push_back(ReadBlock(blocks[i], Sub(Sub(path, "blocks"), i)));
  }
  const Json& benchmarks = GetArray(m, "benchmarks", path);
  for (std::size_t i = 0; i < benchmarks.size(); ++i) {
    const std::string p = Sub(Sub(path, "benchmarks"), i);
    BenchmarkResult b;
    b.name = GetString(benchmarks[i], "name", p);
    b.metric = GetString(benchmarks[i], "metric", p);
    b.iterations = GetNumbers<int64_t>(benchmarks[i], "iterations", p);
    b.perf_data = ReadPerfData(Field(benchmarks[i], "perf_data", p), Sub(p, "perf_data"),
                               SampleKind::kBenchmarkTime);
    r.benchmarks.push_back(std::move(b));
  }
  return r;
}

ResultsMetadata ReadMetadata(const Json& m, const std::string& path) {
  ResultsMetadata r;
  r.suite = GetString(m, "suite", path);
  r.config_path = GetString(m, "config_path", path);
  r.config_hash = GetString(m, "config_hash", path);
  r.runner = GetString(m, "runner", path);
  r.runner_version = GetString(m, "runner_version", path);
  r.tool_version = GetString(m, "tool_version", path);
  r.time_source = GetString(m, "time_source", path);
  r.tick_rate_hz = GetNumber(m, "tick_rate_hz", path);
  r.unit = GetString(m, "unit", path);
  r.warmup = static_cast<int>(GetInt(m, "warmup", path));
  r.iterations = static_cast<int>(GetInt(m, "iterations", path));
  r.repetitions = static_cast<int>(GetInt(m, "repetitions", path));
  for (int64_t cpu : GetNumbers<int64_t>(m, "cpu_affinity", path)) {
    r.cpu_affinity.push_back(static_cast<int>(cpu));
  }
  r.host = GetString(m, "host", path);
  r.cpu = GetString(m, "cpu", path);
  r.os = GetString(m, "os", path);
  if (m.contains("boot_id")) r.boot_id = GetString(m, "boot_id", path);
  r.device = GetString(m, "device", path);
  r.branch = GetString(m, "branch", path);
  r.git_commit = GetString(m, "git_commit", path);
  r.date = GetString(m, "date", path);
  const Json& labels = Field(m, "labels", path);
  if (!labels.is_object()) Fail(Sub(path, "labels"), "expected an object");
  for (auto it = labels.begin(); it != labels.end(); ++it) {
    if (!it.value().is_string())
      Fail(Sub(Sub(path, "labels"), it.key().c_str()), "expected a string");
    r.labels[it.key()] = it.value().get<std::string>();
  }
  r.thresholds_path = GetString(m, "thresholds_path", path);
  const Json& shard = Field(m, "shard", path);
  if (!shard.is_null()) {
    r.shard_index = static_cast<int>(GetInt(shard, "index", Sub(path, "shard")));
    r.shard_count = static_cast<int>(GetInt(shard, "count", Sub(path, "shard")));
  }
  r.merged_from = GetStrings(m, "merged_from", path);
  return r;
}

}  // namespace

const char* ModelStatusName(ModelStatus status) {
  switch (status) {
    case ModelStatus::kOk:
      return "ok";
    case ModelStatus::kFailed:
      return "failed";
    case ModelStatus::kInterrupted:
      return "interrupted";
  }
  return "failed";
}

std::size_t RunResults::CountWithStatus(ModelStatus status) const {
  std::size_t n = 0;
  for (const ModelResult& m : models) n += m.status == status;
  return n;
}

std::string ResultsToJson(const RunResults& results) {
  Writer w;
  std::string& o = w.out();
  o += "{\n";
  w.Key(2, "schema_version");
  w.Int(results.schema_version);
  o += ",\n";
  w.Key(2, "kind");
  w.String("etbench-results");
  o += ",\n";
  w.Key(2, "interrupted");
  w.Bool(results.interrupted);
  o += ",\n";
  WriteMetadata(w, results.metadata);
  WriteList(w, 2, "models", results.models, WriteModel, /*last=*/true);
  o += "}\n";
  return std::move(o);
}

Result<RunResults> ParseResultsJson(const std::string& json, const std::string& source_name) {
  Json root;
  try {
    root = Json::parse(json);
  } catch (const Json::exception& e) {
    // parse_error, and out_of_range.406 for numbers such as 1e999.
    return InputError(source_name + ": not valid JSON: " + e.what());
  }
  if (!root.is_object() || !root.contains("schema_version")) {
    return InputError(source_name + ": not an etbench results file (no schema_version)");
  }
  const Json& version = root["schema_version"];
  if (!version.is_number_integer() || version.get<int64_t>() != kResultsSchemaVersion) {
    return InputError(source_name + ": unsupported results schema_version " +
                      version.dump(-1, ' ', false, Json::error_handler_t::replace) +
                      " (this etbench reads " + std::to_string(kResultsSchemaVersion) + ")");
  }
  try {
    RunResults r;
    r.schema_version = kResultsSchemaVersion;
    if (root.contains("kind") && root["kind"] != "etbench-results") {
      Fail("$.kind", "expected \"etbench-results\"");
    }
    r.interrupted = GetBool(root, "interrupted", "$");
    r.metadata = ReadMetadata(Field(root, "metadata", "$"), "$.metadata");
    const Json& models = GetArray(root, "models", "$");
    for (std::size_t i = 0; i < models.size(); ++i) {
      r.models.push_back(ReadModel(models[i], Sub(std::string("$.models"), i)));
    }
    return r;
  } catch (const ParseFailure& f) {
    return InputError(source_name + ": " + f.path + ": " + f.message);
  } catch (const Json::exception& e) {
    return InputError(source_name + ": " + e.what());
  }
}

Status WriteResultsFile(const std::string& path, const RunResults& results) {
  for (const ModelResult& model : results.models) {
    // JSON has no NaN or infinity: refuse to write what could not be read.
    if (auto problem = FindInvalidSample(model)) return InputError(path + ": " + *problem);
  }
  const std::filesystem::path parent = std::filesystem::path(path).parent_path();
  if (!parent.empty()) {
    std::error_code ec;
    std::filesystem::create_directories(parent, ec);
    if (ec) return IoError(parent.string() + ": cannot create directory: " + ec.message());
  }
  const std::string text = ResultsToJson(results);
  return WriteFileAtomically(path, std::vector<uint8_t>(text.begin(), text.end()));
}

Result<RunResults> ReadResultsFile(const std::string& path) {
  auto text = ReadTextFile(path);
  if (!text.ok()) return text.error();
  return ParseResultsJson(*text, path);
}

}  // namespace etbench::results
