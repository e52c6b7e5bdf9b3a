#include "etbench/compare/sequential.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <deque>
#include <random>

#include "support/compare_test_util.h"
#include "etbench/compare/ab_schedule.h"
#include "etbench/reports/row_reason.h"

namespace etbench {
namespace {

using etbench::testing::EventMetric;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

TEST(SequentialLookScheduleTest, StartsAtSixAndGrowsByHalf) {
  EXPECT_THAT(LookSchedule(40), ElementsAre(6, 9, 14, 21, 32));
  EXPECT_TRUE(LookSchedule(5).empty());
}

// A look at K blocks cannot reach p < 2^{1-K}; at J looks each is tested at
// level/J. Looks that cannot reject are not planned (they would spend a
// share and decide nothing), which raises the others' share.
TEST(SequentialUsefulLooksTest, DropsLooksThatCannotRejectUntilTheRestCan) {
  // 5%/7: 6 blocks (p >= 3.1%) cannot; 9 blocks (p >= 0.39%) can at 5%/6.
  EXPECT_THAT(UsefulLooks(LookSchedule(100), 0.05), ElementsAre(9, 14, 21, 32, 48, 72));
  // 1%/5: neither 6 nor 9 blocks; 14 can (1/8192 <= 1%/3).
  EXPECT_THAT(UsefulLooks(LookSchedule(40), 0.01), ElementsAre(14, 21, 32));
  // Nothing can reject: the last look stays (the final look takes the rest).
  EXPECT_THAT(UsefulLooks({6}, 0.01), ElementsAre(6));
  EXPECT_TRUE(UsefulLooks({}, 0.05).empty());
}

TEST(SequentialDesignTest, SpendsEqualSharesThenTheRestAtTheFinalLook) {
  SequentialDesign design;
  design.planned_looks = 4;
  design.AddLook(6, false);
  design.AddLook(8, false);
  design.AddLook(9, true);
  ASSERT_EQ(design.looks.size(), 3u);
  EXPECT_DOUBLE_EQ(design.looks[0].second, 0.25);
  EXPECT_DOUBLE_EQ(design.looks[2].second, 0.5);
  EXPECT_DOUBLE_EQ(design.Spent(), 1.0);
  design.AddLook(12, true);  // nothing left to spend
  EXPECT_EQ(design.looks.size(), 3u);
}

// Under the null, stopping at the first look with p ≤ alpha must keep the
// error at alpha; looking as often without spending does not.
TEST(SequentialSignedRankTest, OptionalStoppingKeepsTheErrorRate) {
  std::mt19937_64 rng(2026);
  std::student_t_distribution<double> noise(4);
  const double alpha = 0.05;
  const std::vector<std::size_t> looks = LookSchedule(40);
  const int trials = 3000;
  int spent = 0, naive = 0;
  for (int t = 0; t < trials; ++t) {
    std::vector<double> d(40);
    for (double& x : d) x = noise(rng);
    SequentialDesign design;
    design.planned_looks = looks.size();
    bool rejected = false, naive_rejected = false;
    for (std::size_t k : looks) {
      design.AddLook(k, k == looks.back());
      const SequentialSignedRank inference(d, design);
      rejected = rejected || inference.p_value() <= alpha;
      std::vector<double> first(d.begin(), d.begin() + static_cast<std::ptrdiff_t>(k));
      naive_rejected = naive_rejected ||
                       SignedRank(SortedWalshAverages(first), SignedRankDistribution(k)).p_value <= alpha;
    }
    spent += rejected;
    naive += naive_rejected;
  }
  const double se = std::sqrt(alpha * (1 - alpha) / trials);
  EXPECT_LE(spent, static_cast<int>(trials * (alpha + 2 * se)));
  EXPECT_GT(naive, static_cast<int>(trials * (alpha + 3 * se)));  // why spending is needed
}

// Per-model stopping moves the final look: another model ("x"), whose
// block differences follow this metric's with correlation 0.9 (one shared
// machine), stops once its 95% interval rules out +0.6σ, and the blocks
// then take half as long, so more looks are reached and the budget's final
// look comes later. This metric must still keep its error rate.
TEST(SequentialSignedRankTest, AnotherModelsStopKeepsTheErrorRate) {
  std::mt19937_64 rng(2027);
  std::normal_distribution<double> noise(0, 1);
  const double alpha = 0.05, budget = 60;
  // Planned as AbSequence plans it: one block of 2 models took 2 s.
  const std::vector<std::size_t> looks = LookSchedule(static_cast<std::size_t>(budget - 2) + 1);
  const int trials = 3000;
  int rejected_trials = 0, stops = 0;
  for (int t = 0; t < trials; ++t) {
    std::vector<double> d, x;
    SequentialDesign design;
    design.planned_looks = looks.size();
    double now = 0, block_seconds = 2;
    bool x_running = true, rejected = false;
    std::size_t next = 0;
    while (true) {
      const double common = noise(rng);
      d.push_back(common);
      x.push_back(0.9 * common + std::sqrt(1 - 0.9 * 0.9) * noise(rng));
      now += block_seconds;
      const bool final_look = now + block_seconds > budget;
      const bool at_look = next < looks.size() && d.size() >= looks[next];
      if (!at_look && !final_look) continue;
      if (at_look) ++next;
      design.AddLook(d.size(), final_look);
      rejected = rejected || SequentialSignedRank(d, design).p_value() <= alpha;
      if (final_look || rejected) break;
      if (x_running) {
        const SequentialSignedRank x_inference(x, design);
        if (x_inference.Interval(0.05).second < 0.6) {
          x_running = false;
          block_seconds = 1;
          ++stops;
        }
      }
    }
    rejected_trials += rejected;
  }
  EXPECT_GT(stops, trials / 4);  // the stops do move the final look
  const double se = std::sqrt(alpha * (1 - alpha) / trials);
  EXPECT_LE(rejected_trials, static_cast<int>(trials * (alpha + 2 * se)));
}

TEST(SequentialSignedRankTest, IntervalAndPValueAgreeAtEveryLevel) {
  std::mt19937_64 rng(5);
  std::normal_distribution<double> noise(0.02, 0.03);
  for (int trial = 0; trial < 100; ++trial) {
    std::vector<double> d(20);
    for (double& x : d) x = noise(rng);
    SequentialDesign design;
    design.planned_looks = 3;
    design.AddLook(6, false);
    design.AddLook(10, false);
    design.AddLook(20, true);
    const SequentialSignedRank inference(d, design);
    for (double a : {0.2, 0.05, 0.01, 0.002}) {
      const auto ci = inference.Interval(a);
      EXPECT_EQ(ci.first > 0 || ci.second < 0, inference.p_value() <= a);
    }
  }
}

// --- ComparePaired ----------------------------------------------------------

// One run of a toy model: Method::execute and three kernels, 30 executions,
// each run with its own level (run-to-run noise) and CV 2% within.
MetricSet MakeRun(std::mt19937_64& rng, double conv_factor, double run_shift = 1) {
  std::normal_distribution<double> run_noise(0, 0.005), noise(0, 0.02);
  const double level = std::exp(run_noise(rng)) * run_shift;
  MetricSet set;
  set.context = {{"time_source", "ns"}, {"unit", "ms"}};
  const std::vector<std::pair<std::string, double>> ops{
      {"native_call_convolution.out", 0.30 * conv_factor}, {"native_call_relu.out", 0.05},
      {"native_call_linear.out", 0.10}};
  std::vector<double> total(30, 0.02);
  for (std::size_t i = 0; i < ops.size(); ++i) {
    std::vector<double> samples(30);
    for (std::size_t s = 0; s < samples.size(); ++s) {
      samples[s] = ops[i].second * level * std::exp(noise(rng));
      total[s] += samples[s];
    }
    set.metrics.push_back(EventMetric(ops[i].first, static_cast<int32_t>(i), samples));
  }
  set.metrics.push_back(EventMetric("Method::execute", -1, total, /*end_to_end=*/true));
  return set;
}

struct Blocks {
  std::deque<MetricSet> runs;
  std::vector<AbBlock> blocks;
  MetricSet merged_a, merged_b;
};

Blocks MakeBlocks(uint64_t seed, std::size_t n, double conv_factor) {
  std::mt19937_64 rng(seed);
  Blocks out;
  for (std::size_t k = 0; k < n; ++k) {
    AbBlock block;
    for (int r = 0; r < 4; ++r) {
      const bool b = r == 1 || r == 2;  // A B B A
      out.runs.push_back(MakeRun(rng, b ? conv_factor : 1.0));
      (b ? block.b : block.a).push_back(&out.runs.back());
    }
    out.blocks.push_back(block);
  }
  std::vector<MetricSet> a, b;
  for (const AbBlock& block : out.blocks) {
    for (const MetricSet* run : block.a) a.push_back(*run);
    for (const MetricSet* run : block.b) b.push_back(*run);
  }
  out.merged_a = *MergeMetricSets(a);
  out.merged_b = *MergeMetricSets(b);
  return out;
}

const MetricComparison& Row(const Comparison& c, const std::string& name) {
  for (const MetricComparison& row : c.rows) {
    if (row.key.name == name) return row;
  }
  static MetricComparison none;
  ADD_FAILURE() << "no row " << name;
  return none;
}

Comparison Paired(const Blocks& blocks, std::size_t looks_at = 8) {
  SequentialDesign design;
  design.planned_looks = 2;
  design.AddLook(6, false);
  design.AddLook(looks_at, true);
  SequentialProgress progress;
  progress.seconds = 20;
  auto c = ComparePaired(blocks.merged_a, blocks.merged_b, blocks.blocks, design,
                         DefaultThresholds(), progress);
  EXPECT_TRUE(c.ok()) << c.error().message;
  for (const MetricComparison& row : c->rows) EXPECT_EQ(CheckRowConsistency(row), "");
  return *c;
}

TEST(ComparePairedTest, ASlowerKernelIsARegressionAndTheRestIsDecidedUnchanged) {
  // 12 blocks: with 3 operators in the family, the exact test can reach
  // BH's level (2/2^12 per look, spent in halves) — 8 could not.
  const Comparison c = Paired(MakeBlocks(1, 12, 1.10), 12);
  EXPECT_EQ(c.outcome, GateOutcome::kRegression);
  const MetricComparison& conv = Row(c, "native_call_convolution.out");
  EXPECT_EQ(conv.verdict, Verdict::kRegression);
  EXPECT_EQ(conv.test, "paired_signed_rank");
  EXPECT_NEAR(conv.change, 0.10, 0.02);
  EXPECT_LT(conv.ci_low, 0.10);
  EXPECT_GT(conv.ci_high, 0.10);
  EXPECT_TRUE(conv.decided);
  EXPECT_THAT(reports::RowReason(conv), HasSubstr("decided after 12 blocks, 20 s"));
  const MetricComparison& relu = Row(c, "native_call_relu.out");
  EXPECT_EQ(relu.verdict, Verdict::kUnchanged);
  EXPECT_TRUE(relu.decided);
  EXPECT_EQ(Row(c, "Method::execute").verdict, Verdict::kRegression);  // +7.5% of the total
}

TEST(ComparePairedTest, ASmallPThatTheFdrDoesNotConfirmSaysSo) {
  // 8 blocks: the slowed kernel's own p is small, but BH over the three
  // operators does not reach q; the reason must say why it is not flagged.
  const Comparison c = Paired(MakeBlocks(1, 8, 1.10), 8);
  const MetricComparison& conv = Row(c, "native_call_convolution.out");
  ASSERT_LE(conv.p_value, 0.02);
  ASSERT_TRUE(conv.p_adjusted.has_value());
  ASSERT_GT(*conv.p_adjusted, 0.02);
  EXPECT_EQ(conv.verdict, Verdict::kInconclusive);
  EXPECT_THAT(reports::RowReason(conv),
              HasSubstr("after the FDR adjustment over 3 operators (q = 0.02)"));
}

TEST(ComparePairedTest, AnAaComparisonPasses) {
  const Comparison c = Paired(MakeBlocks(2, 8, 1.0));
  EXPECT_EQ(c.outcome, GateOutcome::kPass);
  EXPECT_TRUE(AllDecided(c));
  for (const MetricComparison& row : c.rows) {
    EXPECT_LT(std::fabs(row.change), 0.02) << row.label;
    EXPECT_THAT(reports::RowReason(row), HasSubstr("ruled out")) << row.label;
  }
}

TEST(ComparePairedTest, TooFewBlocksLeaveEverythingUndecided) {
  Blocks blocks = MakeBlocks(3, 3, 1.10);
  SequentialDesign design;
  design.AddLook(3, true);
  SequentialProgress progress;
  progress.budget_spent = true;
  progress.seconds = 60;
  auto c = ComparePaired(blocks.merged_a, blocks.merged_b, blocks.blocks, design,
                         DefaultThresholds(), progress);
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(c->outcome, GateOutcome::kInconclusive);
  EXPECT_FALSE(AllDecided(*c));
  EXPECT_THAT(reports::RowReason(Row(*c, "native_call_convolution.out")),
              HasSubstr("budget spent (3 blocks, 60 s)"));
  for (const MetricComparison& row : c->rows) EXPECT_EQ(CheckRowConsistency(row), "");
}

// Adds a load time to every run: one sample per run (one load), log-normal
// with run-to-run spread `sigma`, `b_factor` times as long on side B, and
// every `drift_every`-th block (if any) `drift` times as long on both sides.
void AddLoadTime(Blocks* blocks, uint64_t seed, double sigma, double b_factor,
                 std::size_t drift_every = 0, double drift = 1) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> noise(0, sigma);
  std::vector<MetricSet> a, b;
  for (std::size_t k = 0; k < blocks->blocks.size(); ++k) {
    const AbBlock& block = blocks->blocks[k];
    const double level = drift_every > 0 && k % drift_every == 0 ? drift : 1.0;
    for (int side = 0; side < 2; ++side) {
      for (const MetricSet* run : side == 0 ? block.a : block.b) {
        auto* mutable_run = const_cast<MetricSet*>(run);
        const double value = 0.2 * level * (side == 1 ? b_factor : 1.0) * std::exp(noise(rng));
        mutable_run->metrics.push_back(EventMetric("Method::init", 0, {value}, /*end_to_end=*/true));
        (side == 0 ? a : b).push_back(*run);
      }
    }
  }
  blocks->merged_a = *MergeMetricSets(a);
  blocks->merged_b = *MergeMetricSets(b);
}

TEST(ComparePairedTest, AOneSamplePerRunMetricIsJudgedAgainstItsOwnRunToRunSpread) {
  // A load time with a 15% run-to-run spread: the rule's 10% would need
  // ~50 blocks to rule out; its threshold becomes its spread instead.
  Blocks blocks = MakeBlocks(4, 21, 1.0);
  AddLoadTime(&blocks, 40, 0.15, 1.0);
  const Comparison c = Paired(blocks, 21);
  const MetricComparison& load = Row(c, "Method::init");
  EXPECT_GT(load.threshold, 0.10);
  EXPECT_LT(load.threshold, 0.25);
  EXPECT_EQ(load.verdict, Verdict::kUnchanged);
  EXPECT_TRUE(load.decided);
  EXPECT_THAT(reports::RowReason(load), HasSubstr("one sample per run, its run-to-run spread"));
  // Metrics with many samples per run keep their rule's threshold.
  EXPECT_DOUBLE_EQ(Row(c, "Method::execute").threshold, 0.02);
  EXPECT_DOUBLE_EQ(Row(c, "native_call_relu.out").threshold, 0.05);
  EXPECT_EQ(c.outcome, GateOutcome::kPass);
}

TEST(ComparePairedTest, AOneSamplePerRunRegressionBeyondItsSpreadIsStillCaught) {
  Blocks blocks = MakeBlocks(5, 14, 1.0);
  AddLoadTime(&blocks, 50, 0.15, 1.5);
  const Comparison c = Paired(blocks, 14);
  const MetricComparison& load = Row(c, "Method::init");
  EXPECT_EQ(load.verdict, Verdict::kRegression);
  EXPECT_NEAR(load.change, 0.5, 0.15);
  // The spread is measured within each block and side: the shift does not widen it.
  EXPECT_LT(load.threshold, 0.25);
  EXPECT_EQ(c.outcome, GateOutcome::kRegression);
}

TEST(ComparePairedTest, DriftBetweenBlocksDoesNotWidenAOneSamplePerRunThreshold) {
  // Every other block's loads take 3 times as long on both sides (the
  // machine's state, which the blocks pair away): the spread that counts is
  // that of a run around its block, 2% here, so the rule's 10% stays.
  Blocks blocks = MakeBlocks(7, 14, 1.0);
  AddLoadTime(&blocks, 70, 0.02, 1.0, 2, 3.0);
  const Comparison c = Paired(blocks, 14);
  const MetricComparison& load = Row(c, "Method::init");
  EXPECT_DOUBLE_EQ(load.threshold, 0.10);
  EXPECT_EQ(load.verdict, Verdict::kUnchanged);
}

TEST(ComparePairedTest, AQuietOneSamplePerRunMetricKeepsItsRule) {
  Blocks blocks = MakeBlocks(6, 8, 1.0);
  AddLoadTime(&blocks, 60, 0.02, 1.0);
  const Comparison c = Paired(blocks);
  const MetricComparison& load = Row(c, "Method::init");
  EXPECT_DOUBLE_EQ(load.threshold, 0.10);  // the built-in rule for Method::init
  EXPECT_THAT(reports::RowReason(load), ::testing::Not(HasSubstr("one sample per run")));
  EXPECT_EQ(load.verdict, Verdict::kUnchanged);
}

// Load time that one sample per run cannot resolve in 8 blocks never holds
// an otherwise decided comparison: it is reported undecided and not gated.
TEST(ComparePairedTest, AnUndecidedOneSamplePerRunMetricHoldsNoDecision) {
  // B's loads +30% at a run-to-run spread of 30%: neither flagged nor ruled out.
  Blocks blocks = MakeBlocks(2, 8, 1.0);
  AddLoadTime(&blocks, 20, 0.3, 1.3);
  const Comparison c = Paired(blocks);
  const MetricComparison& load = Row(c, "Method::init");
  EXPECT_FALSE(load.decided);
  EXPECT_FALSE(load.gated);
  EXPECT_EQ(load.verdict, Verdict::kInconclusive);
  EXPECT_THAT(reports::RowReason(load),
              HasSubstr("one sample per run, undecided after 8 blocks, 20 s"));
  EXPECT_THAT(reports::RowReason(load), HasSubstr("holds no decision"));
  EXPECT_TRUE(AllDecided(c));
  EXPECT_EQ(c.outcome, GateOutcome::kPass);
  EXPECT_EQ(c.counts.inconclusive, 0u);
}

// A metric that a run of some block lacks is paired over the blocks that
// measured it, and says so, instead of falling back to an unpaired row.
TEST(ComparePairedTest, AMetricMissingFromABlockIsPairedOverTheOthers) {
  Blocks blocks = MakeBlocks(2, 9, 1.0);
  auto& metrics = const_cast<MetricSet*>(blocks.blocks[3].b[0])->metrics;
  metrics.erase(std::remove_if(metrics.begin(), metrics.end(),
                               [](const Metric& m) { return m.key.name == "native_call_relu.out"; }),
                metrics.end());
  const Comparison c = Paired(blocks, 9);
  const MetricComparison& relu = Row(c, "native_call_relu.out");
  EXPECT_EQ(relu.test, "paired_signed_rank");
  EXPECT_THAT(reports::RowReason(relu),
              HasSubstr("paired over the blocks that measured it (1 block lacked it"));
  EXPECT_EQ(relu.verdict, Verdict::kUnchanged);
  EXPECT_THAT(reports::RowReason(Row(c, "native_call_linear.out")),
              ::testing::Not(HasSubstr("lacked")));
}

TEST(InterferedModelsTest, ARunHitByInterferenceLeavesItsModelOutOfItsBlock) {
  std::mt19937_64 rng(9);
  std::deque<MetricSet> runs;
  std::vector<AbBlock> blocks;
  for (std::size_t k = 0; k < 6; ++k) {
    AbBlock block;
    for (int r = 0; r < 4; ++r) {
      const bool b = r == 1 || r == 2;
      // The second B run of block 3 ran while something else hogged the CPU.
      runs.push_back(MakeRun(rng, 1.0, k == 3 && r == 2 ? 1.3 : 1.0));
      (b ? block.b : block.a).push_back(&runs.back());
    }
    blocks.push_back(block);
  }
  const std::vector<std::set<std::string>> hit = InterferedModels(blocks);
  ASSERT_EQ(hit.size(), 6u);
  for (std::size_t k = 0; k < hit.size(); ++k) {
    if (k == 3) {
      EXPECT_THAT(hit[k], ElementsAre(runs.front().metrics.front().key.model)) << k;
    } else {
      EXPECT_TRUE(hit[k].empty()) << k;
    }
  }
  EXPECT_EQ(ModelsOf(blocks[3]).size(), 1u);
}

TEST(ComparePairedTest, BlocksLeftOutForAModelAreLeftOutOfItsRowsOnly) {
  // Leaving a model out of blocks 1, 4, 7 and 10 must give that model's rows
  // exactly the comparison of the other eight blocks.
  Blocks blocks = MakeBlocks(4, 12, 1.10);
  const std::string model = blocks.runs.front().metrics.front().key.model;
  std::vector<AbBlock> marked = blocks.blocks, subset;
  for (std::size_t k = 0; k < marked.size(); ++k) {
    if (k % 3 == 1) {
      marked[k].excluded_models.insert(model);
    } else {
      subset.push_back(marked[k]);
    }
  }
  SequentialDesign design;
  design.AddLook(8, true);
  SequentialProgress progress;
  auto left_out = ComparePaired(blocks.merged_a, blocks.merged_b, marked, design,
                                DefaultThresholds(), progress);
  auto eight = ComparePaired(blocks.merged_a, blocks.merged_b, subset, design,
                             DefaultThresholds(), progress);
  ASSERT_TRUE(left_out.ok() && eight.ok());
  for (const char* name : {"native_call_convolution.out", "Method::execute"}) {
    EXPECT_EQ(Row(*left_out, name).p_value, Row(*eight, name).p_value) << name;
    EXPECT_EQ(Row(*left_out, name).change, Row(*eight, name).change) << name;
  }
  // Another model's exclusion changes nothing here.
  for (AbBlock& block : marked) block.excluded_models = {"some_other_model"};
  auto all = ComparePaired(blocks.merged_a, blocks.merged_b, marked, design, DefaultThresholds(),
                           progress);
  auto twelve = ComparePaired(blocks.merged_a, blocks.merged_b, blocks.blocks, design,
                              DefaultThresholds(), progress);
  ASSERT_TRUE(all.ok() && twelve.ok());
  EXPECT_EQ(Row(*all, "native_call_convolution.out").p_value,
            Row(*twelve, "native_call_convolution.out").p_value);
}

// A model stopped after 9 of 21 blocks (its metrics absent from the later
// runs): its rows must be those of its own looks on its own blocks — the
// comparison of the first 9 blocks with the looks at 6 and 9 — while the
// other model's use all 21 blocks and all 4 looks.
TEST(ComparePairedTest, AStoppedModelKeepsItsOwnBlocksAndLooks) {
  const Blocks toy = MakeBlocks(11, 21, 1.0);
  const Blocks other = MakeBlocks(12, 21, 1.0);
  const auto combine = [&](std::size_t n, std::size_t toy_blocks, Blocks* out) {
    for (std::size_t k = 0; k < n; ++k) {
      AbBlock block;
      for (int side = 0; side < 2; ++side) {
        for (std::size_t r = 0; r < 2; ++r) {
          MetricSet run = *(side == 0 ? other.blocks[k].a : other.blocks[k].b)[r];
          for (Metric& m : run.metrics) m.key.model = "other";
          if (k < toy_blocks) {
            const MetricSet& t = *(side == 0 ? toy.blocks[k].a : toy.blocks[k].b)[r];
            run.metrics.insert(run.metrics.end(), t.metrics.begin(), t.metrics.end());
          }
          out->runs.push_back(std::move(run));
          (side == 0 ? block.a : block.b).push_back(&out->runs.back());
        }
      }
      out->blocks.push_back(block);
    }
    std::vector<MetricSet> a, b;
    for (const AbBlock& block : out->blocks) {
      for (const MetricSet* run : block.a) a.push_back(*run);
      for (const MetricSet* run : block.b) b.push_back(*run);
    }
    out->merged_a = *MergeMetricSets(a);
    out->merged_b = *MergeMetricSets(b);
  };
  Blocks stopped, first_nine;
  combine(21, 9, &stopped);
  combine(9, 9, &first_nine);

  SequentialDesign design;
  design.planned_looks = 4;
  design.AddLook(6, false);
  design.AddLook(9, false);
  SequentialProgress then;
  then.seconds = 20;
  auto at_nine = ComparePaired(first_nine.merged_a, first_nine.merged_b, first_nine.blocks, design,
                               DefaultThresholds(), then);
  ASSERT_TRUE(at_nine.ok()) << at_nine.error().message;

  SequentialProgress progress;
  progress.seconds = 50;
  progress.budget_spent = true;
  progress.stopped["toy"] = ModelStop{design.looks, 9, 20};
  design.AddLook(14, false);
  design.AddLook(21, true);
  auto later = ComparePaired(stopped.merged_a, stopped.merged_b, stopped.blocks, design,
                             DefaultThresholds(), progress);
  ASSERT_TRUE(later.ok()) << later.error().message;
  std::size_t toy_rows = 0;
  for (const MetricComparison& row : later->rows) {
    EXPECT_EQ(CheckRowConsistency(row), "") << row.label;
    EXPECT_EQ(row.test, "paired_signed_rank") << row.label;
    if (row.key.model == "other") {
      EXPECT_EQ(row.blocks, 21u) << row.label;
      continue;
    }
    ++toy_rows;
    const MetricComparison* before = nullptr;
    for (const MetricComparison& r : at_nine->rows) {
      if (r.label == row.label && r.statistic == row.statistic) before = &r;
    }
    ASSERT_NE(before, nullptr) << row.label;
    EXPECT_EQ(row.p_value, before->p_value) << row.label;
    EXPECT_EQ(row.change, before->change) << row.label;
    EXPECT_EQ(row.blocks, 9u) << row.label;
    // A/A: every interval is the equivalence interval, which the other
    // model's later looks do not move (the family's level could).
    EXPECT_EQ(row.ci_alpha, before->ci_alpha) << row.label;
    EXPECT_EQ(row.ci_low, before->ci_low) << row.label;
    EXPECT_EQ(row.ci_high, before->ci_high) << row.label;
  }
  EXPECT_EQ(toy_rows, 4u);
}

TEST(CheckRowConsistencyTest, FlagsAnIntervalThatContradictsItsP) {
  MetricComparison row;
  row.label = "x";
  row.ci_alpha = 0.05;
  row.ci_low = 0.055;
  row.ci_high = 0.111;
  row.p_value = 0.43;  // the "+9.2% [+5.5%, +11.1%] p=0.43"
  EXPECT_THAT(CheckRowConsistency(row), HasSubstr("excludes 0 but p = 0.43"));
  row.p_value = 0.01;
  EXPECT_EQ(CheckRowConsistency(row), "");
  row.verdict = Verdict::kRegression;
  row.level = 0.001;
  EXPECT_THAT(CheckRowConsistency(row), HasSubstr("above its level"));
}

}  // namespace
}  // namespace etbench
