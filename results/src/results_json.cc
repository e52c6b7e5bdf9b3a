// Results files: the JSON layout of docs/results.md, written with base's
// JsonWriter (one event per line, exact doubles) and read back with the
// base JSON reader.
#include <filesystem>
#include <fstream>
#include <sstream>

#include "etbench/base/json_reader.h"
#include "etbench/base/json_writer.h"
#include "etbench/results/results.h"
#include "etbench/inspector/etdump_writer.h"

namespace etbench::results {
namespace {

// ---------------------------------------------------------------- writing

// The layout of docs/results.md: objects and lists of objects broken over
// lines, each event, repetition, allocation, benchmark and statistics object
// and each list of scalars on one line; JsonSpelling::kShortest.
constexpr JsonLayout kOneLine = JsonLayout::kOneLine;

// An empty string is written as null (and read back as "").
void StringOrNull(JsonWriter& json, const std::string& s) {
  if (s.empty()) {
    json.Null();
  } else {
    json.String(s);
  }
}

void WritePerfData(JsonWriter& json, const etbench::PerfData& p) {
  json.BeginObject(kOneLine);
  json.Key("raw").DoubleArray(p.raw);
  const std::pair<const char*, double> stats[] = {
      {"p10", p.p10}, {"p50", p.p50}, {"p90", p.p90},      {"avg", p.avg},
      {"min", p.min}, {"max", p.max}, {"stddev", p.stddev}};
  for (const auto& [name, value] : stats) json.Key(name).Double(value);
  json.Key("count").Uint(p.count);
  json.EndObject();
}

void WriteDelegateId(JsonWriter& json, const DelegateDebugId& id) {
  if (const auto* i = std::get_if<int32_t>(&id)) {
    json.Int(*i);
  } else if (const auto* s = std::get_if<std::string>(&id)) {
    json.String(*s);
  } else {
    json.Null();
  }
}

void WriteEvent(JsonWriter& json, const EventResult& e) {
  json.BeginObject(kOneLine);
  json.Key("name").String(e.name);
  json.Key("instruction_id").IntOrNull(e.instruction_id);
  json.Key("delegate_debug_identifier");
  WriteDelegateId(json, e.delegate_debug_identifier);
  json.Key("is_delegated_op").Bool(e.is_delegated_op);
  json.Key("occurrence").Int(e.occurrence);
  json.Key("op_types").StringArray(e.op_types);
  json.Key("module_paths").StringArray(e.module_paths);
  json.Key("delegate_backend_name").StringOrNull(e.delegate_backend_name);
  json.Key("perf_data");
  WritePerfData(json, e.perf_data);
  json.EndObject();
}

void WriteBlock(JsonWriter& json, const BlockResult& b) {
  json.BeginObject();
  json.Key("name").String(b.name);
  json.Key("run_count").Uint(b.run_count);
  if (!b.repetition_run_counts.empty()) {
    json.Key("repetition_run_counts").UintArray(b.repetition_run_counts, kOneLine);
  }
  json.Key("framework_tax");
  if (b.framework_tax) {
    WritePerfData(json, *b.framework_tax);
  } else {
    json.Null();
  }
  json.Key("allocations").BeginArray();
  for (const AllocatorUsage& a : b.allocations) {
    json.BeginObject(kOneLine);
    json.Key("name").String(a.name);
    json.Key("bytes_per_run").UintArray(a.bytes_per_run);
    json.Key("count_per_run").UintArray(a.count_per_run);
    json.EndObject();
  }
  json.EndArray();
  json.Key("events").BeginArray();
  for (const EventResult& e : b.events) WriteEvent(json, e);
  json.EndArray();
  json.EndObject();
}

void WriteRepetition(JsonWriter& json, const RepetitionRecord& r) {
  json.BeginObject(kOneLine);
  json.Key("index").Int(r.index);
  json.Key("etdump_path");
  StringOrNull(json, r.etdump_path);
  json.Key("metadata_path");
  StringOrNull(json, r.metadata_path);
  json.Key("debug_output_path");
  StringOrNull(json, r.debug_output_path);
  json.Key("time_source").String(r.time_source);
  json.Key("tick_rate_hz").Double(r.tick_rate_hz);
  json.Key("execute_runs").Uint(r.execute_runs);
  json.Key("warmup_runs_dropped").Uint(r.warmup_runs_dropped);
  json.Key("wall_ms").Double(r.wall_ms);
  json.EndObject();
}

void WriteBenchmark(JsonWriter& json, const BenchmarkResult& b) {
  json.BeginObject(kOneLine);
  json.Key("name").String(b.name);
  json.Key("metric").String(b.metric);
  json.Key("iterations").IntArray(b.iterations);
  json.Key("perf_data");
  WritePerfData(json, b.perf_data);
  json.EndObject();
}

template <typename T, typename F>
void WriteList(JsonWriter& json, const char* key, const std::vector<T>& items, F write) {
  json.Key(key).BeginArray();
  for (const T& item : items) write(json, item);
  json.EndArray();
}

void WriteModel(JsonWriter& json, const ModelResult& m) {
  json.BeginObject();
  json.Key("name").String(m.name);
  json.Key("suite_index").Int(m.suite_index);
  json.Key("status").String(ModelStatusName(m.status));
  json.Key("error");
  StringOrNull(json, m.error);
  json.Key("model_path").String(m.model_path);
  json.Key("model_sha256").String(m.model_sha256);
  json.Key("unit").String(m.unit);
  json.Key("wall_ms").Double(m.wall_ms);
  json.Key("stdout");
  StringOrNull(json, m.stdout_text);
  json.Key("stderr");
  StringOrNull(json, m.stderr_text);
  json.Key("warnings").StringArray(m.warnings, kOneLine);
  WriteList(json, "repetitions", m.repetitions, WriteRepetition);
  WriteList(json, "blocks", m.blocks, WriteBlock);
  WriteList(json, "benchmarks", m.benchmarks, WriteBenchmark);
  json.EndObject();
}

void WriteMetadata(JsonWriter& json, const ResultsMetadata& m) {
  json.Key("metadata").BeginObject();
  json.Key("suite").String(m.suite);
  json.Key("config_path").String(m.config_path);
  json.Key("config_hash").String(m.config_hash);
  json.Key("runner").String(m.runner);
  json.Key("runner_version").String(m.runner_version);
  json.Key("tool_version").String(m.tool_version);
  json.Key("time_source").String(m.time_source);
  json.Key("tick_rate_hz").Double(m.tick_rate_hz);
  json.Key("unit").String(m.unit);
  json.Key("warmup").Int(m.warmup);
  json.Key("iterations").Int(m.iterations);
  json.Key("repetitions").Int(m.repetitions);
  json.Key("cpu_affinity")
      .IntArray(std::vector<int64_t>(m.cpu_affinity.begin(), m.cpu_affinity.end()), kOneLine);
  json.Key("host").String(m.host);
  json.Key("cpu").String(m.cpu);
  json.Key("os").String(m.os);
  if (!m.boot_id.empty()) json.Key("boot_id").String(m.boot_id);
  json.Key("device").String(m.device);
  json.Key("branch").String(m.branch);
  json.Key("git_commit").String(m.git_commit);
  json.Key("date").String(m.date);
  json.Key("labels").StringMap(m.labels, kOneLine);
  json.Key("thresholds_path").String(m.thresholds_path);
  json.Key("shard");
  if (m.shard_index && m.shard_count) {
    json.BeginObject(kOneLine).Key("index").Int(*m.shard_index);
    json.Key("count").Int(*m.shard_count).EndObject();
  } else {
    json.Null();
  }
  json.Key("merged_from").StringArray(m.merged_from, kOneLine);
  json.EndObject();
}

// ---------------------------------------------------------------- reading

// Typed reads of one results file; the first error wins (JsonErrors).
// Every member the layout names must be present ("missing key").
class Reader {
 public:
  const JsonErrors& errors() const { return errors_; }
  void Fail(const JsonValue& at, const std::string& what) { errors_.Fail(at, what); }

