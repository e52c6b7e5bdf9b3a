// Results files: the JSON layout of docs/results.md, written by hand (one
// event per line, exact doubles) and read back with the base JSON reader.
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
