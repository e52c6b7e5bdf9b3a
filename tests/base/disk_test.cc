// RealDisk: the machine's filesystem behind the Disk interface.
#include "etbench/base/disk.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>

#include "support/test_support.h"

namespace etbench {
namespace {

TEST(RealDiskTest, WritesReadsAndStatsARegularFile) {
  testing::TempDir dir;
  RealDisk disk;
  const std::string path = dir.File("report.md");
  EXPECT_FALSE(disk.Stat(path).exists);
  ASSERT_TRUE(disk.WriteText(path, "# report\n").ok());
  const FileStat stat = disk.Stat(path);
  EXPECT_TRUE(stat.exists);
  EXPECT_TRUE(stat.regular);
  EXPECT_EQ(stat.size, 9u);
  EXPECT_EQ(stat.identity, IdentityOf(path).value());
  auto text = disk.ReadText(path);
  ASSERT_TRUE(text.ok()) << text.error().message;
  EXPECT_EQ(*text, "# report\n");
  // A replacement is a new file (rename), never half of one.
  ASSERT_TRUE(disk.WriteText(path, "second").ok());
  EXPECT_EQ(testing::ReadTextFile(path), "second");
  EXPECT_FALSE(
      std::filesystem::exists(path + ".tmp." + std::to_string(::getpid())));
}

TEST(RealDiskTest, ReadRefusesWhatInputFileRefuses) {
  testing::TempDir dir;
  RealDisk disk;
  auto missing = disk.Read(dir.File("none.json"), 10);
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(
      missing.error().message,
      dir.File("none.json") + ": cannot open (No such file or directory)");
  auto directory = disk.Read(dir.path(), 10);
  ASSERT_FALSE(directory.ok());
  EXPECT_EQ(directory.error().message,
            dir.path() + ": is a directory, not a regular file");
  const std::string fifo = dir.File("in.fifo");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  auto from_fifo = disk.Read(fifo, 10);  // must not block
  ASSERT_FALSE(from_fifo.ok());
  EXPECT_EQ(from_fifo.error().message,
            fifo + ": is a FIFO, not a regular file");
  testing::WriteTextFile(dir.File("big.json"), "0123456789A");
  auto big = disk.Read(dir.File("big.json"), 10);
  ASSERT_FALSE(big.ok());
  EXPECT_EQ(big.error().code, ErrorCode::kInvalidInput);
  EXPECT_EQ(
      big.error().message,
      dir.File("big.json") +
          ": 11 bytes is larger than the 10-byte limit for this kind of file");
  EXPECT_FALSE(disk.Stat(fifo).regular);
  EXPECT_TRUE(disk.Stat(fifo).exists);
}

TEST(RealDiskTest, WritesNeverReplaceASpecialFile) {
  testing::TempDir dir;
  RealDisk disk;
  const std::string fifo = dir.File("out.fifo");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  for (Status s : {disk.CheckWriteTarget(fifo), disk.WriteText(fifo, "x"),
                   disk.WriteNew(fifo, {'x'})}) {
    ASSERT_FALSE(s.ok());
    EXPECT_EQ(s.error().message,
              fifo + ": is a FIFO; refusing to replace it with a regular file");
  }
  struct stat st {};
  ASSERT_EQ(::stat(fifo.c_str(), &st), 0);
  EXPECT_TRUE(S_ISFIFO(st.st_mode));
  EXPECT_EQ(disk.CheckWriteTarget("").error().code, ErrorCode::kUsage);
}

TEST(RealDiskTest, WriteNewRefusesAnExistingFile) {
  testing::TempDir dir;
  RealDisk disk;
  const std::string path = dir.File("baseline.json");
  ASSERT_TRUE(disk.WriteNew(path, {'a'}).ok());
  Status again = disk.WriteNew(path, {'b'});
  ASSERT_FALSE(again.ok());
  EXPECT_EQ(again.error().message, path + ": already exists");
  EXPECT_EQ(testing::ReadTextFile(path), "a");
}

TEST(RealDiskTest, CreateDirectoriesReportsTheSystemsReasonAlone) {
  testing::TempDir dir;
  RealDisk disk;
  ASSERT_TRUE(disk.CreateDirectories(dir.File("a/b/c")).ok());
  EXPECT_TRUE(std::filesystem::is_directory(dir.File("a/b/c")));
  testing::WriteTextFile(dir.File("file"), "x");
  Status blocked = disk.CreateDirectories(dir.File("file/sub"));
  ASSERT_FALSE(blocked.ok());
  EXPECT_EQ(blocked.error().message, "Not a directory");
}

TEST(RealDiskTest, RemovesOnlyTemporariesOfProcessesThatAreGone) {
  testing::TempDir dir;
  RealDisk disk;
  // PID 2^22+1 is above Linux's largest pid_max: no such process can exist.
  const std::string dead = dir.File("r.json.tmp.4194305");
  const std::string live =
      dir.File("r.json.tmp." + std::to_string(::getpid() == 1 ? 2 : 1));
  testing::WriteTextFile(dead, "x");
  testing::WriteTextFile(live, "x");
  disk.RemoveStaleTemporaries(dir.path());
  EXPECT_FALSE(std::filesystem::exists(dead));
  EXPECT_TRUE(std::filesystem::exists(live));  // PID 1 always lives
}

TEST(RealDiskTest, DefaultDiskIsTheRealOne) {
  testing::TempDir dir;
  ASSERT_TRUE(DefaultDisk().WriteText(dir.File("x.txt"), "real").ok());
  EXPECT_EQ(testing::ReadTextFile(dir.File("x.txt")), "real");
}

}  // namespace
}  // namespace etbench
