// WriteReports: several formats to their files (or the stream), through the
// disk it is given.
#include "etbench/reports/reports.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <sstream>

#include "report_test_data.h"
#include "support/memory_disk.h"

namespace etbench::reports {
namespace {

TEST(WriteReportsTest, WritesEachFileThroughTheDiskAndTheRestToTheStream) {
  testing::MemoryDisk disk;
  const Comparison comparison = testing::SampleComparison();
  ReportInput input;
  input.comparison = &comparison;
  std::ostringstream out;
  const std::vector<ReportRequest> requests = {
      {ReportFormat::kMarkdown, "/mem/out/nested/summary.md"},
      {ReportFormat::kJson, "/mem/out/comparison.json"},
      {ReportFormat::kCsv, "-"}};
  Status written = WriteReports(requests, input, ReportOptions{}, out, disk);
  ASSERT_TRUE(written.ok()) << written.error().message;
  EXPECT_EQ(disk.Files(),
            (std::vector<std::string>{"/mem/out/comparison.json",
                                      "/mem/out/nested/summary.md"}));
  EXPECT_TRUE(disk.HasDirectory("/mem/out/nested"));
  EXPECT_FALSE(std::filesystem::exists("/mem"));
  EXPECT_EQ(disk.Text("/mem/out/nested/summary.md"),
            RenderReport(ReportFormat::kMarkdown, input).value());
  EXPECT_EQ(disk.Text("/mem/out/comparison.json"),
            RenderReport(ReportFormat::kJson, input).value());
  EXPECT_EQ(out.str(), RenderReport(ReportFormat::kCsv, input).value());
}

TEST(WriteReportsTest, StopsAtTheFirstFileTheDiskRefuses) {
  testing::MemoryDisk disk;
  disk.AddSpecial("/mem/fifo.md", "is a FIFO");
  const results::RunResults results = testing::SampleResults();
  ReportInput input;
  input.results = &results;
  std::ostringstream out;
  Status written = WriteReports({{ReportFormat::kMarkdown, "/mem/fifo.md"},
                                 {ReportFormat::kJson, "/mem/after.json"}},
                                input, ReportOptions{}, out, disk);
  ASSERT_FALSE(written.ok());
  EXPECT_EQ(
      written.error().message,
      "/mem/fifo.md: is a FIFO; refusing to replace it with a regular file");
  EXPECT_FALSE(disk.Has("/mem/after.json"));
  disk.AddFile("/mem/blocker", "a file, not a directory");
  written = WriteReports({{ReportFormat::kJson, "/mem/blocker/r.json"}}, input,
                         ReportOptions{}, out, disk);
  ASSERT_FALSE(written.ok());
  EXPECT_EQ(written.error().message,
            "/mem/blocker/r.json: cannot create directory: Not a directory");
}

}  // namespace
}  // namespace etbench::reports
