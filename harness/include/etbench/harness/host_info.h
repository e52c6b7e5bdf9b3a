#pragma once
// What the results record about where they were measured.

#include <map>
#include <string>

#include "etbench/base/environment.h"
#include "etbench/harness/process.h"

namespace etbench::harness {

struct HostInfo {
  std::string host;  // hostname
  std::string cpu;   // /proc/cpuinfo model name (or the machine type)
  std::string os;    // "Linux 6.1.0-18-amd64 x86_64"
  /// This boot of this machine (Linux boot_id; "" elsewhere). Runs with the
  /// same boot share a machine instance; clones of one VM image share the
  /// host name but not this.
  std::string boot_id;
};

HostInfo CollectHostInfo();

struct SourceInfo {
  std::string device;
  std::string branch;
  std::string git_commit;
};

/// device, branch and commit: from `labels` (device, branch, commit) first,
/// then the environment (ETBENCH_DEVICE; ETBENCH_BRANCH, GITHUB_HEAD_REF,
/// GITHUB_REF_NAME, CI_COMMIT_REF_NAME; ETBENCH_COMMIT, GITHUB_SHA,
/// CI_COMMIT_SHA), then git (when `process_runner` is given), then the
/// host name for the device. Empty when unknown.
SourceInfo CollectSourceInfo(const std::map<std::string, std::string>& labels,
                             const Environment& env, ProcessRunner* process_runner,
                             const std::string& host);

}  // namespace etbench::harness
