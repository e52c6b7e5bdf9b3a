// Recorded nights: conversion and loading (see night_data.h).

#include "night_data.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>

#include "etbench/base/atomic_file.h"
#include "etbench/base/parse_number.h"
#include "etbench/compare/ab_schedule.h"
#include "etbench/results/results.h"
#include "etbench/stats/stats.h"

namespace etbench::bench {
namespace {

namespace fs = std::filesystem;

std::vector<std::string> Split(const std::string& line, char sep) {
  std::vector<std::string> out;
  std::string field;
  std::istringstream in(line);
  while (std::getline(in, field, sep)) out.push_back(field);
  if (!line.empty() && line.back() == sep) out.emplace_back();
  return out;
}

std::string Number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.4g", v);
  return buf;
}

// "... cond quiet" in the recorder's conditions.txt.
std::string ConditionOf(const fs::path& history_dir) {
  std::ifstream in(history_dir / "conditions.txt");
  std::string line;
  while (std::getline(in, line)) {
    const auto at = line.find(" cond ");
    if (at != std::string::npos) return line.substr(at + 6, line.find(' ', at + 6) - at - 6);
  }
  return "unknown";
}

std::string MetricRecord(std::size_t id, const Metric& m) {
  const MetricKey& k = m.key;
  std::string line = "M\t" + std::to_string(id) + "\t" + k.model + "\t" + k.block + "\t" +
                     std::to_string(static_cast<int>(k.kind)) + "\t" + k.name + "\t" +
                     (k.instruction_id ? std::to_string(*k.instruction_id) : "-") + "\t" +
                     (k.delegate_id.empty() ? "-" : k.delegate_id) + "\t" +
                     std::to_string(k.occurrence) + "\t" + m.unit + "\t" +
                     (m.end_to_end ? "1" : "0") + "\t" + (m.is_kernel_or_delegate_call ? "1" : "0");
  return line + "\n";
}

}  // namespace

Status ConvertNights(const std::string& root, const std::string& out) {
  std::vector<fs::path> histories;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(root, ec)) {
    if (entry.is_directory()) histories.push_back(entry.path());
  }
  if (ec) return InputError(root + ": " + ec.message());
  std::sort(histories.begin(), histories.end());
  std::ostringstream text;
  text << "# etbench recorded nights v1 (benchmarks/history/night_data.h)\n";
  std::map<MetricKey, std::size_t> ids;
  std::size_t run_id = 0;
  for (const fs::path& h : histories) {
    const std::string condition = ConditionOf(h);
    std::vector<fs::path> nights;
    for (const auto& entry : fs::directory_iterator(h)) {
      if (entry.is_directory() && entry.path().filename().string().rfind("night", 0) == 0) {
        nights.push_back(entry.path());
      }
    }
    std::sort(nights.begin(), nights.end());
    for (const fs::path& n : nights) {
      // "nightNN": a directory of another name is not a night.
      const std::optional<int64_t> number =
          ParseInteger(n.filename().string().substr(5), 0, 1000000);
      if (!number) continue;
      const int night = static_cast<int>(*number);
      // Session 1 of a variant is <variant>/, session K >= 2 <variant>.sK/
      // (record_sessions.sh); written as "<variant>" and "<variant>.sK", K up
      // to gate --sessions' 50.
      std::vector<std::string> variants;
      for (const char* v : {"base", "conv5", "conv10"}) {
        variants.emplace_back(v);
        for (int k = 2; k <= 50; ++k) variants.push_back(std::string(v) + ".s" + std::to_string(k));
      }
      for (const std::string& variant : variants) {
        const fs::path file = n / variant / "results.json";
        if (!fs::exists(file)) continue;
        auto results = results::ReadResultsFile(file.string());
        if (!results.ok()) return results.error();
        if (results->CountWithStatus(results::ModelStatus::kFailed) > 0) continue;
        const MetricSet set = results::ToMetricSet(results.value());
        ++run_id;
        text << "R\t" << run_id << "\t" << h.filename().string() << "\t" << condition << "\t"
             << night << "\t" << variant << "\n";
        for (const auto& [key, value] : set.context) {
          if (key.rfind("label:", 0) == 0 || key.rfind("model_", 0) == 0 || key == "date" ||
              key == "config_hash")
            continue;  // per-run identities the engines do not read
          text << "C\t" << run_id << "\t" << key << "\t" << value << "\n";
        }
        for (const Metric& m : set.metrics) {
          // OPERATOR_CALL wrappers are never gated (their kernel is): left out.
          if (m.samples.empty() || MetricEventRole(m.key) == EventRole::kOperatorCall) continue;
          auto [it, inserted] = ids.emplace(m.key, ids.size());
          if (inserted) text << MetricRecord(it->second, m);
          std::vector<double> sorted = m.samples;
          std::sort(sorted.begin(), sorted.end());
          text << "V\t" << run_id << "\t" << it->second << "\t"
               << Number(ComputeStatistic(sorted, Statistic::kP10)) << "\t";
          std::vector<uint64_t> groups = m.group_sizes;
          if (groups.empty()) groups = {m.samples.size()};
          std::size_t at = 0;
          for (std::size_t g = 0; g < groups.size(); ++g) {
            std::vector<double> rep(m.samples.begin() + static_cast<std::ptrdiff_t>(at),
                                    m.samples.begin() + static_cast<std::ptrdiff_t>(at + groups[g]));
            at += groups[g];
            std::sort(rep.begin(), rep.end());
            text << (g ? "," : "") << Number(ComputeStatistic(rep, Statistic::kP50));
          }
          text << "\n";
        }
      }
    }
  }
  const std::string bytes = text.str();
  return WriteFileAtomically(out, std::vector<uint8_t>(bytes.begin(), bytes.end()));
}

