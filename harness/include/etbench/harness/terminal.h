#pragma once
// The terminal the progress bar draws on, behind an interface: the real one
// writes to a stream; tests record what was drawn.

#include <memory>
#include <ostream>
#include <string_view>

#include "etbench/base/environment.h"

namespace etbench::harness {

class Terminal {
 public:
  virtual ~Terminal() = default;
  /// True when a progress bar may be drawn (an interactive terminal).
  virtual bool IsInteractive() const = 0;
  /// Width in columns.
  virtual int Columns() const = 0;
  virtual void Write(std::string_view text) = 0;
};

/// A terminal over `stream` (interactive as told; width from stderr's tty,
/// else 80).
std::unique_ptr<Terminal> MakeStreamTerminal(std::ostream& stream, bool interactive);

/// True when stderr is a TTY, CI is not "true" and TERM is not "dumb".
bool StderrIsInteractive(const Environment& env);

}  // namespace etbench::harness
