#pragma once
// Headless Chromium for the tests of self-contained HTML pages (the
// comparison report, the history report): where it is and how to run it.
// Tests are skipped without it unless CI=true (CI installs it).

#include <unistd.h>

#include <cstdlib>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "etbench/harness/process.h"

namespace etbench::testing {

inline constexpr const char* kChromium = "/usr/bin/chromium";

/// Skips the test when Chromium is not installed; fails it instead when
/// CI=true, where scripts/install-deps.sh installs it.
#define ETBENCH_REQUIRE_CHROMIUM()                                                          \
  do {                                                                                      \
    if (access(::etbench::testing::kChromium, X_OK) != 0) {                                 \
      const char* ci = std::getenv("CI");                                                   \
      if (ci != nullptr && std::string(ci) == "true") {                                     \
        FAIL() << ::etbench::testing::kChromium << " is missing but CI=true: "             \
               << "scripts/install-deps.sh installs the Debian package 'chromium'";        \
      }                                                                                     \
      GTEST_SKIP() << ::etbench::testing::kChromium                                         \
                   << " not installed (apt-get install chromium)";                         \
    }                                                                                       \
  } while (0)

/// Runs headless Chromium with its own profile directory and `extra`
/// arguments (a page URL, --screenshot=…, --dump-dom, …); 20 s at most.
inline harness::ProcessResult RunChromium(const std::string& profile_dir,
                                          const std::vector<std::string>& extra) {
  harness::ProcessSpec spec;
  spec.argv = {kChromium,
               "--headless",
               "--no-sandbox",
               "--disable-gpu",
               "--disable-quic",
               "--no-first-run",
               "--disable-background-networking",
               "--disable-component-update",
               "--disable-sync",
               "--hide-scrollbars",
               "--user-data-dir=" + profile_dir};
  spec.argv.insert(spec.argv.end(), extra.begin(), extra.end());
  spec.timeout_s = 20;
  return harness::MakeSystemProcessRunner()->Run(spec, nullptr);
}

}  // namespace etbench::testing
