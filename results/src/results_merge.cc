// `etbench merge`: shard results joined into one results set.
#include <algorithm>
#include <filesystem>
#include <set>

#include "etbench/results/results.h"

namespace etbench::results {
namespace {

namespace fs = std::filesystem;

// `relative` (to `from_dir`) re-expressed relative to `to_dir`.
std::string Rebase(const std::string& relative, const fs::path& from_dir, const fs::path& to_dir) {
  if (relative.empty()) return relative;
  const fs::path p(relative);
  const fs::path absolute = p.is_absolute() ? p : (from_dir / p).lexically_normal();
  const fs::path rebased = absolute.lexically_relative(to_dir);
  return rebased.empty() ? absolute.string() : rebased.string();
}

fs::path AbsoluteDir(const std::string& file) {
  std::error_code ec;
  fs::path abs = fs::absolute(file, ec);
  if (ec) abs = fs::path(file);
  return abs.lexically_normal().parent_path();
}

// Every artifact a shard's results name must be there: a merged results
// file that points at missing ETDumps would pass for a whole run.
Status CheckArtifacts(const std::string& results_path, const ModelResult& model,
                      const fs::path& part_dir, Disk& disk) {
  for (const RepetitionRecord& r : model.repetitions) {
    const std::pair<const char*, const std::string*> artifacts[] = {
        {"ETDump", &r.etdump_path},
        {"runner sidecar", &r.metadata_path},
        {"debug output", &r.debug_output_path}};
    for (const auto& [what, relative] : artifacts) {
      if (relative->empty()) continue;
      const fs::path p(*relative);
      const fs::path path = p.is_absolute() ? p : (part_dir / p).lexically_normal();
      if (disk.Stat(path.string()).regular) continue;
      return InputError(results_path + ": model '" + model.name + "' repetition " +
                        std::to_string(r.index) + ": " + what + " '" + path.string() +
                        "' is missing; a merge needs every artifact its shards name");
    }
  }
  return Ok{};
}

}  // namespace

Result<RunResults> MergeResults(const std::vector<std::string>& paths,
                                const std::string& output_path, Disk& disk) {
  if (paths.empty()) return UsageError("nothing to merge: give one or more results files");
  const fs::path out_dir = AbsoluteDir(output_path);
  RunResults merged;
  std::set<std::string> names;
  std::set<int> shards_seen;
  std::optional<int> shard_count;
  for (std::size_t i = 0; i < paths.size(); ++i) {
    auto part = ReadResultsFile(paths[i], disk);
    if (!part) return part.error();
    const ResultsMetadata& m = part->metadata;
    if (i == 0) {
      merged.metadata = m;
      merged.metadata.shard_index.reset();
      merged.metadata.shard_count.reset();
      merged.metadata.merged_from.clear();
    } else {
      const ResultsMetadata& first = merged.metadata;
      auto differs = [&](const char* what, const std::string& a, const std::string& b) -> Status {
        if (a == b) return Ok{};
        return InputError(paths[i] + ": " + what + " '" + b + "' differs from " + paths[0] +
                          "'s '" + a + "'; only shards of one suite run can be merged");
      };
      if (Status s = differs("suite", first.suite, m.suite); !s) return s.error();
      if (Status s = differs("config_hash", first.config_hash, m.config_hash); !s) return s.error();
      if (Status s = differs("unit", first.unit, m.unit); !s) return s.error();
      if (Status s = differs("time_source", first.time_source, m.time_source); !s) return s.error();
    }
    if (m.shard_index && m.shard_count) {
      if (shard_count && *shard_count != *m.shard_count) {
        return InputError(paths[i] + ": shard " + std::to_string(*m.shard_index) + "/" +
                          std::to_string(*m.shard_count) + " belongs to a split into " +
                          std::to_string(*m.shard_count) + ", the others to " +
                          std::to_string(*shard_count));
      }
      shard_count = m.shard_count;
      if (!shards_seen.insert(*m.shard_index).second) {
        return InputError(paths[i] + ": shard " + std::to_string(*m.shard_index) +
                          " is given twice");
      }
    }
    merged.metadata.merged_from.push_back(paths[i]);
    merged.interrupted = merged.interrupted || part->interrupted;
    const fs::path part_dir = AbsoluteDir(paths[i]);
    for (ModelResult& model : part->models) {
      if (!names.insert(model.name).second) {
        return InputError(paths[i] + ": model '" + model.name +
                          "' is also in an earlier file; shards must not overlap");
      }
      if (Status s = CheckArtifacts(paths[i], model, part_dir, disk); !s) return s.error();
      for (RepetitionRecord& r : model.repetitions) {
        r.etdump_path = Rebase(r.etdump_path, part_dir, out_dir);
        r.metadata_path = Rebase(r.metadata_path, part_dir, out_dir);
        r.debug_output_path = Rebase(r.debug_output_path, part_dir, out_dir);
      }
      merged.models.push_back(std::move(model));
    }
  }
  if (shard_count && static_cast<int>(shards_seen.size()) != *shard_count) {
    std::string missing;
    for (int s = 1; s <= *shard_count; ++s) {
      if (shards_seen.count(s) == 0) missing += (missing.empty() ? "" : ", ") + std::to_string(s);
    }
    return InputError("incomplete shard set: shard(s) " + missing + " of " +
                      std::to_string(*shard_count) + " missing");
  }
  std::stable_sort(
      merged.models.begin(), merged.models.end(),
      [](const ModelResult& a, const ModelResult& b) { return a.suite_index < b.suite_index; });
  return merged;
}

}  // namespace etbench::results
