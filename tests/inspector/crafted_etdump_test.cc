// ETDumps built to blow up memory or time while staying inside the size cap:
// FlatBuffers let any number of references point at one string, one events
// vector, one Event table or one range of the debug buffer. Each file is
// read in a child process (fork) whose peak resident set is measured (VmHWM
// after resetting it) and which is killed by an alarm if it runs away; the
// read must end in a clear error, with the peak growth bounded by a small
// multiple of the input.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include "etbench/inspector/etdump_file.h"
#include "etbench/inspector/event_block_reader.h"
#include "etbench/inspector/inspector.h"
#include "flatbuffers/flatbuffers.h"
#include "support/test_support.h"

namespace etbench {
namespace {

using flatbuffers::FlatBufferBuilder;
using flatbuffers::Offset;

constexpr unsigned kTimeLimitS = 120;  // a blow-up takes hours; a bounded read, well under 1 s

// Under AddressSanitizer the peak is not the program's own (shadow memory,
// redzones, a quarantine of freed blocks): only the error and the time
// limit are checked there; the normal build checks the memory bound.
#if defined(__SANITIZE_ADDRESS__)
constexpr bool kSanitized = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr bool kSanitized = true;
#else
constexpr bool kSanitized = false;
#endif
#else
constexpr bool kSanitized = false;
#endif

// VmHWM or VmRSS of this process in KiB, from /proc/self/status.
long StatusKb(const std::string& field) {
  std::ifstream in("/proc/self/status");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind(field + ":", 0) == 0) return std::stol(line.substr(field.size() + 1));
  }
  return -1;
}

struct Isolated {
  std::string message;   // the error (or "ok")
  long peak_growth_kb = 0;
  bool finished = false;  // false: crashed or killed by the alarm
};

// Runs `read` in a forked child: its result message and how far its peak
// resident set grew above the resident set it started with.
Isolated RunIsolated(const std::function<std::string()>& read) {
  int fds[2];
  if (::pipe(fds) != 0) return {"pipe failed"};
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::close(fds[0]);
    ::alarm(kTimeLimitS);
    // Resets VmHWM to the current resident set (Linux >= 4.0).
    { std::ofstream("/proc/self/clear_refs") << "5"; }
    const long start_kb = StatusKb("VmRSS");
    const std::string message = read();
    const std::string out = std::to_string(StatusKb("VmHWM") - start_kb) + "\n" + message;
    if (::write(fds[1], out.data(), out.size()) < 0) ::_exit(3);
    ::_exit(0);
  }
  ::close(fds[1]);
  std::string text;
  char buf[4096];
  ssize_t n;
  while ((n = ::read(fds[0], buf, sizeof buf)) > 0) text.append(buf, static_cast<std::size_t>(n));
  ::close(fds[0]);
  int status = 0;
  ::waitpid(pid, &status, 0);
  Isolated out;
  out.finished = WIFEXITED(status) && WEXITSTATUS(status) == 0;
  if (!out.finished) {
    out.message = WIFSIGNALED(status) ? "killed by signal " + std::to_string(WTERMSIG(status))
                                      : "exit " + std::to_string(WEXITSTATUS(status));
    return out;
  }
  const auto nl = text.find('\n');
  out.peak_growth_kb = std::stol(text.substr(0, nl));
  out.message = text.substr(nl + 1);
  return out;
}

std::string Outcome(const Result<EtdumpFile>& file,
                    const std::function<Result<std::vector<EventBlock>>()>& group) {
  if (!file.ok()) return file.error().message;
  auto blocks = group();
  if (!blocks.ok()) return blocks.error().message;
  std::size_t events = 0;
  for (const EventBlock& b : blocks.value()) events += b.events.size();
  return "ok: " + std::to_string(blocks->size()) + " blocks, " + std::to_string(events) + " events";
}

// Options with the debug buffer at `debug_buffer` ("" for none).
Result<InspectorOptions> OptionsWith(const std::string& debug_buffer) {
  InspectorOptions options;
  if (!debug_buffer.empty()) {
    auto buffer = ReadFileBytes(debug_buffer);
    if (!buffer.ok()) return buffer.error();
    options.debug_buffer = std::move(buffer).value();
  }
  return options;
}

