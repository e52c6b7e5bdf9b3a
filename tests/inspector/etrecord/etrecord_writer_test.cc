// WriteEtrecord: same entries and JSON shapes as real ETRecords, round trip
// through LoadEtrecord, atomic and deterministic output, spec validation.

#include "etbench/inspector/etrecord_writer.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>

#include "etbench/inspector/etrecord.h"
#include "inspector/etrecord/etrecord_test_util.h"
#include "support/test_support.h"

namespace etbench {
namespace {

using Json = nlohmann::json;
using testing::FixturePath;
using testing::Frame;
using testing::ReadRawZip;
using testing::TempDir;
using testing::ZipEntries;

EtrecordSpec Spec() {
  EtrecordSpec spec;
  spec.graph_inputs = {"x"};
  spec.graph_outputs = {"relu"};
  EtrecordNodeSpec conv;
  conv.name = "conv";
  conv.target = EdgeDialectTarget("aten.convolution.default");
  conv.debug_handles = {1};
  conv.stack_trace = "  File \"/m/net.py\", line 7, in forward\n    c(x)\n";
  conv.module_stack = {
      Frame("L__self___block", "block", "mod.Block"),
      Frame("L__self___block_conv", "block.conv", "nn.Conv2d")};
  conv.source_fn_stack = {{"conv", "torch.nn.modules.conv.Conv2d"}};
  conv.inputs = {"x"};
  conv.output_sizes = {1, 8, 4, 4};
  EtrecordNodeSpec relu;
  relu.name = "relu";
  relu.target = EdgeDialectTarget("aten.relu.default");
  relu.debug_handles = {2, 3};
  relu.inputs = {"conv"};
  spec.nodes = {conv, relu};
  spec.debug_handle_map = {{0, {1}}, {1, {2, 3}}};
  EtrecordDelegateSpec delegate;
  delegate.backend_name = "XnnpackBackend";
  delegate.handles_by_id = {{int32_t{0}, {1}}, {std::string("b#1"), {2, 3}}};
  spec.delegate_map = {{1, delegate}};
  return spec;
}

std::string EntryText(const ZipEntries& entries, const std::string& name) {
  for (const auto& [n, content] : entries) {
    if (n == name) return content;
  }
  ADD_FAILURE() << "no entry " << name;
  return "";
}

std::set<std::string> Keys(const Json& object) {
  std::set<std::string> keys;
  for (const auto& item : object.items()) keys.insert(item.key());
  return keys;
}

TEST(EtrecordWriterTest, RoundTripsThroughLoadEtrecord) {
  TempDir dir;
  const std::string path = dir.File("etrecord.bin");
  Status written = WriteEtrecord(Spec(), path);
  ASSERT_TRUE(written.ok()) << written.error().message;
  auto etrecord = LoadEtrecord(path);
  ASSERT_TRUE(etrecord.ok()) << etrecord.error().message;

  EXPECT_EQ(etrecord->methods, std::vector<std::string>{"forward"});
  EXPECT_EQ(etrecord->debug_handle_map,
            (std::map<int32_t, std::vector<int64_t>>{{0, {1}}, {1, {2, 3}}}));
  ASSERT_TRUE(etrecord->delegate_map.has_value());
  const DelegateMapping& mapping = etrecord->delegate_map->at(1);
  EXPECT_EQ(mapping.backend_name, "XnnpackBackend");
  ASSERT_EQ(mapping.handles_by_id.size(), 2u);
  EXPECT_EQ(mapping.handles_by_id[0].first, "0");
  EXPECT_EQ(mapping.handles_by_id[1].first, "b#1");
  EXPECT_EQ(mapping.handles_by_id[1].second, (std::vector<int64_t>{2, 3}));

  const OperatorGraph& graph = etrecord->graph;
  EXPECT_EQ(graph.inputs, std::vector<std::string>{"x"});
  EXPECT_EQ(graph.outputs, std::vector<std::string>{"relu"});
  ASSERT_EQ(graph.nodes.size(), 2u);
  const EtrecordSpec spec = Spec();
  for (std::size_t i = 0; i < 2; ++i) {
    const GraphNode& node = graph.nodes[i];
    const EtrecordNodeSpec& want = spec.nodes[i];
    EXPECT_EQ(node.name, want.name);
    EXPECT_EQ(node.target, want.target);
    EXPECT_EQ(node.debug_handles, want.debug_handles);
    EXPECT_EQ(node.stack_trace, want.stack_trace);
    EXPECT_EQ(node.inputs, want.inputs);
    EXPECT_EQ(node.source_fn_stack, want.source_fn_stack);
    ASSERT_EQ(node.module_stack.size(), want.module_stack.size());
    for (std::size_t f = 0; f < want.module_stack.size(); ++f) {
      EXPECT_TRUE(SameModuleFrame(node.module_stack[f], want.module_stack[f]));
    }
  }
  EXPECT_EQ(graph.nodes[0].op_type, "aten.convolution.default");
  EXPECT_TRUE(etrecord->warnings.empty());
}

TEST(EtrecordWriterTest, EntriesAndJsonShapesMatchRealEtrecords) {
  TempDir dir;
  const std::string path = dir.File("etrecord.bin");
  ASSERT_TRUE(WriteEtrecord(Spec(), path).ok());
  const ZipEntries ours = ReadRawZip(path);
  std::vector<std::string> names;
  for (const auto& entry : ours) names.push_back(entry.first);
  EXPECT_EQ(names, (std::vector<std::string>{
                       "ETRECORD_V0", "edge_dialect_exported_program",
                       "debug_handle_map", "delegate_map"}));
  EXPECT_EQ(EntryText(ours, "ETRECORD_V0"), "");

  // Maps: json.dumps of {method: {instruction id: ...}}.
  EXPECT_EQ(Json::parse(EntryText(ours, "debug_handle_map")),
            Json::parse(R"({"forward": {"0": [1], "1": [2, 3]}})"));
  EXPECT_EQ(Json::parse(EntryText(ours, "delegate_map")),
            Json::parse(R"({"forward": {"1": {"name": "XnnpackBackend",
                "delegate_map": {"0": [1], "b#1": [2, 3]}}}})"));

