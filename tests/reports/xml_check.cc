// XML well-formedness checker for tests.

#include "xml_check.h"

#include <cctype>
#include <cstdint>
#include <set>
#include <vector>

namespace etbench::testing {
namespace {

class Checker {
 public:
  explicit Checker(const std::string& s) : s_(s) {}

  std::string Run() {
    if (!ValidUtf8()) return error_;
    if (Starts("<?xml")) {
      if (!Pi()) return error_;
    }
    Misc();
    if (!error_.empty()) return error_;
    if (!Starts("<")) return Fail("expected the root element");
    if (!Element()) return error_;
    Misc();
    if (!error_.empty()) return error_;
    if (pos_ != s_.size()) return Fail("content after the root element");
    return "";
  }

 private:
  std::string Fail(const std::string& what) {
    if (error_.empty()) error_ = "offset " + std::to_string(pos_) + ": " + what;
    return error_;
  }
  bool Starts(const char* p) const { return s_.compare(pos_, std::string(p).size(), p) == 0; }
  bool AtEnd() const { return pos_ >= s_.size(); }
  static bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }
  void Spaces() {
    while (!AtEnd() && IsSpace(s_[pos_])) ++pos_;
  }
  static bool NameStart(unsigned char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == ':' || c >= 0x80;
  }
  static bool NameChar(unsigned char c) {
    return NameStart(c) || (c >= '0' && c <= '9') || c == '-' || c == '.';
  }
  bool Name(std::string* out) {
    const std::size_t start = pos_;
    if (AtEnd() || !NameStart(static_cast<unsigned char>(s_[pos_]))) {
      Fail("expected a name");
      return false;
    }
    while (!AtEnd() && NameChar(static_cast<unsigned char>(s_[pos_]))) ++pos_;
    *out = s_.substr(start, pos_ - start);
    return true;
  }

  bool ValidUtf8() {
    for (std::size_t i = 0; i < s_.size();) {
      const auto b = static_cast<unsigned char>(s_[i]);
      std::size_t n = b < 0x80 ? 1 : (b >> 5) == 6 ? 2 : (b >> 4) == 14 ? 3 : (b >> 3) == 30 ? 4 : 0;
      if (n == 0 || i + n > s_.size()) {
        pos_ = i;
        Fail("invalid UTF-8");
        return false;
      }
      uint32_t cp = n == 1 ? b : n == 2 ? (b & 0x1F) : n == 3 ? (b & 0x0F) : (b & 0x07);
      for (std::size_t k = 1; k < n; ++k) {
        const auto c = static_cast<unsigned char>(s_[i + k]);
        if ((c & 0xC0) != 0x80) {
          pos_ = i;
          Fail("invalid UTF-8");
          return false;
        }
        cp = (cp << 6) | (c & 0x3F);
      }
      if (!ValidChar(cp)) {
        pos_ = i;
        Fail("character U+" + std::to_string(cp) + " is not allowed in XML");
        return false;
      }
      i += n;
    }
    return true;
  }
  static bool ValidChar(uint32_t cp) {
    return cp == 0x9 || cp == 0xA || cp == 0xD || (cp >= 0x20 && cp <= 0xD7FF) ||
           (cp >= 0xE000 && cp <= 0xFFFD) || (cp >= 0x10000 && cp <= 0x10FFFF);
  }

  bool Reference() {
    ++pos_;  // '&'
    if (Starts("#x")) {
      pos_ += 2;
      const std::size_t start = pos_;
      while (!AtEnd() && std::isxdigit(static_cast<unsigned char>(s_[pos_]))) ++pos_;
      if (pos_ == start || AtEnd() || s_[pos_] != ';') return Fail("bad character reference"), false;
      if (!ValidChar(static_cast<uint32_t>(std::stoul(s_.substr(start, pos_ - start), nullptr, 16)))) {
        return Fail("reference to a character XML forbids"), false;
      }
      ++pos_;
      return true;
    }
    if (Starts("#")) {
      ++pos_;
      const std::size_t start = pos_;
      while (!AtEnd() && std::isdigit(static_cast<unsigned char>(s_[pos_]))) ++pos_;
      if (pos_ == start || AtEnd() || s_[pos_] != ';') return Fail("bad character reference"), false;
      if (!ValidChar(static_cast<uint32_t>(std::stoul(s_.substr(start, pos_ - start))))) {
        return Fail("reference to a character XML forbids"), false;
      }
      ++pos_;
      return true;
    }
    std::string name;
    if (!Name(&name)) return false;
    if (AtEnd() || s_[pos_] != ';') return Fail("entity reference without ';'"), false;
    ++pos_;
    static const std::set<std::string> kPredefined{"amp", "lt", "gt", "quot", "apos"};
    if (kPredefined.count(name) == 0) return Fail("undefined entity &" + name + ";"), false;
    return true;
  }