Result<std::vector<NightRun>> LoadNights(const std::vector<std::string>& paths) {
  std::vector<NightRun> runs;
  for (const std::string& path : paths) {
    std::ifstream in(path);
    if (!in) return InputError(path + ": cannot read");
    std::map<std::size_t, Metric> metrics;
    std::map<std::size_t, std::size_t> run_at;  // run id → index into runs
    std::string line;
    std::size_t line_no = 0;
    while (std::getline(in, line)) {
      ++line_no;
      if (line.empty() || line[0] == '#') continue;
      const std::vector<std::string> f = Split(line, '\t');
      const std::string where = path + ":" + std::to_string(line_no);
      // Fields that must be numbers: a bad one marks the line, reported below.
      bool bad = false;
      const auto integer = [&bad](const std::string& text) -> int64_t {
        const std::optional<int64_t> v = ParseInteger(text);
        bad = bad || !v;
        return v.value_or(0);
      };
      const auto id = [&integer](const std::string& text) {
        return static_cast<std::size_t>(integer(text));
      };
      const auto real = [&bad](const std::string& text) -> double {
        const std::optional<double> v = ParseFiniteDouble(text);
        bad = bad || !v;
        return v.value_or(0);
      };
      if (f[0] == "M" && f.size() == 12) {
        Metric m;
        m.key.model = f[2];
        m.key.block = f[3];
        m.key.kind = static_cast<MetricKind>(integer(f[4]));
        m.key.name = f[5];
        if (f[6] != "-") m.key.instruction_id = static_cast<int32_t>(integer(f[6]));
        if (f[7] != "-") m.key.delegate_id = f[7];
        m.key.occurrence = static_cast<int32_t>(integer(f[8]));
        m.unit = f[9];
        m.end_to_end = f[10] == "1";
        m.is_kernel_or_delegate_call = f[11] == "1";
        metrics[id(f[1])] = m;
      } else if (f[0] == "R" && f.size() == 6) {
        NightRun r;
        r.history = f[2];
        r.condition = f[3];
        r.night = static_cast<int>(integer(f[4]));
        r.variant = f[5];
        if (const auto dot = r.variant.rfind(".s"); dot != std::string::npos) {
          r.session = static_cast<int>(integer(r.variant.substr(dot + 2)));
          r.variant.resize(dot);
        }
        run_at[id(f[1])] = runs.size();
        runs.push_back(std::move(r));
      } else if (f[0] == "C" && f.size() == 4 && run_at.count(id(f[1]))) {
        runs[run_at[id(f[1])]].metrics.context[f[2]] = f[3];
      } else if (f[0] == "V" && f.size() == 5 && run_at.count(id(f[1])) &&
                 metrics.count(id(f[2]))) {
        NightRun& r = runs[run_at[id(f[1])]];
        Metric m = metrics[id(f[2])];
        for (const std::string& v : Split(f[4], ',')) {
          m.samples.push_back(real(v));
          m.group_sizes.push_back(1);
        }
        r.metrics.metrics.push_back(std::move(m));
        r.p10.push_back(real(f[3]));
      } else {
        return InputError(where + ": not a record of night_data.h's format");
      }
      if (bad) return InputError(where + ": a field that must be a number is not one");
    }
  }
  return runs;
}

