// EventBlockReader groups each run as soon as the verifier has checked it
// (one pass over the file); it must give exactly what EtdumpFile::Open then
// BuildEventBlocks give: the same blocks, and the same error from the same
// step, for every input, valid, malformed or crafted.
#include "etbench/inspector/event_block_reader.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <sstream>

#include "etbench/inspector/etdump_writer.h"
#include "etdump_test_util.h"
#include "support/test_support.h"

namespace etbench {
namespace {

using testing::IntDebug;
using testing::Profile;

// Everything a block holds, as text: equal texts, equal blocks.
std::string Describe(const std::vector<EventBlock>& blocks) {
  std::ostringstream out;
  out.precision(17);
  auto perf = [&](const PerfData& p) {
    out << " n=" << p.count << " p10=" << p.p10 << " p50=" << p.p50 << " p90=" << p.p90
        << " avg=" << p.avg << " min=" << p.min << " max=" << p.max << " sd=" << p.stddev
        << " raw=";
    for (double d : p.raw) out << d << ",";
  };
  for (const EventBlock& b : blocks) {
    out << "block " << b.name << " bundled=" << b.bundled_input_index.value_or(-1)
        << " runs=" << b.run_count << " indices=";
    for (std::size_t r : b.run_indices) out << r << ",";
    if (b.framework_tax) perf(*b.framework_tax);
    out << " outputs=" << b.run_output.size() << "\n";
    for (const AllocatorUsage& a : b.allocations) {
      out << " allocator " << a.name << ":";
      for (std::size_t i = 0; i < a.bytes_per_run.size(); ++i) {
        out << a.bytes_per_run[i] << "/" << a.count_per_run[i] << ",";
      }
      out << "\n";
    }
    for (const Event& e : b.events) {
      out << " event '" << e.name << "' ins=" << e.instruction_id.value_or(-1)
          << " chain=" << e.chain_index << " occ=" << e.occurrence
          << " id=" << DelegateDebugIdToString(e.delegate_debug_identifier)
          << " delegated=" << e.is_delegated_op << " role=" << static_cast<int>(e.role)
          << " metadata=" << e.delegate_debug_metadatas.size()
          << " debug=" << e.debug_data.size();
      if (e.perf_data) perf(*e.perf_data);
      out << " ticks=";
      for (std::size_t r = 0; r < e.start_ticks.size(); ++r) {
        out << e.start_ticks[r] << "-" << e.end_ticks[r] << ",";
      }
      out << "\n";
    }
  }
  return out.str();
}

// Debug values are compared as values (Describe counts them).
bool SameDebugValues(const std::vector<EventBlock>& a, const std::vector<EventBlock>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (!(a[i].run_output == b[i].run_output) || a[i].events.size() != b[i].events.size()) {
      return false;
    }
    for (std::size_t k = 0; k < a[i].events.size(); ++k) {
      if (!(a[i].events[k].debug_data == b[i].events[k].debug_data)) return false;
    }
  }
  return true;
}

// The outcome of one read: "open: <error>", "group: <error>" or the blocks.
struct Outcome {
  std::string text;
  std::vector<EventBlock> blocks;
};

Outcome Of(const Result<EtdumpFile>& file,
           const std::function<Result<std::vector<EventBlock>>()>& group) {
  if (!file.ok()) return {"open: " + file.error().message, {}};
  auto blocks = group();
  if (!blocks.ok()) return {"group: " + blocks.error().message, {}};
  std::string text = "ok\n" + Describe(blocks.value());
  return {std::move(text), std::move(blocks).value()};
}

Outcome TwoPasses(const std::vector<uint8_t>& bytes, const InspectorOptions& options) {
  auto file = EtdumpFile::FromBytes(bytes, "dump.etdp");
  return Of(file, [&] { return BuildEventBlocks(*file, options); });
}

Outcome OnePass(const std::vector<uint8_t>& bytes, const InspectorOptions& options) {
  EventBlockReader reader(options);
  return Of(reader.FromBytes(bytes, "dump.etdp"), [&] { return reader.Finish(); });
}

void ExpectSameOutcome(const std::vector<uint8_t>& bytes, const InspectorOptions& options,
                       const std::string& what) {
  const Outcome two = TwoPasses(bytes, options);
  const Outcome one = OnePass(bytes, options);
  ASSERT_EQ(one.text, two.text) << what;
  EXPECT_TRUE(SameDebugValues(one.blocks, two.blocks)) << what;
}

// Runs of every kind the grouping takes apart: a Default block with
// allocations, Execute runs that repeat a template (the fast path), one with
// another signature, debug events with intermediate values and program
// outputs, a delegated event with metadata, an empty events vector and a run
// with none.
EtdumpRecord MixedRecord() {
  EtdumpRecord r;
  RunDataRecord init;
  init.name = "Default";
  init.allocators = {"planned", "temp"};
  init.events.push_back(Profile("Method::init", -1, -1, 10, 50));
  init.events.push_back(AllocationEventRecord{1, 256});
  init.events.push_back(AllocationEventRecord{2, 64});
  init.events.push_back(AllocationEventRecord{1, 128});
  r.run_data.push_back(init);
  for (int k = 0; k < 6; ++k) {
    RunDataRecord run;
    run.name = "Execute";
    run.events.push_back(Profile("native_call_add.out", 0, 0, 100 + k, 150 + 3 * k));
    run.events.push_back(Profile("OPERATOR_CALL", 0, 0, 90 + k, 160 + 3 * k));
    ProfileEventRecord delegated = testing::DelegateProfile(1, 7, "", 170, 190 + k);
    delegated.delegate_debug_metadata = {1, 2, static_cast<uint8_t>(k)};
    run.events.push_back(delegated);
    if (k == 4) run.events.push_back(Profile("native_call_mul.out", 0, 2, 195, 199));
    run.events.push_back(Profile("Method::execute", -1, -1, 80, 230 + k));
    r.run_data.push_back(run);
  }
  for (int k = 0; k < 3; ++k) {
    RunDataRecord run;
    run.name = "Debug";
    run.events.push_back(Profile("native_call_add.out", 0, 0, 5, 9 + k));
    run.events.push_back(IntDebug("add_out", 0, 42));
    run.events.push_back(IntDebug("output", 1, 7, /*output=*/true));
    r.run_data.push_back(run);
  }
  RunDataRecord empty;
  empty.name = "Empty";
  empty.empty_events_vector = true;
  r.run_data.push_back(empty);
  RunDataRecord none;
  none.name = "Nothing";
  r.run_data.push_back(none);
  return r;
}

TEST(EventBlockReaderTest, GroupsAValidDumpLikeOpenThenBuildEventBlocks) {
  for (bool prefixed : {true, false}) {
    const std::vector<uint8_t> bytes = WriteEtdump(MixedRecord(), {prefixed});
    const Outcome two = TwoPasses(bytes, {});
    const Outcome one = OnePass(bytes, {});
    ASSERT_EQ(two.text.rfind("ok", 0), 0u) << two.text;
    EXPECT_EQ(one.text, two.text);
    ASSERT_EQ(one.blocks.size(), 5u);  // Default, Execute (two signatures), Debug, Empty
  }
}

// Every byte flipped in turn and random bytes at random places, size-prefixed
// and plain: whatever the two-pass reading says (an error of the file, of
// the grouping, or blocks), the one-pass reading says too.
TEST(EventBlockReaderTest, MutatedDumpsGiveTheSameOutcomeFromTheSameStep) {
  InspectorOptions options;
  options.debug_buffer = std::vector<uint8_t>(64, 1);
  for (bool prefixed : {true, false}) {
    const std::vector<uint8_t> full = WriteEtdump(MixedRecord(), {prefixed});
    std::size_t opened = 0;
    testing::ForEachMutation(full, 2000, 11, [&](const std::vector<uint8_t>& bytes,
                                                 std::size_t pos) {
      ExpectSameOutcome(bytes, options, "byte " + std::to_string(pos));
      opened += EtdumpFile::FromBytes(bytes).ok();
      return !HasFailure();
    });
    EXPECT_GT(opened, 0u);
  }
}

// A run that cannot be grouped (its program output differs from the first
// run's) followed by a run the file's checks refuse: the file's error comes
// first, from Open, as when the whole file is verified before grouping.
TEST(EventBlockReaderTest, AFileErrorAfterAGroupingErrorIsOpensError) {
  EtdumpRecord r;
  for (int k = 0; k < 3; ++k) {
    RunDataRecord run;
    run.name = "Execute";
    run.allocators = {"planned"};
    run.events.push_back(Profile("native_call_add.out", 0, 0, 1, 2));
    run.events.push_back(IntDebug("output", 1, k == 1 ? 8 : 7, /*output=*/true));
    if (k == 2) run.events.push_back(AllocationEventRecord{5, 16});  // no allocator 5
    r.run_data.push_back(run);
  }
  const std::vector<uint8_t> bytes = WriteEtdump(r, {true});
  EventBlockReader reader({});
  auto file = reader.FromBytes(bytes, "dump.etdp");
  ASSERT_FALSE(file.ok());
  EXPECT_NE(file.error().message.find("allocator 5"), std::string::npos) << file.error().message;
  ExpectSameOutcome(bytes, {}, "allocation error");

  // Without the bad allocation, the grouping's error comes from Finish.
  r.run_data[2].events.pop_back();
  const std::vector<uint8_t> groupable = WriteEtdump(r, {true});
  EventBlockReader again({});
  ASSERT_TRUE(again.FromBytes(groupable, "dump.etdp").ok());
  auto blocks = again.Finish();
  ASSERT_FALSE(blocks.ok());
  EXPECT_NE(blocks.error().message.find("program output 0 differs"), std::string::npos)
      << blocks.error().message;
  ExpectSameOutcome(groupable, {}, "output error");
}

// A plain dump whose size prefix another tool stripped is verified a second
// time from a copy with the prefix put back: the runs grouped during the
// first attempt are forgotten, the blocks are the copy's.
TEST(EventBlockReaderTest, AStrippedSizePrefixIsGroupedFromTheRestoredCopy) {
  std::vector<uint8_t> bytes = WriteEtdump(MixedRecord(), {true});
  bytes.erase(bytes.begin(), bytes.begin() + 4);
  const Outcome two = TwoPasses(bytes, {});
  ASSERT_EQ(two.text.rfind("ok", 0), 0u) << two.text;
  EXPECT_EQ(OnePass(bytes, {}).text, two.text);
}

// Cycles cannot be converted to time units: BuildEventBlocks' error, which
// the reader gives from Finish, after the file's own errors from Open.
TEST(EventBlockReaderTest, UnusableTimeScalesAreFinishsErrorAfterTheFilesOwn) {
  InspectorOptions options;
  options.source_time_scale = TimeScale::kCycles;
  options.target_time_scale = TimeScale::kMs;
  EventBlockReader reader(options);
  ASSERT_TRUE(reader.FromBytes(WriteEtdump(MixedRecord(), {true})).ok());
  auto blocks = reader.Finish();
  ASSERT_FALSE(blocks.ok());
  EXPECT_NE(blocks.error().message.find("cycles"), std::string::npos) << blocks.error().message;
  EXPECT_EQ(OnePass(WriteEtdump(MixedRecord(), {true}), options).text,
            TwoPasses(WriteEtdump(MixedRecord(), {true}), options).text);
  EXPECT_FALSE(reader.FromBytes({1, 2, 3}).ok());  // the file's error first
}

TEST(EventBlockReaderTest, FinishWithoutAnOpenedFileIsAnError) {
  EventBlockReader reader({});
  EXPECT_FALSE(reader.Finish().ok());
  ASSERT_TRUE(reader.FromBytes(WriteEtdump(MixedRecord(), {true})).ok());
  EXPECT_TRUE(reader.Finish().ok());
  EXPECT_FALSE(reader.Finish().ok());  // once per open
  EXPECT_FALSE(reader.FromBytes({}).ok());
  EXPECT_FALSE(reader.Finish().ok());  // the failed open left nothing to finish
}

// Files ExecuTorch's own runners wrote, mapped as `etbench inspect` maps
// them, with and without their debug buffers.
TEST(EventBlockReaderTest, RealDumpsMappedGroupLikeTwoPasses) {
  for (const char* name : {"add.etdp", "bundled_program.etdp", "bundled_program_intermediates.etdp",
                           "bundled_program_outputs.etdp", "arduino_AddModel.etdp"}) {
    const std::string path = testing::FixturePath(std::string("executorch/") + name);
    InspectorOptions options;
    const std::string buffer = path.substr(0, path.size() - 5) + ".debug.bin";
    if (std::filesystem::exists(buffer)) options.debug_buffer = testing::ReadBinaryFile(buffer);
    auto file = EtdumpFile::Open(path);
    const Outcome two = Of(file, [&] { return BuildEventBlocks(*file, options); });
    EventBlockReader reader(options);
    const Outcome one = Of(reader.Open(path), [&] { return reader.Finish(); });
    ASSERT_EQ(two.text.rfind("ok", 0), 0u) << name << ": " << two.text;
    EXPECT_EQ(one.text, two.text) << name;
    EXPECT_TRUE(SameDebugValues(one.blocks, two.blocks)) << name;
  }
}

// The inputs the fuzzer kept (tests/fuzz_corpus/etdump).
TEST(EventBlockReaderTest, FuzzCorpusInputsGiveTheSameOutcome) {
  const std::filesystem::path dir =
      std::filesystem::path(testing::SourcePath("tests/fuzz_corpus/etdump"));
  InspectorOptions options;
  options.debug_buffer = std::vector<uint8_t>(64, 0);
  std::size_t inputs = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (!entry.is_regular_file()) continue;
    ++inputs;
    ExpectSameOutcome(testing::ReadBinaryFile(entry.path().string()), options,
                      entry.path().filename().string());
  }
  EXPECT_GT(inputs, 0u);
}

}  // namespace
}  // namespace etbench
