#include "etbench/base/json_reader.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <string>

namespace etbench {
namespace {

using ::testing::HasSubstr;

JsonDocument Parse(const std::string& text, const JsonParseOptions& options = {}) {
  auto doc = ParseJson(text, "r.json", options);
  EXPECT_TRUE(doc.ok()) << doc.error().message;
  return std::move(doc).value();
}

std::string ParseError(const std::string& text, const JsonParseOptions& options = {}) {
  auto doc = ParseJson(text, "r.json", options);
  return doc.ok() ? std::string("(parsed)") : doc.error().message;
}

TEST(JsonReaderTest, SyntaxErrorsCarryFileLineAndColumn) {
  EXPECT_EQ(ParseError("{\n  \"a\": 1,\n  \"b\": x\n}"),
            "r.json:3:8: syntax error while parsing value - invalid literal; last read: '\"b\": x'");
  JsonSyntaxError parts;
  EXPECT_FALSE(ParseJson("[1,", "r.json", {}, &parts).ok());
  EXPECT_EQ(parts.line, 1u);
  EXPECT_EQ(parts.column, 4u);
  EXPECT_EQ(parts.Describe(), "1:4: " + parts.what);
  EXPECT_THAT(ParseError("{} x"), HasSubstr("r.json:1:4: syntax error"));
}

TEST(JsonReaderTest, WithoutASourceErrorsStartWithThePosition) {
  EXPECT_EQ(ParseJson("[1,]", "").error().message.rfind("1:4: syntax error", 0), 0u);
  auto doc = ParseJson("{\"a\": 1}", "");
  ASSERT_TRUE(doc.ok());
  EXPECT_EQ(doc->root().Get("a").String().error().message, "$.a: expected a string, got number");
}

TEST(JsonReaderTest, EmptyInputIsASyntaxError) {
  EXPECT_THAT(ParseError(""), HasSubstr("r.json:1:1: syntax error while parsing value"));
  EXPECT_THAT(ParseError("  \n "), HasSubstr("r.json:2:2: syntax error"));
}

TEST(JsonReaderTest, InvalidUtf8IsAnErrorWithPrintableBytes) {
  const std::string message = ParseError("{\"a\": \"ok \xff\"}");
  EXPECT_THAT(message, HasSubstr("r.json:1:"));
  EXPECT_THAT(message, HasSubstr("ill-formed UTF-8"));
  EXPECT_THAT(message, HasSubstr("\\xff"));
  EXPECT_EQ(message.find('\xff'), std::string::npos);
  EXPECT_THAT(ParseError("[\"\xc3\"]"), HasSubstr("ill-formed UTF-8"));
  // A lone surrogate escape would decode to invalid UTF-8.
  EXPECT_THAT(ParseError("[\"\\ud800\"]"), HasSubstr("surrogate"));
  // Valid multi-byte text passes through.
  EXPECT_EQ(*Parse("[\"\xc3\xa9\\u00e9\"]").root()[0].String(), "\xc3\xa9\xc3\xa9");
}

TEST(JsonReaderTest, NumbersThatOverflowAreErrors) {
  EXPECT_EQ(ParseError("{\"x\": 1e999}"), "r.json:1:7: number overflow parsing '1e999'");
  EXPECT_THAT(ParseError("[1,\n -1e400]"), HasSubstr("r.json:2:2: number overflow"));
  // Underflow is zero, and integers past uint64 become doubles.
  EXPECT_EQ(*Parse("[1e-400]").root()[0].Number(), 0.0);
  const JsonDocument big = Parse("[18446744073709551616]");
  EXPECT_FALSE(big.root()[0].is_integer());
  EXPECT_EQ(*big.root()[0].Number(), 18446744073709551616.0);
}

TEST(JsonReaderTest, DuplicateKeysAreErrorsAtTheSecondKey) {
  EXPECT_EQ(ParseError("{\"a\": 1,\n \"a\": 2}"), "r.json:2:2: duplicate key \"a\"");
  // Large objects (maps keyed by data) are checked too.
  std::string text = "{";
  for (int i = 0; i < 40; ++i) text += "\"k" + std::to_string(i) + "\": " + std::to_string(i) + ", ";
  EXPECT_THAT(ParseError(text + "\"k\\\"7\": 0, \"k7\": 1}"), HasSubstr("duplicate key \"k7\""));
  // The same key in different objects is fine.
  EXPECT_TRUE(ParseJson("[{\"a\": 1}, {\"a\": 2}]", "r.json").ok());
}

TEST(JsonReaderTest, NestingDepthIsLimited) {
  JsonParseOptions options;
  options.max_depth = 3;
  EXPECT_TRUE(ParseJson("[[[1]]]", "r.json", options).ok());
  EXPECT_EQ(ParseError("[[{\"a\": []}]]", options), "r.json:1:9: nesting deeper than 3 levels");
  // The default limit holds a hostile document off without recursion.
  const std::string deep = std::string(100000, '[') + std::string(100000, ']');
  EXPECT_THAT(ParseError(deep), HasSubstr("r.json:1:513: nesting deeper than 512 levels"));
  // No limit: such a document is a value like any other, and reading it
  // (paths, dumps, destruction) does not recurse.
  options.max_depth = 0;
  const JsonDocument doc = Parse(deep, options);
  JsonValue v = doc.root();
  for (int i = 0; i < 99999; ++i) v = v[0];
  EXPECT_EQ(v.Path().size(), 1 + 3 * 99999u);  // "$[0][0]..."
  EXPECT_EQ(doc.root().Dump().size(), 203u);
}

TEST(JsonReaderTest, TypedReadsReturnValues) {
  const JsonDocument doc = Parse(
      R"({"s": "text", "n": 2.5, "i": -7, "u": 18446744073709551615, "b": true,
          "z": null, "a": [1, 2], "o": {"k": "v"}})");
  const JsonValue root = doc.root();
  EXPECT_EQ(*root.Get("s").String(), "text");
  EXPECT_EQ(*root.Get("n").Number(), 2.5);
  EXPECT_EQ(*root.Get("i").Int(), -7);
  EXPECT_EQ(*root.Get("i").Number(), -7.0);
  EXPECT_EQ(*root.Get("u").Uint(), UINT64_MAX);
  EXPECT_EQ(*root.Get("b").Bool(), true);
  EXPECT_TRUE(std::isnan(*root.Get("z").NumberOrNaN()));
  EXPECT_EQ(root.Get("a").size(), 2u);
  EXPECT_EQ(*root.Get("a")[1].Int(), 2);
  EXPECT_EQ(*root.Get("o").Get("k").String(), "v");
  std::string keys;
  for (JsonValue member : root) keys += std::string(member.key()) + ",";
  EXPECT_EQ(keys, "s,n,i,u,b,z,a,o,");  // document order
  EXPECT_EQ(*root.Get("missing").StringOr("dflt"), "dflt");
  EXPECT_EQ(*root.Get("z").IntOr(4), 4);
  EXPECT_EQ(*root.Get("b").BoolOr(false), true);
  EXPECT_FALSE(root.Get("s").BoolOr(false).ok());
  EXPECT_EQ(root.Get("n").Dump(), "2.5");
  EXPECT_EQ(root.Get("o").Dump(), "{\"k\":\"v\"}");
  EXPECT_EQ(root.Get("nope").Dump(), "missing");
}

TEST(JsonReaderTest, WrongTypesNameThePath) {
  const JsonDocument doc = Parse(R"({"runs": [{}, {}, {}, {"metrics": {"x": "fast",
      "a b": 1, "n": 1.5, "big": 5000000000, "neg": -1}}]})");
  const JsonValue metrics = doc.root().Get("runs")[3].Get("metrics");
  EXPECT_EQ(metrics.Get("x").Number().error().message,
            "r.json: $.runs[3].metrics.x: expected a number, got string");
  EXPECT_EQ(metrics.Get("a b").String().error().message,
            "r.json: $.runs[3].metrics[\"a b\"]: expected a string, got number");
  EXPECT_EQ(metrics.Get("n").Int().error().message,
            "r.json: $.runs[3].metrics.n: expected an integer, got number");
  EXPECT_EQ(metrics.Get("big").Int(0, INT32_MAX).error().message,
            "r.json: $.runs[3].metrics.big: expected an integer from 0 to 2147483647, got "
            "5000000000");
  EXPECT_EQ(metrics.Get("neg").Uint().error().message,
            "r.json: $.runs[3].metrics.neg: expected a non-negative integer, got number");
  EXPECT_EQ(metrics.Get("x").Array().error().message,
            "r.json: $.runs[3].metrics.x: expected an array, got string");
  EXPECT_EQ(metrics.Get("gone").String().error().message, "r.json: $.runs[3].metrics.gone: missing");
  EXPECT_EQ(doc.root().Get("runs")[7].Object().error().message, "r.json: $.runs[7]: missing");
  // A member of a non-object is the parent's error; of a missing value, its
  // missing ancestor's.
  EXPECT_EQ(metrics.Get("x").Get("y").Bool().error().message,
            "r.json: $.runs[3].metrics.x: expected an object, got string");
  EXPECT_EQ(metrics.Get("gone").Get("y")[2].Bool().error().message,
            "r.json: $.runs[3].metrics.gone: missing");
  EXPECT_EQ(doc.root().ErrorAt("custom").message, "r.json: $: custom");
}

