#include "etbench/inspector/etdump_writer.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "etbench/base/atomic_file.h"
#include "etbench/inspector/etdump_file.h"
#include "etdump_test_util.h"
#include "support/test_support.h"

namespace etbench {
namespace {

using testing::Profile;

EtdumpRecord EverythingRecord() {
  EtdumpRecord r;
  r.version = 7;
  RunDataRecord def;
  def.name = "Default";
  def.events.push_back(Profile("Method::init", -1, 0, 10, 20));
  def.events.push_back(Profile("Program::load_method", -1, 0, 5, 25));
  r.run_data.push_back(def);

  RunDataRecord run;
  run.name = "Execute";
  run.bundled_input_index = 3;
  run.allocators = {"planned", "temp"};
  ProfileEventRecord delegate_int;
  delegate_int.instruction_id = 2;
  delegate_int.delegate_debug_id_int = 11;
  delegate_int.delegate_debug_metadata = {0, 1, 2, 255};
  delegate_int.start_time = 1000;
  delegate_int.end_time = 5000;
  run.events.push_back(delegate_int);
  ProfileEventRecord delegate_str;
  delegate_str.instruction_id = 2;
  delegate_str.delegate_debug_id_str = "fused_conv";
  delegate_str.start_time = 0xFFFFFFF0ull;
  delegate_str.end_time = 0x10;
  run.events.push_back(delegate_str);
  run.events.push_back(Profile("DELEGATE_CALL", 0, 2, 900, 6000));
  run.events.push_back(AllocationEventRecord{1, 4096});  // ids are 1-based
  run.events.push_back(AllocationEventRecord{2, 64});

  auto debug = [](ValueRecord v, bool output = false) {
    DebugEventRecord d;
    d.chain_index = 0;
    d.instruction_id = 1;
    d.name = "native_call_add.out";
    d.debug_entry = std::move(v);
    if (output) d.debug_entry.output = true;
    return d;
  };
  ValueRecord i;
  i.type = ValueType::kInt;
  i.int_value = -42;
  run.events.push_back(debug(i));
  ValueRecord b;
  b.type = ValueType::kBool;
  b.bool_value = true;
  b.output = false;
  run.events.push_back(debug(b));
  ValueRecord f;
  f.type = ValueType::kFloat;
  f.float_value = 1.5f;
  run.events.push_back(debug(f));
  ValueRecord d;
  d.type = ValueType::kDouble;
  d.double_value = 0.1;
  run.events.push_back(debug(d));
  ValueRecord t;
  t.type = ValueType::kTensor;
  t.tensor = TensorRecord{ScalarType::kFloat, {2, 3}, {3, 1}, 64};
  run.events.push_back(debug(t, /*output=*/true));
  ValueRecord tl;
  tl.type = ValueType::kTensorList;
  tl.tensor_list = {TensorRecord{ScalarType::kLong, {4}, {1}, 0},
                    TensorRecord{ScalarType::kHalf, {1, 1}, {1, 1}, 32}};
  DebugEventRecord delegated = debug(tl);
  delegated.delegate_debug_id_int = 5;
  delegated.delegate_debug_id_str = "";
  run.events.push_back(delegated);
  run.events.push_back(Profile("Method::execute", -1, 0, 800, 7000));
  r.run_data.push_back(run);
  return r;
}

TEST(EtdumpWriterTest, RoundTripIsLossless) {
  const EtdumpRecord record = EverythingRecord();
  for (bool prefixed : {true, false}) {
    auto file = EtdumpFile::FromBytes(WriteEtdump(record, {prefixed}), "rt.etdp");
    ASSERT_TRUE(file.ok()) << file.error().message;
    EXPECT_EQ(file->size_prefixed(), prefixed);
    EXPECT_EQ(DecodeEtdump(file.value()), record);
  }
}

TEST(EtdumpWriterTest, SizePrefixedByDefaultWithIdentifier) {
  std::vector<uint8_t> bytes = WriteEtdump(EverythingRecord());
  ASSERT_GE(bytes.size(), 12u);
  const uint32_t prefix = bytes[0] | bytes[1] << 8 | bytes[2] << 16 | uint32_t(bytes[3]) << 24;
  EXPECT_EQ(prefix, bytes.size() - 4);
  EXPECT_EQ(std::string(bytes.begin() + 8, bytes.begin() + 12), "ED00");
}

TEST(EtdumpWriterTest, StreamingBuilderFastPathMatchesRecordPath) {
  EtdumpBuilder builder;
  builder.BeginRun("Execute");
  builder.AddProfileEvent("native_call_relu.out", 0, 4, 10, 30);
  builder.AddProfileEvent("native_call_relu.out", 0, 5, 40, 45);
  builder.EndRun();
  auto file = EtdumpFile::FromBytes(builder.Finish());
  ASSERT_TRUE(file.ok());
  EtdumpRecord expected;
  RunDataRecord run;
  run.name = "Execute";
  run.events.push_back(Profile("native_call_relu.out", 0, 4, 10, 30));
  run.events.push_back(Profile("native_call_relu.out", 0, 5, 40, 45));
  expected.run_data.push_back(run);
  EXPECT_EQ(DecodeEtdump(file.value()), expected);
}

TEST(EtdumpWriterTest, AtomicWriteLeavesNoTemporaryAndReportsErrors) {
  testing::TempDir dir;
  const std::string path = dir.File("out.etdp");
  ASSERT_TRUE(WriteFileAtomically(path, WriteEtdump(EverythingRecord())).ok());
  auto file = EtdumpFile::Open(path);
  ASSERT_TRUE(file.ok());
  int entries = 0;
  for (auto& e : std::filesystem::directory_iterator(dir.path())) {
    (void)e;
    ++entries;
  }
  EXPECT_EQ(entries, 1);
  Status bad = WriteFileAtomically(dir.File("no/such/dir/x.etdp"), {1, 2, 3});
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().message.find("no/such/dir"), std::string::npos);
}

}  // namespace
}  // namespace etbench
