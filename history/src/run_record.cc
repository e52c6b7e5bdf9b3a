#include "etbench/history/run_record.h"

#include <cctype>
#include <string>

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

namespace {

// Days in `month` (1–12) of `year` (Gregorian).
int DaysInMonth(int year, int month) {
  static const int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  const bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
  return month == 2 && leap ? 29 : kDays[month - 1];
}

}  // namespace

bool IsIsoTime(const std::string& text) {
  // YYYY-MM-DD, optionally THH:MM:SS, optional fraction, then Z.
  auto digits = [&](std::size_t at, std::size_t n) {
    if (text.size() < at + n) return false;
    for (std::size_t i = at; i < at + n; ++i) {
      if (!std::isdigit(static_cast<unsigned char>(text[i]))) return false;
    }
    return true;
  };
  // The value of the digits at [at, at + n) (checked by `digits` first).
  auto number = [&](std::size_t at, std::size_t n) { return std::stoi(text.substr(at, n)); };
  if (!digits(0, 4) || text.size() < 10 || text[4] != '-' || !digits(5, 2) || text[7] != '-' ||
      !digits(8, 2)) {
    return false;
  }
  // A real day: "2026-13-45" compared as text would select every run after
  // 2026-12 (or none), as if it were a date.
  const int month = number(5, 2), day = number(8, 2);
  if (month < 1 || month > 12 || day < 1 || day > DaysInMonth(number(0, 4), month)) return false;
  if (text.size() == 10) return true;
  if (text[10] != 'T' || !digits(11, 2) || text.size() < 20 || text[13] != ':' ||
      !digits(14, 2) || text[16] != ':' || !digits(17, 2)) {
    return false;
  }
  // Second 60: a leap second is a valid UTC time.
  if (number(11, 2) > 23 || number(14, 2) > 59 || number(17, 2) > 60) return false;
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
