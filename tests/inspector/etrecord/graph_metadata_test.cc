// Metadata string encodings of torch.export and short op names.

#include <gtest/gtest.h>

#include "etbench/inspector/etrecord_graph.h"

namespace etbench {
namespace {

TEST(EtrecordMetadataTest, ShortOpNameDropsDialectPrefixes) {
  EXPECT_EQ(ShortOpName("executorch.exir.dialects.edge.ops.aten.convolution."
                        "default"),
            "aten.convolution.default");
  EXPECT_EQ(ShortOpName("executorch.exir.dialects.backend.ops.foo.bar.default"),
            "foo.bar.default");
  EXPECT_EQ(ShortOpName("torch.ops.aten.mul.Tensor"), "aten.mul.Tensor");
  EXPECT_EQ(ShortOpName("torch.ops.higher_order.executorch_call_delegate"),
            "executorch_call_delegate");
  EXPECT_EQ(ShortOpName("_operator.getitem"), "getitem");
  EXPECT_EQ(ShortOpName("memory.alloc"), "alloc");
  EXPECT_EQ(ShortOpName("plain"), "plain");
}

TEST(EtrecordMetadataTest, EdgeDialectTargetIsTheInverseOfShortOpName) {
  const std::string target = EdgeDialectTarget("aten.mul.Tensor");
  EXPECT_EQ(target, "executorch.exir.dialects.edge.ops.aten.mul.Tensor");
  EXPECT_EQ(ShortOpName(target), "aten.mul.Tensor");
}

TEST(EtrecordMetadataTest, DebugHandleAcceptsIntTupleListAndNone) {
  EXPECT_EQ(ParseDebugHandleString("7").value(), std::vector<int64_t>{7});
  EXPECT_EQ(ParseDebugHandleString(" 7 ").value(), std::vector<int64_t>{7});
  EXPECT_EQ(ParseDebugHandleString("(7, 8)").value(),
            (std::vector<int64_t>{7, 8}));
  EXPECT_EQ(ParseDebugHandleString("[7,8,9]").value(),
            (std::vector<int64_t>{7, 8, 9}));
  EXPECT_EQ(ParseDebugHandleString("(3,)").value(), std::vector<int64_t>{3});
  EXPECT_TRUE(ParseDebugHandleString("None").value().empty());
  EXPECT_TRUE(ParseDebugHandleString("()").value().empty());
}

TEST(EtrecordMetadataTest, DebugHandleRejectsOtherText) {
  for (const char* bad : {"abc", "", "(1, x)", "1.5", "(1,,2)", "[1"}) {
    auto parsed = ParseDebugHandleString(bad);
    ASSERT_FALSE(parsed.ok()) << bad;
    EXPECT_NE(parsed.error().message.find("expected an integer"),
              std::string::npos);
  }
}

TEST(EtrecordMetadataTest, DebugHandleFormatsAsPythonStr) {
  EXPECT_EQ(FormatDebugHandleString({7}), "7");
  EXPECT_EQ(FormatDebugHandleString({7, 8}), "(7, 8)");
  EXPECT_EQ(FormatDebugHandleString({}), "None");
  EXPECT_EQ(ParseDebugHandleString(FormatDebugHandleString({4, 5})).value(),
            (std::vector<int64_t>{4, 5}));
}

TEST(EtrecordMetadataTest, ModuleStackParsesKeyPathTypeItems) {
  auto frames = ParseModuleStackString(
      "L__self___layer1,layer1,torch.nn.modules.container.Sequential;"
      "L__self___layer1_0,layer1.0,torchvision.models.resnet.BasicBlock");
  ASSERT_TRUE(frames.ok()) << frames.error().message;
  ASSERT_EQ(frames->size(), 2u);
  EXPECT_EQ((*frames)[0].key, "L__self___layer1");
  EXPECT_EQ((*frames)[0].path, "layer1");
  EXPECT_EQ((*frames)[0].module_type, "torch.nn.modules.container.Sequential");
  EXPECT_EQ((*frames)[1].path, "layer1.0");
  EXPECT_EQ(ModulePathOf(*frames), "layer1.0");
}

TEST(EtrecordMetadataTest, ModuleStackKeepsCommasInsideBrackets) {
  auto frames = ParseModuleStackString(
      "L__self___layers_slice_1__None__None__,layers.slice(1, None, None),"
      "torch.nn.modules.container.Sequential");
  ASSERT_TRUE(frames.ok()) << frames.error().message;
  ASSERT_EQ(frames->size(), 1u);
  EXPECT_EQ((*frames)[0].path, "layers.slice(1, None, None)");
}

TEST(EtrecordMetadataTest, ModuleStackAcceptsLegacyColonForm) {
  auto frames = ParseModuleStackString(
      "L__self___conv1:(conv1,torch.nn.modules.conv.Conv2d)");
  ASSERT_TRUE(frames.ok()) << frames.error().message;
  ASSERT_EQ(frames->size(), 1u);
  EXPECT_EQ((*frames)[0].key, "L__self___conv1");
  EXPECT_EQ((*frames)[0].path, "conv1");
  EXPECT_EQ((*frames)[0].module_type, "torch.nn.modules.conv.Conv2d");
}

TEST(EtrecordMetadataTest, ModuleStackRejectsItemsWithoutThreeFields) {
  auto frames = ParseModuleStackString("a,b");
  ASSERT_FALSE(frames.ok());
  EXPECT_NE(frames.error().message.find("'a,b'"), std::string::npos);
  EXPECT_TRUE(ParseModuleStackString("").value().empty());
}

TEST(EtrecordMetadataTest, ModuleStackFormatRoundTripsAndRefusesAmbiguity) {
  const std::vector<ModuleFrame> frames = {
      {"L__self___fc", "fc", "torch.nn.modules.linear.Linear"},
      {"L__self___s", "s.slice(1, None, None)", "torch.nn.Sequential"}};
  auto text = FormatModuleStackString(frames);
  ASSERT_TRUE(text.ok()) << text.error().message;
  auto back = ParseModuleStackString(text.value());
  ASSERT_TRUE(back.ok());
  ASSERT_EQ(back->size(), 2u);
  EXPECT_TRUE(SameModuleFrame((*back)[1], frames[1]));

  EXPECT_FALSE(FormatModuleStackString({{"k", "a;b", "T"}}).ok());
  EXPECT_FALSE(FormatModuleStackString({{"k", "a,b", "T"}}).ok());
  EXPECT_FALSE(FormatModuleStackString({{"", "a", "T"}}).ok());
  EXPECT_FALSE(FormatModuleStackString({{"k", "a(", "T"}}).ok());
}

TEST(EtrecordMetadataTest, SourceFnStackParsesAndFormats) {
  auto stack = ParseSourceFnStackString(
      "linear,torch.nn.modules.linear.Linear;relu,torch.nn.functional.relu");
  ASSERT_TRUE(stack.ok());
  ASSERT_EQ(stack->size(), 2u);
  EXPECT_EQ((*stack)[0],
            (SourceFn{"linear", "torch.nn.modules.linear.Linear"}));
  EXPECT_EQ(
      FormatSourceFnStackString(stack.value()).value(),
      "linear,torch.nn.modules.linear.Linear;relu,torch.nn.functional.relu");
  EXPECT_FALSE(ParseSourceFnStackString("a,b,c").ok());
  EXPECT_FALSE(FormatSourceFnStackString({{"a,b", "c"}}).ok());
}

TEST(EtrecordMetadataTest, StackTraceLocationIsTheInnermostFrame) {
  const std::string trace =
      "  File \"/src/models/net.py\", line 40, in forward\n"
      "    x = self.block(x)\n"
      "  File \"/src/models/block.py\", line 18, in forward\n"
      "    return input * other\n";
  EXPECT_EQ(StackTraceLocation(trace), "block.py:18");
  EXPECT_EQ(StackTraceLocation("no frames here"), "");
}

}  // namespace
}  // namespace etbench
