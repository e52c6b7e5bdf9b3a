// Names from outside reach the terminal only through the terminal rule
// (base/terminal_text.h): one test per sink, each with a name that tries to
// retitle the window (OSC … BEL), clear it (CSI 2J), break lines ("\n",
// "\r"), send a C1 CSI (a lone 0x9b and U+009B) and carry invalid UTF-8.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cli_test_util.h"
#include "etbench/base/terminal_text.h"
#include "etbench/base/utf8.h"
#include "etbench/compare/baseline_store.h"
#include "etbench/inspector/etdump_writer.h"
#include "etbench/inspector/etrecord_graph.h"
#include "etbench/inspector/etrecord_writer.h"
#include "etbench/results/results.h"
#include "history/history_test_util.h"
#include "inspector/analysis/legacy_profile_writer.h"
#include "support/test_support.h"

namespace etbench {
namespace {

using testing::RunCli;

const std::string kHostile =
    "evil\x1b]0;pwned\x07\x1b[2J\nnext\rline\ttab\x9b" "31m\xc2\x9b" "x\xff";
const std::string kShown = TerminalText(kHostile);
// The name as shown after a trip through JSON (results, baselines, the
// history), whose writer turns invalid UTF-8 into U+FFFD.
const std::string kShownFromJson = TerminalText(SanitizeUtf8(kHostile));

// No byte of `text` is a control code other than '\n' (and, with
// `colour`, the SGR sequences etbench itself writes: ESC [ digits m).
void ExpectNoControlCodes(const std::string& text, bool colour = false) {
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto b = static_cast<unsigned char>(text[i]);
    if (b == 0x1b && colour) {
      std::size_t j = i + 1;
      ASSERT_LT(j, text.size());
      EXPECT_EQ(text[j], '[') << "at byte " << i;
      for (++j; j < text.size() && text[j] >= '0' && text[j] <= '9'; ++j) {
      }
      ASSERT_LT(j, text.size());
      EXPECT_EQ(text[j], 'm') << "not an SGR code at byte " << i;
      i = j;
      continue;
    }
    EXPECT_FALSE((b < 0x20 && b != '\n') || b == 0x7f) << "control byte " << int(b) << " at " << i;
    if (b < 0x80) continue;
    const std::size_t n = Utf8SequenceLength(text, i);
    ASSERT_NE(n, 0u) << "invalid UTF-8 (a lone C1 byte?) at " << i;
    EXPECT_FALSE(b == 0xc2 && static_cast<unsigned char>(text[i + 1]) <= 0x9f)
        << "U+0080..U+009F at " << i;
    i += n - 1;
  }
}

// An ETDump whose block, event and allocator are named kHostile.
std::string WriteHostileEtdump(const testing::TempDir& dir) {
  EtdumpBuilder builder;
  builder.BeginRun(kHostile);
  const int32_t allocator = builder.AddAllocator(kHostile);
  builder.AddProfileEvent(kHostile, 0, 0, 100, 200);
  builder.AddAllocationEvent(allocator, 64);
  builder.AddProfileEvent("Method::execute", 0, -1, 50, 300);
  builder.EndRun();
  const std::string path = dir.File("hostile.etdp");
  testing::WriteBinaryFile(path, builder.Finish());
  return path;
}

// Results of a run whose suite, device, branch, model, event and error
// messages are named kHostile (`factor` scales every sample).
std::string WriteHostileResults(const testing::TempDir& dir, const std::string& file,
                                double factor, int index = 0) {
  testing::SyntheticRun run;
  run.index = index;
  run.load_factor = factor;
  run.device = kHostile;
  results::RunResults r = testing::MakeSyntheticResults(run);
  r.metadata.suite = "s" + kHostile;
  r.metadata.branch = kHostile;
  for (results::ModelResult& m : r.models) {
    m.name = kHostile;
    for (results::BlockResult& b : m.blocks) {
      for (results::EventResult& e : b.events) {
        if (e.name.rfind("native_call_convolution", 0) == 0) e.name = kHostile + ".out";
      }
    }
  }
  results::ModelResult failed;
  failed.name = "failed" + kHostile;
  failed.status = results::ModelStatus::kFailed;
  failed.error = "runner said " + kHostile;
  r.models.push_back(failed);
  const std::string path = dir.File(file);
  EXPECT_TRUE(results::WriteResultsFile(path, r).ok());
  return path;
}

TEST(HostileNamesTest, InspectTableShowsEscapedNamesAndKeepsItsGrid) {
  testing::TempDir dir;
  const auto r = RunCli({"inspect", "--etdump_path", WriteHostileEtdump(dir)});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  ExpectNoControlCodes(r.out);
  EXPECT_NE(r.out.find(kShown), std::string::npos) << r.out;
  // Every line of the grid is a rule or a row: a name broke none.
  std::size_t start = 0;
  for (std::size_t end; (end = r.out.find('\n', start)) != std::string::npos; start = end + 1) {
    const std::string line = r.out.substr(start, end - start);
    if (line.rfind("Framework tax", 0) == 0 || line.rfind("Allocations", 0) == 0) continue;
    EXPECT_TRUE(line.rfind("│", 0) == 0 || line.rfind("╒", 0) == 0 || line.rfind("╞", 0) == 0 ||
                line.rfind("├", 0) == 0 || line.rfind("╘", 0) == 0)
        << line;
  }
  EXPECT_NE(r.out.find("Allocations (" + kShown + ", allocator " + kShown + ")"),
            std::string::npos);
}

TEST(HostileNamesTest, InspectViewsShowEscapedNames) {
  testing::TempDir dir;
  const std::string etdump = WriteHostileEtdump(dir);
  for (const char* view : {"key_averages", "events", "tree"}) {
    const auto r = RunCli({"inspect", "--etdump_path", etdump, "--view", view});
    ASSERT_EQ(r.exit_code, 0) << view << ": " << r.err;
    ExpectNoControlCodes(r.out);
    EXPECT_NE(r.out.find(TerminalText(kHostile).substr(0, 20)), std::string::npos)
        << view << ": " << r.out;
  }
}

TEST(HostileNamesTest, EtrecordGraphSummaryAndSymbolicatedTable) {
  // An ETRecord whose node, op type, stack trace and delegate backend are
  // hostile, for an ETDump whose instruction 0 they describe.
  EtrecordSpec spec;
  spec.graph_inputs = {"x"};
  EtrecordNodeSpec node;
  node.name = "node" + kHostile;
  node.target = EdgeDialectTarget("aten.add" + kHostile + ".default");
  node.debug_handles = {1};
  node.stack_trace = "File \"" + kHostile + ".py\", line 1, in forward\n    x + x";
  node.inputs = {"x"};
  spec.nodes = {node};
  spec.graph_outputs = {node.name};
  spec.debug_handle_map = {{0, {1}}};
  EtrecordDelegateSpec delegate;
  delegate.backend_name = "backend" + kHostile;
  delegate.handles_by_id = {{DelegateDebugId{std::string("id") + kHostile}, {1}}};
  spec.delegate_map = {{0, delegate}};
  testing::TempDir dir;
  const std::string etrecord = dir.File("hostile.etrecord");
  ASSERT_TRUE(WriteEtrecord(spec, etrecord).ok());
  EtdumpBuilder builder;
  builder.BeginRun("Execute");
  builder.AddProfileEvent("native_call_add.out", 0, 0, 100, 200);
  builder.AddProfileEvent("Method::execute", 0, -1, 50, 300);
  builder.EndRun();
  const std::string etdump = dir.File("e.etdp");
  testing::WriteBinaryFile(etdump, builder.Finish());
  for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{
           {"inspect", "--etdump_path", etdump, "--etrecord_path", etrecord, "--show-graph"},
           {"inspect", "--etdump_path", etdump, "--etrecord_path", etrecord}}) {
    const auto r = RunCli(args);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    ExpectNoControlCodes(r.out);
    ExpectNoControlCodes(r.err);
    EXPECT_NE(r.out.find(TerminalText(SanitizeUtf8(kHostile)).substr(0, 30)), std::string::npos)
        << r.out;
  }
}

