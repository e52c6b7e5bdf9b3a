#pragma once
// A strict XML 1.0 well-formedness check for the JUnit report (no XML
// library is a dependency): declaration, one root element, matched tags,
// unique quoted attributes, valid references, characters and UTF-8,
// comments, CDATA and processing instructions. No DTD support.

#include <string>

namespace etbench::testing {

/// "" when `xml` is well-formed, else "offset N: what is wrong".
std::string XmlWellFormednessError(const std::string& xml);

}  // namespace etbench::testing
