// Loading a suite file into SuiteConfig: every key typed and checked, every
// error with file:line:column.
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "etbench/base/yaml_reader.h"
#include "suite_names.h"
#include "etbench/harness/config.h"
#include "etbench/harness/process.h"
#include "etbench/harness/runner.h"
#include "etbench/inspector/time_scale.h"
#include "etbench/base/input_file.h"

namespace etbench::harness {
namespace {

namespace fs = std::filesystem;

const std::vector<std::string> kTopLevelKeys = {
    "suite",      "description", "runner",      "time_source",  "tick_rate_hz", "unit",
    "warmup",     "iterations",  "repetitions", "cpu_affinity", "models",       "thresholds",
    "output_dir", "labels",      "builtin",     "command",      "gbench",       "quiet",
    "min_time_s", "warmup_time_s", "budget_s"};
const std::vector<std::string> kModelKeys = {"name", "path",     "args",  "slowdown",
                                             "seed", "etrecord", "filter"};
const std::vector<std::string> kCommandKeys = {"argv", "env", "working_dir", "timeout_s",
                                               "kill_grace_s"};
const std::vector<std::string> kGbenchKeys = {"args",        "metric",    "min_time_s",  "env",
                                              "working_dir", "timeout_s", "kill_grace_s"};
const std::vector<std::string> kBuiltinKeys = {"log_allocations"};

constexpr int64_t kMaxCount = 1000000;

bool IsRegularFile(const std::string& path) {
  struct stat st;
  return stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

bool IsDirectory(const std::string& path) {
  struct stat st;
  return stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

// Names end up in paths and metric keys: keep them tame.
std::string Stem(const std::string& path) { return fs::path(path).stem().string(); }

bool LooksLikePath(const std::string& s) {
  if (s.find('/') != std::string::npos) return true;
  const std::string ext = fs::path(s).extension().string();
  return ext == ".yaml" || ext == ".yml" || ext == ".pte";
}

class SuiteParser {
 public:
  SuiteParser(const std::string& source_path, const SuiteLoadOptions& options)
      : reader_(source_path), source_(source_path), options_(options) {}

  Result<SuiteConfig> Parse(const YAML::Node& root) {
    if (!root.IsMap()) {
      return InputError(source_ + ":1:1: a suite file must be a mapping (suite:, models:, ...)");
    }
    if (Status s = reader_.CheckKeys(root, kTopLevelKeys, ""); !s) return s.error();
    SuiteConfig c;
    c.source_path = source_;

    const YAML::Node suite = root["suite"];
    if (!suite) return reader_.ErrorAt(root, "missing required key 'suite' (the suite's name)");
    auto name = reader_.String(suite, "suite");
    if (!name) return name.error();
    if (const std::string problem = NameProblem(*name, "suite"); !problem.empty()) {
      return reader_.ErrorAt(suite, problem);
    }
    c.suite = *name;
    if (const YAML::Node n = root["description"]) {
      if (auto d = reader_.String(n, "description"); !d) return d.error();
    }

    if (const YAML::Node n = root["runner"]) {
      auto s = reader_.String(n, "runner");
      if (!s) return s.error();
      auto kind = ParseRunnerKind(*s);
      if (!kind) return reader_.ErrorAt(n, kind.error().message);
      c.runner = *kind;
    }
    if (const YAML::Node n = root["time_source"]) {
      auto s = reader_.String(n, "time_source");
      if (!s) return s.error();
      if (*s != "ns" && *s != "cycles") {
        return reader_.ErrorAt(n, "time_source must be ns or cycles, not '" + *s + "'");
      }
      c.time_source = *s;
    }
    if (const YAML::Node n = root["tick_rate_hz"]) {
      auto v = reader_.Double(n, "tick_rate_hz", 1);
      if (!v) return v.error();
      c.tick_rate_hz = *v;
    }
    if (const YAML::Node n = root["unit"]) {
      auto s = reader_.String(n, "unit");
      if (!s) return s.error();
      if (auto scale = ParseTimeScale(*s); !scale) return reader_.ErrorAt(n, scale.error().message);
      c.unit = *s;
      if (c.unit == "cycles" && c.time_source != "cycles") {
        return reader_.ErrorAt(n, "unit cycles needs time_source cycles");
      }
    }
    if (auto s = ReadCount(root, "warmup", 0, &c.warmup); !s) return s.error();
    if (auto s = ReadCount(root, "iterations", 1, &c.iterations); !s) return s.error();
    if (auto s = ReadCount(root, "repetitions", 1, &c.repetitions); !s) return s.error();
    for (const auto& [key, field] : {std::pair{"min_time_s", &c.min_time_s},
                                     std::pair{"warmup_time_s", &c.warmup_time_s},
                                     std::pair{"budget_s", &c.budget_s}}) {
      if (const YAML::Node n = root[key]) {
        auto v = reader_.Double(n, key, 0);
        if (!v) return v.error();
        *field = *v;
      }
    }
    if (const YAML::Node n = root["cpu_affinity"]) {
      if (!n.IsSequence()) return reader_.ErrorAt(n, "cpu_affinity must be a list of CPU numbers");
      for (const YAML::Node& cpu : n) {
        auto v = reader_.Int(cpu, "cpu_affinity entry", 0, 1023);
        if (!v) return v.error();
        c.cpu_affinity.push_back(static_cast<int>(*v));
      }
    }
    if (const YAML::Node n = root["quiet"]) {
      auto v = reader_.Bool(n, "quiet");
      if (!v) return v.error();
      c.quiet = *v;
    }
    if (const YAML::Node n = root["thresholds"]) {
      auto s = reader_.String(n, "thresholds");
      if (!s) return s.error();
      if (!IsRegularFile(*s)) return reader_.ErrorAt(n, "thresholds file '" + *s + "' not found");
      c.thresholds_path = *s;
    }
    if (const YAML::Node n = root["output_dir"]) {
      auto s = reader_.String(n, "output_dir");
      if (!s) return s.error();
      if (s->empty()) return reader_.ErrorAt(n, "output_dir must not be empty");
      c.output_dir = *s;
    }
    if (const YAML::Node n = root["labels"]) {
      auto labels = reader_.StringMap(n, "labels");
      if (!labels) return labels.error();
      c.labels = *labels;
    }
    if (const YAML::Node n = root["builtin"]) {
      if (auto s = ParseBuiltin(n, &c.builtin); !s) return s.error();
    }
    if (const YAML::Node n = root["command"]) {
      if (auto s = ParseCommand(n, &c.command); !s) return s.error();
      c.has_command = true;
    }
    if (const YAML::Node n = root["gbench"]) {
      if (auto s = ParseGbench(n, &c.gbench); !s) return s.error();
      c.has_gbench = true;
    }
    if (c.runner == RunnerKind::kCommand && !c.has_command) {
      const YAML::Node at = root["runner"];
      return reader_.ErrorAt(at, "runner 'command' needs a 'command:' section with argv");
    }

    const YAML::Node models = root["models"];
    if (!models) return reader_.ErrorAt(root, "missing required key 'models'");
    if (!models.IsSequence() || models.size() == 0) {
      return reader_.ErrorAt(models, "models must be a non-empty list");
    }
    std::vector<std::string> names;
    for (const YAML::Node& entry : models) {
      auto model = ParseModel(entry, c.runner);
      if (!model) return model.error();
      const std::string earlier = SameNameIgnoringCase(names, model->name);
      if (earlier == model->name) {
        return reader_.ErrorAt(entry, "duplicate model name '" + model->name + "'");
      }
      if (!earlier.empty()) {
        return reader_.ErrorAt(entry, "model name '" + model->name + "' differs from '" + earlier +
                                          "' only in case (one directory on a case-insensitive "
                                          "file system)");
      }
      names.push_back(model->name);
      c.models.push_back(std::move(model).value());
    }
    return c;
  }

 private:
  Status ReadCount(const YAML::Node& root, const char* key, int64_t min, int* out) {
    const YAML::Node n = root[key];
    if (!n) return Ok{};
    auto v = reader_.Int(n, key, min, kMaxCount);
    if (!v) return v.error();
    *out = static_cast<int>(*v);
    return Ok{};
  }

  Status ParseProcess(const YAML::Node& n, const std::string& section, ProcessOptions* p) {
    if (const YAML::Node env = n["env"]) {
      auto map = reader_.StringMap(env, section + ".env");
      if (!map) return map.error();
      p->env = *map;
    }
    if (const YAML::Node dir = n["working_dir"]) {
      auto s = reader_.String(dir, section + ".working_dir");
      if (!s) return s.error();
      if (!s->empty() && !IsDirectory(*s)) {
        return reader_.ErrorAt(dir, section + ".working_dir '" + *s + "' is not a directory");
      }
      p->working_dir = *s;
    }
    if (const YAML::Node t = n["timeout_s"]) {
      auto v = reader_.Double(t, section + ".timeout_s", 0);
      if (!v) return v.error();
      p->timeout_s = *v;
    }
    if (const YAML::Node g = n["kill_grace_s"]) {
      auto v = reader_.Double(g, section + ".kill_grace_s", 0);
      if (!v) return v.error();
      p->kill_grace_s = *v;
    }
    return Ok{};
  }

  Status ParseBuiltin(const YAML::Node& n, BuiltinOptions* b) {
    if (!n.IsMap()) return reader_.ErrorAt(n, "builtin must be a mapping");
    if (Status s = reader_.CheckKeys(n, kBuiltinKeys, "builtin: "); !s) return s;
    if (const YAML::Node v = n["log_allocations"]) {
      auto flag = reader_.Bool(v, "builtin.log_allocations");
      if (!flag) return flag.error();
      b->log_allocations = *flag;
    }
    return Ok{};
  }

  Status ParseCommand(const YAML::Node& n, CommandOptions* c) {
    if (!n.IsMap()) return reader_.ErrorAt(n, "command must be a mapping with argv");
    if (Status s = reader_.CheckKeys(n, kCommandKeys, "command: "); !s) return s;
    const YAML::Node argv = n["argv"];
    if (!argv) return reader_.ErrorAt(n, "command: missing required key 'argv'");
    if (!argv.IsSequence() || argv.size() == 0) {
      return reader_.ErrorAt(argv, "command.argv must be a non-empty list of strings");
    }
    auto list = reader_.StringList(argv, "command.argv");
    if (!list) return list.error();
    c->argv = *list;
    if (Status s = CheckCommandTemplate(c->argv); !s)
      return reader_.ErrorAt(argv, s.error().message);
    if (Status s = ParseProcess(n, "command", &c->process); !s) return s;
    const std::string& program = c->argv.front();
    if (program.find('{') != std::string::npos) {
      return reader_.ErrorAt(argv[0], "command.argv[0] (the program) cannot use placeholders");
    }
    if (!options_.check_program) return Ok{};
    if (Status s = CheckProgram(argv[0], program, c->process.env, "command.argv[0]"); !s) return s;
    return Ok{};
  }

  Status CheckProgram(const YAML::Node& at, const std::string& program,
                      const std::map<std::string, std::string>& env, const std::string& what) {
    if (FindExecutable(program, SearchPath(env)).empty()) {
      if (program.find('/') != std::string::npos) {
        return reader_.ErrorAt(at, what + " '" + program +
                                       "' not found or not executable (relative paths are "
                                       "relative to the working directory of etbench)");
      }
      return reader_.ErrorAt(at, what + " '" + program +
                                     "' not found in PATH: put its directory first in PATH");
    }
    return Ok{};
  }

  Status ParseGbench(const YAML::Node& n, GbenchOptions* g) {
    if (!n.IsMap()) return reader_.ErrorAt(n, "gbench must be a mapping");
    if (Status s = reader_.CheckKeys(n, kGbenchKeys, "gbench: "); !s) return s;
    if (const YAML::Node a = n["args"]) {
      auto list = reader_.StringList(a, "gbench.args");
      if (!list) return list.error();
      g->args = *list;
    }
    if (const YAML::Node m = n["metric"]) {
      auto s = reader_.String(m, "gbench.metric");
      if (!s) return s.error();
      if (*s != "real_time" && *s != "cpu_time") {
        return reader_.ErrorAt(m, "gbench.metric must be real_time or cpu_time, not '" + *s + "'");
      }
      g->metric = *s;
    }
    if (const YAML::Node t = n["min_time_s"]) {
      auto v = reader_.Double(t, "gbench.min_time_s", 0);
      if (!v) return v.error();
      g->min_time_s = *v;
    }
    return ParseProcess(n, "gbench", &g->process);
  }

  // "toy_cnn" → <suite dir>/models/toy_cnn.yaml for model runners.
  std::string ShorthandPath(const std::string& name) const {
    const fs::path dir = fs::path(source_).parent_path();
    return (dir / "models" / (name + ".yaml")).lexically_normal().string();
  }

  Result<ModelSpec> ParseModel(const YAML::Node& entry, RunnerKind runner) {
    ModelSpec m;
    m.position = reader_.Position(entry);
    YAML::Node path_node = entry;
    if (entry.IsScalar()) {
      const std::string& s = entry.Scalar();
      if (runner == RunnerKind::kGbench || LooksLikePath(s)) {
        m.path = s;
        m.name = runner == RunnerKind::kGbench ? fs::path(s).filename().string() : Stem(s);
      } else {
        m.name = s;
        m.path = ShorthandPath(s);
      }
    } else if (entry.IsMap()) {
      if (Status s = reader_.CheckKeys(entry, kModelKeys, "model: "); !s) return s.error();
      if (const YAML::Node n = entry["name"]) {
        auto s = reader_.String(n, "model name");
        if (!s) return s.error();
        m.name = *s;
      }
      if (const YAML::Node n = entry["path"]) {
        auto s = reader_.String(n, "model path");
        if (!s) return s.error();
        m.path = *s;
        path_node.reset(n);  // rebinds (operator= would overwrite `entry`)
      }
      if (m.name.empty() && m.path.empty()) {
        return reader_.ErrorAt(entry, "a model needs 'name' or 'path'");
      }
      if (m.path.empty()) {
        if (runner == RunnerKind::kGbench) {
          return reader_.ErrorAt(entry, "a gbench model needs 'path' (the benchmark binary)");
        }
        m.path = ShorthandPath(m.name);
      }
      if (m.name.empty()) {
        m.name =
            runner == RunnerKind::kGbench ? fs::path(m.path).filename().string() : Stem(m.path);
      }
      if (const YAML::Node n = entry["args"]) {
        auto list = reader_.StringList(n, "model args");
        if (!list) return list.error();
        m.args = *list;
      }
      if (const YAML::Node n = entry["slowdown"]) {
        if (runner != RunnerKind::kBuiltin) {
          return reader_.ErrorAt(n,
                                 "slowdown applies to the builtin runner only (pass "
                                 "--slowdown in a command's args instead)");
        }
        auto list = reader_.StringList(n, "slowdown");
        if (!list) return list.error();
        for (const std::string& s : *list) {
          if (Status ok = CheckSlowdownSpec(s); !ok) return reader_.ErrorAt(n, ok.error().message);
        }
        m.slowdown = *list;
      }
      if (const YAML::Node n = entry["seed"]) {
        if (runner != RunnerKind::kBuiltin) {
          return reader_.ErrorAt(n, "seed applies to the builtin runner only");
        }
        auto v = reader_.Uint(n, "seed");
        if (!v) return v.error();
        m.seed = *v;
      }
      if (const YAML::Node n = entry["etrecord"]) {
        if (runner == RunnerKind::kGbench) {
          return reader_.ErrorAt(n, "etrecord does not apply to gbench models");
        }
        auto s = reader_.String(n, "etrecord");
        if (!s) return s.error();
        if (!IsRegularFile(*s)) return reader_.ErrorAt(n, "etrecord file '" + *s + "' not found");
        m.etrecord_path = *s;
      }
      if (const YAML::Node n = entry["filter"]) {
        if (runner != RunnerKind::kGbench) {
          return reader_.ErrorAt(n, "filter applies to gbench models only");
        }
        auto s = reader_.String(n, "filter");
        if (!s) return s.error();
        m.filter = *s;
      }
    } else {
      return reader_.ErrorAt(entry, "a model entry must be a name, a path or a mapping");
    }
    if (const std::string problem = NameProblem(m.name, "model"); !problem.empty()) {
      return reader_.ErrorAt(entry, problem);
    }
    if (runner == RunnerKind::kGbench) {
      if (access(m.path.c_str(), X_OK) != 0 || !IsRegularFile(m.path)) {
        return reader_.ErrorAt(path_node,
                               "benchmark binary '" + m.path + "' not found or not executable");
      }
    } else if (!IsRegularFile(m.path)) {
      return reader_.ErrorAt(path_node, "model file '" + m.path + "' not found");
    }
    return m;
  }

  YamlReader reader_;
  std::string source_;
  SuiteLoadOptions options_;
};

}  // namespace

Result<SuiteConfig> ParseSuiteConfig(const std::string& yaml, const std::string& source_path,
                                     const SuiteLoadOptions& options) {
  auto root = ParseYamlText(yaml, source_path);
  if (!root) return root.error();
  try {
    return SuiteParser(source_path, options).Parse(*root);
  } catch (const YAML::Exception& e) {
    // yaml-cpp throws on a few malformed shapes (e.g. indexing a scalar).
    return InputError(source_path + ": " + e.what());
  }
}

Result<SuiteConfig> LoadSuiteConfig(const std::string& path, const SuiteLoadOptions& options,
                                    Disk& disk) {
  auto text = disk.ReadText(path);
  if (!text.ok()) return text.error();
  return ParseSuiteConfig(*text, path, options);
}

}  // namespace etbench::harness