TEST(HostileNamesTest, LegacyProfileTablesViewsAndWarnings) {
  // Legacy names hold at most 32 bytes.
  const std::string hostile = "\x1b]0;t\x07\x1b[2J\n\r\t\x9b";
  std::vector<testing::LegacyBlockSpec> blocks = testing::SampleLegacyBlocks();
  for (std::size_t b = 0; b < blocks.size(); ++b) {
    if (b > 0) blocks[b].name = "Execute" + hostile;  // block 0 is another block
    for (LegacyProfileEntry& e : blocks[b].entries) {
      if (e.name == "native_call_add.out") e.name = "native_" + hostile;
    }
    // An open scope: a warning that names block and entry.
    if (b > 0) {
      blocks[b].entries.push_back(
          testing::Entry("open" + hostile, -1, 0, blocks[b].entries[0].start_time - 1000,
                         b + 1 == blocks.size() ? 0 : blocks[b].entries[0].end_time + 1000));
    }
  }
  testing::TempDir dir;
  const std::string path = dir.File("prof_result.bin");
  testing::WriteBinaryFile(path, testing::WriteLegacyProfile(blocks));
  for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{
           {"inspect", "--legacy-profile", path},
           {"inspect", "--legacy-profile", path, "--view", "tree", "--run", "all"}}) {
    const auto r = RunCli(args);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    ExpectNoControlCodes(r.out);
    ExpectNoControlCodes(r.err);
    // The legacy reader turns invalid UTF-8 (the lone 0x9b) into U+FFFD.
    EXPECT_NE(r.out.find(TerminalText(SanitizeUtf8("native_" + hostile))), std::string::npos)
        << r.out;
    EXPECT_EQ(testing::LineCount(r.err), 1u) << r.err;  // one warning, one line
    EXPECT_NE(r.err.find(TerminalText(SanitizeUtf8("open" + hostile))), std::string::npos)
        << r.err;
  }
}

