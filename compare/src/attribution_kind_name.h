#pragma once
// The comparison JSON's name of an attribution item's kind: written by
// comparison_json.cc, read back by comparison_json_reader.cc (one spelling).

#include "etbench/compare/attribution.h"

namespace etbench::internal {

inline const char* AttributionItemKindName(AttributionItem::Kind kind) {
  switch (kind) {
    case AttributionItem::Kind::kKernel: return "kernel";
    case AttributionItem::Kind::kDelegate: return "delegate";
    case AttributionItem::Kind::kFrameworkOverhead: return "framework_overhead";
    case AttributionItem::Kind::kAdded: return "added";
    case AttributionItem::Kind::kRemoved: return "removed";
  }
  return "?";
}

}  // namespace etbench::internal
