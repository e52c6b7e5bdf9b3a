// The real device ETDump from ExecuTorch's documentation, checked against
// values read independently with `flatc --json --size-prefixed` and the
// format doc's rules (not copied from etbench's own output).
#include <gtest/gtest.h>

#include <iterator>

#include "etbench/inspector/etdump_file.h"
#include "etbench/inspector/etdump_writer.h"
#include "etbench/inspector/inspector.h"
#include "support/test_support.h"

namespace etbench {
namespace {

struct RawEvent {
  const char* block;
  const char* name;
  int chain;
  int instruction;
  uint64_t start;
  uint64_t end;
};

// File order (= completion order) as dumped by flatc.
const RawEvent kEvents[] = {
    {"Default", "Method::init", -1, 0, 399054u, 421538u},
    {"Default", "Program::load_method", -1, 0, 398073u, 422930u},
    {"Execute", "native_call_convolution.out", 0, 0, 426786u, 971569u},
    {"Execute", "OPERATOR_CALL", 0, 0, 425624u, 972440u},
    {"Execute", "native_call_relu.out", 0, 1, 973071u, 981465u},
    {"Execute", "OPERATOR_CALL", 0, 1, 972780u, 981635u},
    {"Execute", "native_call_max_pool2d_with_indices.out", 0, 2, 982516u, 1032842u},
    {"Execute", "OPERATOR_CALL", 0, 2, 981825u, 1033022u},
    {"Execute", "native_call_convolution.out", 0, 3, 1033343u, 2065062u},
    {"Execute", "OPERATOR_CALL", 0, 3, 1033242u, 2065472u},
    {"Execute", "native_call_relu.out", 0, 4, 2065823u, 2066794u},
    {"Execute", "OPERATOR_CALL", 0, 4, 2065763u, 2066915u},
    {"Execute", "native_call_max_pool2d_with_indices.out", 0, 5, 2067166u, 2081247u},
    {"Execute", "OPERATOR_CALL", 0, 5, 2067046u, 2081337u},
    {"Execute", "native_call_permute_copy.out", 0, 6, 2081748u, 2235249u},
    {"Execute", "OPERATOR_CALL", 0, 6, 2081467u, 2235470u},
    {"Execute", "native_call_addmm.out", 0, 7, 2236551u, 2277513u},
    {"Execute", "OPERATOR_CALL", 0, 7, 2235650u, 2277623u},
    {"Execute", "native_call_relu.out", 0, 8, 2277823u, 2277974u},
    {"Execute", "OPERATOR_CALL", 0, 8, 2277763u, 2278114u},
    {"Execute", "native_call_permute_copy.out", 0, 9, 2278504u, 2311415u},
    {"Execute", "OPERATOR_CALL", 0, 9, 2278254u, 2311535u},
    {"Execute", "native_call_addmm.out", 0, 10, 2311735u, 2318926u},
    {"Execute", "OPERATOR_CALL", 0, 10, 2311675u, 2319026u},
    {"Execute", "native_call_relu.out", 0, 11, 2319237u, 2319337u},
    {"Execute", "OPERATOR_CALL", 0, 11, 2319177u, 2319437u},
    {"Execute", "native_call_permute_copy.out", 0, 12, 2319627u, 2322932u},
    {"Execute", "OPERATOR_CALL", 0, 12, 2319567u, 2323042u},
    {"Execute", "native_call_addmm.out", 0, 13, 2323213u, 2323904u},
    {"Execute", "OPERATOR_CALL", 0, 13, 2323163u, 2324004u},
    {"Execute", "Method::execute", -1, 0, 425313u, 2324134u},
};

Result<EtdumpFile> OpenFixture() {
  return EtdumpFile::Open(testing::FixturePath("executorch_tutorial.etdp"));
}

TEST(RealFixtureTest, ReadsSizePrefixedDeviceFile) {
  auto file = OpenFixture();
  ASSERT_TRUE(file.ok()) << file.error().message;
  EXPECT_TRUE(file->size_prefixed());
  EXPECT_EQ(file->root().version(), 0u);
  ASSERT_EQ(file->root().run_data()->size(), 2u);
  std::size_t i = 0;
  for (const fb::RunData* run : *file->root().run_data()) {
    for (const fb::Event* e : *run->events()) {
      ASSERT_LT(i, std::size(kEvents));
      const fb::ProfileEvent* p = e->profile_event();
      ASSERT_NE(p, nullptr);
      EXPECT_EQ(run->name()->str(), kEvents[i].block);
      EXPECT_EQ(p->name()->str(), kEvents[i].name);
      EXPECT_EQ(p->chain_index(), kEvents[i].chain);
      EXPECT_EQ(p->instruction_id(), kEvents[i].instruction);
      EXPECT_EQ(p->start_time(), kEvents[i].start);
      EXPECT_EQ(p->end_time(), kEvents[i].end);
      ++i;
    }
  }
  EXPECT_EQ(i, std::size(kEvents));
}

TEST(RealFixtureTest, GroupsIntoDefaultAndExecuteBlocks) {
  auto file = OpenFixture();
  ASSERT_TRUE(file.ok());
  auto blocks = BuildEventBlocks(file.value(), {});
  ASSERT_TRUE(blocks.ok()) << blocks.error().message;
  ASSERT_EQ(blocks->size(), 2u);
  const EventBlock& def = blocks->at(0);
  const EventBlock& exec = blocks->at(1);
  EXPECT_EQ(def.name, "Default");
  EXPECT_EQ(exec.name, "Execute");
  EXPECT_EQ(def.run_count, 1u);
  EXPECT_EQ(exec.run_count, 1u);
  EXPECT_FALSE(def.bundled_input_index.has_value());
  // Default: both framework events share the instruction key (0, chain -1)
  // and keep file order.
  ASSERT_EQ(def.events.size(), 2u);
  EXPECT_EQ(def.events[0].name, "Method::init");
  EXPECT_EQ(def.events[1].name, "Program::load_method");
  EXPECT_EQ(def.events[0].perf_data->raw[0], (421538.0 - 399054.0) / 1e6);
  // Execute: per instruction the kernel then its OPERATOR_CALL; then
  // Method::execute (its own key, chain -1): 14 * 2 + 1 events.
  ASSERT_EQ(exec.events.size(), 29u);
  std::size_t k = 2;  // index in kEvents of the first Execute event
  for (const Event& e : exec.events) {
    const RawEvent& raw = kEvents[k++];
    EXPECT_EQ(e.name, raw.name);
    ASSERT_TRUE(e.instruction_id.has_value());
    EXPECT_EQ(*e.instruction_id, raw.instruction);
    EXPECT_EQ(e.chain_index, raw.chain);
    EXPECT_FALSE(e.is_delegated_op);
    ASSERT_TRUE(e.perf_data.has_value());
    ASSERT_EQ(e.perf_data->raw.size(), 1u);
    // ns → ms: the tick difference divided by the factor 1e9/1e3.
    EXPECT_EQ(e.perf_data->raw[0], static_cast<double>(raw.end - raw.start) / 1e6);
    EXPECT_EQ(e.perf_data->p50, e.perf_data->raw[0]);
  }
  EXPECT_EQ(exec.events.back().name, "Method::execute");
  EXPECT_EQ(exec.events.back().perf_data->raw[0], (2324134.0 - 425313.0) / 1e6);
}

TEST(RealFixtureTest, FrameworkTaxOfExecuteRun) {
  auto file = OpenFixture();
  ASSERT_TRUE(file.ok());
  auto blocks = BuildEventBlocks(file.value(), {});
  ASSERT_TRUE(blocks.ok());
  EXPECT_FALSE(blocks->at(0).framework_tax.has_value());
  ASSERT_TRUE(blocks->at(1).framework_tax.has_value());
  double execute = 0, kernels = 0;
  for (const RawEvent& raw : kEvents) {
    const std::string name = raw.name;
    if (name == "Method::execute") execute += static_cast<double>(raw.end - raw.start);
    if (name.rfind("native_call_", 0) == 0) kernels += static_cast<double>(raw.end - raw.start);
  }
  EXPECT_DOUBLE_EQ(blocks->at(1).framework_tax->p50, (execute - kernels) / execute * 100);
}

TEST(RealFixtureTest, CopyWithoutSizePrefixReadsTheSame) {
  auto bytes = testing::ReadBinaryFile(testing::FixturePath("executorch_tutorial.etdp"));
  std::vector<uint8_t> plain(bytes.begin() + 4, bytes.end());
  auto file = EtdumpFile::FromBytes(plain, "plain.etdp");
  ASSERT_TRUE(file.ok()) << file.error().message;
  EXPECT_FALSE(file->size_prefixed());
  auto blocks = BuildEventBlocks(file.value(), {});
  ASSERT_TRUE(blocks.ok());
  EXPECT_EQ(blocks->at(1).events.size(), 29u);
}

TEST(RealFixtureTest, DecodeThenWriteReadsBackIdentically) {
  auto file = OpenFixture();
  ASSERT_TRUE(file.ok());
  EtdumpRecord record = DecodeEtdump(file.value());
  auto again = EtdumpFile::FromBytes(WriteEtdump(record), "rewritten.etdp");
  ASSERT_TRUE(again.ok()) << again.error().message;
  EXPECT_EQ(DecodeEtdump(again.value()), record);
}

}  // namespace
}  // namespace etbench
