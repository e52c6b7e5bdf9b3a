// GuardedDisk: the command's input registry as a Disk decorator.
#include "etbench/base/guarded_disk.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include "support/memory_disk.h"
#include "support/test_support.h"

namespace etbench {
namespace {

TEST(GuardedDiskTest, RefusesToOverwriteWhatItReadUnderAnyName) {
  testing::TempDir dir;
  RealDisk real;
  const std::string input = dir.File("results.json");
  testing::WriteTextFile(input, "{\"keep\": true}");
  GuardedDisk disk(real);
  EXPECT_FALSE(disk.IsInput(input));
  ASSERT_TRUE(disk.ReadText(input).ok());
  EXPECT_TRUE(disk.IsInput(input));
  ASSERT_EQ(::link(input.c_str(), dir.File("alias.json").c_str()), 0);
  for (const std::string& target :
       {input, dir.File("alias.json"), dir.path() + "/./results.json"}) {
    Status written = disk.WriteText(target, "overwritten");
    ASSERT_FALSE(written.ok()) << target;
    EXPECT_EQ(written.error().code, ErrorCode::kInvalidInput);
    EXPECT_EQ(
        written.error().message,
        target + ": is an input of this command; refusing to overwrite it");
    EXPECT_FALSE(disk.WriteNew(target, {'x'}).ok());
  }
  EXPECT_EQ(testing::ReadTextFile(input), "{\"keep\": true}");
  // Other files are written as usual, and the inner disk knows no inputs.
  EXPECT_TRUE(disk.WriteText(dir.File("report.md"), "# r\n").ok());
  EXPECT_TRUE(GuardedDisk(real).WriteText(dir.File("results.json"), "{}").ok());
}

TEST(GuardedDiskTest, RemembersFilesReadElsewhereWhenTold) {
  testing::MemoryDisk memory;
  memory.AddFile("/in/model.etdp", "etdump bytes");
  GuardedDisk disk(memory);
  disk.NoteRead("/in/model.etdp");
  disk.NoteRead("/in/absent.etdp");  // nothing there: nothing to protect
  Status written = disk.WriteText("/in/model.etdp", "x");
  ASSERT_FALSE(written.ok());
  EXPECT_EQ(
      written.error().message,
      "/in/model.etdp: is an input of this command; refusing to overwrite it");
  EXPECT_EQ(memory.Text("/in/model.etdp"), "etdump bytes");
  EXPECT_TRUE(disk.WriteText("/in/absent.etdp", "x").ok());
  EXPECT_EQ(memory.writes(), 1);
}

TEST(GuardedDiskTest, AnInputRefusedAsTooLargeIsStillAnInput) {
  testing::MemoryDisk memory;
  memory.AddFile("big.json", "0123456789");
  GuardedDisk disk(memory);
  EXPECT_FALSE(disk.Read("big.json", 4).ok());
  EXPECT_TRUE(disk.IsInput("big.json"));
}

TEST(GuardedDiskTest, SpecialFilesAreRefusedFirstWithTheInnerDisksWords) {
  testing::MemoryDisk memory;
  memory.AddSpecial("/dev/null", "is a character device");
  GuardedDisk disk(memory);
  EXPECT_FALSE(disk.Read("/dev/null", 10).ok());
  Status written = disk.WriteText("/dev/null", "x");
  ASSERT_FALSE(written.ok());
  EXPECT_EQ(written.error().message,
            "/dev/null: is a character device; refusing to replace it with a "
            "regular file");
  EXPECT_EQ(disk.CheckWriteTarget("").error().code, ErrorCode::kUsage);
}

TEST(GuardedDiskTest, ARewrittenOutputIsNotAnInput) {
  // A file written and then read back by the same command (a results file
  // its reports are made from) becomes an input only once it is read.
  testing::MemoryDisk memory;
  GuardedDisk disk(memory);
  ASSERT_TRUE(disk.WriteText("out.json", "1").ok());
  ASSERT_TRUE(disk.WriteText("out.json", "2").ok());
  ASSERT_TRUE(disk.ReadText("out.json").ok());
  EXPECT_FALSE(disk.WriteText("out.json", "3").ok());
  EXPECT_EQ(memory.Text("out.json"), "2");
}

}  // namespace
}  // namespace etbench