TEST(JsonReaderTest, RootPathCanBeEmpty) {
  JsonParseOptions options;
  options.root_path = "";
  auto doc = ParseJson(R"({"settings": {"alpha": "x"}, "7": [true]})", "", options);
  ASSERT_TRUE(doc.ok());
  EXPECT_EQ(doc->root().Get("settings").Get("alpha").Number().error().message,
            "settings.alpha: expected a number, got string");
  EXPECT_EQ(doc->root().Get("7")[0].Path(), "[\"7\"][0]");
  EXPECT_EQ(doc->root().Path(), "");
}

TEST(JsonReaderTest, JsonErrorsKeepsTheFirstError) {
  const JsonDocument doc = Parse(R"({"name": 3, "count": "x", "ok": true})");
  JsonErrors errors;
  const std::string name = errors.Take(doc.root().Get("name").String(), std::string("?"));
  const int64_t count = errors.Take(doc.root().Get("count").Int());
  const bool ok = errors.Take(doc.root().Get("ok").Bool());
  errors.Fail(doc.root(), "ignored");
  EXPECT_EQ(name, "?");
  EXPECT_EQ(count, 0);
  EXPECT_TRUE(ok);
  ASSERT_FALSE(errors.ok());
  EXPECT_EQ(errors.error().message, "r.json: $.name: expected a string, got number");
  int elements = 0;
  for (JsonValue v : errors.Take(doc.root().Get("none").Array())) elements += v.present();
  EXPECT_EQ(elements, 0);
}

TEST(JsonReaderTest, DocumentsMoveWithTheirValues) {
  auto parsed = ParseJson(R"({"a": [1, 2, 3]})", "r.json");
  ASSERT_TRUE(parsed.ok());
  JsonDocument doc = std::move(parsed).value();
  const JsonValue a = doc.root().Get("a");
  JsonDocument moved = std::move(doc);
  EXPECT_EQ(*a[2].Int(), 3);
  EXPECT_EQ(moved.source(), "r.json");
}

}  // namespace
}  // namespace etbench