TEST(HostileNamesTest, MachineFormatsKeepTheRealName) {
  testing::TempDir dir;
  const std::string etdump = WriteHostileEtdump(dir);
  const auto json = RunCli({"inspect", "--etdump_path", etdump, "--format", "json"});
  ASSERT_EQ(json.exit_code, 0) << json.err;
  // JSON escapes the controls its own way (invalid UTF-8 becomes U+FFFD).
  EXPECT_NE(json.out.find("evil\\u001b]0;pwned\\u0007"), std::string::npos) << json.out;
  const auto csv = RunCli({"inspect", "--etdump_path", etdump, "--format", "csv"});
  ASSERT_EQ(csv.exit_code, 0) << csv.err;
  EXPECT_NE(csv.out.find("\"evil\x1b]0;pwned\x07\x1b[2J\nnext"), std::string::npos);
}

TEST(HostileNamesTest, CompareTerminalReportWithAndWithoutColour) {
  testing::TempDir dir;
  const std::string base = WriteHostileResults(dir, "base.json", 1.0);
  const std::string slow = WriteHostileResults(dir, "slow.json", 1.3, 1);
  const auto plain = RunCli({"compare", base, slow, "--color", "never"});
  ASSERT_NE(plain.exit_code, 2) << plain.err;
  ExpectNoControlCodes(plain.out);
  ExpectNoControlCodes(plain.err);
  EXPECT_NE(plain.out.find(kShownFromJson), std::string::npos) << plain.out;
  const auto coloured = RunCli({"compare", base, slow, "--color", "always"});
  ASSERT_NE(coloured.exit_code, 2) << coloured.err;
  ExpectNoControlCodes(coloured.out, /*colour=*/true);
}

