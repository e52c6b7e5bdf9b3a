#include "etbench/compare/run_context.h"

#include <cmath>
#include <limits>

#include <gtest/gtest.h>

namespace etbench {
namespace {

TEST(RunContextTest, WhatIsWrittenReadsBack) {
  RunContext written;
  written.tick_rate_hz = 2.9e9;
  written.interrupted = true;
  written.models["toy"] = {std::string("ok"), std::string("ab12")};
  written.models["mlp"] = {std::string("failed"), std::string("")};
  written.labels["branch"] = "main";
  MetricSet set;
  set.context["suite"] = "default";
  WriteRunContext(written, set.context);

  // The strings baselines and the history keep, as before the typed context.
  const std::map<std::string, std::string> expected = {
      {"suite", "default"},           {"tick_rate_hz", "2900000000"},
      {"interrupted", "true"},        {"model_status:toy", "ok"},
      {"model_sha256:toy", "ab12"},   {"model_status:mlp", "failed"},
      {"model_sha256:mlp", ""},       {"label:branch", "main"}};
  EXPECT_EQ(set.context, expected);

  const RunContext read = RunContextOf(set);
  EXPECT_EQ(read.tick_rate_hz, 2.9e9);
  EXPECT_TRUE(read.interrupted);
  ASSERT_EQ(read.models.size(), 2u);
  EXPECT_EQ(read.models.at("toy").status, "ok");
  EXPECT_EQ(read.models.at("toy").sha256, "ab12");
  EXPECT_EQ(read.models.at("mlp").status, "failed");
  EXPECT_EQ(read.models.at("mlp").sha256, "");
  EXPECT_EQ(read.labels, (std::map<std::string, std::string>{{"branch", "main"}}));
}

TEST(RunContextTest, AContextThatSaysLittleReadsAsUnsaid) {
  MetricSet set;
  set.context = {{"suite", "s"}, {"model_sha256:toy", "ab"}, {"interrupted", "false"}};
  const RunContext read = RunContextOf(set);
  EXPECT_FALSE(read.tick_rate_hz.has_value());
  EXPECT_FALSE(read.interrupted);
  ASSERT_EQ(read.models.count("toy"), 1u);
  EXPECT_FALSE(read.models.at("toy").status.has_value());
  EXPECT_EQ(read.models.at("toy").sha256, "ab");
  EXPECT_TRUE(UnfinishedModels(read).empty());

  // Nothing unsaid is written back.
  std::map<std::string, std::string> out;
  WriteRunContext(read, out);
  EXPECT_EQ(out, (std::map<std::string, std::string>{{"model_sha256:toy", "ab"}}));
}

TEST(RunContextTest, TickRatesWithinAThousandthAreTheSameClock) {
  EXPECT_TRUE(SameTickRate(1e9, 1e9));
  EXPECT_TRUE(SameTickRate(2.9e9, 2.9e9 * 1.0009));
  EXPECT_FALSE(SameTickRate(2.9e9, 2.9e9 * 1.0011));
  EXPECT_FALSE(SameTickRate(1e9, 2.9e9));
  EXPECT_FALSE(SameTickRate(0.0, 1e9));  // a rate that did not parse
  EXPECT_TRUE(SameTickRate(0.0, 0.0));
  const double nan = std::numeric_limits<double>::quiet_NaN();
  EXPECT_TRUE(SameTickRate(nan, nan));
  EXPECT_FALSE(SameTickRate(nan, 1e9));
}

TEST(RunContextTest, ARateOneSideDoesNotSayIsNoDifference) {
  EXPECT_TRUE(SameTickRate(std::nullopt, 1e9));
  EXPECT_TRUE(SameTickRate(1e9, std::nullopt));
  EXPECT_TRUE(SameTickRate(std::nullopt, std::nullopt));
}

TEST(RunContextTest, TheTickRateIsWrittenExactly) {
  EXPECT_EQ(FormatTickRate(1e9), "1000000000");
  EXPECT_EQ(FormatTickRate(2.5e9), "2500000000");
  EXPECT_EQ(FormatTickRate(1.0 / 3), "0.33333333333333331");
}

TEST(RunContextTest, UnfinishedModelsAreThoseSaidNotOkByName) {
  RunContext context;
  context.models["zeta"] = {std::string("interrupted"), std::nullopt};
  context.models["alpha"] = {std::string("failed"), std::string("x")};
  context.models["mid"] = {std::string("ok"), std::string("y")};
  context.models["unsaid"] = {std::nullopt, std::string("z")};
  const auto unfinished = UnfinishedModels(context);
  ASSERT_EQ(unfinished.size(), 2u);
  EXPECT_EQ(unfinished[0], (std::pair<std::string, std::string>{"alpha", "failed"}));
  EXPECT_EQ(unfinished[1], (std::pair<std::string, std::string>{"zeta", "interrupted"}));
}

}  // namespace
}  // namespace etbench
