#pragma once
// The synthetic nightly suite the night gate's tests judge
// (night_gate_test.cc, night_gate_parts_test.cc): three models of six
// operators, nights whose machine level moves every metric together.

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "etbench/compare/comparison.h"
#include "etbench/compare/metrics.h"
#include "support/compare_test_util.h"

namespace etbench::testing {

// Three models of six operators each (op 0 is the largest: half of
// Method::execute; op 5 is tiny), measured as 4 repetitions × 5 samples a
// night. Every night the machine's level moves every metric together by up
// to ±20%; the metrics' own night-to-night noise is ~0.4%.
struct Suite {
  std::mt19937 rng{20261126};
  /// Each model's own night-to-night noise (a fresh process's memory
  /// layout moves the whole model); model "c" may be made noisier.
  double model_noise = 0.004, model_c_noise = 0.004;

  double Noise(double sigma) {
    // Sum of 4 uniforms: near-normal, deterministic on every platform.
    double u = 0;
    for (int i = 0; i < 4; ++i) u += static_cast<double>(rng()) / 4294967296.0 - 0.5;
    return sigma * u * std::sqrt(3.0);
  }

  // `slow[model][op]`: a factor on that operator (and its model's execute).
  MetricSet Night(double level, const std::string& slow_model = "", int slow_op = -1,
                  double factor = 1) {
    MetricSet set;
    set.context = {{"suite", "s"}, {"time_source", "ns"}, {"device", "d"}};
    const double op_us[6] = {250, 120, 60, 40, 25, 5};
    for (const std::string model : {"a", "b", "c"}) {
      const double night = Noise(model == "c" ? model_c_noise : model_noise);
      double execute = 20;  // framework time
      std::vector<Metric> ops;
      for (int op = 0; op < 6; ++op) {
        double us = op_us[op] * std::exp(level + Noise(0.004) + night);
        if (model == slow_model && op == slow_op) us *= factor;
        execute += us;
        Metric m = testing::EventMetric("native_call_op" + std::to_string(op) + ".out", op,
                                        Samples(us), false, "us");
        m.key.model = model;
        ops.push_back(std::move(m));
      }
      Metric e = testing::EventMetric("Method::execute", -1, Samples(execute), true, "us");
      e.key.model = model;
      set.metrics.push_back(std::move(e));
      for (Metric& m : ops) set.metrics.push_back(std::move(m));
    }
    for (Metric& m : set.metrics) m.group_sizes = {5, 5, 5, 5};
    return set;
  }

  std::vector<double> Samples(double center) {
    std::vector<double> s;
    for (int rep = 0; rep < 4; ++rep) {
      const double rep_shift = Noise(0.004);
      for (int i = 0; i < 5; ++i) s.push_back(center * std::exp(rep_shift + Noise(0.003)));
    }
    return s;
  }
};

// The k of "native_call_op<k>.out", or -1 for any other metric.
inline int OpOf(const Metric& m) {
  return m.key.name.rfind("native_call_op", 0) == 0 ? m.key.name[14] - '0' : -1;
}

// The first row of `model`'s metric `name`, or null.
inline const MetricComparison* Row(const Comparison& c, const std::string& model,
                                   const std::string& name) {
  for (const MetricComparison& r : c.rows) {
    if (r.key.model == model && r.key.name == name) return &r;
  }
  return nullptr;
}

}  // namespace etbench::testing
