// libFuzzer target: any text as a baseline file and as a bare metric set.
#include <cstddef>
#include <cstdint>
#include <string>

#include "etbench/compare/baseline_store.h"
#include "etbench/compare/metric_set_json.h"
#include "etbench/reports/baseline_summary.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  auto baseline = etbench::ParseBaselineJson(text, "fuzz");
  if (baseline.ok()) (void)etbench::reports::RenderBaselineSummary(baseline.value());
  (void)etbench::MetricSetFromJson(text, "fuzz");
  return 0;
}
