#pragma once
// Helpers shared by the runtime's tests: shipped models, decoded ETDumps.

#include <string>
#include <vector>

#include "etbench/inspector/etdump_record.h"
#include "etbench/runtime/model.h"
#include "etbench/runtime/run_model.h"

namespace etbench::runtime::testing {

/// The models under configs/models/.
const std::vector<std::string>& ShippedModelNames();

/// Absolute path of configs/models/<name>.yaml.
std::string ShippedModelPath(const std::string& name);

/// Loads a shipped model; fails the test (and returns an empty model) on
/// error.
Model LoadShippedModel(const std::string& name);

/// Runs `model` and fails the test on error.
RunOutput RunOrFail(const Model& model, const RunOptions& options);

/// Verifies and decodes an ETDump; fails the test when it does not verify.
EtdumpRecord DecodeOrFail(const std::vector<uint8_t>& etdump);

/// The profile events of a run, in file order.
std::vector<ProfileEventRecord> ProfileEvents(const RunDataRecord& run);

/// The q-th percentile (0-100) of samples (sorted copy; the inspector's
/// rule); 0 for no samples.
double PercentileOf(std::vector<double> samples, double q);

/// Median of samples (sorted copy).
double Median(std::vector<double> samples);

}  // namespace etbench::runtime::testing
