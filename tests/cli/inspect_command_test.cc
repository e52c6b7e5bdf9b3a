#include <gtest/gtest.h>
#include <sys/stat.h>

#include <nlohmann/json.hpp>

#include "cli_test_util.h"
#include "etbench/base/atomic_file.h"
#include "etbench/inspector/etdump_file.h"
#include "etbench/inspector/etdump_writer.h"
#include "flatbuffers/flatbuffers.h"
#include "support/test_support.h"

namespace etbench {
namespace {

using testing::FixturePath;
using testing::LineCount;
using testing::RunCli;

const std::string kFixture = FixturePath("executorch_tutorial.etdp");

// An ETDump whose operator name is not UTF-8 (a device wrote bytes 0xff 0xfe).
std::string WriteInvalidUtf8Etdump(const testing::TempDir& dir) {
  EtdumpBuilder builder;
  builder.BeginRun("Execute");
  builder.AddProfileEvent("native_call_\xff\xfe.out", 0, 0, 100, 200);
  builder.AddProfileEvent("Method::execute", -1, 0, 50, 300);
  builder.EndRun();
  const std::string path = dir.File("bad_names.etdp");
  testing::WriteBinaryFile(path, builder.Finish());
  return path;
}

TEST(InspectCommandTest, HelpShowsReferenceFlagNames) {
  auto r = RunCli({"inspect", "--help"});
  EXPECT_EQ(r.exit_code, 0);
  for (const char* flag : {"--etdump_path", "--etrecord_path", "--source_time_scale",
                           "--target_time_scale", "--debug_buffer_path", "--format",
                           "--include-units", "--include-delegate-debug-data", "--output"}) {
    EXPECT_NE(r.out.find(flag), std::string::npos) << flag;
  }
}

TEST(InspectCommandTest, TablePrintsEventsWithoutOperatorCallRowsAndFrameworkTax) {
  auto r = RunCli({"inspect", "--etdump_path", kFixture});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(r.err.empty()) << r.err;
  // The unit rule's column unit (the largest statistic, 1.899 ms, is below
  // 10,000 us); an explicit --target_time_scale gives the reference's table.
  EXPECT_NE(r.out.find("p50 (us)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("│    544.8 │"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("native_call_convolution.out"), std::string::npos);
  EXPECT_NE(r.out.find("Method::execute"), std::string::npos);
  EXPECT_EQ(r.out.find("OPERATOR_CALL"), std::string::npos);
  EXPECT_NE(r.out.find("Framework tax (Execute, 1 run)"), std::string::npos);
  // 2 Default + 14 kernels + Method::execute = 17 rows, each between rules.
  EXPECT_NE(r.out.find("│ 16 │ Execute"), std::string::npos);
  EXPECT_EQ(r.out.find("│ 17 │"), std::string::npos);
}

TEST(InspectCommandTest, JsonIsCompleteAndMachineReadable) {
  auto r = RunCli({"inspect", "--etdump_path", kFixture, "--format", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["schema_version"], 1);
  EXPECT_EQ(j["source_time_scale"], "ns");
  EXPECT_EQ(j["target_time_scale"], "ms");
  ASSERT_EQ(j["event_blocks"].size(), 2u);
  const auto& exec = j["event_blocks"][1];
  EXPECT_EQ(exec["name"], "Execute");
  EXPECT_EQ(exec["run_count"], 1);
  EXPECT_TRUE(exec["bundled_input_index"].is_null());
  ASSERT_EQ(exec["events"].size(), 29u);  // OPERATOR_CALL included
  const auto& conv = exec["events"][0];
  EXPECT_EQ(conv["name"], "native_call_convolution.out");
  EXPECT_EQ(conv["instruction_id"], 0);
  EXPECT_TRUE(conv["delegate_debug_identifier"].is_null());
  EXPECT_EQ(conv["is_delegated_op"], false);
  EXPECT_EQ(conv["perf_data"]["raw"][0].get<double>(), (971569.0 - 426786.0) / 1e6);
  EXPECT_EQ(conv["perf_data"]["count"], 1);
  EXPECT_FALSE(exec["framework_tax"].is_null());
  EXPECT_TRUE(j["event_blocks"][0]["framework_tax"].is_null());
}

TEST(InspectCommandTest, CsvAndTsvHaveOneRowPerPrintedEvent) {
  auto csv = RunCli({"inspect", "--etdump_path", kFixture, "--format", "csv"});
  ASSERT_EQ(csv.exit_code, 0) << csv.err;
  EXPECT_EQ(LineCount(csv.out), 18u);  // header + 17 rows
  EXPECT_EQ(csv.out.rfind(",event_block_name,event_name,p10 (ms)", 0), 0u);
  auto tsv = RunCli({"inspect", "--etdump_path", kFixture, "--format", "tsv",
                     "--include-units=false"});
  ASSERT_EQ(tsv.exit_code, 0) << tsv.err;
  EXPECT_EQ(tsv.out.rfind("\tevent_block_name\tevent_name\tp10\tp50", 0), 0u);
  EXPECT_NE(tsv.out.find("16\tExecute\tMethod::execute\t1.898821\t"), std::string::npos) << tsv.out;
}

// Current ExecuTorch's Inspector adds `start_time` (Event._start_time: the
// raw profile_event.start_time of each run, unscaled) as the last column of
// to_dataframe(); print_data_tabular keeps it, after delegate_backend_name.
TEST(InspectCommandTest, StartTimeColumnHoldsTheRawStartTicksOfEachRun) {
  const std::string add = FixturePath("executorch/add.etdp");
  auto csv = RunCli({"inspect", "--etdump_path", add, "--format", "csv"});
  ASSERT_EQ(csv.exit_code, 0) << csv.err;
  EXPECT_EQ(csv.out.rfind(",event_block_name,event_name,p10 (ms),p50 (ms),p90 (ms),avg (ms),"
                          "min (ms),max (ms),op_types,is_delegated_op,delegate_backend_name,"
                          "start_time\n",
                          0),
            0u)
      << csv.out;
  // Values read with flatc from the file; a list cell is quoted in CSV.
  EXPECT_NE(csv.out.find("0,Default,Method::init,0.014221,0.014221,0.014221,0.014221,0.014221,"
                         "0.014221,[],False,,[644999]\n"),
            std::string::npos)
      << csv.out;
  EXPECT_NE(csv.out.find(",[],False,,\"[677036, 687522, 691368, 694673, 697807, 701032, 707452, "
                         "710997, 714953, 718828]\"\n"),
            std::string::npos)
      << csv.out;
  auto table = RunCli({"inspect", "--etdump_path", add});
  ASSERT_EQ(table.exit_code, 0) << table.err;
  EXPECT_NE(table.out.find("│ delegate_backend_name │ start_time "), std::string::npos)
      << table.out;
  EXPECT_NE(table.out.find("│ [675684, 687382, 691207, 694542, 697687, 700912, 707331, 710867, "
                           "714813, 718718] │"),
            std::string::npos)
      << table.out;
  auto json = RunCli({"inspect", "--etdump_path", add, "--format", "json"});
  ASSERT_EQ(json.exit_code, 0) << json.err;
  const auto events = nlohmann::json::parse(json.out)["event_blocks"][1]["events"];
  EXPECT_EQ(events[0]["start_time"],
            (std::vector<uint64_t>{677036, 687522, 691368, 694673, 697807, 701032, 707452,
                                   710997, 714953, 718828}));
}

TEST(InspectCommandTest, StartTimeIsEmptyForDebugOnlyEvents) {
  testing::TempDir dir;
  EtdumpRecord record;
  RunDataRecord run;
  run.name = "Execute";
  DebugEventRecord d;
  d.instruction_id = 3;
  d.debug_entry.type = ValueType::kInt;
  d.debug_entry.int_value = 4;
  run.events.push_back(d);
  record.run_data.push_back(run);
  ASSERT_TRUE(WriteFileAtomically(dir.File("d.etdp"), WriteEtdump(record)).ok());
  auto csv = RunCli({"inspect", "--etdump_path", dir.File("d.etdp"), "--format", "csv"});
  ASSERT_EQ(csv.exit_code, 0) << csv.err;
  EXPECT_NE(csv.out.find("0,Execute,,,,,,,,[],False,,\n"), std::string::npos) << csv.out;
  auto json = RunCli({"inspect", "--etdump_path", dir.File("d.etdp"), "--format", "json"});
  EXPECT_TRUE(nlohmann::json::parse(json.out)["event_blocks"][0]["events"][0]["start_time"]
                  .is_null());
}

TEST(InspectCommandTest, EventWithSeveralMembersWarnsOnceOnStderr) {
  flatbuffers::FlatBufferBuilder fbb;
  std::vector<flatbuffers::Offset<fb::Event>> events;
  for (int i = 0; i < 2; ++i) {
    auto p = fb::CreateProfileEvent(fbb, fbb.CreateString("native_call_add.out"), 0, i, -1, 0, 0,
                                    10, 20);
    auto v = fb::CreateValue(fbb, fb::ValueType::Int, 0, 0, fb::CreateInt(fbb, 1));
    events.push_back(fb::CreateEvent(fbb, p, 0, fb::CreateDebugEvent(fbb, 0, i, v)));
  }
  auto run = fb::CreateRunData(fbb, fbb.CreateString("Execute"), -1, 0, fbb.CreateVector(events));
  fb::FinishSizePrefixedETDumpBuffer(fbb, fb::CreateETDump(fbb, 0, fbb.CreateVector(&run, 1)));
  testing::TempDir dir;
  testing::WriteBinaryFile(dir.File("two.etdp"), std::vector<uint8_t>(fbb.GetBufferPointer(),
                                                                       fbb.GetBufferPointer() +
                                                                           fbb.GetSize()));
  auto r = RunCli({"inspect", "--etdump_path", dir.File("two.etdp"), "--format", "csv"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(LineCount(r.err), 1u) << r.err;
  EXPECT_EQ(r.err.rfind("etbench inspect: warning: " + dir.File("two.etdp") +
                            ": run_data[0] (Execute), event 0: Event sets profile_event and "
                            "debug_event; using its profile_event",
                        0),
            0u)
      << r.err;
  EXPECT_NE(r.err.find("(2 such events in the file)"), std::string::npos) << r.err;
  EXPECT_NE(r.out.find(",native_call_add.out,"), std::string::npos) << r.out;
}

TEST(InspectCommandTest, AnExplicitTargetTimeScaleGivesTheReferencesTable) {
  auto r = RunCli({"inspect", "--etdump_path", kFixture, "--target_time_scale", "ms"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("p50 (ms)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("│ 0.544783 │"), std::string::npos) << r.out;  // Python's "%g"
}

TEST(InspectCommandTest, TargetTimeScaleChangesNumbers) {
  auto r = RunCli({"inspect", "--etdump_path", kFixture, "--format", "csv",
                   "--target_time_scale", "us"});
  ASSERT_EQ(r.exit_code, 0);
  EXPECT_NE(r.out.find("p10 (us)"), std::string::npos);
  EXPECT_NE(r.out.find("Method::execute,1898.821,"), std::string::npos) << r.out;
}

TEST(InspectCommandTest, OutputFileIsWrittenAndStdoutStaysEmpty) {
  testing::TempDir dir;
  auto r = RunCli({"inspect", "--etdump_path", kFixture, "--format", "json", "--output",
                   dir.File("out.json")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(r.out.empty());
  EXPECT_NO_THROW(nlohmann::json::parse(testing::ReadTextFile(dir.File("out.json"))));
}

TEST(InspectCommandTest, InvalidUtf8EventNamesGiveValidJson) {
  testing::TempDir dir;
  const std::string etdp = WriteInvalidUtf8Etdump(dir);
  for (const char* format : {"json", "table", "csv"}) {
    auto r = RunCli({"inspect", "--etdump_path", etdp, "--format", format});
    ASSERT_EQ(r.exit_code, 0) << format << ": " << r.err;
  }
  auto r = RunCli({"inspect", "--etdump_path", etdp, "--format", "json"});
  ASSERT_TRUE(nlohmann::json::accept(r.out)) << r.out;
  EXPECT_NE(r.out.find("native_call_\xef\xbf\xbd\xef\xbf\xbd.out"), std::string::npos);
}

TEST(InspectCommandTest, OutputOntoAnInputOrADeviceIsRefused) {
  testing::TempDir dir;
  const std::string etdp = dir.File("copy.etdp");
  const std::vector<uint8_t> original = testing::ReadBinaryFile(kFixture);
  testing::WriteBinaryFile(etdp, original);
  auto r = RunCli({"inspect", "--etdump_path", etdp, "--format", "json", "-o", etdp});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "etbench inspect: " + etdp +
                       ": is an input of this command; refusing to overwrite it\n");
  EXPECT_EQ(testing::ReadBinaryFile(etdp), original);
  // A special file of the test's own (never the machine's /dev/null: a
  // regression here must not break the machine).
  const std::string fifo = dir.File("out.fifo");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  r = RunCli({"inspect", "--etdump_path", etdp, "-o", fifo});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("etbench inspect: " + fifo + ": "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("refusing to replace it with a regular file\n"), std::string::npos) << r.err;
  struct stat st {};
  ASSERT_EQ(::stat(fifo.c_str(), &st), 0);
  EXPECT_TRUE(S_ISFIFO(st.st_mode));
}

TEST(InspectCommandTest, DirectoriesFifosAndDevicesAreRefusedNotRead) {
  testing::TempDir dir;
  ASSERT_EQ(::mkfifo(dir.File("fifo.etdp").c_str(), 0600), 0);
  for (const std::string& path : {dir.path(), dir.File("fifo.etdp"), std::string("/dev/zero")}) {
    auto r = RunCli({"inspect", "--etdump_path", path});
    EXPECT_EQ(r.exit_code, 2) << path;
    EXPECT_EQ(LineCount(r.err), 1u) << r.err;
    EXPECT_NE(r.err.find("not a regular file"), std::string::npos) << r.err;
  }
}

TEST(InspectCommandTest, BadInputsExitTwoWithOneLine) {
  testing::TempDir dir;
  testing::WriteTextFile(dir.File("garbage.etdp"), "this is not a flatbuffer at all");
  testing::WriteTextFile(dir.File("empty.etdp"), "");
  const std::vector<std::vector<std::string>> cases = {
      {"inspect"},                                                   // missing required flag
      {"inspect", "--etdump_path", dir.File("missing.etdp")},        // missing file
      {"inspect", "--etdump_path", dir.File("garbage.etdp")},        // wrong identifier
      {"inspect", "--etdump_path", dir.File("empty.etdp")},          // empty
      {"inspect", "--etdump_path", kFixture, "--format", "xml"},     // bad format
      {"inspect", "--etdump_path", kFixture, "--source_time_scale", "cycles",
       "--target_time_scale", "ms"},                                  // cycles mismatch
      {"inspect", "--etdump_path", kFixture, "--no_such_flag"},      // unknown flag
  };
  for (const auto& args : cases) {
    auto r = RunCli(args);
    EXPECT_EQ(r.exit_code, 2) << args.back();
    EXPECT_TRUE(r.out.empty()) << args.back();
    EXPECT_EQ(LineCount(r.err), 1u) << r.err;
    EXPECT_EQ(r.err.rfind("etbench inspect: ", 0), 0u) << r.err;
  }
}

}  // namespace
}  // namespace etbench
