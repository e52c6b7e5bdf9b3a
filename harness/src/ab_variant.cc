// The variants of `etbench ab`: KEY=VALUE settings on top of a suite file.

#include <filesystem>

#include "etbench/harness/ab.h"
#include "etbench/harness/process.h"
#include "etbench/harness/runner.h"

namespace etbench::harness {
namespace {

namespace fs = std::filesystem;

bool StartsWith(const std::string& s, const std::string& prefix) {
  return s.compare(0, prefix.size(), prefix) == 0;
}

Status CheckProgramExists(const std::string& program, const ProcessOptions& process) {
  if (!FindExecutable(program, SearchPath(process.env)).empty()) return Ok{};
  if (program.find('/') != std::string::npos) {
    return UsageError(program + ": not found or not executable");
  }
  return UsageError(program + ": not found in PATH");
}

Status CheckFileExists(const std::string& path) {
  std::error_code ec;
  if (!fs::is_regular_file(path, ec)) return InputError(path + ": no such file");
  return Ok{};
}

Status RequireRunner(const SuiteConfig& c, RunnerKind kind, const std::string& key) {
  if (c.runner == kind) return Ok{};
  return UsageError(key + " applies to the " + std::string(RunnerKindName(kind)) +
                    " runner; this suite uses " + std::string(RunnerKindName(c.runner)));
}

ProcessOptions& ProcessOf(SuiteConfig* c) {
  return c->runner == RunnerKind::kGbench ? c->gbench.process : c->command.process;
}

Status SetModelPath(SuiteConfig* c, const std::string& name, const std::string& path) {
  if (Status s = CheckFileExists(path); !s) return s;
  for (ModelSpec& m : c->models) {
    if (m.name != name) continue;
    m.path = path;
    return Ok{};
  }
  return UsageError("the suite has no model '" + name + "' (models: " + JoinModelNames(*c) +
                    ")");
}

Status SetOnlyModelPath(SuiteConfig* c, const std::string& path) {
  auto selected = SelectModels(*c);
  if (!selected) return selected.error();
  if (selected->size() != 1) {
    return UsageError("the suite runs " + std::to_string(selected->size()) +
                      " models; name one with model.NAME=PATH or select it with --model NAME");
  }
  return SetModelPath(c, c->models[selected->front()].name, path);
}

Status SetCommand(SuiteConfig* c, std::vector<std::string> argv) {
  if (argv.empty()) return UsageError("the command is empty");
  if (argv.front().find('{') != std::string::npos) {
    return UsageError("the program (argv[0]) cannot use placeholders");
  }
  if (Status s = CheckCommandTemplate(argv); !s) return s;
  if (Status s = CheckProgramExists(argv.front(), c->command.process); !s) return s;
  c->command.argv = std::move(argv);
  return Ok{};
}

}  // namespace

Result<std::vector<std::string>> SplitCommandLine(const std::string& text) {
  std::vector<std::string> words;
  std::string word;
  bool in_word = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == ' ' || c == '\t') {
      if (in_word) words.push_back(std::move(word));
      word.clear();
      in_word = false;
      continue;
    }
    in_word = true;
    if (c != '\'' && c != '"') {
      word += c;
      continue;
    }
    const std::size_t open = i;
    for (++i; i < text.size() && text[i] != c; ++i) {
      if (c == '"' && text[i] == '\\' && i + 1 < text.size() &&
          (text[i + 1] == '"' || text[i + 1] == '\\')) {
        ++i;
      }
      word += text[i];
    }
    if (i == text.size()) {
      return UsageError(std::string("unterminated ") + c + " starting at column " +
                        std::to_string(open + 1));
    }
  }
  if (in_word) words.push_back(std::move(word));
  return words;
}

