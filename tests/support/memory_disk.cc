#include "support/memory_disk.h"

namespace etbench::testing {
namespace {

// "a/b/c.json" -> "a/b"; "c.json" -> ""; "/c" -> "/".
std::string ParentOf(const std::string& path) {
  const std::size_t slash = path.rfind('/');
  if (slash == std::string::npos) return "";
  return slash == 0 ? "/" : path.substr(0, slash);
}

}  // namespace

void MemoryDisk::AddFile(const std::string& path, const std::string& text) {
  const std::string parent = ParentOf(path);
  if (!parent.empty()) (void)CreateDirectories(parent);
  files_[path] =
      File{std::vector<uint8_t>(text.begin(), text.end()), next_inode_++};
}

void MemoryDisk::AddSpecial(const std::string& path, const std::string& kind) {
  specials_[path] = kind;
}

void MemoryDisk::Link(const std::string& existing, const std::string& alias) {
  files_[alias] = files_.at(existing);
}

std::string MemoryDisk::Text(const std::string& path) const {
  auto it = files_.find(path);
  if (it == files_.end()) return "";
  return std::string(it->second.bytes.begin(), it->second.bytes.end());
}

std::vector<std::string> MemoryDisk::Files() const {
  std::vector<std::string> paths;
  for (const auto& [path, file] : files_) paths.push_back(path);
  return paths;
}

bool MemoryDisk::ParentExists(const std::string& path) const {
  const std::string parent = ParentOf(path);
  return parent.empty() || parent == "/" || parent == "." ||
         dirs_.count(parent) > 0;
}

Result<std::vector<uint8_t>> MemoryDisk::Read(const std::string& path,
                                              uint64_t max_bytes) {
  ++reads_;
  if (path.empty()) return InputError("empty file name");
  if (auto special = specials_.find(path); special != specials_.end()) {
    return InputError(path + ": " + special->second + ", not a regular file");
  }
  if (dirs_.count(path) > 0)
    return InputError(path + ": is a directory, not a regular file");
  auto it = files_.find(path);
  if (it == files_.end())
    return IoError(path + ": cannot open (No such file or directory)");
  const std::vector<uint8_t>& bytes = it->second.bytes;
  if (bytes.size() > max_bytes) {
    return InputError(path + ": " + std::to_string(bytes.size()) +
                      " bytes is larger than the " + std::to_string(max_bytes) +
                      "-byte limit for this kind of file");
  }
  return bytes;
}

FileStat MemoryDisk::Stat(const std::string& path) {
  FileStat stat;
  if (auto it = files_.find(path); it != files_.end()) {
    stat.exists = true;
    stat.regular = true;
    stat.size = it->second.bytes.size();
    stat.identity = FileIdentity{0, it->second.inode};
  } else if (specials_.count(path) > 0 || dirs_.count(path) > 0) {
    stat.exists = true;
  }
  return stat;
}

Status MemoryDisk::CheckWriteTarget(const std::string& path) {
  if (path.empty()) return UsageError("empty output file name");
  if (auto special = specials_.find(path); special != specials_.end()) {
    return InputError(path + ": " + special->second +
                      "; refusing to replace it with a regular file");
  }
  if (dirs_.count(path) > 0) {
    return InputError(
        path + ": is a directory; refusing to replace it with a regular file");
  }
  return Ok{};
}

Status MemoryDisk::WriteAtomically(const std::string& path,
                                   const std::vector<uint8_t>& bytes,
                                   const AtomicWriteOptions& /*options*/) {
  if (Status target = CheckWriteTarget(path); !target.ok()) return target;
  if (!ParentExists(path)) {
    return IoError(path + ": cannot create " + path +
                   ".tmp.0 (No such file or directory)");
  }
  files_[path] = File{bytes, next_inode_++};
  ++writes_;
  return Ok{};
}

Status MemoryDisk::WriteNew(const std::string& path,
                            const std::vector<uint8_t>& bytes) {
  if (Status target = CheckWriteTarget(path); !target.ok()) return target;
  if (files_.count(path) > 0) return InputError(path + ": already exists");
  return WriteAtomically(path, bytes, AtomicWriteOptions{});
}

Status MemoryDisk::CreateDirectories(const std::string& dir) {
  for (std::string d = dir; !d.empty() && d != "/" && d != ".";
       d = ParentOf(d)) {
    if (files_.count(d) > 0 || specials_.count(d) > 0)
      return IoError("Not a directory");
    dirs_.insert(d);
  }
  return Ok{};
}

}  // namespace etbench::testing