  JsonValue Field(const JsonValue& o, const char* key) {
    const JsonValue v = o.Get(key);
    if (!o.is_object()) {
      errors_.Take(o.Object());
    } else if (!v.present()) {
      errors_.Fail(o, std::string("missing key \"") + key + "\"");
    }
    return v;
  }
  std::string Value(const JsonValue& v) { return errors_.Take(v.String()); }
  std::string String(const JsonValue& o, const char* key) {
    return errors_.Take(Field(o, key).String());
  }
  // null reads as "" (the writer's StringOrNull).
  std::string StringOrNull(const JsonValue& o, const char* key) {
    const JsonValue v = Field(o, key);
    return v.is_null() ? std::string() : errors_.Take(v.String());
  }
  double Number(const JsonValue& o, const char* key) {
    return errors_.Take(Field(o, key).NumberOrNaN());
  }
  int64_t Int(const JsonValue& o, const char* key, int64_t min = INT32_MIN,
              int64_t max = INT32_MAX) {
    return errors_.Take(Field(o, key).Int(min, max));
  }
  bool Bool(const JsonValue& o, const char* key) { return errors_.Take(Field(o, key).Bool()); }
  JsonValue Array(const JsonValue& o, const char* key) {
    return errors_.Take(Field(o, key).Array());
  }
  std::vector<std::string> Strings(const JsonValue& o, const char* key) {
    std::vector<std::string> out;
    for (const JsonValue v : Array(o, key)) out.push_back(errors_.Take(v.String()));
    return out;
  }
  template <typename T>
  std::vector<T> Numbers(const JsonValue& o, const char* key) {
    const JsonValue list = Array(o, key);
    std::vector<T> out;
    out.reserve(list.size());
    for (const JsonValue v : list) {
      if constexpr (std::is_floating_point_v<T>) {
        out.push_back(errors_.Take(v.NumberOrNaN()));  // null: NaN, refused by CheckSample
      } else if constexpr (std::is_unsigned_v<T>) {
        out.push_back(errors_.Take(v.Uint()));
      } else {
        out.push_back(errors_.Take(v.Int()));
      }
    }
    return out;
  }

