#pragma once
// Names of suites and models. Each becomes a directory name: a model's
// artifacts go to <output_dir>/<model>/ (replaced at every run) and the
// default output directory is results/<suite>/. So a name must not be able
// to collide with etbench's own entries there, nor with what its cleanup
// removes, nor with another model's directory on a case-insensitive file
// system.

#include <string>
#include <vector>

namespace etbench::harness {

/// Why `name` cannot name a suite or model ("" when it can): empty, longer
/// than 128 bytes, a character other than letters, digits, '_', '-', '.',
/// '+'; a leading '.' (".", "..", hidden files, the run's staging
/// directory .etbench-run-PID); the form of a temporary file (NAME.tmp.PID,
/// which a later run removes as stale); a name ending in ".json" (etbench's
/// results.json, results-shard-I-of-N.json); or, ignoring case, one of the
/// subdirectories etbench keeps in an output directory ("ab", "confirm",
/// "sessions"). `what` is "model" or "suite".
std::string NameProblem(const std::string& name, const char* what);

/// The first of `names` equal to `name` ignoring ASCII case, or "" when
/// none is (two such models would share one directory on a
/// case-insensitive file system).
std::string SameNameIgnoringCase(const std::vector<std::string>& names, const std::string& name);

}  // namespace etbench::harness
