// Re-runs every input the fuzzer kept (tests/fuzz_corpus/etdump) through the
// reader and the grouping: each must be accepted or rejected cleanly.
#include <gtest/gtest.h>

#include <filesystem>

#include "etbench/inspector/etdump_file.h"
#include "etbench/inspector/inspector.h"
#include "support/test_support.h"

namespace etbench {
namespace {

TEST(FuzzCorpusTest, EveryCorpusInputIsHandledWithoutCrashing) {
  const std::filesystem::path dir =
      std::filesystem::path(testing::SourcePath("tests/fuzz_corpus/etdump"));
  ASSERT_TRUE(std::filesystem::is_directory(dir)) << dir;
  std::size_t inputs = 0, accepted = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (!entry.is_regular_file()) continue;
    ++inputs;
    auto file = EtdumpFile::FromBytes(testing::ReadBinaryFile(entry.path().string()),
                                      entry.path().filename().string());
    if (!file.ok()) {
      EXPECT_FALSE(file.error().message.empty());
      continue;
    }
    ++accepted;
    InspectorOptions options;
    options.debug_buffer = std::vector<uint8_t>(64, 0);
    auto blocks = BuildEventBlocks(file.value(), options);
    if (!blocks.ok()) {
      EXPECT_FALSE(blocks.error().message.empty());
    }
    (void)DecodeEtdump(file.value());
  }
  EXPECT_GT(inputs, 0u);
  EXPECT_GT(accepted, 0u);  // the real fixture is in the corpus
}

}  // namespace
}  // namespace etbench
