#pragma once
// The verification of a run's Event tables (the generated Event::Verify and
// ProfileEvent::Verify), with a shortcut for a table whose vtable was
// already verified: tables of one type written by one builder share their
// vtable, so the vtable's checks (its size, its bounds, each field's slot)
// are done once, and a table using it needs only the checks that depend on
// the table's own position and bytes. The verdict and the verifier's table
// count are exactly the generated verifier's (tests/inspector/
// etdump_file_test.cc compares the two on mutated dumps).

#include <cstddef>
#include <cstdint>

#include "etbench/inspector/etdump_generated.h"

namespace etbench {

class EventTableVerifier {
 public:
  // `buf`/`size`: the buffer `verifier` was made for.
  EventTableVerifier(const uint8_t* buf, std::size_t size)
      : buf_(buf), size_(size) {}

  // verifier.VerifyVectorOfTables(events): each Event and its members.
  bool VerifyEvents(
      flatbuffers::Verifier& verifier,
      const flatbuffers::Vector<flatbuffers::Offset<fb::Event>>* events);

  // How many tables took the shortcut (tests: the shortcut is exercised).
  std::size_t shortcut_tables() const { return shortcut_tables_; }

  // A vtable a table of one type was verified with, at a table offset of
  // one residue mod 8 (the fields' alignment depends on it): every table
  // using it at an offset of that residue up to `max_table_offset` passes
  // the generated verifier's vtable, alignment and bounds checks of its
  // scalar fields and offset slots; offsets[] are the fields' slots (0:
  // absent) of the members checked per table.
  struct KnownVtable {
    std::size_t vtable_offset = SIZE_MAX;
    std::size_t residue = 0;
    std::size_t max_table_offset = 0;
    flatbuffers::voffset_t offsets[3] = {0, 0, 0};
  };

 private:
  bool VerifyEvent(flatbuffers::Verifier& verifier, const uint8_t* table);
  bool VerifyProfileEvent(flatbuffers::Verifier& verifier,
                          const uint8_t* table);
  // The known vtable of `table` (null: none), reading its vtable offset
  // only when the table's first 4 bytes are in the buffer and aligned.
  const KnownVtable* Known(const KnownVtable& known,
                           const uint8_t* table) const;
  // Offset slot at `slot` of the table at `tableo` (0: absent), then the
  // target's position (0: the verifier refused the offset).
  std::size_t Target(flatbuffers::Verifier& verifier, std::size_t tableo,
                     flatbuffers::voffset_t slot) const;

  const uint8_t* buf_;
  std::size_t size_;
  KnownVtable event_;
  KnownVtable profile_;
  std::size_t shortcut_tables_ = 0;
};

}  // namespace etbench
