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

  // What the verification of one run's events saw, for the consistency
  // check (etdump_file.cc), which need not read the events again when
  // `profile_only`: every Event of the run took the shortcut with a vtable
  // that has a profile member's slot alone, and so did its profile event;
  // `referenced_bytes` is then the size of their names, delegate ids and
  // metadata (what ConsistencyCheck::ReferencedBytes counts).
  struct RunSummary {
    bool profile_only = true;
    uint64_t referenced_bytes = 0;
  };

  // verifier.VerifyVectorOfTables(events): each Event and its members.
  bool VerifyEvents(
      flatbuffers::Verifier& verifier,
      const flatbuffers::Vector<flatbuffers::Offset<fb::Event>>* events);

  // Of the last VerifyEvents that returned true.
  const RunSummary& run_summary() const { return run_; }

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
  // A field of a table type: its vtable slot and its size in the table.
  struct FieldSpec {
    flatbuffers::voffset_t id;
    std::size_t size;
  };

  // The last few of one type (a runtime's dump alternates a few layouts:
  // profile events with and without a delegate id or instruction id),
  // replaced in turn.
  static constexpr std::size_t kKnownVtables = 4;
  struct KnownVtables {
    KnownVtable known[kKnownVtables];
    std::size_t next = 0;
    void Add(const KnownVtable& k) {
      known[next] = k;
      next = (next + 1) % kKnownVtables;
    }
  };

 private:
  bool VerifyEvent(flatbuffers::Verifier& verifier, const uint8_t* table);
  bool VerifyProfileEvent(flatbuffers::Verifier& verifier,
                          const uint8_t* table);
  // The known vtable of `table` (null: none), reading its vtable offset
  // only when the table's first 4 bytes are in the buffer and aligned.
  const KnownVtable* Known(const KnownVtables& known,
                           const uint8_t* table) const;
  template <std::size_t N>
  void Remember(KnownVtables& known, const uint8_t* table,
                const FieldSpec (&fields)[N],
                const flatbuffers::voffset_t (&members)[3]);

  const uint8_t* buf_;
  std::size_t size_;
  KnownVtables event_;
  KnownVtables profile_;
  RunSummary run_;
};

}  // namespace etbench
