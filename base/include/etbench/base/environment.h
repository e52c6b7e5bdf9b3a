#pragma once
// Environment variables behind an interface (tests pass a map).

#include <map>
#include <memory>
#include <optional>
#include <string>

namespace etbench {

class Environment {
 public:
  virtual ~Environment() = default;
  /// The variable's value, or nullopt when unset.
  virtual std::optional<std::string> Get(const std::string& name) const = 0;
};

/// getenv.
std::unique_ptr<Environment> MakeSystemEnvironment();

/// A fixed set of variables (tests, embedding).
class MapEnvironment : public Environment {
 public:
  explicit MapEnvironment(std::map<std::string, std::string> vars = {}) : vars_(std::move(vars)) {}
  std::optional<std::string> Get(const std::string& name) const override {
    auto it = vars_.find(name);
    if (it == vars_.end()) return std::nullopt;
    return it->second;
  }
  void Set(const std::string& name, const std::string& value) { vars_[name] = value; }

 private:
  std::map<std::string, std::string> vars_;
};

}  // namespace etbench
