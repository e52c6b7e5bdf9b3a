// JsonWriter's contract is nlohmann::ordered_json's dump(indent) text for
// the same tree: each test builds one document both ways and compares bytes.
// The results file's spelling and one-line containers are checked against
// the texts they must give.

#include "etbench/base/json_writer.h"

#include <gtest/gtest.h>

#include <charconv>
#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace etbench {
namespace {

using Json = nlohmann::ordered_json;

std::string Dump(const Json& j, int indent) {
  return j.dump(indent, ' ', false, Json::error_handler_t::replace);
}

// Doubles whose text differs between printers (1.0 vs 1, exponents, -0.0,
// the shortest digits, subnormals, the extremes).
const std::vector<double> kDoubles = {0.0,     -0.0,   1.0,     -1.5,     0.1,   1e-5,
                                      1e-4,    1e15,   1e16,    1e17,     123456789012345680.0,
                                      1.0 / 3, 2.5e-8, 4.9e-324, 1.7976931348623157e308,
                                      6.02214076e23,   0.30000000000000004};

const std::vector<std::string> kStrings = {
    "",           "plain",         "quote \" and \\ backslash", "tab\tnew\nline\rret",
    "\b\f\x01\x1f\x7f", "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80", "bad \xff byte",
    "cut \xe2\x82", "cut \xe2\x82 then A", "\xc0\xaf overlong", "\xed\xa0\x80 surrogate"};

// One document with every kind of value, written by `w` and built as `j`.
void WriteSample(JsonWriter& w, Json& j) {
  w.BeginObject();
  j = Json::object();
  w.Key("int").Int(-42);
  j["int"] = int64_t{-42};
  w.Key("int_min").Int(std::numeric_limits<int64_t>::min());
  j["int_min"] = std::numeric_limits<int64_t>::min();
  w.Key("uint_max").Uint(std::numeric_limits<uint64_t>::max());
  j["uint_max"] = std::numeric_limits<uint64_t>::max();
  w.Key("yes").Bool(true);
  j["yes"] = true;
  w.Key("no").Bool(false);
  j["no"] = false;
  w.Key("nothing").Null();
  j["nothing"] = nullptr;
  w.Key("doubles").BeginArray();
  Json doubles = Json::array();
  for (double d : kDoubles) {
    w.Double(d);
    doubles.push_back(d);
  }
  w.EndArray();
  j["doubles"] = doubles;
  w.Key("strings").StringArray(kStrings);
  j["strings"] = kStrings;
  for (const std::string& s : kStrings) {  // strings as keys are escaped alike
    w.Key(s).String(s);
    j[s] = s;
  }
  w.Key("empty_object").BeginObject().EndObject();
  j["empty_object"] = Json::object();
  w.Key("empty_array").BeginArray().EndArray();
  j["empty_array"] = Json::array();
  w.Key("nested").BeginArray().BeginObject().Key("a").BeginArray().Int(1).BeginArray().EndArray();
  w.EndArray().EndObject().BeginArray().BeginArray().Int(2).EndArray().EndArray().EndArray();
  j["nested"] = Json::array({Json{{"a", Json::array({1, Json::array()})}},
                             Json::array({Json::array({2})})});
  w.Key("optional").BeginArray().IntOrNull(7).IntOrNull(std::nullopt).DoubleOrNull(0.5);
  w.DoubleOrNull(std::nullopt).StringOrNull(std::string("s")).StringOrNull(std::nullopt).EndArray();
  j["optional"] = Json::array({7, nullptr, 0.5, nullptr, "s", nullptr});
  w.Key("ints").IntArray({-1, 0, 5});
  j["ints"] = std::vector<int64_t>{-1, 0, 5};
  w.Key("uints").UintArray({0, 18446744073709551615ull});
  j["uints"] = std::vector<uint64_t>{0, 18446744073709551615ull};
  w.Key("no_ints").IntArray({});
  j["no_ints"] = Json::array();
  const std::map<std::string, std::string> map = {{"b", "2"}, {"a", "1"}};
  w.Key("map").StringMap(map);
  j["map"] = map;
  w.EndObject();
}

TEST(JsonWriterTest, PrintsWhatNlohmannPrintsAtEveryIndent) {
  for (int indent : {-1, 0, 1, 2, 4}) {
    JsonWriter w(indent);
    Json j;
    WriteSample(w, j);
    EXPECT_EQ(w.Take(), Dump(j, indent)) << "indent " << indent;
  }
}

TEST(JsonWriterTest, NonFiniteDoublesAreNull) {
  JsonWriter w;
  w.BeginArray().Double(std::nan("")).Double(INFINITY).Double(-INFINITY);
  w.DoubleArray({1.0, std::nan(""), -INFINITY}).EndArray();
  EXPECT_EQ(w.Take(), "[null,null,null,[1.0,null,null]]");
}

TEST(JsonWriterTest, LongDoubleArraysWithRepeatsPrintEachValueAsAlone) {
  // Past 64 values the texts come from the cache; repeats and values that
  // share a cache slot must still print their own text.
  std::vector<double> values;
  for (int i = 0; i < 50000; ++i) {
    values.push_back(i % 7 == 0 ? 1e300 / (i + 1) : static_cast<double>(i % 97) * 0.25);
  }
  for (int indent : {-1, 2}) {
    JsonWriter w(indent);
    w.BeginObject().Key("samples").DoubleArray(values).Key("short").DoubleArray({3.0, 0.1});
    w.EndObject();
    const Json j = {{"samples", values}, {"short", {3.0, 0.1}}};
    EXPECT_EQ(w.Take(), Dump(j, indent)) << "indent " << indent;
  }
}

TEST(JsonWriterTest, TopLevelValuesFollowEachOtherWithNothingBetween) {
  JsonWriter w(2);
  w.String("a").Int(1).BeginObject().Key("k").Bool(true).EndObject();
  EXPECT_EQ(w.Take(), "\"a\"1{\n  \"k\": true\n}");
  EXPECT_EQ(w.Take(), "");  // Take empties the writer
}

TEST(JsonWriterTest, StreamingGivesTheSameTextInChunks) {
  std::vector<double> values(100000);
  for (std::size_t i = 0; i < values.size(); ++i) values[i] = static_cast<double>(i) / 3;
  JsonWriter in_memory(2);
  in_memory.BeginArray().DoubleArray(values).String("end").EndArray();
  const std::string expected = in_memory.Take();
  ASSERT_GT(expected.size(), std::size_t{1} << 17);  // more than two chunks

  std::ostringstream out;
  {
    JsonWriter streamed(out, 2);
    streamed.BeginArray().DoubleArray(values);
    // Whole chunks went out already; the rest waits for Flush/destruction.
    EXPECT_GT(out.str().size(), 0u);
    EXPECT_LT(out.str().size(), expected.size());
    streamed.String("end").EndArray();
  }
  EXPECT_EQ(out.str(), expected);
}

TEST(JsonWriterTest, RepeatedKeysKeepTheirFirstPlaceAndTheirLastValue) {
  // The members nlohmann keeps when a tree is assigned key by key.
  const std::vector<std::string> keys = {"b", "a", "b", "c", "a", "b"};
  Json j = Json::object();
  for (std::size_t i = 0; i < keys.size(); ++i) j[keys[i]] = i;
  JsonWriter w;
  w.BeginObject();
  for (std::size_t i : UniqueKeyMembers(keys)) w.Key(keys[i]).Uint(i);
  w.EndObject();
  EXPECT_EQ(w.Take(), Dump(j, -1));
  EXPECT_EQ(UniqueKeyMembers(keys), (std::vector<std::size_t>{5, 4, 3}));
  EXPECT_EQ(UniqueKeyMembers({"x", "y"}), (std::vector<std::size_t>{0, 1}));
  EXPECT_TRUE(UniqueKeyMembers({}).empty());
}

// The shortest spelling (results file, run summary): std::to_chars's
// doubles, every control character and DEL as \u00XX, one U+FFFD per byte
// that is not UTF-8 on its own.
TEST(JsonWriterTest, ShortestSpellingPrintsDoublesAsToCharsAndEscapesEveryControl) {
  for (double d : kDoubles) {
    JsonWriter w(-1, JsonSpelling::kShortest);
    w.Double(d);
    char buf[32];
    const auto r = std::to_chars(buf, buf + sizeof buf, d);
    EXPECT_EQ(w.Take(), std::string(buf, r.ptr)) << d;
  }
  JsonWriter w(-1, JsonSpelling::kShortest);
  w.BeginArray().Double(1.0).Double(NAN).DoubleArray({1.0, 2.5, INFINITY}).EndArray();
  EXPECT_EQ(w.Take(), "[1,null,[1,2.5,null]]");
  w.String("q\" b\\ \b\f\x01\x1f\x7f \n\r\t").String("bad \xff\xfe cut \xe2\x82 ok \xc2\xb5");
  EXPECT_EQ(w.Take(),
            "\"q\\\" b\\\\ \\u0008\\u000c\\u0001\\u001f\\u007f \\n\\r\\t\""
            "\"bad \xef\xbf\xbd\xef\xbf\xbd cut \xef\xbf\xbd\xef\xbf\xbd ok \xc2\xb5\"");
  w.BeginObject().Key("\x7f").Int(1).EndObject();  // keys alike
  EXPECT_EQ(w.Take(), "{\"\\u007f\":1}");
}

TEST(JsonWriterTest, OneLineContainersSitInsideIndentedOnes) {
  JsonWriter w(2, JsonSpelling::kShortest);
  w.BeginObject();
  w.Key("a").Int(1);
  w.Key("list").IntArray({1, 2}, JsonLayout::kOneLine);
  w.Key("empty").StringArray({}, JsonLayout::kOneLine);
  w.Key("map").StringMap({{"k", "v"}, {"l", "w"}}, JsonLayout::kOneLine);
  w.Key("rows").BeginArray();
  w.BeginObject(JsonLayout::kOneLine).Key("x").DoubleArray({0.5, 2}).Key("y").Null();
  w.Key("z").BeginObject().Key("n").UintArray({7}).EndObject().EndObject();
  w.BeginObject(JsonLayout::kOneLine).EndObject();
  w.EndArray();
  w.Key("nested").BeginObject().Key("deep").BeginArray();
  w.BeginObject(JsonLayout::kOneLine).Key("b").Bool(true).EndObject();
  w.EndArray().EndObject();
  w.EndObject();
  EXPECT_EQ(w.Take(),
            "{\n"
            "  \"a\": 1,\n"
            "  \"list\": [1, 2],\n"
            "  \"empty\": [],\n"
            "  \"map\": {\"k\": \"v\", \"l\": \"w\"},\n"
            "  \"rows\": [\n"
            "    {\"x\": [0.5, 2], \"y\": null, \"z\": {\"n\": [7]}},\n"
            "    {}\n"
            "  ],\n"
            "  \"nested\": {\n"
            "    \"deep\": [\n"
            "      {\"b\": true}\n"
            "    ]\n"
            "  }\n"
            "}");
}

TEST(JsonWriterTest, LineBrokenContainersInsideOneLineOnesIndentByTheirOwnKind) {
  // The run summary: the run on one line, a list of models broken over
  // lines, each model on its line.
  for (const auto& [models, expected] :
       std::vector<std::pair<int, std::string>>{
           {0, "{\"suite\": \"s\", \"models\": []}"},
           {2, "{\"suite\": \"s\", \"models\": [\n  {\"name\": 0, \"ops\": [{\"p\": 1}]},\n"
               "  {\"name\": 1, \"ops\": [{\"p\": 1}]}\n]}"}}) {
    JsonWriter w(2, JsonSpelling::kShortest);
    w.BeginObject(JsonLayout::kOneLine).Key("suite").String("s");
    w.Key("models").BeginArray(JsonLayout::kLines);
    for (int i = 0; i < models; ++i) {
      w.BeginObject(JsonLayout::kOneLine).Key("name").Int(i).Key("ops").BeginArray();
      w.BeginObject().Key("p").Double(1).EndObject().EndArray().EndObject();
    }
    w.EndArray().EndObject();
    EXPECT_EQ(w.Take(), expected);
  }
  // A compact writer keeps ", " and ": " on one-line containers only.
  JsonWriter compact(-1);
  compact.BeginObject().Key("a").IntArray({1, 2}, JsonLayout::kOneLine).Key("b").IntArray({3, 4});
  compact.EndObject();
  EXPECT_EQ(compact.Take(), "{\"a\":[1, 2],\"b\":[3,4]}");
}

TEST(JsonWriterTest, LongOneLineArraysMatchTheirElementByElementText) {
  std::vector<double> values;
  for (int i = 0; i < 5000; ++i) values.push_back(i % 5 == 0 ? 0.1 * i : i / 7.0);
  JsonWriter cached(2, JsonSpelling::kShortest);
  cached.BeginObject().Key("raw").DoubleArray(values, JsonLayout::kOneLine).EndObject();
  JsonWriter one_by_one(2, JsonSpelling::kShortest);
  one_by_one.BeginObject().Key("raw").BeginArray(JsonLayout::kOneLine);
  for (double v : values) one_by_one.Double(v);
  one_by_one.EndArray().EndObject();
  EXPECT_EQ(cached.Take(), one_by_one.Take());
}

}  // namespace
}  // namespace etbench
