// CheckOutputDir: refuse to write a run into a source tree.

#include "etbench/harness/output_dir.h"

#include <array>
#include <cstddef>
#include <filesystem>
#include <string_view>
#include <system_error>

namespace etbench::harness {
namespace {

namespace fs = std::filesystem;

// Deep enough for results/include/etbench/results/*.h from results/include.
constexpr int kMaxDepth = 4;
constexpr std::size_t kMaxEntries = 100000;

bool IsSourceFile(const fs::path& path) {
  if (path.filename() == "CMakeLists.txt") return true;
  static constexpr std::array<std::string_view, 7> kExtensions = {".c",   ".cc", ".cpp", ".cxx",
                                                                  ".h",   ".hh", ".hpp"};
  const std::string extension = path.extension().string();
  for (std::string_view e : kExtensions) {
    if (extension == e) return true;
  }
  return false;
}

}  // namespace

Status CheckOutputDir(const std::string& dir) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return Ok{};  // created by the run; a file fails there
  fs::recursive_directory_iterator it(dir, fs::directory_options::skip_permission_denied, ec);
  // Unreadable: the run's own writes report what is wrong. A tree of more
  // than kMaxEntries is looked at that far only (a check, not a hang).
  std::size_t entries = 0;
  for (const fs::recursive_directory_iterator end; !ec && it != end && entries < kMaxEntries;
       it.increment(ec), ++entries) {
    if (it.depth() >= kMaxDepth) it.disable_recursion_pending();
    std::error_code entry_ec;
    if (it->is_symlink(entry_ec) || !it->is_regular_file(entry_ec)) continue;
    if (IsSourceFile(it->path())) {
      return InputError(dir + ": holds source code (" + it->path().string() +
                        "), not a run's outputs; refusing to write a run there (set the suite's "
                        "output_dir or --output-dir to another directory)");
    }
  }
  return Ok{};
}

}  // namespace etbench::harness
