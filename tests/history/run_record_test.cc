#include "etbench/history/run_record.h"

#include <gtest/gtest.h>

namespace etbench::history {
namespace {

TEST(HistoryRunRecordTest, IsoTimesAreTheTwoFormsOfARealUtcTime) {
  for (const char* text : {"2026-01-31", "2024-02-29", "2000-02-29", "2026-12-31T23:59:59Z",
                           "2026-01-31T02:00:00.125Z", "2016-12-31T23:59:60Z"}) {
    EXPECT_TRUE(IsIsoTime(text)) << text;
  }
  // The shape alone passed "2026-13-45", which then compared as text.
  for (const char* text :
       {"", "garbage", "2026-13-45", "2026-00-10", "2026-01-00", "2026-04-31", "2026-02-29",
        "1900-02-29", "2026-01-01T24:00:00Z", "2026-01-01T00:60:00Z", "2026-01-01T00:00:61Z",
        "2026-01-01T00:00:00", "2026-01-01T00:00:00.Z", "2026-1-1", "deadbeefcafe"}) {
    EXPECT_FALSE(IsIsoTime(text)) << text;
  }
}

}  // namespace
}  // namespace etbench::history
