// Input files: only regular files, never blocking, size-capped.
#include "etbench/base/input_file.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include "support/test_support.h"

namespace etbench {
namespace {

bool Contains(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

TEST(InputFileTest, ReadsARegularFile) {
  testing::TempDir dir;
  testing::WriteTextFile(dir.File("a.yaml"), "suite: x\n");
  auto text = ReadTextFile(dir.File("a.yaml"));
  ASSERT_TRUE(text.ok()) << text.error().message;
  EXPECT_EQ(*text, "suite: x\n");
}

TEST(InputFileTest, FifoIsRefusedWithoutBlocking) {
  testing::TempDir dir;
  const std::string fifo = dir.File("suite.yaml");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  auto text = ReadTextFile(fifo);  // a blocking open would hang the test
  ASSERT_FALSE(text.ok());
  EXPECT_EQ(text.error().message, fifo + ": is a FIFO, not a regular file");
}

TEST(InputFileTest, DirectoryAndDevicesSayWhatTheyAre) {
  testing::TempDir dir;
  auto directory = ReadTextFile(dir.path());
  ASSERT_FALSE(directory.ok());
  EXPECT_EQ(directory.error().message, dir.path() + ": is a directory, not a regular file");
  // Not "empty file (0 bytes)", and no attempt to read it all.
  auto zero = ReadTextFile("/dev/zero");
  ASSERT_FALSE(zero.ok());
  EXPECT_EQ(zero.error().message, "/dev/zero: is a character device, not a regular file");
}

TEST(InputFileTest, MissingFileNamesThePathAndTheReason) {
  auto text = ReadTextFile("/nonexistent/x.json");
  ASSERT_FALSE(text.ok());
  EXPECT_TRUE(Contains(text.error().message, "/nonexistent/x.json: cannot open (No such file"))
      << text.error().message;
}

TEST(InputFileTest, FilesLargerThanTheCapAreRefusedBeforeReading) {
  testing::TempDir dir;
  const std::string path = dir.File("big.json");
  testing::WriteTextFile(path, "{}");
  ASSERT_EQ(::truncate(path.c_str(), off_t{3} << 30), 0);  // sparse 3 GiB
  auto text = ReadTextFile(path);
  ASSERT_FALSE(text.ok());
  EXPECT_TRUE(Contains(text.error().message, "3221225472 bytes is larger than the 536870912-byte"))
      << text.error().message;
}

TEST(InputFileTest, ReadAtReadsAHeaderOnly) {
  testing::TempDir dir;
  testing::WriteTextFile(dir.File("f"), "0123456789");
  auto file = InputFile::Open(dir.File("f"));
  ASSERT_TRUE(file.ok());
  EXPECT_EQ(file->size(), 10u);
  auto head = file->ReadAt(2, 3);
  ASSERT_TRUE(head.ok());
  EXPECT_EQ(std::string(head->begin(), head->end()), "234");
  auto past_end = file->ReadAt(8, 5);
  ASSERT_TRUE(past_end.ok());
  EXPECT_EQ(past_end->size(), 2u);
}

}  // namespace
}  // namespace etbench
