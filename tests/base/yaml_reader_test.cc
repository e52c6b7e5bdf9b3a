#include "etbench/base/yaml_reader.h"

#include <gtest/gtest.h>

namespace etbench {
namespace {

YAML::Node Parse(const std::string& text) {
  auto node = ParseYamlText(text, "f.yaml");
  EXPECT_TRUE(node.ok()) << node.error().message;
  return node.ok() ? node.value() : YAML::Node();
}

TEST(YamlReaderTest, ErrorsNameFileLineAndColumn) {
  const YamlReader yaml("f.yaml");
  const YAML::Node root = Parse("a: 1\nb: x\n");
  EXPECT_EQ(yaml.Position(root["b"]), "f.yaml:2:4");
  EXPECT_EQ(yaml.Mark(root["b"]).line, 2);
  EXPECT_EQ(yaml.Mark(root["b"]).column, 4);
  EXPECT_EQ(yaml.Mark(root["missing"]).line, 0);  // no position: file only
  EXPECT_EQ(yaml.Int(root["b"], "key 'b'").error().message, "f.yaml:2:4: key 'b' must be an integer");
  auto bad = ParseYamlText("a: [1, 2\n", "f.yaml");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().message.rfind("f.yaml:2:1: invalid YAML: ", 0), 0u) << bad.error().message;
}

TEST(YamlReaderTest, RangesAreChecked) {
  const YamlReader yaml("f.yaml");
  const YAML::Node root = Parse("n: 7\nx: .nan\nd: 0.5\n");
  EXPECT_EQ(*yaml.Int(root["n"], "n"), 7);
  EXPECT_EQ(yaml.Int(root["n"], "n", 1, 5).error().message, "f.yaml:1:4: n must be between 1 and 5, got 7");
  EXPECT_FALSE(yaml.Double(root["x"], "x").ok());  // NaN is never a number
  EXPECT_EQ(yaml.Double(root["d"], "d", 1).error().message, "f.yaml:3:4: d must be at least 1, got 0.5");
}

TEST(YamlReaderTest, UnknownAndDuplicateKeysAreErrors) {
  const YamlReader yaml("f.yaml");
  EXPECT_EQ(yaml.CheckKeys(Parse("a: 1\nc: 2\n"), {"a", "b"}, "").error().message,
            "f.yaml:2:1: unknown key 'c' (accepted: a, b)");
  EXPECT_EQ(yaml.CheckKeys(Parse("a: 1\na: 2\n"), {"a"}, "model: ").error().message,
            "f.yaml:2:1: model: duplicate key 'a'");
  EXPECT_TRUE(yaml.CheckKeys(Parse("a: 1\nb: 2\n"), {"a", "b"}, "").ok());
}

TEST(YamlReaderTest, ListsAndPairs) {
  const YamlReader yaml("f.yaml");
  const YAML::Node root = Parse("one: 3\ntwo: [2, 5]\nthree: [1, 2, 3]\nnames: x\n");
  using Pair = std::pair<int64_t, int64_t>;
  EXPECT_EQ(*yaml.IntPair(root["one"], "k"), Pair(3, 3));
  EXPECT_EQ(*yaml.IntPair(root["two"], "k"), Pair(2, 5));
  EXPECT_FALSE(yaml.IntPair(root["three"], "k").ok());
  EXPECT_EQ(yaml.IntList(root["three"], "k")->size(), 3u);
  EXPECT_EQ(*yaml.StringList(root["names"], "k"), std::vector<std::string>{"x"});
}

}  // namespace
}  // namespace etbench