// Opens and groups `path` the way `etbench inspect` does (EventBlockReader:
// one pass over the file).
std::string ReadOnePass(const std::string& path, const std::string& debug_buffer = "") {
  auto options = OptionsWith(debug_buffer);
  if (!options.ok()) return options.error().message;
  EventBlockReader reader(std::move(options).value());
  return Outcome(reader.Open(path), [&] { return reader.Finish(); });
}

// The same as EtdumpFile::Open then BuildEventBlocks (two passes).
std::string ReadTwoPasses(const std::string& path, const std::string& debug_buffer = "") {
  auto options = OptionsWith(debug_buffer);
  if (!options.ok()) return options.error().message;
  auto file = EtdumpFile::Open(path);
  return Outcome(file, [&] { return BuildEventBlocks(*file, *options); });
}

std::vector<uint8_t> Finish(FlatBufferBuilder& fbb,
                            const std::vector<Offset<fb::RunData>>& runs) {
  auto root = fb::CreateETDump(fbb, 0, fbb.CreateVector(runs));
  fb::FinishSizePrefixedETDumpBuffer(fbb, root);
  return std::vector<uint8_t>(fbb.GetBufferPointer(), fbb.GetBufferPointer() + fbb.GetSize());
}

Offset<fb::Event> ProfileEvent(FlatBufferBuilder& fbb, Offset<flatbuffers::String> name,
                               int32_t instruction) {
  return fb::CreateEvent(
      fbb, fb::CreateProfileEvent(fbb, name, 0, instruction, -1, 0, 0, 1000, 2000));
}

// `runs` runs named "forward" of `events` profile events each, every event
// named by one shared string `name`.
std::vector<uint8_t> RunsNamedBy(const std::string& name, int runs, int32_t events) {
  FlatBufferBuilder fbb;
  auto shared = fbb.CreateString(name);
  std::vector<Offset<fb::RunData>> out;
  for (int r = 0; r < runs; ++r) {
    std::vector<Offset<fb::Event>> run_events;
    for (int32_t i = 0; i < events; ++i) run_events.push_back(ProfileEvent(fbb, shared, i));
    out.push_back(
        fb::CreateRunData(fbb, fbb.CreateString("forward"), -1, 0, fbb.CreateVector(run_events)));
  }
  return Finish(fbb, out);
}

// Writes `bytes` and checks that reading them fails with a message holding
// `expected`, the peak growth staying under 4 times the input (the file and
// `extra_input` bytes of debug buffer) plus 64 MiB.
void ExpectBoundedRefusal(const std::vector<uint8_t>& bytes, const std::string& expected,
                          const std::string& debug_buffer = "", uint64_t extra_input = 0) {
  testing::TempDir dir;
  const std::string path = dir.File("crafted.etdp");
  testing::WriteBinaryFile(path, bytes);
  const Isolated got = RunIsolated([&] { return ReadOnePass(path, debug_buffer); });
  ASSERT_TRUE(got.finished) << got.message << " (no result within " << kTimeLimitS << " s)";
  // Read in two passes (in a process of its own, so that the bound below
  // is the one pass's), the file gives the same error.
  const Isolated two = RunIsolated([&] { return ReadTwoPasses(path, debug_buffer); });
  ASSERT_TRUE(two.finished) << two.message;
  EXPECT_EQ(two.message, got.message);
  EXPECT_NE(got.message.find(expected), std::string::npos) << got.message;
  EXPECT_NE(got.message.find("crafted or corrupt ETDump"), std::string::npos) << got.message;
  const uint64_t input = bytes.size() + extra_input;
  const uint64_t bound = 4 * input + (uint64_t{64} << 20);
  if (!kSanitized) {
    EXPECT_LT(static_cast<uint64_t>(got.peak_growth_kb) * 1024, bound)
        << "peak grew by " << got.peak_growth_kb << " KiB reading a " << bytes.size()
        << "-byte file";
  }
  std::printf("[ measured ] %zu-byte file: peak RSS +%ld KiB: %s\n", bytes.size(),
              got.peak_growth_kb, got.message.c_str());
}

TEST(CraftedEtdumpTest, OneHugeNameSharedByEveryEventIsRefused) {
  // 60,000 events named by one 1 MiB string: 60 GB of names once copied.
  FlatBufferBuilder fbb;
  auto name = fbb.CreateString(std::string(1 << 20, 'n'));
  std::vector<Offset<fb::Event>> events;
  for (int32_t i = 0; i < 60000; ++i) events.push_back(ProfileEvent(fbb, name, i));
  auto run = fb::CreateRunData(fbb, fbb.CreateString("forward"), -1, 0, fbb.CreateVector(events));
  ExpectBoundedRefusal(Finish(fbb, {run}), "strings shared by very many events");
}

