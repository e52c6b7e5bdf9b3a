// gate_quality --record-trace AB_DIR --out FILE: one recorded A/A `etbench
// ab` session (its NN-a|b/results.json files) reduced to a run trace
// (run_trace.h). A run's seconds are the time between its results file and
// the previous one (the calibration runs' for the first), i.e. what the ab
// loop's clock saw for that run.

#include <sys/stat.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <limits>
#include <string>
#include <vector>

#include "etbench/base/input_file.h"
#include "etbench/base/parse_number.h"
#include "etbench/results/results.h"
#include "gate_quality.h"
#include "run_trace.h"

namespace etbench::gate_quality {
namespace {

namespace fs = std::filesystem;

double ModifiedSeconds(const std::string& path) {
  struct stat st {};
  if (stat(path.c_str(), &st) != 0) return 0;
  return static_cast<double>(st.st_mtim.tv_sec) + 1e-9 * static_cast<double>(st.st_mtim.tv_nsec);
}

}  // namespace

bool RecordTrace(const std::string& ab_dir, const std::string& out_path) {
  std::vector<std::string> runs;
  for (const auto& entry : fs::directory_iterator(ab_dir)) {
    const std::string name = entry.path().filename().string();
    // NN-a / NN-b, not the calibration runs.
    if (entry.is_directory() && name.size() > 3 && std::isdigit(static_cast<unsigned char>(name[0])) &&
        fs::exists(entry.path() / "results.json")) {
      runs.push_back(name);
    }
  }
  // In run order: by the number (01-a … 99-b, 100-a, …).
  std::sort(runs.begin(), runs.end(), [](const std::string& x, const std::string& y) {
    const auto number = [](const std::string& name) {
      return ParseInteger(name.substr(0, name.find_first_not_of("0123456789")))
          .value_or(std::numeric_limits<int64_t>::max());
    };
    return number(x) < number(y);
  });
  if (runs.empty()) {
    std::fprintf(stderr, "%s: no NN-a|b/results.json runs\n", ab_dir.c_str());
    return false;
  }
  RunTrace trace;
  if (auto note = ReadTextFile(ab_dir + "/note.txt"); note) {
    trace.note = *note;
    trace.note.erase(std::remove(trace.note.begin(), trace.note.end(), '\n'), trace.note.end());
  }
  double previous = ModifiedSeconds(ab_dir + "/calibration-b/results.json");
  for (const std::string& name : runs) {
    const std::string path = ab_dir + "/" + name + "/results.json";
    auto run = results::ReadResultsFile(path);
    if (!run) {
      std::fprintf(stderr, "%s\n", run.error().message.c_str());
      return false;
    }
    const double modified = ModifiedSeconds(path);
    const char variant = name.back() == 'b' ? 'B' : 'A';
    AppendRun(results::ToMetricSet(*run), variant, previous > 0 ? modified - previous : 0,
              &trace);
    previous = modified;
  }
  std::ofstream out(out_path);
  out << TraceToCsv(trace);
  std::printf("%s: %zu runs, %zu metrics -> %s\n", ab_dir.c_str(), trace.runs.size(),
              trace.metrics.size(), out_path.c_str());
  return static_cast<bool>(out);
}

}  // namespace etbench::gate_quality