  // The program has the real sample's structure, key for key.
  const ZipEntries real =
      ReadRawZip(FixturePath("executorch_sample_etrecord.bin"));
  const Json theirs =
      Json::parse(EntryText(real, "edge_dialect_exported_program"));
  const Json mine =
      Json::parse(EntryText(ours, "edge_dialect_exported_program"));
  EXPECT_EQ(Keys(mine), Keys(theirs));
  EXPECT_EQ(Keys(mine["graph_module"]), Keys(theirs["graph_module"]));
  const Json& my_graph = mine["graph_module"]["graph"];
  const Json& their_graph = theirs["graph_module"]["graph"];
  EXPECT_EQ(Keys(my_graph), Keys(their_graph));
  EXPECT_EQ(Keys(my_graph["nodes"][0]), Keys(their_graph["nodes"][0]));
  EXPECT_EQ(Keys(my_graph["nodes"][0]["outputs"][0]),
            Keys(their_graph["nodes"][0]["outputs"][0]));
  EXPECT_EQ(Keys(my_graph["nodes"][0]["inputs"][0]),
            Keys(their_graph["nodes"][0]["inputs"][0]));
  EXPECT_EQ(Keys(my_graph["tensor_values"]["x"]["meta"]),
            Keys(their_graph["tensor_values"]["arg0_1"]["meta"]));
  EXPECT_EQ(Keys(mine["graph_module"]["signature"]["input_specs"][0]),
            Keys(theirs["graph_module"]["signature"]["input_specs"][0]));
  EXPECT_EQ(Keys(mine["graph_module"]["signature"]["output_specs"][0]),
            Keys(theirs["graph_module"]["signature"]["output_specs"][0]));

  // Metadata: strings in torch.export's encodings.
  const Json& meta = my_graph["nodes"][0]["metadata"];
  EXPECT_EQ(meta["debug_handle"], "1");
  EXPECT_EQ(meta["nn_module_stack"],
            "L__self___block,block,mod.Block;"
            "L__self___block_conv,block.conv,nn.Conv2d");
  EXPECT_EQ(meta["source_fn_stack"], "conv,torch.nn.modules.conv.Conv2d");
  EXPECT_EQ(my_graph["nodes"][1]["metadata"]["debug_handle"], "(2, 3)");
  EXPECT_EQ(my_graph["tensor_values"]["conv"]["meta"]["sizes"][1]["as_int"], 8);
  EXPECT_EQ(my_graph["tensor_values"]["conv"]["meta"]["strides"][0]["as_int"],
            128);
}

TEST(EtrecordWriterTest, OtherMethodUsesPerMethodEntryAndKeys) {
  TempDir dir;
  const std::string path = dir.File("etrecord.bin");
  EtrecordSpec spec = Spec();
  spec.method = "encode";
  ASSERT_TRUE(WriteEtrecord(spec, path).ok());
  const ZipEntries entries = ReadRawZip(path);
  EXPECT_EQ(entries[1].first, "edge_dialect_exported_program/encode");
  EXPECT_TRUE(
      Json::parse(EntryText(entries, "debug_handle_map")).contains("encode"));

  auto encode = LoadEtrecord(path, "encode");
  ASSERT_TRUE(encode.ok()) << encode.error().message;
  EXPECT_EQ(encode->graph.entry, "edge_dialect_exported_program/encode");
  EXPECT_EQ(encode->debug_handle_map.size(), 2u);

  auto forward = LoadEtrecord(path, "forward");
  ASSERT_FALSE(forward.ok());
  EXPECT_NE(forward.error().message.find("no method 'forward' (methods: "
                                         "encode)"),
            std::string::npos)
      << forward.error().message;
}

