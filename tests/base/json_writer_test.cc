// JsonWriter's contract is nlohmann::ordered_json's dump(indent) text for
// the same tree: each test builds one document both ways and compares bytes.

#include "etbench/base/json_writer.h"

#include <gtest/gtest.h>

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

}  // namespace
}  // namespace etbench
