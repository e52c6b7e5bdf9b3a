// The run context's keys and rules (see run_context.h).
#include "etbench/compare/run_context.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace etbench {
namespace {

constexpr const char* kTickRateKey = "tick_rate_hz";
constexpr const char* kInterruptedKey = "interrupted";
constexpr std::string_view kModelStatusPrefix = "model_status:";
constexpr std::string_view kModelSha256Prefix = "model_sha256:";
constexpr std::string_view kLabelPrefix = "label:";

bool StartsWith(const std::string& s, std::string_view prefix) {
  return s.compare(0, prefix.size(), prefix) == 0;
}

}  // namespace

RunContext RunContextOf(const MetricSet& set) {
  RunContext out;
  for (const auto& [key, value] : set.context) {
    if (key == kTickRateKey) {
      out.tick_rate_hz = std::strtod(value.c_str(), nullptr);
    } else if (key == kInterruptedKey) {
      out.interrupted = value == "true";
    } else if (StartsWith(key, kModelStatusPrefix)) {
      out.models[key.substr(kModelStatusPrefix.size())].status = value;
    } else if (StartsWith(key, kModelSha256Prefix)) {
      out.models[key.substr(kModelSha256Prefix.size())].sha256 = value;
    } else if (StartsWith(key, kLabelPrefix)) {
      out.labels[key.substr(kLabelPrefix.size())] = value;
    }
  }
  return out;
}

void WriteRunContext(const RunContext& context, std::map<std::string, std::string>& out) {
  if (context.tick_rate_hz) out[kTickRateKey] = FormatTickRate(*context.tick_rate_hz);
  if (context.interrupted) out[kInterruptedKey] = "true";
  for (const auto& [name, model] : context.models) {
    if (model.sha256) out[std::string(kModelSha256Prefix) + name] = *model.sha256;
    if (model.status) out[std::string(kModelStatusPrefix) + name] = *model.status;
  }
  for (const auto& [key, value] : context.labels) out[std::string(kLabelPrefix) + key] = value;
}

std::string FormatTickRate(double hz) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.17g", hz);
  return buf;
}

bool SameTickRate(std::optional<double> a, std::optional<double> b) {
  if (!a || !b) return true;
  if (FormatTickRate(*a) == FormatTickRate(*b)) return true;  // also two NaNs
  return *a > 0 && *b > 0 && std::fabs(*a - *b) <= 1e-3 * std::max(*a, *b);
}

std::vector<std::pair<std::string, std::string>> UnfinishedModels(const RunContext& context) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& [name, model] : context.models) {
    if (model.status && *model.status != "ok") out.emplace_back(name, *model.status);
  }
  return out;
}

}  // namespace etbench