TEST(HostileNamesTest, ResultsTerminalReportAndRunSummary) {
  testing::TempDir dir;
  const std::string results = WriteHostileResults(dir, "r.json", 1.0);
  const auto report = RunCli({"report", results, "--color", "never"});
  ASSERT_EQ(report.exit_code, 0) << report.err;
  ExpectNoControlCodes(report.out);
  EXPECT_NE(report.out.find("runner said " + kShownFromJson), std::string::npos) << report.out;
  const auto merged =
      RunCli({"merge", results, "-o", dir.File("merged.json"), "--summary", "table"});
  ASSERT_EQ(merged.exit_code, 0) << merged.err;
  ExpectNoControlCodes(merged.out);
  ExpectNoControlCodes(merged.err);
  EXPECT_NE(merged.out.find("runner said " + kShownFromJson), std::string::npos) << merged.out;
}

TEST(HostileNamesTest, HistoryListShowAndDetect) {
  testing::TempDir dir;
  const std::string db = dir.File("history.db");
  for (int i = 0; i < 6; ++i) {
    const std::string results =
        WriteHostileResults(dir, "r" + std::to_string(i) + ".json", i < 3 ? 1.0 : 1.3, i);
    const auto added = RunCli({"history", "add", results, "--history", db});
    ASSERT_EQ(added.exit_code, 0) << added.err;
    ExpectNoControlCodes(added.err);
  }
  const auto list = RunCli({"history", "list", "--history", db});
  ASSERT_EQ(list.exit_code, 0) << list.err;
  ExpectNoControlCodes(list.out);
  EXPECT_NE(list.out.find(kShownFromJson), std::string::npos) << list.out;
  EXPECT_EQ(testing::LineCount(list.out), 8u) << list.out;  // header, 6 runs, count
  const auto show = RunCli({"history", "show", "*", "--history", db});
  EXPECT_NE(show.exit_code, 2) << show.err;
  ExpectNoControlCodes(show.out);
  ExpectNoControlCodes(show.err);
  const auto detect = RunCli({"history", "detect", "--history", db});
  EXPECT_NE(detect.exit_code, 2) << detect.err;
  ExpectNoControlCodes(detect.out);
  ExpectNoControlCodes(detect.err);
  EXPECT_NE(detect.out.find("s" + kShownFromJson), std::string::npos) << detect.out;
}

TEST(HostileNamesTest, BaselineShow) {
  testing::TempDir dir;
  Baseline baseline;
  baseline.name = kHostile;
  Metric m;
  m.key.model = kHostile;
  m.key.block = "Execute";
  m.key.name = kHostile;
  m.unit = "ms";
  m.samples = {1.0, 1.1, 1.2};
  baseline.metrics.metrics = {m};
  baseline.metrics.context = {{"device", kHostile}};
  const std::string path = dir.File("b.json");
  ASSERT_TRUE(SaveBaseline(path, baseline, false).ok());
  const auto r = RunCli({"baseline", "show", path});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  ExpectNoControlCodes(r.out);
  EXPECT_NE(r.out.find("Baseline '" + kShownFromJson + "'"), std::string::npos) << r.out;
}

TEST(HostileNamesTest, ErrorsAndWarningsOnStderrAreOneEscapedLine) {
  testing::TempDir dir;
  const std::string missing = dir.File(kHostile + ".etdp");
  auto r = RunCli({"inspect", "--etdump_path", missing});
  EXPECT_EQ(r.exit_code, 2);
  ExpectNoControlCodes(r.err);
  EXPECT_EQ(testing::LineCount(r.err), 1u) << r.err;
  EXPECT_NE(r.err.find(TerminalText(missing)), std::string::npos) << r.err;
  // An unknown command, subcommand and flag echo what was typed.
  for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{
           {kHostile}, {"history", kHostile}, {"compare", "--" + kHostile}}) {
    r = RunCli(args);
    EXPECT_EQ(r.exit_code, 2);
    ExpectNoControlCodes(r.err);
    EXPECT_EQ(testing::LineCount(r.err), 1u) << r.err;
  }
}

}  // namespace
}  // namespace etbench
