#include "man_page.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <sstream>

#include "etbench/base/utf8.h"

namespace etbench {

namespace {

using Paragraph = std::vector<std::string>;

// One line of text as roff: backslashes and hyphens escaped, characters
// beyond ASCII as \[uXXXX] (roff input is not UTF-8), a leading control
// character neutralised.
std::string Roff(const std::string& line) {
  std::string s;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(line[i]);
    if (c >= 0x80) {
      const std::size_t n = Utf8SequenceLength(line, i);
      unsigned long code = n == 0 ? 0xFFFD : c & (0x7F >> n);
      for (std::size_t k = 1; k < n; ++k) {
        code = (code << 6) | (static_cast<unsigned char>(line[i + k]) & 0x3F);
      }
      if (n > 1) i += n - 1;
      char buf[16];
      std::snprintf(buf, sizeof buf, "\\[u%04lX]", code);
      s += buf;
    } else if (c == '\\') {
      s += "\\e";
    } else if (c == '-') {
      s += "\\-";
    } else {
      s += static_cast<char>(c);
    }
  }
  if (!s.empty() && (s[0] == '.' || s[0] == '\'')) s = "\\&" + s;
  return s;
}

bool StartsWith(const std::string& s, const std::string& prefix) {
  return s.compare(0, prefix.size(), prefix) == 0;
}

std::string Trim(const std::string& s) {
  const std::size_t b = s.find_first_not_of(' ');
  return b == std::string::npos ? "" : s.substr(b);
}

// The help text before its option lines, in paragraphs; without the
// options group's caption ("Options:").
std::vector<Paragraph> CaptionParagraphs(const std::string& help) {
  std::vector<Paragraph> paragraphs(1);
  std::istringstream in(help);
  for (std::string line; std::getline(in, line);) {
    if (StartsWith(line, "  -")) break;
    if (line.empty()) {
      if (!paragraphs.back().empty()) paragraphs.emplace_back();
      continue;
    }
    paragraphs.back().push_back(line);
  }
  if (paragraphs.back().empty()) paragraphs.pop_back();
  if (!paragraphs.empty() && paragraphs.back().size() == 1 && paragraphs.back()[0].back() == ':') {
    paragraphs.pop_back();
  }
  return paragraphs;
}

// Lines as one filled paragraph, or kept as they are when indented
// (examples, lists).
void EmitParagraph(const Paragraph& p, std::string* out) {
  bool indented = false;
  for (const std::string& line : p) indented |= StartsWith(line, " ");
  *out += ".PP\n";
  if (indented) *out += ".nf\n";
  for (const std::string& line : p) *out += Roff(indented ? line : Trim(line)) + "\n";
  if (indented) *out += ".fi\n";
}

std::string PageName(const CommandInfo& c) {
  std::string name = "etbench";
  for (const std::string& w : c.words) name += "-" + w;
  return name;
}

std::string Upper(std::string s) {
  for (char& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

std::string OneLine(const std::string& text) {
  std::string s;
  for (char c : text) s += c == '\n' ? ' ' : c;
  return s;
}

std::string Page(const CommandInfo& c, const std::vector<CommandInfo>& all, const std::string& version) {
  const std::string name = PageName(c);
  std::string text = ".TH " + Roff(Upper(name)) + " 1 \"\" \"etbench " + version +
                     "\" \"etbench manual\"\n.SH NAME\n" + Roff(name) + " \\- " +
                     Roff(c.summary.empty() ? "profiling regression gate for ExecuTorch" : c.summary) +
                     "\n";
  Paragraph synopsis, exit_codes;
  std::vector<Paragraph> description;
  for (Paragraph& p : CaptionParagraphs(c.help)) {
    if (StartsWith(p[0], "Usage:")) {
      for (const std::string& line : p) synopsis.push_back(Trim(StartsWith(line, "Usage:") ? line.substr(6) : line));
      continue;
    }
    if (StartsWith(p[0], "Commands:")) continue;  // the COMMANDS section
    Paragraph kept;
    for (const std::string& line : p) {
      if (StartsWith(line, "Exit codes") || !exit_codes.empty()) {
        exit_codes.push_back(exit_codes.empty() ? Trim(line.substr(line.find(':') + 1)) : line);
      } else {
        kept.push_back(line);
      }
    }
    bool listing = !c.subcommands.empty() && !kept.empty();
    for (const std::string& line : kept) {
      bool names_one = false;
      for (const std::string& s : c.subcommands) names_one |= StartsWith(line, "  " + s + " ");
      listing &= names_one;
    }
    if (!kept.empty() && !listing) description.push_back(kept);
  }
  if (!synopsis.empty()) {
    text += ".SH SYNOPSIS\n.nf\n";
    for (const std::string& line : synopsis) text += Roff(line) + "\n";
    text += ".fi\n";
  }
  if (!description.empty()) {
    text += ".SH DESCRIPTION\n";
    for (const Paragraph& p : description) EmitParagraph(p, &text);
  }
  std::string see_also;
  if (!c.subcommands.empty()) {
    text += ".SH COMMANDS\n";
    for (const CommandInfo& d : all) {
      if (d.words.size() != c.words.size() + 1 ||
          !std::equal(c.words.begin(), c.words.end(), d.words.begin())) {
        continue;
      }
      text += ".TP\n\\fB" + Roff(d.words.back()) + "\\fR\n" + Roff(d.summary) + " (" +
              Roff(PageName(d)) + "(1))\n";
      see_also += (see_also.empty() ? "" : ",\n") + Roff(PageName(d)) + "(1)";
    }
  }
  if (!c.options.empty()) {
    text += ".SH OPTIONS\n";
    for (const OptionInfo& o : c.options) {
      text += ".TP\n";
      if (o.short_name != 0) text += std::string("\\fB\\-") + o.short_name + "\\fR, ";
      text += "\\fB\\-\\-" + Roff(o.name) + "\\fR";
      if (!o.parameter.empty()) text += " \\fI" + Roff(o.parameter) + "\\fR";
      text += "\n" + Roff(OneLine(o.description)) +
              (o.positional ? " (also given without the flag)" : "") + "\n";
    }
    text += ".TP\n\\fB\\-h\\fR, \\fB\\-\\-help\\fR\nshow this help\n";
  }
  if (!exit_codes.empty()) {
    text += ".SH EXIT STATUS\n";
    EmitParagraph(exit_codes, &text);
  }
  if (!c.words.empty()) {
    std::vector<std::string> parent(c.words.begin(), c.words.end() - 1);
    CommandInfo up;
    up.words = parent;
    see_also = Roff(PageName(up)) + "(1)" + (see_also.empty() ? "" : ",\n" + see_also);
  }
  if (!see_also.empty()) text += ".SH SEE ALSO\n" + see_also + "\n";
  return text;
}

}  // namespace

std::vector<ManPage> ManPages(const std::vector<CommandInfo>& commands, const std::string& version) {
  std::vector<ManPage> pages;
  for (const CommandInfo& c : commands) {
    pages.push_back({PageName(c) + ".1", Page(c, commands, version)});
  }
  return pages;
}

}  // namespace etbench
