#include "etbench/history/run_record.h"

#include <cctype>

#include "etbench/base/sha256.h"

namespace etbench::history {

RunRecord MakeRunRecord(const results::RunResults& results, const std::string& source,
                        const RunOverrides& overrides) {
  const results::ResultsMetadata& meta = results.metadata;
  RunRecord run;
  // The canonical JSON, not the file's bytes: the same results re-indented
  // or copied elsewhere are still the same run.
  run.run_id = Sha256Hex(results::ResultsToJson(results));
  run.suite = meta.suite;
  run.device = meta.device;
  run.host = meta.host;
  run.boot_id = meta.boot_id;
  run.git_commit = overrides.git_commit.empty() ? meta.git_commit : overrides.git_commit;
  run.branch = overrides.branch.empty() ? meta.branch : overrides.branch;
  run.time = overrides.time.empty() ? meta.date : overrides.time;
  run.labels = meta.labels;
  run.source = source;
  for (const results::ModelResult& m : results.models) {
    run.models.push_back({m.name, results::ModelStatusName(m.status), m.model_sha256});
  }
  if (results.interrupted) {
    run.status = "interrupted";
  } else if (results.CountWithStatus(results::ModelStatus::kOk) == results.models.size()) {
    run.status = "ok";
  } else {
    run.status = "partial";
  }
  run.metrics = results::ToMetricSet(results);
  return run;
}

bool IsIsoTime(const std::string& text) {
  // YYYY-MM-DD, optionally THH:MM:SS, optional fraction, then Z.
  auto digits = [&](std::size_t at, std::size_t n) {
    if (text.size() < at + n) return false;
    for (std::size_t i = at; i < at + n; ++i) {
      if (!std::isdigit(static_cast<unsigned char>(text[i]))) return false;
    }
    return true;
  };
  if (!digits(0, 4) || text.size() < 10 || text[4] != '-' || !digits(5, 2) || text[7] != '-' ||
      !digits(8, 2)) {
    return false;
  }
  if (text.size() == 10) return true;
  if (text[10] != 'T' || !digits(11, 2) || text.size() < 20 || text[13] != ':' ||
      !digits(14, 2) || text[16] != ':' || !digits(17, 2)) {
    return false;
  }
  std::size_t at = 19;
  if (text[at] == '.') {
    ++at;
    const std::size_t start = at;
    while (at < text.size() && std::isdigit(static_cast<unsigned char>(text[at]))) ++at;
    if (at == start) return false;
  }
  return at + 1 == text.size() && text[at] == 'Z';
}

}  // namespace etbench::history