 private:
  JsonErrors errors_;
};

PerfData ReadPerfData(Reader& rd, const JsonValue& p, SampleKind kind) {
  PerfData d;
  d.raw = rd.Numbers<double>(p, "raw");
  for (std::size_t i = 0; i < d.raw.size(); ++i) {
    if (auto problem = CheckSample(d.raw[i], kind)) rd.Fail(p.Get("raw")[i], *problem);
  }
  d.p10 = rd.Number(p, "p10");
  d.p50 = rd.Number(p, "p50");
  d.p90 = rd.Number(p, "p90");
  d.avg = rd.Number(p, "avg");
  d.min = rd.Number(p, "min");
  d.max = rd.Number(p, "max");
  d.stddev = rd.Number(p, "stddev");
  const int64_t count = rd.Int(p, "count", INT64_MIN, INT64_MAX);
  if (rd.errors().ok() && (count < 0 || static_cast<std::size_t>(count) != d.raw.size())) {
    rd.Fail(p.Get("count"), "does not match the number of raw samples");
  }
  d.count = static_cast<std::size_t>(count);
  return d;
}

EventResult ReadEvent(Reader& rd, const JsonValue& e) {
  EventResult r;
  r.name = rd.String(e, "name");
  const JsonValue instr = rd.Field(e, "instruction_id");
  if (instr.present() && !instr.is_null()) {
    r.instruction_id = static_cast<int32_t>(rd.Int(e, "instruction_id"));
  }
  const JsonValue id = rd.Field(e, "delegate_debug_identifier");
  if (id.is_integer()) {
    r.delegate_debug_identifier = static_cast<int32_t>(rd.Int(e, "delegate_debug_identifier"));
  } else if (id.is_string()) {
    r.delegate_debug_identifier = *id.String();
  } else if (id.present() && !id.is_null()) {
    rd.Fail(id, "expected an integer, a string or null");
  }
  r.is_delegated_op = rd.Bool(e, "is_delegated_op");
  r.occurrence = static_cast<int32_t>(rd.Int(e, "occurrence"));
  r.op_types = rd.Strings(e, "op_types");
  r.module_paths = rd.Strings(e, "module_paths");
  const JsonValue backend = rd.Field(e, "delegate_backend_name");
  if (backend.present() && !backend.is_null()) {
    r.delegate_backend_name = rd.StringOrNull(e, "delegate_backend_name");
  }
  r.perf_data = ReadPerfData(rd, rd.Field(e, "perf_data"), SampleKind::kDuration);
  return r;
}

BlockResult ReadBlock(Reader& rd, const JsonValue& b) {
  BlockResult r;
  r.name = rd.String(b, "name");
  const int64_t runs = rd.Int(b, "run_count", INT64_MIN, INT64_MAX);
  if (runs < 0) rd.Fail(b.Get("run_count"), "must not be negative");
  r.run_count = static_cast<std::size_t>(runs);
  if (b.Has("repetition_run_counts")) {  // optional: older results lack it
    r.repetition_run_counts = rd.Numbers<uint64_t>(b, "repetition_run_counts");
    uint64_t sum = 0;
    for (uint64_t n : r.repetition_run_counts) sum += n;
    for (std::size_t i = 0; i < r.repetition_run_counts.size(); ++i) {
      // An empty group would count as a cluster and shift the verdict.
      if (r.repetition_run_counts[i] == 0) {
        rd.Fail(b.Get("repetition_run_counts")[i], "a repetition with 0 runs");
      }
    }
    if (!r.repetition_run_counts.empty() && sum != r.run_count) {
      rd.Fail(b.Get("repetition_run_counts"), "adds up to " + std::to_string(sum) +
                                                 ", not run_count " +
                                                 std::to_string(r.run_count));
    }
  }
  const JsonValue tax = rd.Field(b, "framework_tax");
  if (tax.present() && !tax.is_null()) {
    r.framework_tax = ReadPerfData(rd, tax, SampleKind::kPercent);
  }
  for (const JsonValue a : rd.Array(b, "allocations")) {
    AllocatorUsage usage;
    usage.name = rd.String(a, "name");
    usage.bytes_per_run = rd.Numbers<uint64_t>(a, "bytes_per_run");
    usage.count_per_run = rd.Numbers<uint64_t>(a, "count_per_run");
    r.allocations.push_back(std::move(usage));
  }
  const JsonValue events = rd.Array(b, "events");
  r.events.reserve(events.size());
  for (const JsonValue e : events) r.events.push_back(ReadEvent(rd, e));
  return r;
}

ModelStatus ReadStatus(Reader& rd, const JsonValue& m) {
  const std::string s = rd.String(m, "status");
  if (s == "ok") return ModelStatus::kOk;
  if (s == "failed") return ModelStatus::kFailed;
  if (s == "interrupted") return ModelStatus::kInterrupted;
  if (rd.errors().ok()) {
    rd.Fail(m.Get("status"), "unknown status '" + s + "' (ok, failed, interrupted)");
  }
  return ModelStatus::kFailed;
}

ModelResult ReadModel(Reader& rd, const JsonValue& m) {
  ModelResult r;
  r.name = rd.String(m, "name");
  r.suite_index = static_cast<int>(rd.Int(m, "suite_index"));
  r.status = ReadStatus(rd, m);
  r.error = rd.StringOrNull(m, "error");
  r.model_path = rd.String(m, "model_path");
  r.model_sha256 = rd.String(m, "model_sha256");
  r.unit = rd.String(m, "unit");
  r.wall_ms = rd.Number(m, "wall_ms");
  r.stdout_text = rd.StringOrNull(m, "stdout");
  r.stderr_text = rd.StringOrNull(m, "stderr");
  r.warnings = rd.Strings(m, "warnings");
  for (const JsonValue x : rd.Array(m, "repetitions")) {
    RepetitionRecord rec;
    rec.index = static_cast<int>(rd.Int(x, "index"));
    rec.etdump_path = rd.StringOrNull(x, "etdump_path");
    rec.metadata_path = rd.StringOrNull(x, "metadata_path");
    rec.debug_output_path = rd.StringOrNull(x, "debug_output_path");
    rec.time_source = rd.String(x, "time_source");
    rec.tick_rate_hz = rd.Number(x, "tick_rate_hz");
    rec.execute_runs = static_cast<std::size_t>(rd.Int(x, "execute_runs", INT64_MIN, INT64_MAX));
    rec.warmup_runs_dropped =
        static_cast<std::size_t>(rd.Int(x, "warmup_runs_dropped", INT64_MIN, INT64_MAX));
    rec.wall_ms = rd.Number(x, "wall_ms");
    r.repetitions.push_back(std::move(rec));
  }
  for (const JsonValue b : rd.Array(m, "blocks")) r.blocks.push_back(ReadBlock(rd, b));
  for (const JsonValue x : rd.Array(m, "benchmarks")) {
    BenchmarkResult b;
    b.name = rd.String(x, "name");
    b.metric = rd.String(x, "metric");
    b.iterations = rd.Numbers<int64_t>(x, "iterations");
    b.perf_data = ReadPerfData(rd, rd.Field(x, "perf_data"), SampleKind::kBenchmarkTime);
    r.benchmarks.push_back(std::move(b));
  }
  return r;
}

ResultsMetadata ReadMetadata(Reader& rd, const JsonValue& m) {
  ResultsMetadata r;
  r.suite = rd.String(m, "suite");
  r.config_path = rd.String(m, "config_path");
  r.config_hash = rd.String(m, "config_hash");
  r.runner = rd.String(m, "runner");
  r.runner_version = rd.String(m, "runner_version");
  r.tool_version = rd.String(m, "tool_version");
  r.time_source = rd.String(m, "time_source");
  r.tick_rate_hz = rd.Number(m, "tick_rate_hz");
  r.unit = rd.String(m, "unit");
  r.warmup = static_cast<int>(rd.Int(m, "warmup"));
  r.iterations = static_cast<int>(rd.Int(m, "iterations"));
  r.repetitions = static_cast<int>(rd.Int(m, "repetitions"));
  for (int64_t cpu : rd.Numbers<int64_t>(m, "cpu_affinity")) {
    r.cpu_affinity.push_back(static_cast<int>(cpu));
  }
  r.host = rd.String(m, "host");
  r.cpu = rd.String(m, "cpu");
  r.os = rd.String(m, "os");
  if (m.Has("boot_id")) r.boot_id = rd.String(m, "boot_id");
  r.device = rd.String(m, "device");
  r.branch = rd.String(m, "branch");
  r.git_commit = rd.String(m, "git_commit");
  r.date = rd.String(m, "date");
  const JsonValue labels = rd.Field(m, "labels");
  if (labels.present() && !labels.is_object()) rd.Fail(labels, "expected an object");
  for (const JsonValue label : labels) {
    r.labels[std::string(label.key())] = rd.Value(label);
  }
  r.thresholds_path = rd.String(m, "thresholds_path");
  const JsonValue shard = rd.Field(m, "shard");
  if (shard.present() && !shard.is_null()) {
    r.shard_index = static_cast<int>(rd.Int(shard, "index"));
    r.shard_count = static_cast<int>(rd.Int(shard, "count"));
  }
  r.merged_from = rd.Strings(m, "merged_from");
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
  JsonWriter json(2, JsonSpelling::kShortest);
  json.BeginObject();
  json.Key("schema_version").Int(results.schema_version);
  json.Key("kind").String("etbench-results");
  json.Key("interrupted").Bool(results.interrupted);
  WriteMetadata(json, results.metadata);
  WriteList(json, "models", results.models, WriteModel);
  json.EndObject();
  std::string text = json.Take();
  text += '\n';
  return text;
}

Result<RunResults> ParseResultsJson(const std::string& json, const std::string& source_name) {
  JsonSyntaxError syntax;
  auto doc = ParseJson(json, source_name, {}, &syntax);
  if (!doc.ok()) return InputError(source_name + ": not valid JSON: " + syntax.Describe());
  const JsonValue root = doc->root();
  if (!root.Has("schema_version")) {
    return InputError(source_name + ": not an etbench results file (no schema_version)");
  }
  const JsonValue version = root.Get("schema_version");
  const auto version_number = version.Int();
  if (!version_number.ok() || *version_number != kResultsSchemaVersion) {
    return InputError(source_name + ": unsupported results schema_version " + version.Dump() +
                      " (this etbench reads " + std::to_string(kResultsSchemaVersion) + ")");
  }
  Reader rd;
  RunResults r;
  r.schema_version = kResultsSchemaVersion;
  const JsonValue kind = root.Get("kind");
  if (kind.present() && !(kind.is_string() && *kind.String() == "etbench-results")) {
    rd.Fail(kind, "expected \"etbench-results\"");
  }
  r.interrupted = rd.Bool(root, "interrupted");
  r.metadata = ReadMetadata(rd, rd.Field(root, "metadata"));
  for (const JsonValue m : rd.Array(root, "models")) r.models.push_back(ReadModel(rd, m));
  if (!rd.errors().ok()) return rd.errors().error();
  return r;
}

Status WriteResultsFile(const std::string& path, const RunResults& results, Disk& disk) {
  for (const ModelResult& model : results.models) {
    // JSON has no NaN or infinity: refuse to write what could not be read.
    if (auto problem = FindInvalidSample(model)) return InputError(path + ": " + *problem);
  }
  const std::filesystem::path parent = std::filesystem::path(path).parent_path();
  if (!parent.empty()) {
    if (Status made = disk.CreateDirectories(parent.string()); !made.ok()) {
      return IoError(parent.string() + ": cannot create directory: " + made.error().message);
    }
  }
  return disk.WriteText(path, ResultsToJson(results));
}

Result<RunResults> ReadResultsFile(const std::string& path, Disk& disk) {
  auto text = disk.ReadText(path);
  if (!text.ok()) return text.error();
  return ParseResultsJson(*text, path);
}

}  // namespace etbench::results
