// Layout randomisation for external runners (see ab_layout.h).

#include "etbench/harness/ab_layout.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>

#include "etbench/base/atomic_file.h"
#include "etbench/base/input_file.h"
#include "etbench/harness/process.h"

namespace etbench::harness {
namespace {

namespace fs = std::filesystem;

// Why a program cannot run from a copy, or "" when it can: a script may
// look for files beside itself ($0, BASH_SOURCE), and an ELF binary whose
// run path uses $ORIGIN loads libraries relative to itself.
std::string InPlaceReason(const std::vector<uint8_t>& bytes) {
  static constexpr uint8_t kElf[] = {0x7f, 'E', 'L', 'F'};
  if (bytes.size() < 4 || !std::equal(kElf, kElf + 4, bytes.begin())) {
    return "not an ELF executable (a script may look for files beside it)";
  }
  static constexpr char kOrigin[] = "$ORIGIN";
  const auto* origin = reinterpret_cast<const uint8_t*>(kOrigin);
  if (std::search(bytes.begin(), bytes.end(), origin, origin + std::strlen(kOrigin)) !=
      bytes.end()) {
    return "it loads libraries relative to itself ($ORIGIN)";
  }
  return "";
}

uint64_t FileSize(const std::string& path) {
  std::error_code ec;
  const auto size = fs::file_size(path, ec);
  return ec ? 0 : static_cast<uint64_t>(size);
}

// A path component is at most 255 bytes (NAME_MAX).
constexpr int kMaxComponentBytes = 255;

// The name of the symbolic link (to ".") that lengthens a path by
// `length` + 1 bytes.
std::string PathPadName(std::size_t length) { return std::string(length, 'p'); }

}  // namespace

AbLayout::AbLayout(std::string dir, const AbLayoutOptions& options, uint64_t seed)
    // Its own stream: the ABBA order (AbbaSchedule) uses the seed itself.
    : dir_(std::move(dir)), options_(options), rng_(internal::Fnv1a64("layout", seed)) {
  // Apply splices the path padding in after `dir_`.
  while (dir_.size() > 1 && dir_.back() == '/') dir_.pop_back();
}

AbLayout::~AbLayout() {
  std::error_code ec;
  fs::remove_all(dir_, ec);
}

Result<std::unique_ptr<AbLayout>> AbLayout::Create(const SuiteConfig& a, const SuiteConfig& b,
                                                   const AbLayoutOptions& options, uint64_t seed,
                                                   const std::string& dir) {
  if (options.copies < 0 || options.max_pad_bytes < 0) {
    return UsageError("layout randomisation: copies and padding must be >= 0");
  }
  std::error_code ec;
  if (fs::exists(dir, ec)) return IoError(dir + ": exists already (layout copies)");
  if (!fs::create_directories(dir, ec) || ec) {
    return IoError(dir + ": cannot create the directory for the layout copies: " +
                   (ec ? ec.message() : std::string("unknown error")));
  }
  // From here on the destructor removes `dir`, also on an error below.
  std::unique_ptr<AbLayout> layout(new AbLayout(dir, options, seed));
  uint64_t bytes = 0;
  for (const SuiteConfig* c : {&a, &b}) {
    if (c->runner == RunnerKind::kCommand && !c->command.argv.empty()) {
      bytes += FileSize(FindExecutable(c->command.argv.front(), SearchPath(c->command.process.env)));
    }
  }
  // Copies of both sides within kLayoutCopyBytes.
  int copies = options.copies;
  if (bytes > 0) {
    copies = static_cast<int>(
        std::min<double>(copies, std::floor(kLayoutCopyBytes / static_cast<double>(bytes))));
  }
  if (Status s = layout->MakeSide(a, AbVariant::kA, copies); !s) return s.error();
  if (Status s = layout->MakeSide(b, AbVariant::kB, copies); !s) return s.error();
  if (Status s = layout->MakePathPads(); !s) return s.error();
  return layout;
}

Status AbLayout::MakeSide(const SuiteConfig& config, AbVariant v, int copies) {
  Side& side = sides_[VariantIndex(v)];
  if (config.runner != RunnerKind::kCommand || config.command.argv.empty()) return Ok{};
  side.command = true;
  const std::string& argv0 = config.command.argv.front();
  side.program = FindExecutable(argv0, SearchPath(config.command.process.env));
  if (side.program.empty()) return InputError(argv0 + ": not found or not executable");
  const std::string name = fs::path(side.program).filename().string();
  // Run in place, the program is reached through "<dir>/a_", a link to
  // its own directory, so that its path can still be lengthened.
  const auto in_place = [&](std::string reason) -> Status {
    side.in_place_reason = std::move(reason);
    const std::string link = dir_ + "/" + VariantFileName(v) + "_";
    std::error_code ec;
    const fs::path target = fs::canonical(fs::path(side.program).parent_path(), ec);
    if (ec || symlink(target.c_str(), link.c_str()) != 0) {
      return IoError(link + ": cannot create the symbolic link: " +
                     (ec ? ec.message() : std::string(std::strerror(errno))));
    }
    side.in_place = link + "/" + name;
    return Ok{};
  };
  if (copies < 2) {
    return in_place(options_.copies < 2 ? "copies turned off"
                                        : "too large to copy 2 times per side within " +
                                              std::to_string(static_cast<long long>(
                                                  kLayoutCopyBytes / 1e6)) +
                                              " MB");
  }
  auto file = InputFile::Open(side.program);
  if (!file) return Error{file.error().code, "layout copies: " + file.error().message};
  auto bytes = file->ReadAll(static_cast<uint64_t>(kLayoutCopyBytes));
  if (!bytes) return Error{bytes.error().code, "layout copies: " + bytes.error().message};
  if (std::string reason = InPlaceReason(*bytes); !reason.empty()) return in_place(reason);
  for (int k = 0; k < copies; ++k) {
    // Same file name as the original, in directories of equal length: the
    // copies differ from each other only where they sit in memory.
    const fs::path sub = fs::path(dir_) / (std::string(VariantFileName(v)) + std::to_string(k));
    std::error_code ec;
    fs::create_directory(sub, ec);
    if (ec) return IoError(sub.string() + ": cannot create: " + ec.message());
    const std::string path = (sub / name).string();
    if (Status s = WriteArtifactFile(path, *bytes); !s) {
      return Error{s.error().code, "layout copies: " + s.error().message};
    }
    if (chmod(path.c_str(), 0755) != 0) {
      return IoError(path + ": cannot make the copy executable: " + std::strerror(errno));
    }
    side.copies.push_back(path);
  }
  return Ok{};
}

Status AbLayout::MakePathPads() {
  options_.max_path_pad_bytes = std::clamp(options_.max_path_pad_bytes, 0, kMaxComponentBytes);
  if (!sides_[0].command && !sides_[1].command) options_.max_path_pad_bytes = 0;
  for (int length = 1; length <= options_.max_path_pad_bytes; ++length) {
    const std::string link = (fs::path(dir_) / PathPadName(static_cast<std::size_t>(length))).string();
    if (symlink(".", link.c_str()) != 0) {
      return IoError(link + ": cannot create the symbolic link: " + std::strerror(errno));
    }
  }
  return Ok{};
}

int AbLayout::NextCopy(Side& side) {
  if (side.order.empty()) {
    // A new round: every copy once, in random order (Fisher–Yates), so
    // each copy runs equally often and its bias averages out of the side.
    side.order.resize(side.copies.size());
    for (std::size_t i = 0; i < side.order.size(); ++i) side.order[i] = static_cast<int>(i);
    for (std::size_t i = side.order.size(); i > 1; --i) {
      std::swap(side.order[i - 1], side.order[rng_.Below(static_cast<uint32_t>(i))]);
    }
  }
  const int copy = side.order.back();
  side.order.pop_back();
  return copy;
}

LayoutChoice AbLayout::Apply(AbVariant v, SuiteConfig* config) {
  LayoutChoice choice;
  Side& side = sides_[VariantIndex(v)];
  if (!side.command || config->runner != RunnerKind::kCommand || config->command.argv.empty()) {
    return choice;
  }
  if (!side.copies.empty()) choice.copy = NextCopy(side);
  const std::string& program =
      choice.copy < 0 ? side.in_place : side.copies[static_cast<std::size_t>(choice.copy)];
  const std::size_t link = rng_.Below(static_cast<uint32_t>(options_.max_path_pad_bytes) + 1);
  // "<dir>/pppp/a3/executor_runner" is "<dir>/a3/executor_runner", in a
  // path `link` + 1 bytes longer.
  config->command.argv.front() =
      link == 0 ? program : dir_ + "/" + PathPadName(link) + program.substr(dir_.size());
  choice.path_pad_bytes = link == 0 ? 0 : link + 1;
  choice.pad_bytes = rng_.Below(static_cast<uint32_t>(options_.max_pad_bytes) + 1);
  config->command.process.env[kLayoutPadVariable] = std::string(choice.pad_bytes, 'x');
  config->labels["layout_copy"] = choice.copy < 0 ? "none" : std::to_string(choice.copy);
  config->labels["layout_path_pad_bytes"] = std::to_string(choice.path_pad_bytes);
  config->labels["layout_pad_bytes"] = std::to_string(choice.pad_bytes);
  return choice;
}

std::string AbLayout::Describe() const {
  std::string text;
  for (const AbVariant v : {AbVariant::kA, AbVariant::kB}) {
    const Side& side = sides_[VariantIndex(v)];
    if (!side.command) continue;
    const std::string name = fs::path(side.program).filename().string();
    text += std::string(VariantName(v)) + ": ";
    text += side.copies.empty()
                ? name + " run in place (" + side.in_place_reason + ")"
                : std::to_string(side.copies.size()) + " copies of " + name;
    text += "; ";
  }
  if (text.empty()) return "";
  if (options_.max_path_pad_bytes > 0) {
    text += "paths +0-" + std::to_string(options_.max_path_pad_bytes + 1) + " bytes; ";
  }
  return text + kLayoutPadVariable + " 0-" + std::to_string(options_.max_pad_bytes) + " bytes";
}

}  // namespace etbench::harness
