// Persisted writes: never onto a non-regular file or an input of the
// command; "refuse to overwrite" is atomic.
#include "etbench/base/output_file.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>

#include "etbench/base/atomic_file.h"
#include "etbench/base/input_file.h"
#include "support/test_support.h"

namespace etbench {
namespace {

const std::vector<uint8_t> kBytes = {'h', 'i', '\n'};

TEST(OutputFileTest, RefusesToReplaceADeviceNode) {
  // As root, replacing /dev/null with a regular file would break the system.
  // The check itself has no side effects, so it is tried on /dev/null; the
  // write on a private device node where the container allows creating one.
  Status checked = CheckOutputTarget("/dev/null");
  ASSERT_FALSE(checked.ok());
  EXPECT_EQ(checked.error().message,
            "/dev/null: is a character device; refusing to replace it with a regular file");
  testing::TempDir dir;
  const std::string node = dir.File("null");
  if (::mknod(node.c_str(), S_IFCHR | 0666, makedev(1, 3)) != 0) {
    GTEST_SKIP() << "cannot create a device node here";
  }
  Status written = WriteFileAtomically(node, kBytes);
  ASSERT_FALSE(written.ok());
  EXPECT_EQ(written.error().message,
            node + ": is a character device; refusing to replace it with a regular file");
  struct stat st {};
  ASSERT_EQ(::stat(node.c_str(), &st), 0);
  EXPECT_TRUE(S_ISCHR(st.st_mode));
}

TEST(OutputFileTest, RefusesFifoSymlinkAndDirectoryTargets) {
  testing::TempDir dir;
  ASSERT_EQ(::mkfifo(dir.File("fifo").c_str(), 0600), 0);
  testing::WriteTextFile(dir.File("real"), "keep");
  ASSERT_EQ(::symlink(dir.File("real").c_str(), dir.File("link").c_str()), 0);
  ::mkdir(dir.File("sub").c_str(), 0700);
  for (const char* name : {"fifo", "link", "sub"}) {
    Status written = WriteFileAtomically(dir.File(name), kBytes);
    EXPECT_FALSE(written.ok()) << name;
    EXPECT_NE(written.error().message.find("refusing to replace"), std::string::npos)
        << written.error().message;
  }
  EXPECT_EQ(testing::ReadTextFile(dir.File("real")), "keep");
  EXPECT_TRUE(std::filesystem::is_symlink(dir.File("link")));
}

TEST(OutputFileTest, RefusesACallersOwnInputUnderAnyName) {
  // The Python Inspector's exports: no command's disk, the inputs given.
  testing::TempDir dir;
  const std::string input = dir.File("dump.etdp");
  testing::WriteTextFile(input, "etdump");
  ASSERT_EQ(::link(input.c_str(), dir.File("alias.etdp").c_str()), 0);
  const std::optional<FileIdentity> id = IdentityOf(input);
  ASSERT_TRUE(id.has_value());
  EXPECT_FALSE(IdentityOf(dir.File("absent")).has_value());
  for (const std::string& target : {input, dir.File("alias.etdp"), dir.path() + "/./dump.etdp"}) {
    Status checked = CheckOutputTarget(target, {*id});
    ASSERT_FALSE(checked.ok()) << target;
    EXPECT_EQ(checked.error().message,
              target + ": is an input of this command; refusing to overwrite it");
  }
  EXPECT_TRUE(CheckOutputTarget(dir.File("trace.json"), {*id}).ok());
  EXPECT_TRUE(CheckOutputTarget(input, {}).ok());  // without the list, an ordinary file
}

TEST(OutputFileTest, WriteNewFileRefusesAnExistingFile) {
  testing::TempDir dir;
  ASSERT_TRUE(WriteNewFileAtomically(dir.File("b.json"), kBytes).ok());
  Status again = WriteNewFileAtomically(dir.File("b.json"), {'x'});
  ASSERT_FALSE(again.ok());
  EXPECT_EQ(again.error().message, dir.File("b.json") + ": already exists");
  EXPECT_EQ(testing::ReadTextFile(dir.File("b.json")), "hi\n");
  // No temporary files are left behind.
  std::size_t files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir.path())) {
    (void)entry;
    ++files;
  }
  EXPECT_EQ(files, 1u);
}

TEST(OutputFileTest, OfConcurrentNewFileWritersExactlyOneSucceeds) {
  testing::TempDir dir;
  const std::string path = dir.File("baseline.json");
  constexpr int kWriters = 8;
  pid_t pids[kWriters];
  for (int i = 0; i < kWriters; ++i) {
    pids[i] = ::fork();
    ASSERT_GE(pids[i], 0);
    if (pids[i] == 0) {
      const std::vector<uint8_t> bytes(1000, static_cast<uint8_t>('a' + i));
      ::_exit(WriteNewFileAtomically(path, bytes).ok() ? 0 : 1);
    }
  }
  int successes = 0;
  for (pid_t pid : pids) {
    int status = 0;
    ASSERT_EQ(::waitpid(pid, &status, 0), pid);
    ASSERT_TRUE(WIFEXITED(status));
    successes += WEXITSTATUS(status) == 0;
  }
  EXPECT_EQ(successes, 1);
  const std::string text = testing::ReadTextFile(path);
  ASSERT_EQ(text.size(), 1000u);
  EXPECT_EQ(text, std::string(1000, text[0]));  // one writer's bytes, whole
}

}  // namespace
}  // namespace etbench
