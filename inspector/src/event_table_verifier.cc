#include "event_table_verifier.h"

#include <algorithm>

namespace etbench {
namespace {

using flatbuffers::soffset_t;
using flatbuffers::uoffset_t;
using flatbuffers::voffset_t;

using FieldSpec = EventTableVerifier::FieldSpec;

constexpr FieldSpec kEventFields[] = {
    {fb::Event::VT_PROFILE_EVENT, 4},
    {fb::Event::VT_ALLOCATION_EVENT, 4},
    {fb::Event::VT_DEBUG_EVENT, 4},
};
constexpr voffset_t kEventMembers[3] = {fb::Event::VT_PROFILE_EVENT,
                                        fb::Event::VT_ALLOCATION_EVENT,
                                        fb::Event::VT_DEBUG_EVENT};

constexpr FieldSpec kProfileEventFields[] = {
    {fb::ProfileEvent::VT_NAME, 4},
    {fb::ProfileEvent::VT_CHAIN_INDEX, 4},
    {fb::ProfileEvent::VT_INSTRUCTION_ID, 4},
    {fb::ProfileEvent::VT_DELEGATE_DEBUG_ID_INT, 4},
    {fb::ProfileEvent::VT_DELEGATE_DEBUG_ID_STR, 4},
    {fb::ProfileEvent::VT_DELEGATE_DEBUG_METADATA, 4},
    {fb::ProfileEvent::VT_START_TIME, 8},
    {fb::ProfileEvent::VT_END_TIME, 8},
};
constexpr voffset_t kProfileEventMembers[3] = {
    fb::ProfileEvent::VT_NAME, fb::ProfileEvent::VT_DELEGATE_DEBUG_ID_STR,
    fb::ProfileEvent::VT_DELEGATE_DEBUG_METADATA};

// The known vtable of the table at `tableo`, which the generated verifier
// has just accepted. What it checked of a table beyond its vtable: the
// table's vtable offset (4 bytes at tableo, aligned) and each present
// field's bytes (aligned to their size: a function of tableo mod 8; in the
// buffer: tableo + slot <= size - field size, as Verifier::Verify(elem,
// len) computes it, and len < size held). So another table with this
// vtable passes the same checks at every offset of the same residue up to
// the smallest of those bounds.
template <std::size_t N>
EventTableVerifier::KnownVtable LearnVtable(const uint8_t* buf,
                                            std::size_t size,
                                            std::size_t tableo,
                                            const FieldSpec (&fields)[N],
                                            const voffset_t (&members)[3]) {
  EventTableVerifier::KnownVtable known;
  const std::size_t vtableo =
      tableo - static_cast<std::size_t>(
                   flatbuffers::ReadScalar<soffset_t>(buf + tableo));
  const voffset_t vsize = flatbuffers::ReadScalar<voffset_t>(buf + vtableo);
  // Table::GetOptionalFieldOffset.
  auto slot = [&](voffset_t id) -> voffset_t {
    return id < vsize ? flatbuffers::ReadScalar<voffset_t>(buf + vtableo + id)
                      : 0;
  };
  std::size_t max_table_offset = size - sizeof(soffset_t);
  for (const FieldSpec& f : fields) {
    if (const voffset_t s = slot(f.id)) {
      max_table_offset = std::min(max_table_offset, size - f.size - s);
    }
  }
  known.vtable_offset = vtableo;
  known.residue = tableo & 7;
  known.max_table_offset = max_table_offset;
  for (int m = 0; m < 3; ++m) known.offsets[m] = slot(members[m]);
  return known;
}

}  // namespace

// (Called for every table: always inlined, which GCC did not do by itself.)
[[gnu::always_inline]] inline const EventTableVerifier::KnownVtable*
EventTableVerifier::Known(const KnownVtables& known,
                          const uint8_t* table) const {
  // The table's position computed as Verifier::VerifyTableStart does (a
  // table outside the buffer wraps to a large offset and fails the bound);
  // its vtable offset is read only when in the buffer and aligned.
  const auto tableo = static_cast<std::size_t>(table - buf_);
  if ((tableo & 3) != 0 || size_ < sizeof(soffset_t) ||
      tableo > size_ - sizeof(soffset_t)) {
    return nullptr;
  }
  const std::size_t vtableo =
      tableo -
      static_cast<std::size_t>(flatbuffers::ReadScalar<soffset_t>(table));
  // (Never known: a vtable outside the buffer, such as an empty entry's.)
  if (vtableo >= size_) return nullptr;
  for (const KnownVtable& k : known.known) {
    if (k.vtable_offset == vtableo && k.residue == (tableo & 7) &&
        tableo <= k.max_table_offset) {
      return &k;
    }
  }
  return nullptr;
}

// A table the generated verifier has just accepted: its vtable becomes
// known, and its run is not one of profile events alone seen by the
// shortcut.
template <std::size_t N>
void EventTableVerifier::Remember(KnownVtables& known, const uint8_t* table,
                                  const FieldSpec (&fields)[N],
                                  const flatbuffers::voffset_t (&members)[3]) {
  run_.profile_only = false;
  known.Add(LearnVtable(buf_, size_, static_cast<std::size_t>(table - buf_),
                        fields, members));
}

namespace {

// The shortcut for a table of a known vtable: the checks of the table's own
// bytes (the table count and depth, each member's offset, then the member
// itself: `verify_member(m, member)` for members[m]).
template <typename VerifyMember>
bool VerifyKnownTable(flatbuffers::Verifier& verifier, const uint8_t* buf,
                      const uint8_t* table,
                      const EventTableVerifier::KnownVtable& known,
                      VerifyMember verify_member) {
  if (!verifier.VerifyComplexity()) return false;
  const auto tableo = static_cast<std::size_t>(table - buf);
  for (int m = 0; m < 3; ++m) {
    if (known.offsets[m] == 0) continue;
    // Verifier::VerifyOffset, as Table::VerifyOffset calls it.
    const std::size_t at = tableo + known.offsets[m];
    const uoffset_t o = verifier.VerifyOffset(at);
    if (o == 0 || !verify_member(m, buf + at + o)) return false;
  }
  return verifier.EndTable();
}

}  // namespace

bool EventTableVerifier::VerifyProfileEvent(flatbuffers::Verifier& verifier,
                                            const uint8_t* table) {
  const KnownVtable* known = Known(profile_, table);
  if (known == nullptr) {
    if (!reinterpret_cast<const fb::ProfileEvent*>(table)->Verify(verifier))
      return false;
    Remember(profile_, table, kProfileEventFields, kProfileEventMembers);
    return true;
  }
  // name, delegate_debug_id_str: strings; delegate_debug_metadata: bytes.
  return VerifyKnownTable(
      verifier, buf_, table, *known, [&](int m, const uint8_t* member) {
        const bool ok =
            m < 2 ? verifier.VerifyString(
                        reinterpret_cast<const flatbuffers::String*>(member))
                  : verifier.VerifyVector(
                        reinterpret_cast<const flatbuffers::Vector<uint8_t>*>(
                            member));
        // A string's or a byte vector's length, now verified.
        if (ok)
          run_.referenced_bytes += flatbuffers::ReadScalar<uoffset_t>(member);
        return ok;
      });
}

bool EventTableVerifier::VerifyEvent(flatbuffers::Verifier& verifier,
                                     const uint8_t* table) {
  const KnownVtable* known = Known(event_, table);
  if (known == nullptr) {
    // Event::Verify, with the profile member through VerifyProfileEvent.
    const auto* t = reinterpret_cast<const flatbuffers::Table*>(table);
    const auto* event = reinterpret_cast<const fb::Event*>(table);
    // Each member is read only once its slot has been verified.
    auto profile_ok = [&] {
      const auto* profile = event->profile_event();
      return profile == nullptr ||
             VerifyProfileEvent(verifier,
                                reinterpret_cast<const uint8_t*>(profile));
    };
    if (!(t->VerifyTableStart(verifier) &&
          t->VerifyOffset(verifier, fb::Event::VT_PROFILE_EVENT) &&
          profile_ok() &&
          t->VerifyOffset(verifier, fb::Event::VT_ALLOCATION_EVENT) &&
          verifier.VerifyTable(event->allocation_event()) &&
          t->VerifyOffset(verifier, fb::Event::VT_DEBUG_EVENT) &&
          verifier.VerifyTable(event->debug_event()) && verifier.EndTable())) {
      return false;
    }
    Remember(event_, table, kEventFields, kEventMembers);
    return true;
  }
  if (known->offsets[0] == 0 || known->offsets[1] != 0 ||
      known->offsets[2] != 0) {
    run_.profile_only = false;
  }
  return VerifyKnownTable(
      verifier, buf_, table, *known, [&](int m, const uint8_t* member) {
        if (m == 0) return VerifyProfileEvent(verifier, member);
        if (m == 1) {
          return reinterpret_cast<const fb::AllocationEvent*>(member)->Verify(
              verifier);
        }
        return reinterpret_cast<const fb::DebugEvent*>(member)->Verify(
            verifier);
      });
}

bool EventTableVerifier::VerifyEvents(
    flatbuffers::Verifier& verifier,
    const flatbuffers::Vector<flatbuffers::Offset<fb::Event>>* events) {
  run_ = RunSummary{};
  if (events == nullptr) return true;
  const uoffset_t n = events->size();
  for (uoffset_t i = 0; i < n; ++i) {
    if (!VerifyEvent(verifier,
                     reinterpret_cast<const uint8_t*>(events->Get(i))))
      return false;
  }
  return true;
}

}  // namespace etbench
