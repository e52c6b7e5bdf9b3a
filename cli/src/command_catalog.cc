#include "command_catalog.h"

#include <sstream>

#include "etbench/cli/etbench_cli.h"

namespace etbench {

namespace po = boost::program_options;

namespace {

thread_local CatalogRecorder* active_recorder = nullptr;

std::vector<std::string> Words(const std::string& command) {
  std::vector<std::string> words;
  std::istringstream in(command);
  for (std::string w; in >> w;) words.push_back(w);
  return words;
}

}  // namespace

CatalogRecorder::CatalogRecorder() { active_recorder = this; }
CatalogRecorder::~CatalogRecorder() { active_recorder = nullptr; }
CatalogRecorder* CatalogRecorder::Active() { return active_recorder; }

CommandInfo& CatalogRecorder::Entry(const std::string& command) {
  const std::vector<std::string> words = Words(command);
  for (CommandInfo& c : commands_) {
    if (c.words == words) return c;
  }
  CommandInfo info;
  info.words = words;
  for (const auto& [name, summary] : summaries_) {
    if (name == command) info.summary = summary;
  }
  commands_.push_back(std::move(info));
  return commands_.back();
}

void CatalogRecorder::RecordOptions(const std::string& command, const po::options_description& options,
                                    const po::positional_options_description* positional) {
  CommandInfo& info = Entry(command);
  std::ostringstream help;
  help << options << "\n";
  info.help = help.str();
  for (const auto& option : options.options()) {
    OptionInfo o;
    o.name = option->long_name();
    const std::string shortname = option->canonical_display_name(po::command_line_style::allow_dash_for_short);
    if (shortname.size() == 2 && shortname[0] == '-') o.short_name = shortname[1];
    o.takes_value = option->semantic()->max_tokens() > 0;
    o.parameter = option->format_parameter();
    o.description = option->description();
    if (positional != nullptr) {
      for (unsigned i = 0; i < positional->max_total_count() && i < 8; ++i) {
        if (positional->name_for_position(i) == o.name) o.positional = true;
      }
    }
    if (o.name != "help") info.options.push_back(std::move(o));
  }
}

void CatalogRecorder::RecordSubcommands(
    const std::string& command, const std::string& help,
    const std::vector<std::pair<std::string, std::string>>& names_summaries) {
  CommandInfo& info = Entry(command);
  info.help = help;
  for (const auto& [name, summary] : names_summaries) {
    info.subcommands.push_back(name);
    summaries_.emplace_back(command.empty() ? name : command + " " + name, summary);
  }
}

std::vector<CommandInfo> DescribeCommands() {
  CatalogRecorder recorder;
  std::ostringstream out, err;
  CliDeps deps;
  deps.out = &out;
  deps.err = &err;
  // Breadth first: a command's subcommands are known once its --help ran.
  std::vector<std::vector<std::string>> pending(1);  // etbench itself
  for (std::size_t i = 0; i < pending.size(); ++i) {
    std::vector<std::string> args = pending[i];
    args.push_back("--help");
    RunEtbench(args, deps);
    for (const CommandInfo& c : recorder.commands()) {
      if (c.words != pending[i]) continue;
      for (const std::string& sub : c.subcommands) {
        std::vector<std::string> words = c.words;
        words.push_back(sub);
        pending.push_back(std::move(words));
      }
      break;
    }
  }
  return recorder.Take();
}

}  // namespace etbench