Status ApplyAbSetting(const std::string& setting, SuiteConfig* c) {
  const auto eq = setting.find('=');
  if (eq == std::string::npos || eq == 0) {
    return UsageError("a setting is KEY=VALUE (keys: " + std::string(kAbSettingKeys) + ")");
  }
  const std::string key = setting.substr(0, eq);
  const std::string value = setting.substr(eq + 1);
  if (key == "program") {
    if (Status s = RequireRunner(*c, RunnerKind::kCommand, key); !s) return s;
    std::vector<std::string> argv = c->command.argv;
    argv.front() = value;
    return SetCommand(c, std::move(argv));
  }
  if (key == "command") {
    if (Status s = RequireRunner(*c, RunnerKind::kCommand, key); !s) return s;
    auto argv = SplitCommandLine(value);
    if (!argv) return argv.error();
    return SetCommand(c, std::move(argv).value());
  }
  if (key == "model") return SetOnlyModelPath(c, value);
  if (StartsWith(key, "model.") && key.size() > 6) return SetModelPath(c, key.substr(6), value);
  if (key == "arg") {
    if (c->runner == RunnerKind::kBuiltin) {
      return UsageError("arg applies to the command and gbench runners");
    }
    for (ModelSpec& m : c->models) m.args.push_back(value);
    return Ok{};
  }
  if (StartsWith(key, "env.") && key.size() > 4) {
    if (c->runner == RunnerKind::kBuiltin) {
      return UsageError("env applies to the command and gbench runners (the builtin runner "
                        "runs inside etbench)");
    }
    ProcessOf(c).env[key.substr(4)] = value;
    return Ok{};
  }
  if (key == "slowdown") {
    if (Status s = RequireRunner(*c, RunnerKind::kBuiltin, key); !s) return s;
    if (Status s = CheckSlowdownSpec(value); !s) return s;
    for (ModelSpec& m : c->models) m.slowdown.push_back(value);
    return Ok{};
  }
  if (key == "runner") {
    ConfigOverrides o;
    o.runner = value;
    return ApplyOverrides(o, c);
  }
  if (key == "config") return UsageError("config= is handled by LoadAbVariant");
  return UsageError("unknown key '" + key + "' (keys: " + std::string(kAbSettingKeys) + ")");
}

Result<SuiteConfig> LoadAbVariant(const std::string& config_path,
                                  const std::vector<std::string>& settings,
                                  const ConfigOverrides& overrides, const std::string& flag,
                                  Disk& disk) {
  std::string path = config_path;
  std::string config_setting;
  for (const std::string& s : settings) {
    if (!StartsWith(s, "config=")) continue;
    if (!config_setting.empty()) {
      return UsageError(flag + " " + s + ": a variant has one config= (already " +
                        config_setting + ")");
    }
    config_setting = s;
    path = s.substr(7);
  }
  // The suite's program is checked after the settings, which may replace
  // it (program=, command=): a user pointing at two builds need not have
  // the suite's program in PATH.
  SuiteLoadOptions load;
  load.check_program = false;
  auto config = LoadSuiteConfig(path, load, disk);
  if (!config) {
    if (config_setting.empty()) return config.error();
    return Error{config.error().code, flag + " " + config_setting + ": " + config.error().message};
  }
  if (Status s = ApplyOverrides(overrides, &config.value()); !s) return s.error();
  for (const std::string& s : settings) {
    if (StartsWith(s, "config=")) continue;
    if (Status applied = ApplyAbSetting(s, &config.value()); !applied) {
      return Error{applied.error().code, flag + " " + s + ": " + applied.error().message};
    }
  }
  if (config->runner == RunnerKind::kCommand && !config->command.argv.empty()) {
    const std::string& program = config->command.argv.front();
    if (Status s = CheckProgramExists(program, config->command.process); !s) {
      return UsageError(flag + ": " + s.error().message + " (the program of " + path +
                        "): point this variant at a build with " + flag +
                        " program=PATH, or put its directory first in PATH");
    }
  }
  return config;
}

}  // namespace etbench::harness
