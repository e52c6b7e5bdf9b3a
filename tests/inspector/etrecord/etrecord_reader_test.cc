// LoadEtrecord on the real sample and on synthetic (good and bad) archives.

#include <gtest/gtest.h>

#include "etbench/inspector/etrecord.h"
#include "inspector/etrecord/etrecord_test_util.h"
#include "support/test_support.h"

namespace etbench {
namespace {

using testing::FixturePath;
using testing::TempDir;
using testing::ValidEntries;
using testing::WithEntry;
using testing::WithoutEntry;
using testing::WriteRawZip;
using testing::ZipEntries;

bool Contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// The real ETRecord that ExecuTorch's gen_sample_etrecord wrote for its toy
// model (input * other).
TEST(EtrecordReaderTest, RealSampleLoads) {
  const std::string path = FixturePath("executorch_sample_etrecord.bin");
  auto etrecord = LoadEtrecord(path);
  ASSERT_TRUE(etrecord.ok()) << etrecord.error().message;
  EXPECT_EQ(etrecord->method, "forward");
  EXPECT_EQ(etrecord->entries, (std::vector<std::string>{
                                   "ETRECORD_V0", "aten_dialect_output/forward",
                                   "aten_dialect_output/forward_state_dict",
                                   "edge_dialect_exported_program",
                                   "edge_dialect_exported_program_state_dict",
                                   "debug_handle_map", "delegate_map"}));
  // Its maps are empty: {}.
  EXPECT_TRUE(etrecord->methods.empty());
  EXPECT_TRUE(etrecord->debug_handle_map.empty());
  ASSERT_TRUE(etrecord->delegate_map.has_value());
  EXPECT_TRUE(etrecord->delegate_map->empty());
  EXPECT_TRUE(etrecord->warnings.empty());

  const OperatorGraph& graph = etrecord->graph;
  EXPECT_EQ(graph.entry, "edge_dialect_exported_program");
  EXPECT_EQ(graph.inputs, (std::vector<std::string>{"arg0_1", "arg1_1"}));
  EXPECT_EQ(graph.outputs, std::vector<std::string>{"aten_mul_tensor"});
  ASSERT_EQ(graph.nodes.size(), 1u);
  const GraphNode& mul = graph.nodes[0];
  EXPECT_EQ(mul.name, "aten_mul_tensor");
  EXPECT_EQ(mul.target, "executorch.exir.dialects.edge.ops.aten.mul.Tensor");
  EXPECT_EQ(mul.op_type, "aten.mul.Tensor");
  EXPECT_EQ(mul.debug_handles, std::vector<int64_t>{2});
  EXPECT_TRUE(Contains(mul.stack_trace,
                       "executorch/examples/models/toy_model/model.py\", line "
                       "18, in forward\n    return input * other\n"));
  EXPECT_EQ(StackTraceLocation(mul.stack_trace), "model.py:18");
  ASSERT_EQ(mul.source_fn_stack.size(), 1u);
  EXPECT_EQ(mul.source_fn_stack[0], (SourceFn{"mul", "_operator.mul"}));
  EXPECT_TRUE(mul.module_stack.empty());
  EXPECT_EQ(mul.inputs, (std::vector<std::string>{"arg0_1", "arg1_1"}));
  EXPECT_TRUE(mul.is_operator);
  EXPECT_EQ(graph.nodes_by_handle.at(2), std::vector<std::size_t>{0});
}

TEST(EtrecordReaderTest, RealSampleLoadsFromBytes) {
  const auto bytes =
      testing::ReadBinaryFile(FixturePath("executorch_sample_etrecord.bin"));
  auto etrecord = LoadEtrecordFromBytes(bytes, "sample");
  ASSERT_TRUE(etrecord.ok()) << etrecord.error().message;
  EXPECT_EQ(etrecord->path, "sample");
  ASSERT_EQ(etrecord->graph.nodes.size(), 1u);
  EXPECT_EQ(etrecord->graph.nodes[0].name, "aten_mul_tensor");
}

TEST(EtrecordReaderTest, RealSampleForAnotherMethodFallsBackWithWarning) {
  auto etrecord =
      LoadEtrecord(FixturePath("executorch_sample_etrecord.bin"), "encode");
  ASSERT_TRUE(etrecord.ok()) << etrecord.error().message;
  ASSERT_EQ(etrecord->warnings.size(), 1u);
  EXPECT_TRUE(Contains(etrecord->warnings[0],
                       "no 'edge_dialect_exported_program/encode' entry"));
}

// Hostile input: truncated and corrupted copies of the real sample either
// load or fail with a message; they never crash.
TEST(EtrecordReaderTest, TruncatedAndCorruptedSamplesFailCleanly) {
  const auto bytes =
      testing::ReadBinaryFile(FixturePath("executorch_sample_etrecord.bin"));
  std::size_t failures = 0;
  for (std::size_t size = 0; size < bytes.size(); size += 61) {
    const std::vector<uint8_t> prefix(bytes.begin(),
                                      bytes.begin() + static_cast<long>(size));
    auto etrecord = LoadEtrecordFromBytes(prefix, "cut");
    if (!etrecord.ok()) {
      ++failures;
      EXPECT_EQ(etrecord.error().message.rfind("cut: ", 0), 0u)
          << etrecord.error().message;
    }
  }
  EXPECT_GT(failures, 0u);
  for (std::size_t at = 0; at < bytes.size(); at += 37) {
    std::vector<uint8_t> corrupted = bytes;
    corrupted[at] ^= 0x5a;
    auto etrecord = LoadEtrecordFromBytes(corrupted, "flip");
    if (!etrecord.ok()) {
      EXPECT_EQ(etrecord.error().message.rfind("flip: ", 0), 0u)
          << etrecord.error().message;
    }
  }
}

class EtrecordArchiveTest : public ::testing::Test {
 protected:
  Result<Etrecord> Load(const ZipEntries& entries,
                        const std::string& method = "forward") {
    WriteRawZip(path_, entries);
    return LoadEtrecord(path_, method);
  }
  // Loads, expects failure, and checks the message names the file and holds
  // every part.
  void ExpectError(const ZipEntries& entries,
                   const std::vector<std::string>& parts,
                   const std::string& method = "forward") {
    auto etrecord = Load(entries, method);
    ASSERT_FALSE(etrecord.ok());
    const std::string& message = etrecord.error().message;
    EXPECT_EQ(message.rfind(path_ + ": ", 0), 0u) << message;
    for (const std::string& part : parts) {
      EXPECT_TRUE(Contains(message, part)) << message << "\nmissing: " << part;
    }
    EXPECT_EQ(message.find('\n'), std::string::npos) << message;
  }

