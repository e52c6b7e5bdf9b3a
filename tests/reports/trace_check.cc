// Chrome trace validation for tests.

#include "trace_check.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <nlohmann/json.hpp>
#include <tuple>
#include <vector>

namespace etbench::testing {

std::string ChromeTraceError(const std::string& text) {
  const nlohmann::json root = nlohmann::json::parse(text, nullptr, false);
  if (root.is_discarded()) return "not JSON";
  if (!root.is_object() || !root.contains("traceEvents") || !root["traceEvents"].is_array()) {
    return "no traceEvents array";
  }
  struct Slice {
    int64_t start, end;
    std::size_t order;
    std::string name;
  };
  std::map<std::pair<int64_t, int64_t>, std::vector<Slice>> threads;
  std::size_t order = 0;
  for (const auto& e : root["traceEvents"]) {
    if (!e.is_object() || !e.contains("ph") || !e.contains("pid") || !e.contains("tid") ||
        !e.contains("name")) {
      return "event without ph/pid/tid/name: " + e.dump();
    }
    const std::string ph = e["ph"];
    if (ph == "M") continue;
    if (ph != "X") return "unexpected phase " + ph;
    if (!e["ts"].is_number() || !e["dur"].is_number()) return "X event without ts/dur: " + e.dump();
    const double ts = e["ts"], dur = e["dur"];
    if (ts < 0 || dur < 0) return "negative ts or dur: " + e.dump();
    // Perfetto converts microseconds to integer nanoseconds.
    const auto start = static_cast<int64_t>(std::llround(ts * 1000));
    const auto end = static_cast<int64_t>(std::llround((ts + dur) * 1000));
    threads[{e["pid"].get<int64_t>(), e["tid"].get<int64_t>()}].push_back(
        Slice{start, end, order++, e["name"].get<std::string>()});
  }
  for (auto& [thread, slices] : threads) {
    // Viewers sort by start, longer first at equal starts, then file order.
    std::stable_sort(slices.begin(), slices.end(), [](const Slice& a, const Slice& b) {
      return std::tie(a.start, b.end, a.order) < std::tie(b.start, a.end, b.order);
    });
    std::vector<const Slice*> stack;
    for (const Slice& s : slices) {
      while (!stack.empty() && !(stack.back()->start <= s.start && s.end <= stack.back()->end)) {
        if (s.start < stack.back()->end) {
          return "misnested: " + s.name + " [" + std::to_string(s.start) + ", " +
                 std::to_string(s.end) + ") overlaps " + stack.back()->name + " [" +
                 std::to_string(stack.back()->start) + ", " + std::to_string(stack.back()->end) +
                 ") on pid " + std::to_string(thread.first) + " tid " +
                 std::to_string(thread.second);
        }
        stack.pop_back();
      }
      stack.push_back(&s);
    }
  }
  return "";
}

}  // namespace etbench::testing
