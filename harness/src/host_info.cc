#include "etbench/harness/host_info.h"

#include <cstdio>

#include <sys/utsname.h>
#include <unistd.h>

#include <fstream>

namespace etbench::harness {
namespace {

std::string Trim(std::string s) {
  const auto begin = s.find_first_not_of(" \t\r\n");
  if (begin == std::string::npos) return "";
  const auto end = s.find_last_not_of(" \t\r\n");
  return s.substr(begin, end - begin + 1);
}

// The first /proc/cpuinfo line whose key is `key`.
std::string CpuinfoField(const std::string& key) {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line)) {
    const auto colon = line.find(':');
    if (colon == std::string::npos) continue;
    if (Trim(line.substr(0, colon)) == key) return Trim(line.substr(colon + 1));
  }
  return "";
}

std::string FirstSet(const Environment& env, std::initializer_list<const char*> names) {
  for (const char* name : names) {
    if (auto value = env.Get(name); value && !value->empty()) return *value;
  }
  return "";
}

std::string Git(ProcessRunner* runner, std::vector<std::string> argv) {
  if (runner == nullptr) return "";
  ProcessSpec spec;
  spec.argv = std::move(argv);
  spec.timeout_s = 5;
  spec.kill_grace_s = 0.5;
  spec.max_captured_bytes = 4096;
  const ProcessResult result = runner->Run(spec, nullptr);
  if (!result.Succeeded()) return "";
  return Trim(result.stdout_text);
}

}  // namespace

HostInfo CollectHostInfo() {
  HostInfo info;
  char host[256] = {};
  if (gethostname(host, sizeof host - 1) == 0) info.host = host;
  utsname u;
  if (uname(&u) == 0) {
    info.os = std::string(u.sysname) + " " + u.release + " " + u.machine;
    info.cpu = u.machine;
  }
  for (const char* key : {"model name", "Model", "Hardware", "cpu model"}) {
    const std::string value = CpuinfoField(key);
    if (!value.empty()) {
      info.cpu = value;
      break;
    }
  }
  const long cpus = sysconf(_SC_NPROCESSORS_ONLN);
  if (cpus > 0) info.cpu += " (" + std::to_string(cpus) + " CPUs)";
  if (std::FILE* f = std::fopen("/proc/sys/kernel/random/boot_id", "r")) {
    char id[64] = {};
    if (std::fgets(id, sizeof id, f) != nullptr) {
      info.boot_id = id;
      while (!info.boot_id.empty() && (info.boot_id.back() == '\n' || info.boot_id.back() == ' ')) {
        info.boot_id.pop_back();
      }
    }
    std::fclose(f);
  }
  return info;
}

SourceInfo CollectSourceInfo(const std::map<std::string, std::string>& labels,
                             const Environment& env, ProcessRunner* process_runner,
                             const std::string& host) {
  SourceInfo info;
  auto label = [&labels](const char* key) {
    auto it = labels.find(key);
    return it == labels.end() ? std::string() : it->second;
  };
  info.device = label("device");
  if (info.device.empty()) info.device = FirstSet(env, {"ETBENCH_DEVICE"});
  if (info.device.empty()) info.device = host;
  info.branch = label("branch");
  if (info.branch.empty()) {
    info.branch = FirstSet(
        env, {"ETBENCH_BRANCH", "GITHUB_HEAD_REF", "GITHUB_REF_NAME", "CI_COMMIT_REF_NAME"});
  }
  if (info.branch.empty()) {
    info.branch = Git(process_runner, {"git", "rev-parse", "--abbrev-ref", "HEAD"});
  }
  info.git_commit = label("commit");
  if (info.git_commit.empty()) {
    info.git_commit = FirstSet(env, {"ETBENCH_COMMIT", "GITHUB_SHA", "CI_COMMIT_SHA"});
  }
  if (info.git_commit.empty()) info.git_commit = Git(process_runner, {"git", "rev-parse", "HEAD"});
  return info;
}

}  // namespace etbench::harness