TEST(CraftedEtdumpTest, OneHugeNameSharedAcrossRunsIsRefusedNamingTheEvent) {
  // Runs of 10 profile events named by one 1 MiB string: after the first
  // run the verifier knows the tables' vtables and sums what each run
  // references; the 65th reference passes the 64 MiB limit (the file is
  // far smaller than 16 MiB), in run 6 at event 4, which the error names.
  ExpectBoundedRefusal(RunsNamedBy(std::string(1 << 20, 'n'), 8, 10),
                       "run_data[6] (forward), event 4: events reference more than 67108864 "
                       "bytes");
}

TEST(CraftedEtdumpTest, OneEventsVectorSharedByManyRunsIsRefused) {
  // 200 runs of distinct names (200 blocks) over one vector of 2,000
  // events: 400,000 events grouped from a file of ~130 KB. (With more than
  // the verifier's million tables the file fails verification instead.)
  FlatBufferBuilder fbb;
  auto name = fbb.CreateString("op");
  std::vector<Offset<fb::Event>> events;
  for (int32_t i = 0; i < 2000; ++i) events.push_back(ProfileEvent(fbb, name, i));
  auto shared = fbb.CreateVector(events);
  std::vector<Offset<fb::RunData>> runs;
  for (int r = 0; r < 200; ++r) {
    runs.push_back(fb::CreateRunData(fbb, fbb.CreateString("m" + std::to_string(r)), -1, 0, shared));
  }
  ExpectBoundedRefusal(Finish(fbb, runs), "events vectors or events shared between runs");
}

TEST(CraftedEtdumpTest, EverySlotPointingAtOneEventIsRefused) {
  // 300,000 slots, one Event: each slot would become its own occurrence.
  FlatBufferBuilder fbb;
  auto event = ProfileEvent(fbb, fbb.CreateString("op"), 0);
  std::vector<Offset<fb::Event>> events(300000, event);
  auto run = fb::CreateRunData(fbb, fbb.CreateString("forward"), -1, 0, fbb.CreateVector(events));
  ExpectBoundedRefusal(Finish(fbb, {run}), "events vectors or events shared between runs");
}

TEST(CraftedEtdumpTest, DebugValuesPointingAtOneRangeOfTheBufferAreRefused) {
  // 2,000 intermediate outputs, each the same 4 MiB of the debug buffer:
  // 8 GB once inflated.
  constexpr int64_t kFloats = 1 << 20;
  FlatBufferBuilder fbb;
  std::vector<Offset<fb::Event>> events;
  const std::vector<int64_t> sizes{kFloats};
  for (int32_t i = 0; i < 2000; ++i) {
    auto tensor = fb::CreateTensor(fbb, fb::ScalarType::FLOAT, fbb.CreateVector(sizes), 0, 0);
    auto value = fb::CreateValue(fbb, fb::ValueType::Tensor, tensor);
    events.push_back(fb::CreateEvent(fbb, 0, 0, fb::CreateDebugEvent(fbb, 0, i, value)));
  }
  auto run = fb::CreateRunData(fbb, fbb.CreateString("forward"), -1, 0, fbb.CreateVector(events));
  testing::TempDir dir;
  const std::string buffer = dir.File("debug.bin");
  testing::WriteBinaryFile(buffer, std::vector<uint8_t>(4 * kFloats, 1));
  ExpectBoundedRefusal(Finish(fbb, {run}), "point at the same data over and over", buffer,
                       4 * kFloats);
}

TEST(CraftedEtdumpTest, ANewAllocatorNameInEveryRunOfABlockIsRefused) {
  // 3,000 runs of one block, each declaring its own allocator: the usage
  // table (names x runs) would hold 9 million cells.
  FlatBufferBuilder fbb;
  auto op = fbb.CreateString("op");
  auto method = fbb.CreateString("forward");
  std::vector<Offset<fb::RunData>> runs;
  for (int r = 0; r < 3000; ++r) {
    std::vector<Offset<fb::Allocator>> allocators{
        fb::CreateAllocator(fbb, fbb.CreateString("a" + std::to_string(r)))};
    std::vector<Offset<fb::Event>> events{
        ProfileEvent(fbb, op, 0),
        fb::CreateEvent(fbb, 0, fb::CreateAllocationEvent(fbb, 1, 64))};
    runs.push_back(fb::CreateRunData(fbb, method, -1, fbb.CreateVector(allocators),
                                     fbb.CreateVector(events)));
  }
  ExpectBoundedRefusal(Finish(fbb, runs), "allocator names over");
}