TEST(EtrecordWriterTest, OutputIsDeterministicAndWrittenAtomically) {
  auto first = SerializeEtrecord(Spec());
  auto second = SerializeEtrecord(Spec());
  ASSERT_TRUE(first.ok() && second.ok());
  EXPECT_EQ(first.value(), second.value());

  TempDir dir;
  const std::string path = dir.File("etrecord.bin");
  testing::WriteTextFile(path, "old contents");
  ASSERT_TRUE(WriteEtrecord(Spec(), path).ok());
  EXPECT_EQ(testing::ReadBinaryFile(path), first.value());
  std::size_t files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir.path())) {
    (void)entry;
    ++files;
  }
  EXPECT_EQ(files, 1u);  // no temporary file left behind
}

TEST(EtrecordWriterTest, EmptySpecStillLoads) {
  auto bytes = SerializeEtrecord(EtrecordSpec{});
  ASSERT_TRUE(bytes.ok()) << bytes.error().message;
  auto etrecord = LoadEtrecordFromBytes(bytes.value(), "mem");
  ASSERT_TRUE(etrecord.ok()) << etrecord.error().message;
  EXPECT_TRUE(etrecord->graph.nodes.empty());
  EXPECT_TRUE(etrecord->debug_handle_map.empty());
}

TEST(EtrecordWriterTest, InvalidSpecsAreRefused) {
  EtrecordSpec duplicate = Spec();
  duplicate.nodes[1].name = "conv";
  auto result = SerializeEtrecord(duplicate);
  ASSERT_FALSE(result.ok());
  EXPECT_NE(result.error().message.find("duplicate name 'conv'"),
            std::string::npos);

  EtrecordSpec unset_id = Spec();
  unset_id.delegate_map[1].handles_by_id.push_back({std::monostate{}, {1}});
  result = SerializeEtrecord(unset_id);
  ASSERT_FALSE(result.ok());
  EXPECT_NE(result.error().message.find("unset"), std::string::npos);

  EtrecordSpec bad_frame = Spec();
  bad_frame.nodes[0].module_stack[0].path = "a;b";
  result = SerializeEtrecord(bad_frame);
  ASSERT_FALSE(result.ok());
  EXPECT_NE(result.error().message.find("node 0 ('conv')"), std::string::npos)
      << result.error().message;

  EtrecordSpec no_target = Spec();
  no_target.nodes[0].target.clear();
  EXPECT_FALSE(SerializeEtrecord(no_target).ok());
}

TEST(EtrecordWriterTest, InvalidUtf8InStringsIsReplacedNotFatal) {
  EtrecordSpec spec = Spec();
  spec.nodes[0].stack_trace = "bad \xff byte";
  auto bytes = SerializeEtrecord(spec);
  ASSERT_TRUE(bytes.ok()) << bytes.error().message;
  auto etrecord = LoadEtrecordFromBytes(bytes.value(), "mem");
  ASSERT_TRUE(etrecord.ok()) << etrecord.error().message;
  EXPECT_EQ(etrecord->graph.nodes[0].stack_trace, "bad \xef\xbf\xbd byte");
}

TEST(EtrecordWriterTest, ModuleFramesForPathNamesEveryPrefix) {
  const auto frames = ModuleFramesForPath("layer1.0.conv", {"Seq", "Block"});
  ASSERT_EQ(frames.size(), 3u);
  EXPECT_TRUE(
      SameModuleFrame(frames[0], {"L__self___layer1", "layer1", "Seq"}));
  EXPECT_TRUE(
      SameModuleFrame(frames[1], {"L__self___layer1_0", "layer1.0", "Block"}));
  EXPECT_TRUE(SameModuleFrame(
      frames[2], {"L__self___layer1_0_conv", "layer1.0.conv", ""}));
  EXPECT_EQ(ModuleFramesForPath("fc").size(), 1u);
  EXPECT_TRUE(ModuleFramesForPath("").empty());
  // Encodable as written.
  EXPECT_TRUE(FormatModuleStackString(frames).ok());
}

TEST(EtrecordWriterTest, UnwritablePathIsAnIoError) {
  TempDir dir;
  Status status = WriteEtrecord(Spec(), dir.File("missing/dir/etrecord.bin"));
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.error().code, ErrorCode::kIo);
}

}  // namespace
}  // namespace etbench
