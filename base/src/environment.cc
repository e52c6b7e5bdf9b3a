// The real Environment: the process's variables through getenv.
#include "etbench/base/environment.h"

#include <cstdlib>

namespace etbench {
namespace {

class SystemEnvironment : public Environment {
 public:
  std::optional<std::string> Get(const std::string& name) const override {
    const char* value = std::getenv(name.c_str());
    if (value == nullptr) return std::nullopt;
    return std::string(value);
  }
};

}  // namespace

std::unique_ptr<Environment> MakeSystemEnvironment() {
  return std::make_unique<SystemEnvironment>();
}

}  // namespace etbench
