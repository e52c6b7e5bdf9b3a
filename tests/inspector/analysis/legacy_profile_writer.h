#pragma once
// Writes legacy prof_result.bin images for the tests: the layout of the
// runtime's old profiler (profiler/profiler.h), little-endian.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "etbench/inspector/event_block.h"
#include "etbench/inspector/legacy_profile.h"

namespace etbench::testing {

struct LegacyBlockSpec {
  std::string name;
  uint32_t version = kLegacyProfilerVersion;
  std::vector<LegacyProfileEntry> entries;
  std::vector<LegacyAllocator> allocators;
  std::vector<LegacyAllocation> allocations;
  /// Capacities; unset: the used count plus `kSlack` unused slots (filled
  /// with garbage the parser must ignore).
  std::optional<uint32_t> max_entries;
  std::optional<uint32_t> max_allocators;
  std::optional<uint32_t> max_allocations;
  /// Used counts written in the header; unset: the vectors' sizes.
  std::optional<uint32_t> used_entries;
};

inline constexpr uint32_t kSlack = 2;

/// The name field as the runtime fills it: the first 32 bytes, NUL-padded.
void PutName(std::vector<uint8_t>* out, const std::string& name);

std::vector<uint8_t> WriteLegacyProfile(
    const std::vector<LegacyBlockSpec>& blocks);

/// A profile entry.
LegacyProfileEntry Entry(std::string name, int32_t chain, uint32_t instruction,
                         uint64_t start, uint64_t end);

/// One "Execute" iteration as the legacy profiler records it (entries in
/// the order they begin), all times in ns from `base`:
///   Method::execute [base, base + execute)
///   OPERATOR_CALL ⊃ native_call_add.out (add), OPERATOR_CALL ⊃
///   native_call_mul.out (mul), delegate_execute (delegate);
/// each OPERATOR_CALL is its kernel + 10 µs, 10 µs gaps between.
LegacyBlockSpec ExecuteIteration(uint64_t base, uint64_t execute, uint64_t add,
                                 uint64_t mul, uint64_t delegate);

/// The block with the capacities of upstream's default build
/// (runtime/platform/profiler.h: MAX_PROFILE_EVENTS 1024,
/// MEM_PROFILE_MAX_ALLOCATORS 32, MAX_MEM_PROFILE_EVENTS 1024), so that
/// every block of the file has upstream's size, prof_buf_size.
LegacyBlockSpec WithUpstreamCapacities(LegacyBlockSpec block);

/// One "Execute" iteration of a delegated model, times in ns from `base`:
///   Method::execute [base, base + execute)
///   DELEGATE_CALL (instruction 0) ⊃ delegate_execute (instruction 0,
///   `delegate` long, 2 µs inside each end of the DELEGATE_CALL), then
///   OPERATOR_CALL ⊃ native_call_add.out (instruction 1, `add` long).
LegacyBlockSpec DelegateIteration(uint64_t base, uint64_t execute,
                                  uint64_t delegate, uint64_t add);

/// Deterministic xorshift64 numbers for the seeded random tests.
class XorShift {
 public:
  explicit XorShift(uint64_t seed) : state_(seed) {}
  uint64_t Next() {
    state_ ^= state_ << 13;
    state_ ^= state_ >> 7;
    state_ ^= state_ << 17;
    return state_;
  }

 private:
  uint64_t state_;
};

/// Converts (ConvertLegacyToEtdump), writes (WriteEtdump) and reads back
/// (EtdumpFile::FromBytes, BuildEventBlocks with default options): what
/// `etbench convert` then `inspect --etdump_path` do.
Result<std::vector<EventBlock>> ConvertAndRead(const LegacyProfile& profile);

/// The sample file of the legacy tests: "default" (Method::init, two
/// allocators, three allocations), then three "Execute" iterations:
///   execute 1000000 / 1234567 / 2000000 ns, add 300000 / 333333 / 1000000,
///   mul 250000 / 222222 / 500000, delegate 150000 / 111111 / 0.
std::vector<LegacyBlockSpec> SampleLegacyBlocks();

/// SampleLegacyBlocks written and parsed back (a failed parse fails the
/// calling test and returns an empty profile).
LegacyProfile SampleLegacyProfile();

}  // namespace etbench::testing
