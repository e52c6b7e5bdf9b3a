#include "etbench/harness/progress.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>

#include "etbench/base/terminal_text.h"
#include "etbench/base/utf8.h"

namespace etbench::harness {
namespace {

std::string FormatDuration(double seconds) {
  const long s = static_cast<long>(std::max(0.0, seconds) + 0.5);
  char buf[32];
  if (s >= 3600) {
    std::snprintf(buf, sizeof buf, "%ld:%02ld:%02ld", s / 3600, (s / 60) % 60, s % 60);
  } else {
    std::snprintf(buf, sizeof buf, "%ld:%02ld", s / 60, s % 60);
  }
  return buf;
}

std::string Bar(double fraction) {
  const int width = 20;
  const int filled = static_cast<int>(std::clamp(fraction, 0.0, 1.0) * width);
  return "[" + std::string(filled, '=') + std::string(width - filled, ' ') + "]";
}

// "[2/4] toy_cnn  rep 1/2  iter 10/33": where the current suite run is.
std::string RunPart(const ProgressState& s) {
  char head[64];
  std::snprintf(head, sizeof head, "[%d/%d] ", s.model_index + 1, s.model_count);
  std::string line = head + TerminalText(s.model);
  if (s.repetitions > 1) {
    line += "  rep " + std::to_string(s.repetition + 1) + "/" + std::to_string(s.repetitions);
  }
  if (s.executions > 0) {
    line += "  iter " + std::to_string(s.execution) + "/" + std::to_string(s.executions);
  }
  return line;
}

// `head` then `tail` in `columns` - 1; `head` is cut first, so the ETA and
// bar stay visible while they fit with a few characters of the head.
// Widths count code points ("≤", "·").
std::string Fit(const std::string& head, const std::string& tail, int columns) {
  const std::size_t max = columns > 1 ? static_cast<std::size_t>(columns - 1) : 79;
  const std::size_t head_width = Utf8Length(head), tail_width = Utf8Length(tail);
  if (head_width + tail_width <= max) return head + tail;
  if (tail_width + 10 <= max) return Utf8Prefix(head, max - tail_width) + tail;
  return Utf8Prefix(head + tail, max);
}

double RunFraction(const ProgressState& s) {
  if (s.expected_total == 0) return 0;
  return std::min(1.0, static_cast<double>(s.done_total) / static_cast<double>(s.expected_total));
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
    const std::string line =
        job_ ? RenderJobProgressLine(*job_, state, now - job_set_, terminal_->Columns())
             : RenderProgressLine(state, now - start_, terminal_->Columns());
    terminal_->Write("\r" + line + "\x1b[K");
  }

  void SetJob(const JobProgress& job) override {
    job_ = job;
    job_set_ = clock_->MonotonicSeconds();
  }

  void Message(std::string_view line) override {
    Clear();
    // One line: the names a message quotes are shown by the terminal rule.
    std::string text = TerminalText(line);
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
  std::optional<JobProgress> job_;
  double job_set_ = 0;
};

}  // namespace

std::string RenderProgressLine(const ProgressState& s, double elapsed_s, int columns) {
  std::string tail;
  if (s.expected_total > 0 && s.done_total > 0 && elapsed_s > 0) {
    const double left =
        static_cast<double>(s.expected_total - std::min(s.done_total, s.expected_total));
    tail += "  ETA " + FormatDuration(elapsed_s / static_cast<double>(s.done_total) * left);
  }
  if (s.expected_total > 0) tail += "  " + Bar(RunFraction(s));
  return Fit(RunPart(s), tail, columns);
}

std::string RenderJobProgressLine(const JobProgress& job, const ProgressState& run,
                                  double since_set_s, int columns) {
  const double spent = job.spent_s + std::max(0.0, since_set_s);
  const std::string at_most = job.open_ended ? "≤" : "";
  // Runs of the schedule done, counting the current one's share, and the
  // seconds one takes.
  const double runs = static_cast<double>(job.runs_done) + (job.calibration ? 0 : RunFraction(run));
  const double total = static_cast<double>(job.runs_total);
  const double budget_left = std::max(0.0, job.budget_s - spent);
  // Negative: no run finished any share yet.
  const double per_run = runs > 0 ? (spent - job.schedule_start_s) / runs : -1;
  std::string head = job.step;
  if (!job.calibration && job.runs_total > 0 && job.runs_per_block > 0) {
    // Open-ended: at most the blocks the budget leaves room for at this pace.
    double most_runs = total;
    if (job.open_ended && job.budget_s > 0 && per_run > 0) {
      most_runs = std::min(total, runs + budget_left / per_run);
    }
    const auto block = static_cast<double>(job.runs_per_block);
    const std::size_t most_blocks = static_cast<std::size_t>(std::ceil(most_runs / block));
    head += " · block " + std::to_string(job.runs_done / job.runs_per_block + 1) + "/" + at_most +
            std::to_string(std::max(most_blocks, job.runs_done / job.runs_per_block + 1));
  }
  if (job.models_total > 0) {
    head += " · " + std::to_string(job.models_decided) + "/" + std::to_string(job.models_total) +
            " models decided";
  }
  if (job.budget_s > 0) {
    char budget[64];
    std::snprintf(budget, sizeof budget, " · %.0f of %.0f s", spent, job.budget_s);
    head += budget;
  }
  head += " · " + RunPart(run);

  double eta = -1;  // negative: unknown
  double fraction = total > 0 ? runs / total : 0;
  if (per_run >= 0 && total > 0) eta = per_run * std::max(0.0, total - runs);
  if (job.open_ended && job.budget_s > 0) {
    eta = eta >= 0 ? std::min(eta, budget_left) : budget_left;
    fraction = std::max(fraction, spent / job.budget_s);
  }
  const std::string tail = "  ETA " + (eta >= 0 ? at_most + FormatDuration(eta) : std::string("?")) +
                           "  " + Bar(fraction);
  return Fit(head, tail, columns);
}

std::unique_ptr<Progress> MakeProgress(Terminal* terminal, Clock* clock, bool show_bar,
                                       double min_interval_s) {
  return std::make_unique<TerminalProgress>(terminal, clock, show_bar, min_interval_s);
}

}  // namespace etbench::harness