  bool Comment() {
    pos_ += 4;
    const std::size_t end = s_.find("--", pos_);
    if (end == std::string::npos) return Fail("unterminated comment"), false;
    pos_ = end;
    if (!Starts("-->")) return Fail("'--' inside a comment"), false;
    pos_ += 3;
    return true;
  }

  bool Pi() {
    pos_ += 2;
    std::string target;
    if (!Name(&target)) return false;
    const std::size_t end = s_.find("?>", pos_);
    if (end == std::string::npos) return Fail("unterminated processing instruction"), false;
    pos_ = end + 2;
    return true;
  }

  // Whitespace, comments and PIs outside the root element.
  void Misc() {
    while (error_.empty()) {
      Spaces();
      if (Starts("<!--")) {
        Comment();
      } else if (Starts("<?")) {
        Pi();
      } else {
        return;
      }
    }
  }

  bool Element() {
    std::vector<std::string> open;
    while (true) {
      // At '<' of a start tag.
      ++pos_;
      std::string name;
      if (!Name(&name)) return false;
      std::set<std::string> attributes;
      bool empty = false;
      while (true) {
        const std::size_t before = pos_;
        Spaces();
        if (AtEnd()) return Fail("unterminated start tag <" + name + ">"), false;
        if (Starts("/>")) {
          pos_ += 2;
          empty = true;
          break;
        }
        if (s_[pos_] == '>') {
          ++pos_;
          break;
        }
        if (pos_ == before) return Fail("expected whitespace before an attribute"), false;
        std::string attribute;
        if (!Name(&attribute)) return false;
        if (!attributes.insert(attribute).second) {
          return Fail("duplicate attribute " + attribute), false;
        }
        Spaces();
        if (AtEnd() || s_[pos_] != '=') return Fail("expected '=' after " + attribute), false;
        ++pos_;
        Spaces();
        if (AtEnd() || (s_[pos_] != '"' && s_[pos_] != '\'')) {
          return Fail("attribute value not quoted"), false;
        }
        const char quote = s_[pos_++];
        while (!AtEnd() && s_[pos_] != quote) {
          if (s_[pos_] == '<') return Fail("'<' in an attribute value"), false;
          if (s_[pos_] == '&') {
            if (!Reference()) return false;
          } else {
            ++pos_;
          }
        }
        if (AtEnd()) return Fail("unterminated attribute value"), false;
        ++pos_;
      }
      if (!empty) open.push_back(name);
      // Content until the next start tag or until every element is closed.
      while (!open.empty()) {
        if (AtEnd()) return Fail("unclosed element <" + open.back() + ">"), false;
        if (Starts("</")) {
          pos_ += 2;
          std::string end;
          if (!Name(&end)) return false;
          Spaces();
          if (AtEnd() || s_[pos_] != '>') return Fail("bad end tag"), false;
          ++pos_;
          if (end != open.back()) {
            return Fail("</" + end + "> closes <" + open.back() + ">"), false;
          }
          open.pop_back();
        } else if (Starts("<!--")) {
          if (!Comment()) return false;
        } else if (Starts("<![CDATA[")) {
          const std::size_t end = s_.find("]]>", pos_);
          if (end == std::string::npos) return Fail("unterminated CDATA"), false;
          pos_ = end + 3;
        } else if (Starts("<?")) {
          if (!Pi()) return false;
        } else if (s_[pos_] == '<') {
          break;  // a child start tag
        } else if (s_[pos_] == '&') {
          if (!Reference()) return false;
        } else {
          if (Starts("]]>")) return Fail("']]>' in text"), false;
          ++pos_;
        }
      }
      if (open.empty()) return true;
    }
  }

  const std::string& s_;
  std::size_t pos_ = 0;
  std::string error_;
};

}  // namespace

std::string XmlWellFormednessError(const std::string& xml) { return Checker(xml).Run(); }

}  // namespace etbench::testing