  TempDir dir_;
  std::string path_ = dir_.File("etrecord.bin");
};

TEST_F(EtrecordArchiveTest, MethodKeyedMapsSelectTheMethod) {
  auto entries = WithEntry(ValidEntries(), "debug_handle_map",
                           R"({"forward": {"0": [1]},
                               "encode": {"0": [5], "1": 6}})");
  entries = WithEntry(entries, "delegate_map",
                      R"({"encode": {"1": {"name": "Be",
                          "delegate_map": {"0": [6]}}}})");
  auto etrecord = Load(entries, "encode");
  ASSERT_TRUE(etrecord.ok()) << etrecord.error().message;
  EXPECT_EQ(etrecord->methods, (std::vector<std::string>{"forward", "encode"}));
  EXPECT_EQ(etrecord->debug_handle_map,
            (std::map<int32_t, std::vector<int64_t>>{{0, {5}}, {1, {6}}}));
  ASSERT_TRUE(etrecord->delegate_map.has_value());
  EXPECT_EQ(etrecord->delegate_map->at(1).backend_name, "Be");

  auto forward = Load(entries, "forward");
  ASSERT_TRUE(forward.ok()) << forward.error().message;
  // delegate_map has no "forward": treated as absent.
  EXPECT_FALSE(forward->delegate_map.has_value());
}

TEST_F(EtrecordArchiveTest, MissingMethodIsAnErrorListingTheMethods) {
  ExpectError(
      ValidEntries(),
      {"entry 'debug_handle_map'", "no method 'decode'", "(methods: forward)"},
      "decode");
}

