// Hostile input: every malformed ETDump gives one clear error, never a crash.
#include "etbench/inspector/etdump_file.h"

#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <cctype>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <functional>
#include <random>
#include <thread>

#include "etbench/inspector/etdump_writer.h"
#include "etbench/inspector/event_block_reader.h"
#include "etdump_test_util.h"
#include "flatbuffers/flatbuffers.h"
#include "support/test_support.h"

namespace etbench {
namespace {

using testing::Profile;

std::vector<uint8_t> SampleDump(bool size_prefixed = true) {
  EtdumpRecord r;
  RunDataRecord run;
  run.name = "Execute";
  run.events.push_back(Profile("native_call_add.out", 0, 0, 100, 200));
  run.events.push_back(Profile("OPERATOR_CALL", 0, 0, 90, 210));
  run.events.push_back(Profile("Method::execute", -1, 0, 80, 220));
  r.run_data.push_back(run);
  return WriteEtdump(r, {size_prefixed});
}

std::string ErrorOf(std::vector<uint8_t> bytes) {
  auto file = EtdumpFile::FromBytes(std::move(bytes), "bad.etdp");
  if (file.ok()) return "";
  return file.error().message;
}

bool Contains(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

TEST(EtdumpFileTest, EmptyFile) {
  const std::string e = ErrorOf({});
  EXPECT_TRUE(Contains(e, "bad.etdp")) << e;
  EXPECT_TRUE(Contains(e, "empty")) << e;
}

TEST(EtdumpFileTest, MissingFileNamesThePath) {
  auto file = EtdumpFile::Open("/nonexistent/dir/x.etdp");
  ASSERT_FALSE(file.ok());
  EXPECT_EQ(file.error().code, ErrorCode::kIo);
  EXPECT_TRUE(Contains(file.error().message, "/nonexistent/dir/x.etdp"));
}

TEST(EtdumpFileTest, DetectsSizePrefixAndPlainBuffers) {
  auto prefixed = EtdumpFile::FromBytes(SampleDump(true));
  ASSERT_TRUE(prefixed.ok());
  EXPECT_TRUE(prefixed->size_prefixed());
  auto plain = EtdumpFile::FromBytes(SampleDump(false));
  ASSERT_TRUE(plain.ok());
  EXPECT_FALSE(plain->size_prefixed());
}

TEST(EtdumpFileTest, TruncatedAtEveryOffsetIsAnErrorNotACrash) {
  for (bool prefixed : {true, false}) {
    const std::vector<uint8_t> full = SampleDump(prefixed);
    for (std::size_t n = 0; n < full.size(); ++n) {
      std::vector<uint8_t> cut(full.begin(), full.begin() + static_cast<long>(n));
      const std::string e = ErrorOf(cut);
      EXPECT_FALSE(e.empty()) << "prefix of " << n << " bytes was accepted";
      EXPECT_TRUE(Contains(e, "bad.etdp")) << e;
    }
  }
}

TEST(EtdumpFileTest, TruncatedSizePrefixedFileSaysTruncated) {
  std::vector<uint8_t> full = SampleDump(true);
  full.resize(full.size() - 16);
  const std::string e = ErrorOf(full);
  EXPECT_TRUE(Contains(e, "truncated")) << e;
}

TEST(EtdumpFileTest, ADumpWhoseSizePrefixWasStrippedStillLoads) {
  std::vector<uint8_t> bytes = SampleDump(/*size_prefixed=*/true);
  bytes.erase(bytes.begin(), bytes.begin() + 4);  // every field now 4 bytes off
  auto file = EtdumpFile::FromBytes(bytes, "stripped.etdp");
  ASSERT_TRUE(file.ok()) << file.error().message;
  ASSERT_NE(file->root().run_data(), nullptr);
  EXPECT_EQ(file->root().run_data()->size(), 1u);
}

TEST(EtdumpFileTest, MisalignedTablesAreRejectedNotReadMisaligned) {
  // Found by etdump_fuzzer (UBSan: member call on misaligned address): the
  // corpus replay runs it under the sanitizers in CI.
  const std::string path = testing::SourcePath("tests/fuzz_corpus/etdump/crash-misaligned-vector");
  auto file = EtdumpFile::FromBytes(testing::ReadBinaryFile(path), "fuzz.etdp");
  EXPECT_FALSE(file.ok());
}

TEST(EtdumpFileTest, TrailingGarbageIsAnError) {
  std::vector<uint8_t> bytes = SampleDump();
  bytes.insert(bytes.end(), {'j', 'u', 'n', 'k'});
  const std::string error = ErrorOf(bytes);
  EXPECT_TRUE(Contains(error, "4 bytes of trailing data")) << error;
}

TEST(EtdumpFileTest, TwoConcatenatedDumpsAreAnError) {
  std::vector<uint8_t> bytes = SampleDump();
  const std::vector<uint8_t> second = SampleDump();
  bytes.insert(bytes.end(), second.begin(), second.end());
  EXPECT_TRUE(Contains(ErrorOf(bytes), "several dumps concatenated")) << ErrorOf(bytes);
}

TEST(EtdumpFileTest, FourBytesInsertedInTheMiddleAreAnError) {
  std::vector<uint8_t> bytes = SampleDump();
  bytes.insert(bytes.begin() + static_cast<std::ptrdiff_t>(bytes.size() / 2), 4, 0);
  EXPECT_FALSE(ErrorOf(bytes).empty());
}

TEST(EtdumpFileTest, DirectoryFifoAndDeviceAreRefusedUpFront) {
  testing::TempDir dir;
  const std::string fifo = dir.File("pipe.etdp");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  for (const std::string& path : {dir.path(), fifo, std::string("/dev/zero")}) {
    auto file = EtdumpFile::Open(path);  // would block (FIFO) or exhaust memory
    ASSERT_FALSE(file.ok()) << path;
    EXPECT_TRUE(Contains(file.error().message, "not a regular file")) << file.error().message;
  }
}

TEST(EtdumpFileTest, HugeFileIsRejectedByItsHeaderWithoutReadingIt) {
  testing::TempDir dir;
  const std::string path = dir.File("huge.etdp");
  testing::WriteBinaryFile(path, {'n', 'o', 't', ' ', 'a', 'n', ' ', 'E', 'T', 'D', 'u', 'm'});
  ASSERT_EQ(::truncate(path.c_str(), off_t{4} << 30), 0);  // sparse: 4 GiB, no disk used
  auto file = EtdumpFile::Open(path);
  ASSERT_FALSE(file.ok());
  EXPECT_TRUE(Contains(file.error().message, "wrong file identifier")) << file.error().message;
}

TEST(EtdumpFileTest, OpenChecksTheSizePrefixAgainstTheFileSize) {
  testing::TempDir dir;
  const std::string path = dir.File("padded.etdp");
  std::vector<uint8_t> bytes = SampleDump();
  bytes.resize(bytes.size() + (std::size_t{1} << 20), 0);
  testing::WriteBinaryFile(path, bytes);
  auto file = EtdumpFile::Open(path);
  ASSERT_FALSE(file.ok());
  EXPECT_TRUE(Contains(file.error().message, "trailing data")) << file.error().message;
}

TEST(EtdumpFileTest, WrongIdentifier) {
  std::vector<uint8_t> bytes = SampleDump(false);
  bytes[4] = 'X';
  const std::string e = ErrorOf(bytes);
  EXPECT_TRUE(Contains(e, "identifier")) << e;
  EXPECT_TRUE(Contains(e, "ED00")) << e;
}

TEST(EtdumpFileTest, RandomBytesNeverCrash) {
  std::mt19937 rng(1234);
  for (int trial = 0; trial < 500; ++trial) {
    std::vector<uint8_t> bytes(static_cast<std::size_t>(rng() % 300));
    for (auto& b : bytes) b = static_cast<uint8_t>(rng());
    EXPECT_FALSE(ErrorOf(bytes).empty());
  }
}

TEST(EtdumpFileTest, CorruptedValidBufferNeverCrashes) {
  // Flip bytes of a valid buffer (keeping the identifier so the verifier is
  // reached); any outcome is fine except a crash or an accepted file that
  // later reads out of bounds (ASan runs catch that).
  const std::vector<uint8_t> full = SampleDump(true);
  std::mt19937 rng(99);
  for (int trial = 0; trial < 2000; ++trial) {
    std::vector<uint8_t> bytes = full;
    const std::size_t pos = 12 + rng() % (bytes.size() - 12);
    bytes[pos] = static_cast<uint8_t>(rng());
    auto file = EtdumpFile::FromBytes(bytes, "fuzz.etdp");
    if (file.ok()) {
      auto blocks = BuildEventBlocks(file.value(), {});
      (void)blocks;
    }
  }
}

// Builds an ETDump by hand with the generated API to make inconsistent
// files the writer refuses to produce.
std::vector<uint8_t> DumpWithEvent(
    const std::function<flatbuffers::Offset<fb::Event>(flatbuffers::FlatBufferBuilder&)>& make,
    int allocators = 0) {
  flatbuffers::FlatBufferBuilder fbb;
  auto event = make(fbb);
  std::vector<flatbuffers::Offset<fb::Allocator>> allocs;
  for (int i = 0; i < allocators; ++i) {
    allocs.push_back(fb::CreateAllocator(fbb, fbb.CreateString("pool")));
  }
  auto run = fb::CreateRunData(fbb, fbb.CreateString("Execute"), -1,
                               fbb.CreateVector(allocs), fbb.CreateVector(&event, 1));
  auto root = fb::CreateETDump(fbb, 0, fbb.CreateVector(&run, 1));
  fb::FinishSizePrefixedETDumpBuffer(fbb, root);
  return std::vector<uint8_t>(fbb.GetBufferPointer(), fbb.GetBufferPointer() + fbb.GetSize());
}

TEST(EtdumpFileTest, EventWithNoMember) {
  const std::string e =
      ErrorOf(DumpWithEvent([](auto& fbb) { return fb::CreateEvent(fbb); }));
  EXPECT_TRUE(Contains(e, "no member")) << e;
  EXPECT_TRUE(Contains(e, "run_data[0] (Execute), event 0")) << e;
}

// Allocator ids are 1-based: ETDumpGen::track_allocator returns the length
// of the allocators vector after the push.
TEST(EtdumpFileTest, AllocatorIdsAreOneBased) {
  auto first = EtdumpFile::FromBytes(DumpWithEvent([](auto& fbb) {
    return fb::CreateEvent(fbb, 0, fb::CreateAllocationEvent(fbb, 1, 8));
  }, 1));
  EXPECT_TRUE(first.ok()) << first.error().message;
  auto last = EtdumpFile::FromBytes(DumpWithEvent([](auto& fbb) {
    return fb::CreateEvent(fbb, 0, fb::CreateAllocationEvent(fbb, 3, 8));
  }, 3));
  EXPECT_TRUE(last.ok()) << last.error().message;
}

TEST(EtdumpFileTest, AllocatorIdZeroOrAboveTheCountIsAnErrorNamingRunAndEvent) {
  for (int id : {0, 2, -1}) {
    const std::string e = ErrorOf(DumpWithEvent([id](auto& fbb) {
      return fb::CreateEvent(fbb, 0, fb::CreateAllocationEvent(fbb, id, 8));
    }, 1));
    EXPECT_TRUE(Contains(e, "allocator " + std::to_string(id) + " but the run declares 1")) << e;
    EXPECT_TRUE(Contains(e, "run_data[0] (Execute), event 0")) << e;
  }
}

// The reference's find_populated_event takes the profile event, else the
// debug event; etbench reads the same member and warns once.
TEST(EtdumpFileTest, EventWithProfileAndAnotherMemberUsesTheProfileAndWarnsOnce) {
  flatbuffers::FlatBufferBuilder fbb;
  std::vector<flatbuffers::Offset<fb::Event>> events;
  for (int i = 0; i < 3; ++i) {
    auto p = fb::CreateProfileEvent(fbb, fbb.CreateString("native_call_add.out"), 0, i);
    // allocator 7 does not exist: the allocation member is not read.
    events.push_back(fb::CreateEvent(fbb, p, fb::CreateAllocationEvent(fbb, 7, 8)));
  }
  auto run = fb::CreateRunData(fbb, fbb.CreateString("Execute"), -1, 0, fbb.CreateVector(events));
  fb::FinishSizePrefixedETDumpBuffer(fbb, fb::CreateETDump(fbb, 0, fbb.CreateVector(&run, 1)));
  auto file = EtdumpFile::FromBytes(
      std::vector<uint8_t>(fbb.GetBufferPointer(), fbb.GetBufferPointer() + fbb.GetSize()),
      "two.etdp");
  ASSERT_TRUE(file.ok()) << file.error().message;
  ASSERT_EQ(file->warnings().size(), 1u);
  const std::string& w = file->warnings()[0];
  EXPECT_TRUE(Contains(w, "two.etdp: run_data[0] (Execute), event 0")) << w;
  EXPECT_TRUE(Contains(w, "profile_event and allocation_event")) << w;
  EXPECT_TRUE(Contains(w, "using its profile_event")) << w;
  EXPECT_TRUE(Contains(w, "3 such events")) << w;
  const EtdumpRecord record = DecodeEtdump(*file);
  EXPECT_EQ(record.run_data[0].events.size(), 3u);
  EXPECT_TRUE(std::holds_alternative<ProfileEventRecord>(record.run_data[0].events[0]));
}

TEST(EtdumpFileTest, WellFormedFileHasNoWarnings) {
  auto file = EtdumpFile::FromBytes(DumpWithEvent([](auto& fbb) {
    return fb::CreateEvent(fbb, fb::CreateProfileEvent(fbb, fbb.CreateString("x")));
  }));
  ASSERT_TRUE(file.ok());
  EXPECT_TRUE(file->warnings().empty());
}

TEST(EtdumpFileTest, ValueWithoutItsMember) {
  const std::string e = ErrorOf(DumpWithEvent([](auto& fbb) {
    auto v = fb::CreateValue(fbb, fb::ValueType::Tensor);
    return fb::CreateEvent(fbb, 0, 0, fb::CreateDebugEvent(fbb, 0, 1, v));
  }));
  EXPECT_TRUE(Contains(e, "Tensor")) << e;
}

// The reader verifies one RunData at a time (so it can release a mapped
// file's pages as it goes); its verdict must be the generated verifier's.
// Mutations of a multi-run dump, plain and size-prefixed: every byte flipped
// in turn, and random bytes at random places.
TEST(EtdumpFileTest, RunByRunVerificationAgreesWithTheGeneratedVerifier) {
  for (bool prefixed : {true, false}) {
    EtdumpRecord r;
    for (int k = 0; k < 3; ++k) {
      RunDataRecord run;
      run.name = k == 0 ? "Default" : "Execute";
      run.events.push_back(Profile("native_call_add.out", 0, 0, 100 + k, 200 + k));
      run.events.push_back(Profile("Method::execute", -1, 0, 80, 220));
      r.run_data.push_back(run);
    }
    const std::vector<uint8_t> full = WriteEtdump(r, {prefixed});
    auto generated = [&](const std::vector<uint8_t>& b) {
      flatbuffers::Verifier v(b.data(), b.size(), 64, 1000000, /*check_alignment=*/true);
      return prefixed ? fb::VerifySizePrefixedETDumpBuffer(v) : fb::VerifyETDumpBuffer(v);
    };
    std::size_t accepted = 0;
    std::size_t rejected = 0;
    testing::ForEachMutation(full, 3000, 7, [&](const std::vector<uint8_t>& bytes,
                                                std::size_t pos) {
      // Only the verifier's verdict is compared: a size prefix or an
      // identifier that no longer matches is refused before verification.
      const std::string e = ErrorOf(bytes);
      if (e.find("failed FlatBuffers verification") != std::string::npos) {
        // Refused: the generated verifier refuses too (a plain buffer may
        // still have been a stripped prefix, which the reader also tries).
        EXPECT_FALSE(generated(bytes)) << "byte " << pos << (prefixed ? " (prefixed)" : "");
        ++rejected;
      } else if (e.empty() || e.find("run_data[") != std::string::npos) {
        // Accepted by the verifier (a consistency error comes after it).
        EXPECT_TRUE(generated(bytes) || !prefixed) << "byte " << pos << ": " << e;
        ++accepted;
      }
      return true;
    });
    EXPECT_GT(accepted, 0u);
    EXPECT_GT(rejected, 0u);
  }
}

// Open maps the file and releases its pages while verifying and grouping
// (every 8,192 events); what it reads must not change: the same blocks as
// from the bytes in memory, for a dump spanning several releases.
TEST(EtdumpFileTest, MappedFileGroupsLikeBytesInMemoryAcrossPageReleases) {
  EtdumpRecord r;
  for (int k = 0; k < 40; ++k) {
    RunDataRecord run;
    run.name = "Execute";
    for (int i = 0; i < 1000; ++i) {
      run.events.push_back(Profile("native_call_op_" + std::to_string(i % 7) + ".out", 0, i,
                                   1000 * k + i, 1000 * k + i + 1 + (k * i) % 13));
    }
    r.run_data.push_back(run);
  }
  const std::vector<uint8_t> bytes = WriteEtdump(r);
  testing::TempDir dir;
  const std::string path = dir.File("big.etdp");
  testing::WriteBinaryFile(path, bytes);
  auto mapped = EtdumpFile::Open(path);
  ASSERT_TRUE(mapped.ok()) << mapped.error().message;
  auto in_memory = EtdumpFile::FromBytes(bytes);
  ASSERT_TRUE(in_memory.ok());
  auto a = BuildEventBlocks(mapped.value(), {});
  mapped->ReleaseResidentPages();
  auto b = BuildEventBlocks(in_memory.value(), {});
  ASSERT_TRUE(a.ok() && b.ok());
  ASSERT_EQ(a->size(), 1u);
  ASSERT_EQ(a->at(0).events.size(), b->at(0).events.size());
  EXPECT_EQ(a->at(0).run_count, 40u);
  for (std::size_t i = 0; i < a->at(0).events.size(); ++i) {
    const Event& x = a->at(0).events[i];
    const Event& y = b->at(0).events[i];
    EXPECT_EQ(x.name, y.name);
    EXPECT_EQ(x.start_ticks, y.start_ticks);
    EXPECT_EQ(x.end_ticks, y.end_ticks);
    EXPECT_EQ(x.perf_data->raw, y.perf_data->raw);
    EXPECT_EQ(x.perf_data->p50, y.perf_data->p50);
  }
}

EtdumpRecord ManyRuns(int runs, int events_per_run) {
  EtdumpRecord r;
  for (int k = 0; k < runs; ++k) {
    RunDataRecord run;
    run.name = "Execute";
    for (int i = 0; i < events_per_run; ++i) {
      run.events.push_back(Profile("native_call_op_" + std::to_string(i % 7) + ".out", 0, i,
                                   1000 * k + i, 1000 * k + i + 1 + (k * i) % 13));
    }
    r.run_data.push_back(run);
  }
  return r;
}

// KiB of `path`'s mappings resident in this process (/proc/self/smaps).
long MappedResidentKb(const std::string& path) {
  std::ifstream smaps("/proc/self/smaps");
  std::string line;
  bool in_path = false;
  long kb = 0;
  while (std::getline(smaps, line)) {
    if (!line.empty() && std::isxdigit(static_cast<unsigned char>(line[0])) &&
        line.find('-') < line.find(' ')) {
      in_path = line.size() >= path.size() &&
                line.compare(line.size() - path.size(), path.size(), path) == 0;
    } else if (in_path && line.rfind("Rss:", 0) == 0) {
      kb += std::stol(line.substr(4));
    }
  }
  return kb;
}

// The page cache keeps a read file in folios of up to 2 MB on current
// kernels, and a fault maps the whole folio within its VMA: once a 7 MB dump
// is read and grouped (and its blocks built, which reads names in it again),
// no more than a window of the file may stay resident, not a folio.
TEST(EtdumpFileTest, AReadFileLeavesOnlyAWindowOfItsPagesResident) {
  const std::vector<uint8_t> bytes = WriteEtdump(ManyRuns(160, 1000));
  ASSERT_GT(bytes.size(), std::size_t{6} << 20);
  testing::TempDir dir;
  const std::string path = dir.File("big.etdp");
  testing::WriteBinaryFile(path, bytes);
  {
    std::ifstream warm(path, std::ios::binary);  // in the page cache, as inspect finds it
    std::vector<char> sink(1 << 20);
    while (warm.read(sink.data(), static_cast<std::streamsize>(sink.size()))) {
    }
  }
  EventBlockReader reader({});
  auto file = reader.Open(path);
  ASSERT_TRUE(file.ok()) << file.error().message;
  auto blocks = reader.Finish();
  ASSERT_TRUE(blocks.ok()) << blocks.error().message;
  ASSERT_EQ(blocks->size(), 1u);
  EXPECT_EQ(blocks->at(0).run_count, 160u);
  const long resident_kb = MappedResidentKb(path);
  EXPECT_LE(resident_kb, 1024) << "KiB of the file resident after reading it";
}

// A file truncated by another process while it is mapped: the lost pages
// would raise SIGBUS when read; they read as zeros instead and the grouping
// reports the truncation, naming the file.
TEST(EtdumpFileTest, FileTruncatedAfterOpenIsAnErrorWhenGroupedNotACrash) {
  testing::TempDir dir;
  const std::string path = dir.File("truncated.etdp");
  testing::WriteBinaryFile(path, WriteEtdump(ManyRuns(40, 1000)));
  auto file = EtdumpFile::Open(path);
  ASSERT_TRUE(file.ok()) << file.error().message;
  EXPECT_FALSE(file->truncated());
  ASSERT_EQ(::truncate(path.c_str(), 4096), 0);
  auto blocks = BuildEventBlocks(file.value(), {});
  ASSERT_FALSE(blocks.ok());
  EXPECT_TRUE(file->truncated());
  EXPECT_EQ(blocks.error().code, ErrorCode::kInvalidInput);
  EXPECT_TRUE(Contains(blocks.error().message, path + ": the file was truncated while being read"))
      << blocks.error().message;
  EXPECT_EQ(blocks.error().message.find('\n'), std::string::npos);
}

// Truncation at any moment while another thread opens, verifies and groups
// the file: the reader finishes with the whole file's blocks or an error,
// never a crash.
TEST(EtdumpFileTest, FileTruncatedWhileBeingReadNeverCrashes) {
  testing::TempDir dir;
  const std::string path = dir.File("shrinking.etdp");
  const std::vector<uint8_t> bytes = WriteEtdump(ManyRuns(40, 1000));
  std::mt19937 random(7);
  int errors = 0;
  for (int trial = 0; trial < 30; ++trial) {
    testing::WriteBinaryFile(path, bytes);
    const auto delay = std::chrono::microseconds(random() % 4000);
    const off_t size = static_cast<off_t>(random() % bytes.size());
    std::thread truncator([&] {
      std::this_thread::sleep_for(delay);
      ASSERT_EQ(::truncate(path.c_str(), size), 0);
    });
    auto file = EtdumpFile::Open(path);
    Result<std::vector<EventBlock>> blocks =
        file.ok() ? BuildEventBlocks(file.value(), {}) : Result<std::vector<EventBlock>>(file.error());
    truncator.join();
    if (blocks.ok()) {
      ASSERT_EQ(blocks->size(), 1u);
      EXPECT_EQ(blocks->at(0).run_count, 40u);
    } else {
      ++errors;
      EXPECT_TRUE(Contains(blocks.error().message, path)) << blocks.error().message;
    }
  }
  std::printf("truncated while reading: %d of 30 reads ended in an error\n", errors);
}

TEST(EtdumpFileTest, EmptyRunListIsValid) {
  auto file = EtdumpFile::FromBytes(WriteEtdump(EtdumpRecord{}));
  ASSERT_TRUE(file.ok());
  auto blocks = BuildEventBlocks(file.value(), {});
  ASSERT_TRUE(blocks.ok());
  EXPECT_TRUE(blocks->empty());
}

}  // namespace
}  // namespace etbench
