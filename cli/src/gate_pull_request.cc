#include "gate_pull_request.h"

#include <memory>

#include "commands.h"

namespace etbench {

namespace po = boost::program_options;

std::vector<std::string> AddPullRequestOptions(po::options_description* gate) {
  po::options_description group(
      "With --base: the pull-request gate (etbench ab; --baseline, --root and\n"
      "--other-machine do not apply)");
  // clang-format off
  group.add_options()
      ("base", po::value<std::vector<std::string>>()->composing(),
       "a setting of the base build (A), as ab's --a, e.g. program=PATH; repeatable")
      ("head", po::value<std::vector<std::string>>()->composing(),
       "a setting of the head build (B), as ab's --b; repeatable (default: the suite as it is)");
  // clang-format on
  std::vector<std::string> names{"base", "head"};
  // Options keep their table alive (shared semantics); ab stores into its
  // own flags, which gate never reads.
  static const std::shared_ptr<const po::options_description> ab = AbOptionTable();
  for (const auto& option : ab->options()) {
    const std::string& name = option->long_name();
    if (name == "a" || name == "b" || name == "config" || name == "help") continue;
    if (gate->find_nothrow(name, /*approx=*/false) != nullptr) continue;
    group.add(option);
    names.push_back(name);
  }
  gate->add(group);
  return names;
}

Status RejectPullRequestOptions(const po::variables_map& vm, const std::vector<std::string>& names) {
  for (const std::string& name : names) {
    if (vm.count(name) != 0 && !vm[name].defaulted()) {
      return UsageError("--" + name + " applies to the pull-request gate only (with --base)");
    }
  }
  return Ok{};
}

}  // namespace etbench
