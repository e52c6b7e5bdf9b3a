#pragma once
// Validation of Chrome trace JSON as trace viewers read it: the top-level
// object, event fields, and proper nesting of complete events per thread.

#include <string>

namespace etbench::testing {

/// "" when `json` is a loadable trace whose "X" events nest properly on
/// each (pid, tid) (every event inside the enclosing one or after it, in
/// integer nanoseconds as Perfetto converts them), else what is wrong.
std::string ChromeTraceError(const std::string& json);

}  // namespace etbench::testing