TEST_F(EtrecordArchiveTest, LegacyMapsKeyedByInstructionAreAccepted) {
  auto entries =
      WithEntry(ValidEntries(), "debug_handle_map", R"({"0": [1], "3": 2})");
  entries = WithEntry(entries, "delegate_map",
                      R"({"3": {"name": "B", "delegate_map": {"x": [2]}}})");
  auto etrecord = Load(entries);
  ASSERT_TRUE(etrecord.ok()) << etrecord.error().message;
  EXPECT_TRUE(etrecord->methods.empty());
  EXPECT_EQ(etrecord->debug_handle_map.at(3), std::vector<int64_t>{2});
  ASSERT_EQ(etrecord->delegate_map->at(3).handles_by_id.size(), 1u);
  EXPECT_EQ(etrecord->delegate_map->at(3).handles_by_id[0].first, "x");
}

TEST_F(EtrecordArchiveTest, DelegateIdentifiersKeepFileOrder) {
  auto entries = WithEntry(ValidEntries(), "delegate_map",
                           R"({"forward": {"0": {"name": "B",
          "delegate_map": {"zeta": [1], "10": [2], "alpha": 3}}}})");
  auto etrecord = Load(entries);
  ASSERT_TRUE(etrecord.ok()) << etrecord.error().message;
  const auto& ids = etrecord->delegate_map->at(0).handles_by_id;
  ASSERT_EQ(ids.size(), 3u);
  EXPECT_EQ(ids[0].first, "zeta");
  EXPECT_EQ(ids[1].first, "10");
  EXPECT_EQ(ids[2].first, "alpha");
  EXPECT_EQ(ids[2].second, std::vector<int64_t>{3});
}

TEST_F(EtrecordArchiveTest, PerMethodProgramEntryIsPreferred) {
  auto entries =
      WithEntry(ValidEntries(), "edge_dialect_exported_program/encode",
                testing::ProgramJson(R"([{"target": "t.enc",
          "outputs": [{"as_tensor": {"name": "enc"}}]}])"));
  entries = WithEntry(entries, "debug_handle_map",
                      R"({"forward": {}, "encode": {}})");
  auto etrecord = Load(entries, "encode");
  ASSERT_TRUE(etrecord.ok()) << etrecord.error().message;
  EXPECT_EQ(etrecord->graph.entry, "edge_dialect_exported_program/encode");
  ASSERT_EQ(etrecord->graph.nodes.size(), 1u);
  EXPECT_EQ(etrecord->graph.nodes[0].name, "enc");
  EXPECT_TRUE(etrecord->warnings.empty());
}

TEST_F(EtrecordArchiveTest, MissingDebugHandleMapIsAWarning) {
  auto etrecord = Load(WithoutEntry(ValidEntries(), "debug_handle_map"));
  ASSERT_TRUE(etrecord.ok()) << etrecord.error().message;
  ASSERT_EQ(etrecord->warnings.size(), 1u);
  EXPECT_TRUE(Contains(etrecord->warnings[0], "no 'debug_handle_map' entry"));
}

TEST_F(EtrecordArchiveTest, NotAZipIsAClearError) {
  testing::WriteTextFile(path_, "this is not a zip archive at all\n");
  auto etrecord = LoadEtrecord(path_);
  ASSERT_FALSE(etrecord.ok());
  EXPECT_EQ(etrecord.error().code, ErrorCode::kInvalidInput);
  EXPECT_TRUE(Contains(etrecord.error().message, path_ + ": not a zip archive"))
      << etrecord.error().message;
}

TEST_F(EtrecordArchiveTest, EmptyFileAndEmptyBytesAreNotZips) {
  testing::WriteTextFile(path_, "");
  auto from_file = LoadEtrecord(path_);
  ASSERT_FALSE(from_file.ok());
  EXPECT_TRUE(Contains(from_file.error().message, "not a zip archive"));
  auto from_bytes = LoadEtrecordFromBytes({}, "mem");
  ASSERT_FALSE(from_bytes.ok());
  EXPECT_TRUE(Contains(from_bytes.error().message, "mem: not a zip archive"));
  auto garbage = LoadEtrecordFromBytes({'P', 'K', 3, 4, 0, 0}, "mem");
  ASSERT_FALSE(garbage.ok());
  EXPECT_TRUE(Contains(garbage.error().message, "mem: "));
}

