#include "runtime_test_util.h"

#include <algorithm>
#include <utility>

#include <gtest/gtest.h>

#include "etbench/inspector/etdump_file.h"
#include "etbench/inspector/perf_data.h"
#include "etbench/runtime/model_loader.h"
#include "support/test_support.h"

namespace etbench::runtime::testing {

const std::vector<std::string>& ShippedModelNames() {
  static const std::vector<std::string> names = {
      "toy_cnn", "mlp", "mobilenet_v2_block", "transformer_block"};
  return names;
}

std::string ShippedModelPath(const std::string& name) {
  return etbench::testing::SourcePath("configs/models/" + name + ".yaml");
}

Model LoadShippedModel(const std::string& name) {
  auto model = LoadModelFile(ShippedModelPath(name));
  EXPECT_TRUE(model.ok()) << model.error().message;
  return model.ok() ? *model : Model{};
}

RunOutput RunOrFail(const Model& model, const RunOptions& options) {
  auto run = RunModel(model, options);
  EXPECT_TRUE(run.ok()) << run.error().message;
  return run.ok() ? std::move(run).value() : RunOutput{};
}

EtdumpRecord DecodeOrFail(const std::vector<uint8_t>& etdump) {
  auto file = EtdumpFile::FromBytes(etdump);
  EXPECT_TRUE(file.ok()) << file.error().message;
  return file.ok() ? DecodeEtdump(*file) : EtdumpRecord{};
}

std::vector<ProfileEventRecord> ProfileEvents(const RunDataRecord& run) {
  std::vector<ProfileEventRecord> events;
  for (const EventRecord& event : run.events) {
    if (const auto* profile = std::get_if<ProfileEventRecord>(&event)) {
      events.push_back(*profile);
    }
  }
  return events;
}

double PercentileOf(std::vector<double> samples, double q) {
  if (samples.empty()) return 0;
  std::sort(samples.begin(), samples.end());
  return Percentile(samples, q);  // the inspector's rule
}

double Median(std::vector<double> samples) {
  return PercentileOf(std::move(samples), 50);
}

}  // namespace etbench::runtime::testing
