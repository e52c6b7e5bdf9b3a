#pragma once
// Layout randomisation for `etbench ab` with external runners.
//
// Two byte-identical copies of one executable are not the same program to
// the machine: their text sits in different page-cache pages (so in other
// sets of the physically indexed caches), and their paths and environments
// move the initial stack and, through every string the program copies
// (argv[0] into its flags library, say), the heap. ASLR moves the stack by
// random amounts but the heap only by whole pages, so a path a few bytes
// longer shifts the heap's objects within their pages and cache lines the
// same way in every run: a difference fixed for a whole comparison, which
// interleaving cannot cancel and which can be as large as the changes
// being looked for (Mytkowicz et al. 2009, "Producing wrong data without
// doing anything obviously wrong!"; Curtsinger & Berger 2013, STABILIZER;
// measured in docs/comparison.md, "Layout randomisation"). AbLayout turns
// it into run-to-run noise, which the block statistics already account
// for: every run of a side starts its program from one of K byte copies
// (made once, used in turn in a seeded random order, removed at the end),
// through a path whose length varies at random (a symbolic link to the
// copies' directory, 0–255 bytes), with an environment variable of random
// length (ETBENCH_LAYOUT_PAD, 0–4095 bytes) that moves the stack.

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "etbench/base/result.h"
#include "etbench/compare/ab_schedule.h"
#include "etbench/harness/config.h"
#include "etbench/stats/rng.h"

namespace etbench::harness {

struct AbLayoutOptions {
  bool enabled = true;
  /// Byte copies of each side's program (fewer when they would pass
  /// kLayoutCopyBytes together; none below 2).
  int copies = 8;
  /// ETBENCH_LAYOUT_PAD's length is uniform in [0, max_pad_bytes].
  int max_pad_bytes = 4095;
  /// The copies' paths grow by a uniform [0, max_path_pad_bytes] bytes (at
  /// most 255: one path component).
  int max_path_pad_bytes = 255;
};

/// The environment variable whose random length moves the stack.
inline constexpr const char kLayoutPadVariable[] = "ETBENCH_LAYOUT_PAD";
/// At most this many bytes of copies for both sides together.
inline constexpr double kLayoutCopyBytes = 32e6;

/// What one run got: the copy of its side's program (-1: the program
/// itself, not copied), the bytes its path grew by, and the padding's
/// length.
struct LayoutChoice {
  int copy = -1;
  std::size_t path_pad_bytes = 0;
  std::size_t pad_bytes = 0;
};

class AbLayout {
 public:
  /// For each side whose runner is the command runner: resolves its
  /// program (argv[0], PATH as the run would) and, when it is an ELF
  /// executable that does not find its libraries relative to itself
  /// ($ORIGIN), writes `copies` byte copies (same file name, mode 0755,
  /// never links: a link shares the pages) under `dir`, which is created
  /// and must not exist, and the symbolic links to `dir` that lengthen
  /// their paths. A script, an $ORIGIN binary or one too large is
  /// run in place, through a link to its directory, and gets only the
  /// paddings (Describe says why). Other runners get nothing. Errors (one line naming the file): an unreadable
  /// program, an uncreatable directory or an unwritable copy; `dir` is
  /// removed again.
  static Result<std::unique_ptr<AbLayout>> Create(const SuiteConfig& a, const SuiteConfig& b,
                                                  const AbLayoutOptions& options, uint64_t seed,
                                                  const std::string& dir);
  /// Removes the copies and `dir`.
  ~AbLayout();
  AbLayout(const AbLayout&) = delete;
  AbLayout& operator=(const AbLayout&) = delete;

  /// The next run of side `v`: its program becomes the next copy (each
  /// copy once per `copies` runs of the side, in a seeded random order)
  /// through a path of random extra length, ETBENCH_LAYOUT_PAD gets a
  /// random length, and the run's labels record all three (layout_copy,
  /// layout_path_pad_bytes, layout_pad_bytes). Runners other than the command
  /// runner are left alone.
  LayoutChoice Apply(AbVariant v, SuiteConfig* config);

  /// "A: 8 copies of executor_runner; B: 8 copies of executor_runner;
  /// paths +0-255 bytes; ETBENCH_LAYOUT_PAD 0-4095 bytes", with the
  /// reason for a side run in place.
  std::string Describe() const;
  const std::string& dir() const { return dir_; }
  /// The copies of side `v` (empty when it runs in place).
  const std::vector<std::string>& copies(AbVariant v) const { return sides_[VariantIndex(v)].copies; }

 private:
  struct Side {
    bool command = false;
    std::string program;               // the resolved original
    std::vector<std::string> copies;   // empty: run in place
    std::string in_place;              // in place: the program through "<dir>/a_"
    std::string in_place_reason;       // why not copied
    std::vector<int> order;            // copies still to use this round
  };
  AbLayout(std::string dir, const AbLayoutOptions& options, uint64_t seed);
  Status MakeSide(const SuiteConfig& config, AbVariant v, int copies);
  Status MakePathPads();
  int NextCopy(Side& side);

  std::string dir_;
  AbLayoutOptions options_;
  internal::Xoshiro256 rng_;
  std::array<Side, 2> sides_;
};

}  // namespace etbench::harness
