// Fixed inputs for the report tests.

#include "report_test_data.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <regex>
#include <sstream>

#include "etbench/inspector/perf_data.h"
#include "support/test_support.h"

namespace etbench::testing {
namespace {

MetricKey Key(const std::string& model, const std::string& name, std::optional<int32_t> instruction,
              MetricKind kind = MetricKind::kEvent) {
  MetricKey key;
  key.model = model;
  key.block = "Execute";
  key.kind = kind;
  key.name = name;
  key.instruction_id = instruction;
  return key;
}

MetricComparison Row(const MetricKey& key, const std::string& unit, double base, double cand,
                     double change, double lo, double hi, double p, Verdict verdict,
                     const std::string& reason) {
  MetricComparison r;
  r.key = key;
  r.label = MetricLabel(key);
  r.unit = unit;
  r.statistic = Statistic::kP50;
  r.n_baseline = 40;
  r.n_candidate = 40;
  r.baseline_value = base;
  r.candidate_value = cand;
  r.delta = cand - base;
  r.change = change;
  r.ci_low = lo;
  r.ci_high = hi;
  r.p_value = p;
  r.p_adjusted = std::min(1.0, p * 3);
  r.level = 0.01;
  r.prob_superiority = 0.5;
  r.threshold = 0.05;
  r.mde = 0.02;
  r.verdict = verdict;
  r.notes = {StoredReasonNote{reason}};
  r.rule = "default";
  return r;
}

}  // namespace

Comparison SampleComparison() {
  Comparison c;
  c.outcome = GateOutcome::kRegression;
  MetricComparison execute = Row(Key("toy_cnn", "Method::execute", 0), "ms", 1.899, 2.031, 0.0695,
                                 0.051, 0.088, 1.2e-6, Verdict::kRegression,
                                 "significant and above the threshold");
  execute.end_to_end = true;
  execute.p_adjusted.reset();
  execute.level = 0.005;
  execute.threshold = 0.02;
  execute.rule = "end_to_end";
  MetricComparison conv3 = Row(Key("toy_cnn", "native_call_convolution.out", 3), "ms", 1.032, 1.161,
                               0.125, 0.081, 0.16, 7e-6, Verdict::kRegression,
                               "significant and above the threshold");
  MetricComparison conv0 = Row(Key("toy_cnn", "native_call_convolution.out", 0), "ms", 0.5448,
                               0.5431, -0.0031, -0.011, 0.006, 0.41, Verdict::kUnchanged,
                               "within the threshold");
  MetricComparison permute = Row(Key("toy_cnn", "native_call_permute_copy.out", 6), "ms", 0.1535,
                                 0.1301, -0.152, -0.19, -0.11, 3e-7, Verdict::kImprovement,
                                 "significant and above the threshold");
  MetricComparison addmm = Row(Key("toy_cnn", "native_call_addmm.out", 7), "ms", 0.04096, 0.0441,
                               0.0767, -0.02, 0.17, 0.09, Verdict::kInconclusive,
                               "too noisy to rule out a regression");
  addmm.mde = 0.12;
  addmm.iterations_needed = 140;
  MetricComparison tax = Row(Key("toy_cnn", "framework_tax", std::nullopt, MetricKind::kFrameworkTax),
                             "percent", 0.51, 0.62, 0.11, -0.05, 0.27, 0.2, Verdict::kUnchanged,
                             "within the threshold");
  tax.scale = ChangeScale::kAbsolute;
  tax.end_to_end = true;
  tax.p_adjusted.reset();
  tax.threshold = 1.0;
  tax.mde = 0.3;
  tax.rule = "framework_tax";
  MetricComparison m_exec = Row(Key("mobilenet_tiny", "Method::execute", 0), "ms", 12.5, 12.41,
                                -0.0072, -0.02, 0.004, 0.3, Verdict::kUnchanged,
                                "within the threshold");
  m_exec.end_to_end = true;
  m_exec.p_adjusted.reset();
  MetricComparison m_delegate = Row(Key("mobilenet_tiny", "DELEGATE_CALL", 2), "ms", 10.1, 10.02,
                                    -0.0079, -0.03, 0.01, 0.5, Verdict::kUnchanged,
                                    "within the threshold");
  MetricComparison m_load = Row(Key("mobilenet_tiny", "Program::load_method", 0), "ms", 0.0249,
                                0.0311, 0.249, 0.1, 0.4, 1e-4, Verdict::kRegression,
                                "significant and above the threshold");
  m_load.gated = false;
  m_load.end_to_end = true;
  m_load.p_adjusted.reset();
  m_load.rule = "rules[0] (match: Program::*) at thresholds.yaml:12:5";
  // Ordered by key, as the engine orders them.
  c.rows = {execute, conv0, conv3, addmm, permute, tax, m_delegate, m_exec, m_load};
  c.counts = {2, 1, 4, 1};

  Attribution a;
  a.model = "toy_cnn";
  a.block = "Execute";
  a.unit = "ms";
  a.baseline_execute = 1.899;
  a.candidate_execute = 2.031;
  a.delta = 0.132;
  auto item = [](AttributionItem::Kind kind, const std::string& label, std::optional<MetricKey> key,
                 double delta, double share) {
    AttributionItem i;
    i.kind = kind;
    i.label = label;
    i.key = std::move(key);
    i.delta = delta;
    i.share = share;
    return i;
  };
  a.items = {item(AttributionItem::Kind::kKernel, "native_call_convolution.out #3", conv3.key, 0.129, 0.977),
             item(AttributionItem::Kind::kKernel, "native_call_permute_copy.out #6", permute.key, -0.0234, -0.177),
             item(AttributionItem::Kind::kFrameworkOverhead, "framework overhead", std::nullopt, 0.0233, 0.177),
             item(AttributionItem::Kind::kKernel, "native_call_addmm.out #7", addmm.key, 0.0031, 0.023)};
  c.attributions = {a};

  StructureChange added;
  added.kind = StructureChange::Kind::kAdded;
  added.model = "toy_cnn";
  added.block = "Execute";
  added.candidate_key = Key("toy_cnn", "native_call_gelu.out", 14);
  StructureChange removed;
  removed.kind = StructureChange::Kind::kRemoved;
  removed.model = "mobilenet_tiny";
  removed.block = "Execute";
  removed.baseline_key = Key("mobilenet_tiny", "native_call_hardswish.out", 5);
  c.structure_changes = {added, removed};
  c.warnings = {
      TextWarning{"baseline and candidate ran on different devices (pixel-7 vs pixel-8)"}};
  c.settings.fdr = 0.01;
  c.settings.alpha = 0.005;
  c.settings.confidence = 0.95;
  c.settings.bootstrap_resamples = 2000;
  c.settings.min_samples = 5;
  c.settings.power = 0.8;
  c.settings.seed = 42;
  c.settings.family_size = 5;
  c.settings.thresholds_source = "configs/thresholds.yaml";
  c.baseline_context = {{"branch", "main"}, {"git_commit", "0123456789abcdef0123"},
                        {"device", "pixel-7"}, {"date", "2025-01-01T00:00:00Z"}};
  c.candidate_context = {{"branch", "feature/faster-permute"}, {"git_commit", "fedcba9876543210fedc"},
                         {"device", "pixel-8"}, {"date", "2025-01-02T00:00:00Z"}};
  return c;
}

MetricSetPair SampleMetricSets(std::size_t n) {
  struct Spec {
    const char* name;
    int32_t instruction;
    double base, cand;
    bool op;
  };
  const Spec specs[] = {{"Method::execute", 0, 1.90, 2.03, false},
                        {"native_call_convolution.out", 0, 0.545, 0.545, true},
                        {"native_call_relu.out", 1, 0.0084, 0.0084, true},
                        {"native_call_max_pool2d_with_indices.out", 2, 0.0503, 0.0503, true},
                        {"native_call_convolution.out", 3, 1.032, 1.161, true},
                        {"native_call_relu.out", 4, 0.00097, 0.00097, true},
                        {"native_call_max_pool2d_with_indices.out", 5, 0.0141, 0.0141, true},
                        {"native_call_permute_copy.out", 6, 0.1535, 0.1301, true},
                        {"native_call_addmm.out", 7, 0.041, 0.041, true}};
  MetricSetPair pair;
  uint64_t seed = 1;
  for (const Spec& s : specs) {
    for (int side = 0; side < 2; ++side) {
      Metric m;
      m.key = Key("toy_cnn", s.name, s.instruction);
      m.unit = "ms";
      m.end_to_end = !s.op;
      m.is_kernel_or_delegate_call = s.op;
      m.samples = LogNormalSamples(n, side == 0 ? s.base : s.cand, 0.03, seed++);
      (side == 0 ? pair.baseline : pair.candidate).metrics.push_back(std::move(m));
    }
  }
  for (int side = 0; side < 2; ++side) {
    Metric tax;
    tax.key = Key("toy_cnn", "framework_tax", std::nullopt, MetricKind::kFrameworkTax);
    tax.unit = "percent";
    tax.end_to_end = true;
    tax.samples = LogNormalSamples(n, side == 0 ? 0.51 : 0.58, 0.1, seed++);
    (side == 0 ? pair.baseline : pair.candidate).metrics.push_back(std::move(tax));
  }
  pair.baseline.context = {{"branch", "main"}, {"device", "pixel-7"}};
  pair.candidate.context = {{"branch", "feature"}, {"device", "pixel-7"}};
  return pair;
}

MetricSetPair LongRunMetricSets(std::size_t executions) {
  MetricSetPair sets = SampleMetricSets();
  for (MetricSet* set : {&sets.baseline, &sets.candidate}) {
    for (Metric& m : set->metrics) {
      const std::vector<double> base = m.samples;
      m.samples.resize(executions);
      for (std::size_t i = base.size(); i < executions; ++i) m.samples[i] = base[i % base.size()];
    }
  }
  return sets;
}

results::RunResults SampleResults() {
  results::RunResults r;
  results::ResultsMetadata& m = r.metadata;
  m.suite = "default";
  m.runner = "builtin";
  m.tool_version = "0.1.0";
  m.warmup = 1;
  m.iterations = 5;
  m.repetitions = 1;
  m.device = "test-device";
  m.date = "2025-01-01T00:00:00Z";
  m.git_commit = "0123456789abcdef";
  auto event = [](const std::string& name, std::optional<int32_t> instruction,
                  std::vector<double> raw) {
    results::EventResult e;
    e.name = name;
    e.instruction_id = instruction;
    e.perf_data = PerfData::FromRaw(std::move(raw));
    return e;
  };
  results::ModelResult toy;
  toy.name = "toy_cnn";
  toy.unit = "ms";
  toy.wall_ms = 1234;
  results::BlockResult init;
  init.name = "Default";
  init.run_count = 1;
  init.events = {event("Program::load_method", 0, {0.024857}), event("Method::init", 0, {0.022484})};
  results::BlockResult exec;
  exec.name = "Execute";
  exec.run_count = 5;
  exec.events = {event("native_call_convolution.out", 0, {0.5448, 0.5502, 0.5391, 0.5467, 0.5420}),
                 event("OPERATOR_CALL", 0, {0.5468, 0.5522, 0.5411, 0.5487, 0.5440}),
                 event("native_call_relu.out", 1, {0.0084, 0.0083, 0.0091, 0.0085, 0.0084}),
                 event("native_call_convolution.out", 3, {1.0325, 1.0411, 1.0298, 1.0377, 1.0350}),
                 event("Method::execute", 0, {1.8988, 1.9102, 1.8897, 1.9021, 1.8950})};
  exec.framework_tax = PerfData::FromRaw({0.51, 0.55, 0.49, 0.52, 0.50});
  toy.blocks = {init, exec};
  results::ModelResult broken;
  broken.name = "broken";
  broken.status = results::ModelStatus::kFailed;
  broken.error = "runner exited with status 3";
  broken.stderr_text = "error: cannot load model <broken.pte> & give up\n";
  r.models = {toy, broken};
  return r;
}

EtdumpRecord DelegateEtdump() {
  auto profile = [](const std::string& name, int32_t instruction, uint64_t start, uint64_t end,
                    int32_t delegate_int = -1) {
    ProfileEventRecord e;
    e.name = name;
    e.instruction_id = instruction;
    e.start_time = start;
    e.end_time = end;
    e.delegate_debug_id_int = delegate_int;
    return e;
  };
  EtdumpRecord d;
  RunDataRecord init;
  init.name = "Default";
  init.events = {profile("Method::init", -1, 100, 400), profile("Program::load_method", -1, 50, 450)};
  d.run_data.push_back(init);
  for (uint64_t run = 0; run < 2; ++run) {
    const uint64_t t = 1000 + run * 10000;
    RunDataRecord r;
    r.name = "Execute";
    // Completion order, as the runtime writes events.
    r.events = {profile("native_call_add.out", 0, t + 20, t + 520),
                profile("OPERATOR_CALL", 0, t + 10, t + 530),
                // Delegate-internal events count cycles from their own epoch.
                profile("", 1, 5, 905, 7), profile("", 1, 1000, 1700, 8),
                profile("DELEGATE_CALL", 1, t + 600, t + 2600),
                profile("Method::execute", -1, t, t + 3000 + run * 100)};
    d.run_data.push_back(r);
  }
  return d;
}

void ExpectMatchesGolden(const std::string& actual, const std::string& name) {
  const std::string path = testing::SourcePath("tests/reports/golden/" + name);
  const char* update = std::getenv("ETBENCH_UPDATE_GOLDEN");
  if (update != nullptr && std::string(update) == "1") {
    WriteTextFile(path, actual);
    return;
  }
  const std::string golden = ReadTextFile(path);
  std::istringstream g(golden), a(actual);
  std::string gl, al;
  std::size_t line = 0;
  while (true) {
    const bool has_g = static_cast<bool>(std::getline(g, gl));
    const bool has_a = static_cast<bool>(std::getline(a, al));
    ++line;
    if (!has_g && !has_a) break;
    ASSERT_TRUE(has_g && has_a) << name << ": line " << line << ": "
                                << (has_g ? "output ends early; golden has: " + gl
                                          : "output has more: " + al);
    if (gl.find("{{ANY}}") == std::string::npos) {
      ASSERT_EQ(al, gl) << name << ": line " << line;
      continue;
    }
    std::string pattern;
    std::size_t pos = 0;
    for (std::size_t at; (at = gl.find("{{ANY}}", pos)) != std::string::npos; pos = at + 7) {
      for (char c : gl.substr(pos, at - pos)) {
        if (std::string("\\^$.|?*+()[]{}").find(c) != std::string::npos) pattern += '\\';
        pattern += c;
      }
      pattern += ".*";
    }
    for (char c : gl.substr(pos)) {
      if (std::string("\\^$.|?*+()[]{}").find(c) != std::string::npos) pattern += '\\';
      pattern += c;
    }
    ASSERT_TRUE(std::regex_match(al, std::regex(pattern)))
        << name << ": line " << line << "\n  golden: " << gl << "\n  actual: " << al;
  }
}

}  // namespace etbench::testing
