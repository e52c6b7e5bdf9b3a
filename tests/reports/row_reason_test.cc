#include "etbench/reports/row_reason.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace etbench::reports {
namespace {

MetricComparison Row(std::vector<RowNote> notes, const std::string& unit = "ms") {
  MetricComparison row;
  row.unit = unit;
  row.notes = std::move(notes);
  return row;
}

TEST(RowReasonTest, ARowWithoutNotesHasNoReason) { EXPECT_EQ(RowReason(Row({})), ""); }

TEST(RowReasonTest, TooFewSamplesNamesBothSidesAndWhatIsNeeded) {
  EXPECT_EQ(RowReason(Row({TooFewSamplesNote{50, 4, 5}})),
            "too few samples (50 vs 4; need 5 per side)");
}

TEST(RowReasonTest, EachIntervalOutcomeHasItsPhrase) {
  const std::pair<IntervalOutcome, const char*> cases[] = {
      {IntervalOutcome::kBeyondThreshold, "significant change beyond the threshold"},
      {IntervalOutcome::kBelowThreshold, "significant but below the threshold"},
      {IntervalOutcome::kReachesThreshold,
       "significant; the interval still reaches the threshold"},
      {IntervalOutcome::kRuledOut, "a threshold-sized change is ruled out"},
      {IntervalOutcome::kNotRuledOut, "cannot rule out a threshold-sized change yet"},
      {IntervalOutcome::kEstimateBelowThreshold,
       "significant; the estimate is below the threshold and the interval still reaches it"},
      {IntervalOutcome::kHalfThresholdNotRuledOut,
       "significant; half the threshold is not ruled out yet"},
  };
  for (const auto& [outcome, text] : cases) {
    EXPECT_EQ(RowReason(Row({IntervalNote{outcome}})), text);
  }
}

// Compare's notes in the order the engine adds them: the outcome, the units
// counted, too few of them, machine drift (log scale: percentages).
TEST(RowReasonTest, UnitNotesFollowTheOutcome) {
  const MetricComparison row =
      Row({IntervalNote{IntervalOutcome::kNotRuledOut}, UnitCountsNote{"repetition", 3, 3},
           TooFewUnitsNote{"repetition", 0.01, 5},
           MachineDriftNote{5, std::log(1.0618), 0.004, true, 1, true}});
  EXPECT_EQ(RowReason(row),
            "cannot rule out a threshold-sized change yet (3 baseline vs 3 candidate "
            "repetitions); too few repetitions to establish a change at level 0.01: need 5 per "
            "side; machine drift: the baseline's 5 sessions differ by up to 6.2% while "
            "repetitions within a session agree within 0.4%, so the candidate is compared with "
            "the nearest session (#2); the candidate lies outside all of them; to tell drift "
            "from a change, interleave base and candidate (etbench gate --base, etbench ab)");
}

TEST(RowReasonTest, DriftOnTheAbsoluteScaleIsInTheRowsUnit) {
  const MetricComparison row =
      Row({IntervalNote{IntervalOutcome::kRuledOut}, UnitCountsNote{"sample", 20, 20},
           MachineDriftNote{3, 0.25, 0.0125, false, 0, false}},
          "us");
  EXPECT_EQ(RowReason(row),
            "a threshold-sized change is ruled out (20 baseline vs 20 candidate samples); "
            "machine drift: the baseline's 3 sessions differ by up to 0.25 us while repetitions "
            "within a session agree within 0.0125 us, so the candidate is compared with the "
            "nearest session (#1); to tell drift from a change, interleave base and candidate "
            "(etbench gate --base, etbench ab)");
}

TEST(RowReasonTest, InterleavedNotesSayWhereTheMeasurementStood) {
  SequentialStateNote decided{SequentialState::kDecided, 12, 20.4, std::nullopt, std::nullopt};
  EXPECT_EQ(RowReason(Row({IntervalNote{IntervalOutcome::kBeyondThreshold}, decided})),
            "significant change beyond the threshold (decided after 12 blocks, 20 s)");
  decided.first_blocks = 1;
  decided.first_seconds = 2;
  EXPECT_EQ(RowReason(Row({IntervalNote{IntervalOutcome::kRuledOut}, decided})),
            "a threshold-sized change is ruled out (decided after 12 blocks, 20 s; first "
            "decided after 1 block, 2 s)");
  const auto state = [](SequentialState s) {
    return RowReason(Row({IntervalNote{IntervalOutcome::kNotRuledOut},
                          SequentialStateNote{s, 51, 119.6, std::nullopt, std::nullopt}}));
  };
  const std::string how = "cannot rule out a threshold-sized change yet";
  EXPECT_EQ(state(SequentialState::kOneSampleUndecided),
            how + " (one sample per run, undecided after 51 blocks, 120 s: reported, not gated, "
                  "so it holds no decision)");
  EXPECT_EQ(state(SequentialState::kModelStopped),
            how + " (its model stopped after 51 blocks, 120 s: every gated metric of it was "
                  "decided)");
  EXPECT_EQ(state(SequentialState::kBlockLimit), how + ": block limit reached (51 blocks, 120 s)");
  EXPECT_EQ(state(SequentialState::kBudgetSpent), how + ": budget spent (51 blocks, 120 s)");
  EXPECT_EQ(state(SequentialState::kRunning), how + " (51 blocks, 120 s so far)");
}

TEST(RowReasonTest, InterleavedQualifiersComeBetweenOutcomeAndState) {
  const MetricComparison row =
      Row({IntervalNote{IntervalOutcome::kRuledOut}, OneSampleThresholdNote{0.083},
           FdrNotConfirmedNote{0.0123, 0.0369, 3, 0.02}, PartlyPairedNote{1},
           SequentialStateNote{SequentialState::kRunning, 8, 20, std::nullopt, std::nullopt}});
  EXPECT_EQ(RowReason(row),
            "a threshold-sized change is ruled out; threshold 8.3%: one sample per run, its "
            "run-to-run spread; p = 0.012 alone, but 0.037 after the FDR adjustment over 3 "
            "operators (q = 0.02); paired over the blocks that measured it (1 block lacked it in "
            "some run) (8 blocks, 20 s so far)");
  EXPECT_EQ(RowReason(Row({PartlyPairedNote{2}})),
            "; paired over the blocks that measured it (2 blocks lacked it in some run)");
  EXPECT_EQ(RowReason(Row({UnpairedNote{}})),
            "no kept block measured it in every run: no paired comparison");
}

TEST(RowReasonTest, NightNotesStateTonightAgainstTheNights) {
  NightNote alert;
  alert.outcome = NightOutcome::kAlert;
  alert.whole_interval = true;
  alert.nights = 5;
  alert.difference = std::log(1.25);
  alert.log_scale = true;
  EXPECT_EQ(RowReason(Row({alert, VariancePriorNote{12.7}})),
            "first-night alert: tonight beyond the threshold with its whole interval against 5 "
            "nights (+25.0%); variance moderated over its kind (prior df 12)");
  alert.whole_interval = false;
  EXPECT_EQ(RowReason(Row({alert})),
            "first-night alert: tonight beyond the threshold against 5 nights (+25.0%)");
  NightNote sustained = alert;
  sustained.sustained_nights = 3;
  sustained.difference = std::log(1.03);
  EXPECT_EQ(RowReason(Row({sustained})),
            "sustained step: tonight and the 2 nights before it each beyond the threshold "
            "against 5 nights before them (the least slow +3.0%)");

  NightNote none;
  none.outcome = NightOutcome::kNotDetected;
  none.significant = true;
  none.nights = 6;
  none.difference = 0.0123;
  none.log_scale = false;
  EXPECT_EQ(RowReason(Row({none}, "percent")),
            "no regression detected (significant, below the threshold) against 6 nights "
            "(+0.0123 pp); cannot rule out the threshold");
  none.significant = false;
  none.mde = 0.046;
  EXPECT_EQ(RowReason(Row({none, VariancePriorNote{std::numeric_limits<double>::infinity()}},
                          "ms")),
            "no regression detected against 6 nights (+0.0123 ms); MDE 4.6%; variance "
            "moderated over its kind (prior df inf)");

  NightNote other;
  other.nights = 4;
  other.difference = std::log(0.9);
  other.log_scale = true;
  other.outcome = NightOutcome::kBetter;
  EXPECT_EQ(RowReason(Row({other})),
            "tonight better beyond the threshold against 4 nights (-10.0%)");
  other.outcome = NightOutcome::kBelowThreshold;
  EXPECT_EQ(RowReason(Row({other})),
            "significant but below the threshold against 4 nights (-10.0%)");
  other.outcome = NightOutcome::kRuledOut;
  EXPECT_EQ(RowReason(Row({other})),
            "a threshold-sized change is ruled out against 4 nights (-10.0%)");

  EXPECT_EQ(RowReason(Row({TooFewNightsNote{1, 5, 2}})),
            "recorded on 1 of the 5 baseline nights; need 2");
  EXPECT_EQ(RowReason(Row({TooFewNightsNote{2, 3, 3, true}})),
            "recorded on 2 of the 3 recent nights; need 3");
  EXPECT_EQ(RowReason(Row({alert, NotCountedNote{0.003, 0.02, std::nullopt, std::nullopt}})),
            "first-night alert: tonight beyond the threshold against 5 nights (+25.0%); not "
            "counted: moves Method::execute by +0.3% (threshold 2.0%; --every-part counts it)");
  EXPECT_EQ(RowReason(Row({alert, NotCountedNote{0.058, 0.02, 0.004, std::nullopt}})),
            "first-night alert: tonight beyond the threshold against 5 nights (+25.0%); not "
            "counted: would move Method::execute by +5.8%, but Method::execute is at most +0.4% "
            "(--every-part counts it)");
  EXPECT_EQ(RowReason(Row({alert, NotCountedNote{0.022, 0.02, std::nullopt, 0.011}})),
            "first-night alert: tonight beyond the threshold against 5 nights (+25.0%); not "
            "counted: moves Method::execute by +2.2%, with its whole interval by +1.1% only "
            "(threshold 2.0%; --every-part counts it)");
}

TEST(RowReasonTest, ANightRowNotDetectedAgreesWithTheChangeAndPBesideIt) {
  // Seen on a real main-job night: Method::execute +2.4%, interval
  // [+1.3%, +3.6%], p 0.002, threshold 2% — and the reason said "no
  // regression detected", or "(significant, below the threshold)" when the
  // estimate was above it.
  NightNote note;
  note.outcome = NightOutcome::kNotDetected;
  note.nights = 6;
  note.difference = std::log1p(0.024);
  note.log_scale = true;
  note.mde = 0.031;
  MetricComparison row = Row({note});
  row.threshold = 0.02;
  row.p_value = 0.0021;
  row.level = 0.0018;
  EXPECT_EQ(RowReason(row),
            "no regression detected (not significant at its level: p 0.0021 > level 0.0018) "
            "against 6 nights (+2.4%); MDE 3.1% > threshold 2.0%");
  // Both print as 0.002 with FormatP: as many digits as tell them apart.
  row.p_value = 0.00182;
  row.level = 0.00181;
  EXPECT_NE(RowReason(row).find("p 0.00182 > level 0.00181"), std::string::npos) << RowReason(row);
  // Significant, the estimate beyond the threshold, the interval reaching
  // below it: not "below the threshold".
  note.significant = true;
  row = Row({note});
  row.threshold = 0.02;
  EXPECT_EQ(RowReason(row),
            "no regression detected (significant; its interval reaches below the threshold) "
            "against 6 nights (+2.4%); MDE 3.1% > threshold 2.0%");
  // Significant with the estimate under the threshold: as before.
  note.difference = std::log1p(0.015);
  note.mde = 0.018;
  row = Row({note});
  row.threshold = 0.02;
  EXPECT_EQ(RowReason(row),
            "no regression detected (significant, below the threshold) against 6 nights "
            "(+1.5%); MDE 1.8%");
  // Faster tonight, or a row decided on an adjusted p: no p clause.
  note.significant = false;
  note.difference = std::log1p(-0.024);
  row = Row({note});
  row.threshold = 0.02;
  row.p_value = 0.01;
  row.level = 0.001;
  EXPECT_EQ(RowReason(row), "no regression detected against 6 nights (-2.4%); MDE 1.8%");
  note.difference = std::log1p(0.024);
  row = Row({note});
  row.threshold = 0.02;
  row.p_value = 0.01;
  row.p_adjusted = 0.04;
  row.level = 0.001;
  EXPECT_EQ(RowReason(row), "no regression detected against 6 nights (+2.4%); MDE 1.8%");
  // A throughput row (higher is better): lower tonight is the regression side.
  note.difference = std::log1p(-0.03);
  note.significant = true;
  row = Row({note});
  row.direction = Direction::kDecrease;
  row.threshold = 0.02;
  EXPECT_EQ(RowReason(row),
            "no regression detected (significant; its interval reaches below the threshold) "
            "against 6 nights (-3.0%); MDE 1.8%");
}

TEST(RowReasonTest, APartFasterBeyondTheThresholdsSizeSaysWhyItDoesNotCount) {
  // Seen on a main-job night: permute_copy -8.8% "not counted: moves
  // Method::execute by -2.1% (threshold 2.0%)" read as beating the threshold.
  NightNote better;
  better.outcome = NightOutcome::kBetter;
  better.nights = 6;
  better.difference = std::log1p(-0.088);
  better.log_scale = true;
  EXPECT_EQ(RowReason(Row({better, NotCountedNote{-0.021, 0.02, std::nullopt, std::nullopt}})),
            "tonight better beyond the threshold against 6 nights (-8.8%); not counted: moves "
            "Method::execute by -2.1%, faster (a part counts when it slows Method::execute by "
            "2.0%; --every-part counts it)");
  // Faster by less than the threshold's size: the plain wording.
  EXPECT_EQ(RowReason(Row({better, NotCountedNote{-0.004, 0.02, std::nullopt, std::nullopt}})),
            "tonight better beyond the threshold against 6 nights (-8.8%); not counted: moves "
            "Method::execute by -0.4% (threshold 2.0%; --every-part counts it)");
}

TEST(RowReasonTest, AWidenedNightNamesTheNightsOwnMdeItDoesNotRuleOut) {
  // Seen on a main-job night: "[-0.5%, +3.2%] ... MDE 5.5% > threshold
  // 2.0%" and no pass, because the nights' own MDE (3.1%) is what a pass at
  // the nights' resolution must rule out, and the upper bound did not.
  NightNote note;
  note.outcome = NightOutcome::kNotDetected;
  note.nights = 7;
  note.difference = std::log1p(0.013);
  note.log_scale = true;
  note.mde = 0.055;
  note.mde_nights = 0.031;
  MetricComparison row = Row({note});
  row.threshold = 0.02;
  EXPECT_EQ(RowReason(row),
            "no regression detected against 7 nights (+1.3%); MDE 5.5% > threshold 2.0% "
            "(widened tonight; the nights' own MDE 3.1% is not ruled out)");
}

TEST(RowReasonTest, AStoredReasonIsItsTextAsWritten) {
  EXPECT_EQ(RowReason(Row({StoredReasonNote{"as an older etbench wrote it"}})),
            "as an older etbench wrote it");
}

}  // namespace
}  // namespace etbench::reports
