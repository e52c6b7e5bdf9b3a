// The inspect renderers stream their output (no JSON tree, no table rows
// held): the JSON must still be exactly what nlohmann prints for the same
// tree, and the table a well-formed grid, for hostile names and many runs.
#include "etbench/reports/inspect_output.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <streambuf>
#include <limits>
#include <sstream>

#include <nlohmann/json.hpp>

#include "etbench/base/utf8.h"

namespace etbench {
namespace {

std::vector<EventBlock> Blocks(std::size_t runs) {
  EventBlock block;
  block.name = "Execute";
  block.run_count = runs;
  Event plain;
  plain.name = "native_call_add.out";
  plain.instruction_id = 3;
  std::vector<double> raw;
  for (std::size_t r = 0; r < runs; ++r) {
    plain.start_ticks.push_back(1000000007ull * (r + 1));
    plain.end_ticks.push_back(1000000007ull * (r + 1) + 12345 + r);
    raw.push_back(static_cast<double>(12345 + r) / 1e6);
  }
  plain.perf_data = PerfData::FromRaw(raw);
  block.events.push_back(plain);
  // Device-made names: quotes, backslash, control bytes, UTF-8, a byte
  // that is not UTF-8; a string delegate id; a debug-only event.
  Event odd = plain;
  odd.name = std::string("we\"ird\\ \x01 caf\xc3\xa9 \xff end");
  odd.delegate_debug_identifier = std::string("id\n2");
  odd.is_delegated_op = true;
  odd.op_types = {"aten::add", "é"};
  odd.stack_traces = {{"node", "File \"x.py\", line 1\n  add()"}};
  odd.perf_data->max = std::numeric_limits<double>::quiet_NaN();
  block.events.push_back(odd);
  Event debug_only;
  debug_only.name = "debug";
  block.events.push_back(debug_only);
  block.framework_tax = PerfData::FromRaw({1.5, 2.5});
  block.allocations.push_back({"planned", {64, 64}, {1, 1}});
  return {block, EventBlock{}};
}

TEST(InspectOutputTest, StreamedJsonIsWhatNlohmannPrintsForTheSameTree) {
  for (std::size_t runs : {1u, 3u, 2000u}) {
    const std::string text = RenderInspectJson(Blocks(runs), InspectOutputOptions{});
    ASSERT_FALSE(text.empty());
    ASSERT_EQ(text.back(), '\n');
    const auto tree = nlohmann::ordered_json::parse(text);
    EXPECT_EQ(tree.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n", text)
        << "runs " << runs;
    EXPECT_EQ(tree["event_blocks"][0]["events"][0]["perf_data"]["raw"].size(), runs);
    EXPECT_TRUE(tree["event_blocks"][0]["events"][1]["perf_data"]["max"].is_null());  // NaN
    EXPECT_TRUE(tree["event_blocks"][1]["events"].empty());
  }
}

TEST(InspectOutputTest, StreamedTableIsAGridEvenWithThousandsOfStartTicks) {
  const std::string text = RenderInspectTable(Blocks(5000), InspectOutputOptions{});
  std::istringstream lines(text);
  std::string line;
  std::size_t width = 0;
  std::size_t grid_lines = 0;
  while (std::getline(lines, line)) {
    if (line.rfind("Framework tax", 0) == 0 || line.rfind("Allocations", 0) == 0) continue;
    const std::size_t w = Utf8Length(line);
    if (width == 0) width = w;
    EXPECT_EQ(w, width) << "line " << grid_lines;
    ++grid_lines;
  }
  EXPECT_EQ(grid_lines, 3u + 3u + 2u + 1u);  // top, header, rule; 3 rows, 2 rules between; bottom
  EXPECT_NE(text.find("[1000000007, 2000000014, "), std::string::npos);
  EXPECT_NE(text.find("5000000035000]"), std::string::npos);
  EXPECT_NE(text.find("Framework tax (Execute, 5000 runs)"), std::string::npos);
}

// A stream that records the size of every write it is handed.
class WriteSizes : public std::streambuf {
 public:
  std::vector<std::size_t> sizes;
  std::string text;

 protected:
  std::streamsize xsputn(const char* s, std::streamsize n) override {
    sizes.push_back(static_cast<std::size_t>(n));
    text.append(s, static_cast<std::size_t>(n));
    return n;
  }
  int_type overflow(int_type c) override {
    if (c != traits_type::eof()) xsputn(reinterpret_cast<const char*>(&c), 1);
    return c;
  }
};

TEST(InspectOutputTest, CsvIsStreamedInChunksAndEqualsTheRenderedText) {
  const std::vector<EventBlock> blocks = Blocks(20000);
  for (char separator : {',', '\t'}) {
    WriteSizes sizes;
    std::ostream out(&sizes);
    WriteInspectDelimited(blocks, InspectOutputOptions{}, separator, out);
    EXPECT_EQ(sizes.text, RenderInspectDelimited(blocks, InspectOutputOptions{}, separator));
    // 3 rows of 20,000 start ticks (~300 kB each): written as they are
    // made, in many writes, none holding more than one row.
    EXPECT_GT(sizes.text.size(), 500000u);
    EXPECT_GT(sizes.sizes.size(), 3u);
    std::size_t longest_row = 0;
    std::istringstream rows(sizes.text);
    for (std::string row; std::getline(rows, row);) longest_row = std::max(longest_row, row.size());
    EXPECT_LE(*std::max_element(sizes.sizes.begin(), sizes.sizes.end()), longest_row);
    // The start_time cell ("[t1, t2, ...]") is quoted where it holds the separator.
    const std::string cell_start = separator == ',' ? ",\"[1000000007, 2000000014, "
                                                    : "\t[1000000007, 2000000014, ";
    EXPECT_NE(sizes.text.find(cell_start), std::string::npos);
  }
}

}  // namespace
}  // namespace etbench
