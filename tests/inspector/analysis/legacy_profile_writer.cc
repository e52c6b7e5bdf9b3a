// Writes legacy prof_result.bin images for the tests.
#include "inspector/analysis/legacy_profile_writer.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "etbench/inspector/etdump_file.h"
#include "etbench/inspector/etdump_writer.h"
#include "etbench/inspector/inspector.h"
#include "etbench/inspector/legacy_convert.h"
#include "etbench/inspector/legacy_profile.h"

namespace etbench::testing {
namespace {

void PutU32(std::vector<uint8_t>* out, uint32_t v) {
  for (int i = 0; i < 4; ++i)
    out->push_back(static_cast<uint8_t>(v >> (8 * i)));
}
void PutU64(std::vector<uint8_t>* out, uint64_t v) {
  for (int i = 0; i < 8; ++i)
    out->push_back(static_cast<uint8_t>(v >> (8 * i)));
}
void PutGarbage(std::vector<uint8_t>* out, std::size_t n) {
  out->insert(out->end(), n, 0xAB);
}

}  // namespace

void PutName(std::vector<uint8_t>* out, const std::string& name) {
  const std::size_t n = std::min<std::size_t>(name.size(), kLegacyNameSize);
  out->insert(out->end(), name.begin(),
              name.begin() + static_cast<std::ptrdiff_t>(n));
  out->insert(out->end(), kLegacyNameSize - n, 0);
}

std::vector<uint8_t> WriteLegacyProfile(
    const std::vector<LegacyBlockSpec>& blocks) {
  std::vector<uint8_t> out;
  for (const LegacyBlockSpec& b : blocks) {
    const auto entries = static_cast<uint32_t>(b.entries.size());
    const auto allocators = static_cast<uint32_t>(b.allocators.size());
    const auto allocations = static_cast<uint32_t>(b.allocations.size());
    const uint32_t max_entries = b.max_entries.value_or(entries + kSlack);
    const uint32_t max_allocators =
        b.max_allocators.value_or(allocators + kSlack);
    const uint32_t max_allocations =
        b.max_allocations.value_or(allocations + kSlack);
    PutName(&out, b.name);
    PutU32(&out, b.version);
    PutU32(&out, max_entries);
    PutU32(&out, b.used_entries.value_or(entries));
    PutU32(&out, max_allocators);
    PutU32(&out, allocators);
    PutU32(&out, max_allocations);
    PutU32(&out, allocations);
    PutU32(&out, 0);  // padding to 64 bytes
    for (const LegacyProfileEntry& e : b.entries) {
      PutName(&out, e.name);
      PutU32(&out, static_cast<uint32_t>(e.chain_index));
      PutU32(&out, e.instruction_index);
      PutU64(&out, e.start_time);
      PutU64(&out, e.end_time);
    }
    PutGarbage(&out, std::size_t{max_entries - std::min(max_entries, entries)} *
                         kLegacyProfileEntrySize);
    for (const LegacyAllocator& a : b.allocators) {
      PutName(&out, a.name);
      PutU64(&out, a.allocator_id);
    }
    PutGarbage(&out, std::size_t{max_allocators -
                                 std::min(max_allocators, allocators)} *
                         kLegacyAllocatorEntrySize);
    for (const LegacyAllocation& a : b.allocations) {
      PutU32(&out, a.allocator_id);
      PutU32(&out, a.allocation_size);
    }
    PutGarbage(&out, std::size_t{max_allocations -
                                 std::min(max_allocations, allocations)} *
                         kLegacyAllocationEntrySize);
  }
  return out;
}

LegacyProfileEntry Entry(std::string name, int32_t chain, uint32_t instruction,
                         uint64_t start, uint64_t end) {
  LegacyProfileEntry e;
  e.name = std::move(name);
  e.chain_index = chain;
  e.instruction_index = instruction;
  e.start_time = start;
  e.end_time = end;
  return e;
}

LegacyBlockSpec ExecuteIteration(uint64_t base, uint64_t execute, uint64_t add,
                                 uint64_t mul, uint64_t delegate) {
  LegacyBlockSpec b;
  b.name = "Execute";
  const uint64_t op0 = base + 10000;
  const uint64_t add_end = op0 + 5000 + add;
  const uint64_t op1 = add_end + 5000 + 10000;
  const uint64_t mul_end = op1 + 5000 + mul;
  const uint64_t delegate_start = mul_end + 5000 + 10000;
  b.entries = {
      Entry("Method::execute", -1, 0, base, base + execute),
      Entry("OPERATOR_CALL", 0, 0, op0, add_end + 5000),
      Entry("native_call_add.out", 0, 0, op0 + 5000, add_end),
      Entry("OPERATOR_CALL", 0, 1, op1, mul_end + 5000),
      Entry("native_call_mul.out", 0, 1, op1 + 5000, mul_end),
      Entry("delegate_execute", 0, 2, delegate_start,
            delegate_start + delegate),
  };
  return b;
}

Result<std::vector<EventBlock>> ConvertAndRead(const LegacyProfile& profile) {
  const Result<EtdumpRecord> record = ConvertLegacyToEtdump(profile);
  if (!record.ok()) return record.error();
  Result<EtdumpFile> file =
      EtdumpFile::FromBytes(WriteEtdump(record.value()), "converted.etdp");
  if (!file.ok()) return file.error();
  return BuildEventBlocks(file.value(), {});
}

LegacyBlockSpec WithUpstreamCapacities(LegacyBlockSpec block) {
  block.max_entries = 1024;
  block.max_allocators = 32;
  block.max_allocations = 1024;
  return block;
}

LegacyBlockSpec DelegateIteration(uint64_t base, uint64_t execute,
                                  uint64_t delegate, uint64_t add) {
  LegacyBlockSpec b;
  b.name = "Execute";
  const uint64_t call = base + 10000;
  const uint64_t call_end = call + 2000 + delegate + 2000;
  const uint64_t op = call_end + 10000;
  b.entries = {
      Entry("Method::execute", -1, 0, base, base + execute),
      Entry("DELEGATE_CALL", 0, 0, call, call_end),
      Entry("delegate_execute", 0, 0, call + 2000, call + 2000 + delegate),
      Entry("OPERATOR_CALL", 0, 1, op, op + 5000 + add + 5000),
      Entry("native_call_add.out", 0, 1, op + 5000, op + 5000 + add),
  };
  return b;
}

std::vector<LegacyBlockSpec> SampleLegacyBlocks() {
  LegacyBlockSpec init;
  init.name = "default";
  init.entries = {Entry("Method::init", -1, 0, 1000, 251000)};
  init.allocators = {{"planned", 0}, {"runtime", 1}};
  init.allocations = {{0, 1024}, {1, 64}, {0, 512}};
  return {init, ExecuteIteration(10000000, 1000000, 300000, 250000, 150000),
          ExecuteIteration(20000000, 1234567, 333333, 222222, 111111),
          ExecuteIteration(30000000, 2000000, 1000000, 500000, 0)};
}

LegacyProfile SampleLegacyProfile() {
  Result<LegacyProfile> profile =
      ParseLegacyProfile(WriteLegacyProfile(SampleLegacyBlocks()), "prof_result.bin");
  EXPECT_TRUE(profile.ok()) << profile.error().message;
  return profile.ok() ? std::move(profile).value() : LegacyProfile{};
}

}  // namespace etbench::testing