TEST_F(EtrecordArchiveTest, MissingFileIsAnIoError) {
  auto etrecord = LoadEtrecord(dir_.File("absent.bin"));
  ASSERT_FALSE(etrecord.ok());
  EXPECT_EQ(etrecord.error().code, ErrorCode::kIo);
  EXPECT_TRUE(Contains(etrecord.error().message, "absent.bin: cannot open"));
}

TEST_F(EtrecordArchiveTest, ArchiveWithoutMarkerIsNotAnEtrecord) {
  ExpectError(WithoutEntry(ValidEntries(), "ETRECORD_V0"),
              {"not an ETRecord", "no 'ETRECORD_V0' entry",
               "entries: edge_dialect_exported_program, debug_handle_map"});
}

TEST_F(EtrecordArchiveTest, MissingProgramIsAnError) {
  ExpectError(WithoutEntry(ValidEntries(), "edge_dialect_exported_program"),
              {"no 'edge_dialect_exported_program' entry"});
}

TEST_F(EtrecordArchiveTest, MalformedJsonNamesTheEntry) {
  ExpectError(WithEntry(ValidEntries(), "debug_handle_map", "{\"forward\": "),
              {"entry 'debug_handle_map': malformed JSON"});
  ExpectError(WithEntry(ValidEntries(), "delegate_map", "[1,"),
              {"entry 'delegate_map': malformed JSON"});
  ExpectError(WithEntry(ValidEntries(), "edge_dialect_exported_program",
                        "{\"graph_module\": nope}"),
              {"entry 'edge_dialect_exported_program': malformed JSON"});
}

TEST_F(EtrecordArchiveTest, WrongTypesNameTheEntryAndPath) {
  ExpectError(WithEntry(ValidEntries(), "debug_handle_map", "[]"),
              {"entry 'debug_handle_map': (root): expected an object, got "
               "array"});
  ExpectError(WithEntry(ValidEntries(), "debug_handle_map",
                        R"({"forward": {"0": ["1"]}})"),
              {"entry 'debug_handle_map': forward[\"0\"][0]: expected an "
               "integer, got string"});
  ExpectError(WithEntry(ValidEntries(), "debug_handle_map",
                        R"({"forward": {"0": "1"}})"),
              {"entry 'debug_handle_map': forward[\"0\"]: expected a list of "
               "debug handles"});
  ExpectError(WithEntry(ValidEntries(), "debug_handle_map",
                        R"({"forward": {"zero": [1]}})"),
              {"entry 'debug_handle_map': forward[\"zero\"]: expected an "
               "instruction id"});
  ExpectError(
      WithEntry(ValidEntries(), "debug_handle_map", R"({"forward": 3})"),
      {"entry 'debug_handle_map': forward: expected an object, got "
       "number"});
  ExpectError(WithEntry(ValidEntries(), "delegate_map",
                        R"({"forward": {"0": {"name": 7}}})"),
              {"entry 'delegate_map': forward[\"0\"].name: expected a string, "
               "got number"});
  ExpectError(WithEntry(ValidEntries(), "delegate_map",
                        R"({"forward": {"0": {"name": "B",
                            "delegate_map": {"a": {}}}}})"),
              {"entry 'delegate_map': forward[\"0\"].delegate_map[\"a\"]: "
               "expected a list of debug handles"});
  ExpectError(WithEntry(ValidEntries(), "edge_dialect_exported_program",
                        R"({"graph_module": {"graph": {"nodes": 1}}})"),
              {"entry 'edge_dialect_exported_program': "
               "graph_module.graph.nodes: expected an array, got number"});
}

TEST_F(EtrecordArchiveTest, DeeplyNestedJsonIsAnErrorNotACrash) {
  const std::string deep = std::string(100000, '[') + std::string(100000, ']');
  ExpectError(WithEntry(ValidEntries(), "debug_handle_map",
                        "{\"forward\": {\"0\": " + deep + "}}"),
              {"entry 'debug_handle_map': forward[\"0\"][0]: expected an "
               "integer, got array"});
}

}  // namespace
}  // namespace etbench
