#include "etbench/harness/progress.h"

#include <algorithm>
#include <cstdio>

namespace etbench::harness {
namespace {

std::string FormatDuration(double seconds) {
  const long s = static_cast<long>(seconds + 0.5);
  char buf[32];
  if (s >= 3600) {
    std::snprintf(buf, sizeof buf, "%ld:%02ld:%02ld", s / 3600, (s / 60) % 60, s % 60);
  } else {
    std::snprintf(buf, sizeof buf, "%ld:%02ld", s / 60, s % 60);
  }
  return buf;
}

class TerminalProgress : public Progress {
 public:
  TerminalProgress(Terminal* terminal, Clock* clock, bool show_bar, double min_interval_s)
      : terminal_(terminal),
        clock_(clock),
        show_bar_(show_bar && terminal->IsInteractive()),
        min_interval_s_(min_interval_s),
        start_(clock->MonotonicSeconds()) {}

  void Update(const ProgressState& state) override {
    if (!show_bar_) return;
    const double now = clock_->MonotonicSeconds();
    if (drawn_ && now - last_draw_ < min_interval_s_) return;
    last_draw_ = now;
    drawn_ = true;
    terminal_->Write("\r" + RenderProgressLine(state, now - start_, terminal_->Columns()) +
                     "\x1b[K");
  }

  void Message(std::string_view line) override {
    Clear();
    std::string text(line);
    text += '\n';
    terminal_->Write(text);
  }

  void Finish() override { Clear(); }

 private:
  void Clear() {
    if (!drawn_) return;
    terminal_->Write("\r\x1b[K");
    drawn_ = false;
  }

  Terminal* terminal_;
  Clock* clock_;
  bool show_bar_;
  double min_interval_s_;
  double start_;
  double last_draw_ = 0;
  bool drawn_ = false;
};

}  // namespace

std::string RenderProgressLine(const ProgressState& s, double elapsed_s, int columns) {
  char head[96];
  std::snprintf(head, sizeof head, "[%d/%d] ", s.model_index + 1, s.model_count);
  std::string line = head + s.model;
  if (s.repetitions > 1) {
    line += "  rep " + std::to_string(s.repetition + 1) + "/" + std::to_string(s.repetitions);
  }
  if (s.executions > 0) {
    line += "  iter " + std::to_string(s.execution) + "/" + std::to_string(s.executions);
  }
  if (s.expected_total > 0 && s.done_total > 0 && elapsed_s > 0) {
    const double left =
        static_cast<double>(s.expected_total - std::min(s.done_total, s.expected_total));
    const double eta = elapsed_s / static_cast<double>(s.done_total) * left;
    line += "  ETA " + FormatDuration(eta);
  }
  if (s.expected_total > 0) {
    const double fraction =
        std::min(1.0, static_cast<double>(s.done_total) / static_cast<double>(s.expected_total));
    const int width = 20;
    const int filled = static_cast<int>(fraction * width);
    line += "  [" + std::string(filled, '=') + std::string(width - filled, ' ') + "]";
  }
  const std::size_t max = columns > 1 ? static_cast<std::size_t>(columns - 1) : 79;
  if (line.size() > max) line.resize(max);
  return line;
}

std::unique_ptr<Progress> MakeProgress(Terminal* terminal, Clock* clock, bool show_bar,
                                       double min_interval_s) {
  return std::make_unique<TerminalProgress>(terminal, clock, show_bar, min_interval_s);
}

}  // namespace etbench::harness
