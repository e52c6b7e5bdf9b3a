#include "event_table_verifier.h"

#include <algorithm>

namespace etbench {
namespace {

using flatbuffers::soffset_t;
using flatbuffers::uoffset_t;
using flatbuffers::voffset_t;

// A field of a table type: its vtable slot and its size in the table.
struct FieldSpec {
  voffset_t id;
  std::size_t size;
};

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
EventTableVerifier::KnownVtable Learn(const uint8_t* buf, std::size_t size,
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

// (Known and Target are called for every table: always inlined, which GCC
// did not do by itself.)
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

[[gnu::always_inline]] inline std::size_t EventTableVerifier::Target(
    flatbuffers::Verifier& verifier, std::size_t tableo, voffset_t slot) const {
  const std::size_t at = tableo + slot;
  const uoffset_t o = verifier.VerifyOffset(at);
  return o == 0 ? 0 : at + o;
}

bool EventTableVerifier::VerifyProfileEvent(flatbuffers::Verifier& verifier,
                                            const uint8_t* table) {
  const KnownVtable* known = Known(profile_, table);
  if (known == nullptr) {
    if (!reinterpret_cast<const fb::ProfileEvent*>(table)->Verify(verifier))
      return false;
    run_.profile_only = false;
    profile_.Add(Learn(buf_, size_, static_cast<std::size_t>(table - buf_),
                       kProfileEventFields, kProfileEventMembers));
    return true;
  }
  if (!verifier.VerifyComplexity()) return false;
  const auto tableo = static_cast<std::size_t>(table - buf_);
  // name, delegate_debug_id_str: strings; delegate_debug_metadata: bytes.
  for (int m = 0; m < 3; ++m) {
    if (known->offsets[m] == 0) continue;
    const std::size_t target = Target(verifier, tableo, known->offsets[m]);
    if (target == 0) return false;
    const uint8_t* member = buf_ + target;
    const bool ok =
        m < 2 ? verifier.VerifyString(
                    reinterpret_cast<const flatbuffers::String*>(member))
              : verifier.VerifyVector(
                    reinterpret_cast<const flatbuffers::Vector<uint8_t>*>(
                        member));
    if (!ok) return false;
    // A string's or a byte vector's length, now verified.
    run_.referenced_bytes += flatbuffers::ReadScalar<uoffset_t>(member);
  }
  return verifier.EndTable();
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
    run_.profile_only = false;
    event_.Add(Learn(buf_, size_, static_cast<std::size_t>(table - buf_),
                     kEventFields, kEventMembers));
    return true;
  }
  if (!verifier.VerifyComplexity()) return false;
  const auto tableo = static_cast<std::size_t>(table - buf_);
  if (known->offsets[0] == 0 || known->offsets[1] != 0 ||
      known->offsets[2] != 0) {
    run_.profile_only = false;
  }
  for (int m = 0; m < 3; ++m) {
    if (known->offsets[m] == 0) continue;
    const std::size_t target = Target(verifier, tableo, known->offsets[m]);
    if (target == 0) return false;
    const uint8_t* member = buf_ + target;
    const bool ok =
        m == 0 ? VerifyProfileEvent(verifier, member)
        : m == 1
            ? reinterpret_cast<const fb::AllocationEvent*>(member)->Verify(
                  verifier)
            : reinterpret_cast<const fb::DebugEvent*>(member)->Verify(verifier);
    if (!ok) return false;
  }
  return verifier.EndTable();
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
