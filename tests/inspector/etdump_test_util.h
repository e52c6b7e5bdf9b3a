#pragma once
// Builders for hand-made ETDumps used across the inspector tests.

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "etbench/inspector/etdump_file.h"
#include "etbench/inspector/etdump_writer.h"
#include "etbench/inspector/inspector.h"

namespace etbench::testing {

inline ProfileEventRecord Profile(std::string name, int32_t chain, int32_t instruction,
                                  uint64_t start, uint64_t end) {
  ProfileEventRecord e;
  e.name = std::move(name);
  e.chain_index = chain;
  e.instruction_id = instruction;
  e.start_time = start;
  e.end_time = end;
  return e;
}

inline ProfileEventRecord DelegateProfile(int32_t instruction, int32_t id_int, std::string id_str,
                                          uint64_t start, uint64_t end) {
  ProfileEventRecord e;
  e.instruction_id = instruction;
  e.delegate_debug_id_int = id_int;
  e.delegate_debug_id_str = std::move(id_str);
  e.start_time = start;
  e.end_time = end;
  return e;
}

inline DebugEventRecord IntDebug(std::string name, int32_t instruction, int64_t value,
                                 bool output = false) {
  DebugEventRecord d;
  d.name = std::move(name);
  d.instruction_id = instruction;
  d.debug_entry.type = ValueType::kInt;
  d.debug_entry.int_value = value;
  if (output) d.debug_entry.output = true;
  return d;
}

/// Calls visit(bytes, pos) for copies of `full` with each byte flipped in
/// turn (pos = that byte), then for `random_trials` copies with a random
/// value at a random place (seeded with `seed`). Stops when visit returns
/// false.
template <typename Visit>
void ForEachMutation(const std::vector<uint8_t>& full, std::size_t random_trials, unsigned seed,
                     Visit visit) {
  std::mt19937 rng(seed);
  for (std::size_t trial = 0; trial < full.size() + random_trials; ++trial) {
    std::vector<uint8_t> bytes = full;
    const std::size_t pos = trial < full.size() ? trial : rng() % bytes.size();
    bytes[pos] = trial < full.size() ? static_cast<uint8_t>(bytes[pos] ^ 0xff)
                                     : static_cast<uint8_t>(rng());
    if (!visit(bytes, pos)) return;
  }
}

inline EtdumpFile LoadRecord(const EtdumpRecord& record, bool size_prefixed = true) {
  auto file = EtdumpFile::FromBytes(WriteEtdump(record, {size_prefixed}), "test.etdp");
  EXPECT_TRUE(file.ok()) << (file.ok() ? "" : file.error().message);
  return std::move(file).value();
}

inline std::vector<EventBlock> Blocks(const EtdumpRecord& record,
                                      const InspectorOptions& options = {}) {
  auto blocks = BuildEventBlocks(LoadRecord(record), options);
  EXPECT_TRUE(blocks.ok()) << (blocks.ok() ? "" : blocks.error().message);
  return blocks.ok() ? std::move(blocks).value() : std::vector<EventBlock>{};
}

}  // namespace etbench::testing
