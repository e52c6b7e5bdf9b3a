#pragma once
// When the terminal report may use colour, and how wide it may be. The CLI
// decides once and passes ReportOptions::color / terminal_width.

#include <cstddef>
#include <ostream>
#include <string>

#include "etbench/base/environment.h"
#include "etbench/base/result.h"

namespace etbench::reports {

enum class ColorMode { kAuto, kAlways, kNever };

/// "auto", "always", "never"; errors name the accepted values.
Result<ColorMode> ParseColorMode(const std::string& text);

/// True when `out` is std::cout on a terminal (or std::cerr on one).
bool StreamIsTerminal(const std::ostream& out);

/// kAlways → true, kNever → false; kAuto → the stream is a terminal,
/// NO_COLOR is unset or empty (https://no-color.org) and TERM is not "dumb".
bool UseColor(ColorMode mode, bool stream_is_terminal, const Environment& env);

/// COLUMNS when set to a number, else the terminal's width when `out` is
/// one, else `fallback`.
std::size_t TerminalWidth(const std::ostream& out, const Environment& env,
                          std::size_t fallback = 120);

}  // namespace etbench::reports
