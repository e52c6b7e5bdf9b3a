#pragma once
// Keys and signatures of the grouping (event_block_builder.cc): which
// events of a run collate into one instruction, which events of two runs
// are the same event, and which runs share a block, all read in place from
// the verified FlatBuffer (names are string_views into the file).

#include <cstdint>
#include <cstring>
#include <functional>
#include <string_view>
#include <vector>

#include "etbench/inspector/etdump_generated.h"

namespace etbench::grouping {

inline std::string_view View(const flatbuffers::String* s) {
  return s ? std::string_view(s->c_str(), s->size()) : std::string_view();
}

// Equality of two strings from the file; names are often shared (one copy
// referenced by many events), so equal pointers short-circuit the compare.
// (Absent names are empty views with a null pointer: memcmp must not see
// those, even with a size of 0.)
inline bool SameText(std::string_view a, std::string_view b) {
  return a.size() == b.size() &&
         (a.data() == b.data() || a.empty() ||
          std::memcmp(a.data(), b.data(), a.size()) == 0);
}

inline std::size_t HashMix(std::size_t h, std::size_t v) {
  return h ^ (v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2));
}

// Debug events store their chain as uint64; profile events as int32. Map
// both onto int64 so equal chains compare equal (values above INT64_MAX
// cannot match any profile event and get a sentinel).
inline int64_t DebugChain(uint64_t chain) {
  return chain <= static_cast<uint64_t>(INT64_MAX) ? static_cast<int64_t>(chain) : INT64_MIN;
}

struct InstructionKey {
  int32_t instruction_id;
  int64_t chain;
  int32_t delegate_int;
  std::string_view delegate_str;
  bool operator==(const InstructionKey& o) const {
    return instruction_id == o.instruction_id && chain == o.chain &&
           delegate_int == o.delegate_int && delegate_str == o.delegate_str;
  }
};
struct InstructionKeyHash {
  std::size_t operator()(const InstructionKey& k) const {
    std::size_t h = std::hash<int64_t>()(k.chain);
    h = HashMix(h, std::hash<int32_t>()(k.instruction_id));
    h = HashMix(h, std::hash<int32_t>()(k.delegate_int));
    return HashMix(h, std::hash<std::string_view>()(k.delegate_str));
  }
};

// Profile or debug part of an event signature. -1 / "" stand for None.
struct SubSignature {
  bool present = false;
  std::string_view name;
  int32_t instruction_id = -1;
  int32_t delegate_int = -1;
  std::string_view delegate_str;
  bool operator==(const SubSignature& o) const {
    return present == o.present && instruction_id == o.instruction_id &&
           delegate_int == o.delegate_int && SameText(name, o.name) &&
           SameText(delegate_str, o.delegate_str);
  }
};

struct EventSignature {
  int32_t instruction_id = -1;
  SubSignature profile;
  SubSignature debug;
  int32_t occurrence = 0;
  bool operator==(const EventSignature& o) const {
    return instruction_id == o.instruction_id && profile == o.profile && debug == o.debug &&
           occurrence == o.occurrence;
  }
};
struct EventSignatureHash {
  std::size_t Sub(std::size_t h, const SubSignature& s) const {
    if (!s.present) return HashMix(h, 0x51);
    h = HashMix(h, std::hash<std::string_view>()(s.name));
    h = HashMix(h, std::hash<int32_t>()(s.instruction_id));
    h = HashMix(h, std::hash<int32_t>()(s.delegate_int));
    return HashMix(h, std::hash<std::string_view>()(s.delegate_str));
  }
  std::size_t operator()(const EventSignature& s) const {
    std::size_t h = std::hash<int32_t>()(s.instruction_id);
    h = Sub(h, s.profile);
    h = Sub(h, s.debug);
    return HashMix(h, std::hash<int32_t>()(s.occurrence));
  }
};

inline SubSignature ProfileSignature(const fb::ProfileEvent& e) {
  return SubSignature{true, View(e.name()), e.instruction_id(), e.delegate_debug_id_int(),
                      View(e.delegate_debug_id_str())};
}
inline SubSignature DebugSignature(const fb::DebugEvent& e) {
  return SubSignature{true, View(e.name()), e.instruction_id(), e.delegate_debug_id_int(),
                      View(e.delegate_debug_id_str())};
}

struct RunKey {
  std::string_view name;
  int32_t bundled_input_index;
  std::vector<uint32_t> signature_ids;
  bool operator==(const RunKey& o) const {
    return name == o.name && bundled_input_index == o.bundled_input_index &&
           signature_ids == o.signature_ids;
  }
};
struct RunKeyHash {
  std::size_t operator()(const RunKey& k) const {
    std::size_t h = std::hash<std::string_view>()(k.name);
    h = HashMix(h, std::hash<int32_t>()(k.bundled_input_index));
    for (uint32_t id : k.signature_ids) h = HashMix(h, id);
    return h;
  }
};

}  // namespace etbench::grouping