TEST(CraftedEtdumpTest, ManyAllocatorsThenRunsRepeatingTheTemplateAreRefused) {
  // One run declaring 2,000 allocators, then 20,000 runs of the same block
  // (one events vector between them) that repeat its profile event alone:
  // they take the template fast path (event_template.cc), which also gives
  // every allocator of the block a cell per run: 40 million cells.
  FlatBufferBuilder fbb;
  auto op = fbb.CreateString("op");
  auto method = fbb.CreateString("forward");
  std::vector<Offset<fb::Allocator>> allocators;
  std::vector<Offset<fb::Event>> first{ProfileEvent(fbb, op, 0)};
  for (int32_t a = 1; a <= 2000; ++a) {
    allocators.push_back(fb::CreateAllocator(fbb, fbb.CreateString("a" + std::to_string(a))));
    first.push_back(fb::CreateEvent(fbb, 0, fb::CreateAllocationEvent(fbb, a, 64)));
  }
  std::vector<Offset<fb::RunData>> runs{fb::CreateRunData(
      fbb, method, -1, fbb.CreateVector(allocators), fbb.CreateVector(first))};
  auto repeated = fbb.CreateVector(std::vector<Offset<fb::Event>>{ProfileEvent(fbb, op, 0)});
  for (int r = 0; r < 20000; ++r) runs.push_back(fb::CreateRunData(fbb, method, -1, 0, repeated));
  ExpectBoundedRefusal(Finish(fbb, runs), "allocator names over");
}

TEST(CraftedEtdumpTest, AnOrdinaryDumpOfTheSameSizeStillReads) {
  // The limits leave real dumps alone: 60,000 events with their own names.
  FlatBufferBuilder fbb;
  std::vector<Offset<fb::Event>> events;
  for (int32_t i = 0; i < 60000; ++i) {
    events.push_back(ProfileEvent(fbb, fbb.CreateString("op" + std::to_string(i % 50)), i));
  }
  auto run = fb::CreateRunData(fbb, fbb.CreateString("forward"), -1, 0, fbb.CreateVector(events));
  const std::vector<uint8_t> bytes = Finish(fbb, {run});
  testing::TempDir dir;
  const std::string path = dir.File("ordinary.etdp");
  testing::WriteBinaryFile(path, bytes);
  EXPECT_EQ(ReadOnePass(path), "ok: 1 blocks, 60000 events");
  EXPECT_EQ(ReadTwoPasses(path), "ok: 1 blocks, 60000 events");
}

TEST(CraftedEtdumpTest, AnOrdinaryLargeDumpIsVerifiedWithAWindowOfItResident) {
  // The peak the limits are measured against: verifying a mapped dump
  // releases the pages of the runs read every 8,192 events (only theirs:
  // run_page_release.h), so 400 runs of 1,000 events (over 16 MB) grow the
  // peak by a window of the file and the spans a fault maps, not by the file.
  const std::vector<uint8_t> bytes = RunsNamedBy("native_call_add.out", 400, 1000);
  ASSERT_GT(bytes.size(), std::size_t{16} << 20);
  testing::TempDir dir;
  const std::string path = dir.File("large.etdp");
  testing::WriteBinaryFile(path, bytes);
  const Isolated got = RunIsolated([&]() -> std::string {
    auto file = EtdumpFile::Open(path);
    return file.ok() ? "ok" : file.error().message;
  });
  ASSERT_TRUE(got.finished) << got.message;
  EXPECT_EQ(got.message, "ok");
  if (!kSanitized) {
    EXPECT_LT(got.peak_growth_kb, 4096)
        << "KiB the peak grew by verifying a " << bytes.size() << "-byte file";
  }
  std::printf("[ measured ] %zu-byte file verified: peak RSS +%ld KiB\n", bytes.size(),
              got.peak_growth_kb);
}

}  // namespace
}  // namespace etbench
