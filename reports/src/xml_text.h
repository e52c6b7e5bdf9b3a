#pragma once
// Escaping for XML and HTML text and attribute values.

#include <string>

namespace etbench::reports::internal {

/// Escapes & < > " ' and drops characters XML 1.0 forbids (control
/// characters other than tab, LF and CR; invalid UTF-8 becomes U+FFFD).
std::string XmlEscape(const std::string& text);

}  // namespace etbench::reports::internal