// A night of `sessions` sessions (fresh processes of one night slot), as
// the gate with --sessions N measures it: the repetitions of all sessions
// (MergeMetricSets keeps each session's groups) and, per metric, the lower
// decile over sessions of each session's lower decile — what CompareNights
// reads of a night with several sessions. Null when the night has fewer sessions.
std::unique_ptr<NightRun> CombineSessions(const std::vector<const NightRun*>& parts,
                                          std::size_t sessions) {
  if (parts.size() < sessions || sessions == 0) return nullptr;
  auto night = std::make_unique<NightRun>(*parts[0]);
  if (sessions == 1) return night;
  std::vector<MetricSet> sets;
  std::map<MetricKey, std::vector<double>> p10s;
  for (std::size_t s = 0; s < sessions; ++s) {
    sets.push_back(parts[s]->metrics);
    for (std::size_t m = 0; m < parts[s]->metrics.metrics.size(); ++m) {
      p10s[parts[s]->metrics.metrics[m].key].push_back(parts[s]->p10[m]);
    }
  }
  auto merged = MergeMetricSets(sets);
  if (!merged.ok()) return nullptr;
  night->metrics = std::move(merged).value();
  night->p10.clear();
  for (const Metric& m : night->metrics.metrics) {
    std::vector<double>& v = p10s[m.key];
    std::sort(v.begin(), v.end());
    night->p10.push_back(ComputeStatistic(v, Statistic::kP10));  // as the gate's NightValue
  }
  return night;
}

// --pool K: K consecutive recorded night slots make one night, their
// sessions in order (slot j's session s becomes session j·S + s, S the most
// sessions a slot holds): more sessions a night from the recorded data. The
// slots of one history were recorded seconds apart, so this measures what
// more sessions do to the within-night part of the spread only.
void PoolSlots(std::vector<NightRun>* runs, int pool) {
  int most = 1;
  for (const NightRun& r : *runs) most = std::max(most, r.session);
  for (NightRun& r : *runs) {
    r.session += ((r.night - 1) % pool) * most;
    r.night = (r.night - 1) / pool + 1;
  }
}

// --spread K: K recorded slots spaced n = slots / K apart make one night
// (slot t becomes night (t−1) mod n + 1, its session s becomes
// ((t−1) div n)·S + s); slowed variants and slots past K·n are dropped.
void SpreadSlots(std::vector<NightRun>* runs, int spread) {
  int most = 1;
  std::map<std::string, int> slots;
  for (const NightRun& r : *runs) {
    most = std::max(most, r.session);
    slots[r.history] = std::max(slots[r.history], r.night);
  }
  std::vector<NightRun> kept;
  for (NightRun& r : *runs) {
    const int n = slots[r.history] / spread;
    if (r.variant != "base" || n == 0 || r.night > n * spread) continue;
    r.session += ((r.night - 1) / n) * most;
    r.night = (r.night - 1) % n + 1;
    kept.push_back(std::move(r));
  }
  *runs = std::move(kept);
}

}  // namespace etbench::bench
