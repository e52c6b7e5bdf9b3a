// `etbench history add|list|show|detect|ack`: results over time in SQLite
// (results/history.db) or PostgreSQL, and change points over them.
#include <algorithm>
#include <cstring>
#include <functional>
#include <iostream>

#include "command_support.h"
#include "etbench/base/terminal_text.h"
#include "commands.h"
#include "etbench/cli/etbench_cli.h"
#include "etbench/cli/history_recording.h"
#include "etbench/history/detect.h"
#include "etbench/history/history_report.h"
#include "etbench/history/history_workflow.h"
#include "etbench/reports/history_render.h"
#include "etbench/reports/history_report_render.h"

namespace etbench {

namespace po = boost::program_options;
// The history's renderers (reports), by a name no local variable shadows.
namespace history_render = reports;

namespace {

const char kHistoryCommand[] = "history";

constexpr const char* kDatabaseHelp =
    "history database: an SQLite file or postgresql://… (default results/history.db)";

struct Selection {
  std::string history = history::kDefaultHistoryPath;
  history::RunFilter filter;
};

void AddSelectionOptions(po::options_description& d, Selection* s) {
  d.add_options()
      ("history", po::value(&s->history), kDatabaseHelp)
      ("suite", po::value(&s->filter.suite), "only runs of this suite")
      ("device", po::value(&s->filter.device), "only runs on this device")
      ("host", po::value(&s->filter.host), "only runs on this host");
}

Result<std::unique_ptr<history::HistoryStore>> Open(const Selection& s) {
  return history::OpenHistory(s.history);
}

// The commands that read the history (list, show, detect, ack, report)
// never create one: a mistyped --history used to leave a new, empty SQLite
// file behind and answer "no metric matches" or "0 runs" with exit 0. A
// PostgreSQL database is the server's to have or not (its errors say so).
Result<std::unique_ptr<history::HistoryStore>> OpenExisting(const Selection& s, Disk& disk) {
  if (!history::IsPostgresSpec(s.history) && !disk.Stat(s.history).exists) {
    return InputError(s.history +
                      ": no such history database (runs are recorded by 'etbench gate --baseline "
                      "history', 'etbench run --history' or 'etbench history add')");
  }
  return Open(s);
}

// FORMAT[=FILE] requests: the text of each format to stdout or its file.
int EmitRequests(const std::vector<std::string>& specs, const std::string& default_format,
                 const std::vector<std::string>& allowed,
                 const std::function<std::string(const std::string&)>& render, std::ostream& out,
                 std::ostream& err, Disk& disk) {
  std::vector<std::string> requests = specs.empty() ? std::vector<std::string>{default_format}
                                                    : specs;
  for (const std::string& spec : requests) {
    const std::size_t eq = spec.find('=');
    const std::string format = spec.substr(0, eq);
    const std::string path = eq == std::string::npos ? "" : spec.substr(eq + 1);
    if (std::find(allowed.begin(), allowed.end(), format) == allowed.end()) {
      std::string list;
      for (const std::string& a : allowed) list += (list.empty() ? "" : ", ") + a;
      return ReportError(kHistoryCommand, UsageError("unknown format '" + format + "' (one of " + list + ")"),
                         err);
    }
    if (Status s = EmitOutput(render(format), path == "-" ? "" : path, out, disk); !s.ok()) {
      return ReportError(kHistoryCommand, s.error(), err);
    }
  }
  return kExitOk;
}

int Add(const CommandArgs& args, std::ostream& out, std::ostream& err, Disk& disk) {
  Selection s;
  std::vector<std::string> files;
  history::RunOverrides overrides;
  po::options_description d(
      "Usage: etbench history add RESULTS... [options]\n\n"
      "Adds results files (etbench run output) to the history, each in one transaction.\n"
      "A results file already stored (same run id: the SHA-256 of its canonical JSON) is\n"
      "skipped, so a retried CI job never duplicates a run. Commit and branch come from\n"
      "the results, else from git in the current directory, unless given.\n\n"
      "Exit codes: 0 added (or already there); 2 usage error, unreadable results or\n"
      "database; 130 interrupted (Ctrl-C, SIGTERM; each run added in full or not).\n\nOptions");
  d.add_options()
      ("help,h", "show this help")
      ("results", po::value(&files)->required(), "results files")
      ("history", po::value(&s.history), kDatabaseHelp)
      ("commit", po::value(&overrides.git_commit), "the commit the results measured")
      ("branch", po::value(&overrides.branch), "the branch the results measured")
      ("date", po::value(&overrides.time), "when it ran (ISO 8601 UTC, e.g. 2026-01-31T02:00:00Z)");
  po::positional_options_description positional;
  positional.add("results", -1);
  po::variables_map vm;
  if (auto exit = HelpOrParse("history add", args, d, &positional, &vm, out, err)) return *exit;
  if (!overrides.time.empty() && !history::IsIsoTime(overrides.time)) {
    return ReportError(kHistoryCommand, UsageError("--date '" + overrides.time +
                                            "' is not an ISO 8601 UTC time (YYYY-MM-DD or "
                                            "YYYY-MM-DDTHH:MM:SSZ)"),
                       err);
  }
  auto store = Open(s);
  if (!store.ok()) return ReportError(kHistoryCommand, store.error(), err);
  auto env = MakeSystemEnvironment();
  auto processes = harness::MakeSystemProcessRunner();
  for (const std::string& file : files) {
    auto added = AddResultsFile(*store.value(), file, overrides, processes.get(), *env, disk);
    if (!added.ok()) return ReportError(kHistoryCommand, added.error(), err);
    err << "etbench history: " << (*added ? "added " : "already stored: ") << TerminalText(file) << "\n";
  }
  return kExitOk;
}

int List(const CommandArgs& args, std::ostream& out, std::ostream& err, Disk& disk) {
  Selection s;
  std::string format = "terminal";
  po::options_description d(
      "Usage: etbench history list [options]\n\n"
      "Lists the stored runs in time order: time, run id, suite, device, host, branch@commit,\n"
      "status and number of metrics.\n\n"
      "Exit codes: 0 ok; 2 usage error or unreadable database.\n\nOptions");
  d.add_options()("help,h", "show this help");
  AddSelectionOptions(d, &s);
  d.add_options()
      ("last", po::value(&s.filter.last), "only the last N runs")
      ("format", po::value(&format)->default_value("terminal"), "terminal or json");
  po::variables_map vm;
  if (auto exit = HelpOrParse("history list", args, d, nullptr, &vm, out, err)) return *exit;
  if (format != "terminal" && format != "json") {
    return ReportError(kHistoryCommand, UsageError("--format must be terminal or json"), err);
  }
  auto store = OpenExisting(s, disk);
  if (!store.ok()) return ReportError(kHistoryCommand, store.error(), err);
  auto runs = store.value()->ListRuns(s.filter);
  if (!runs.ok()) return ReportError(kHistoryCommand, runs.error(), err);
  out << history_render::RenderRunList(runs.value(), format);
  return kExitOk;
}

int Show(const CommandArgs& args, std::ostream& out, std::ostream& err, Disk& disk) {
  Selection s;
  std::string glob, format = "terminal";
  po::options_description d(
      "Usage: etbench history show METRIC-GLOB [options]\n\n"
      "Prints, run by run, the lower decile (p10: what 'gate --baseline history' and\n"
      "'history detect' judge) and the median (p50) of every metric whose label matches\n"
      "the shell glob (e.g. 'toy_cnn/Execute/Method::execute', '*convolution*').\n\n"
      "Exit codes: 0 ok; 2 usage error or unreadable database.\n\nOptions");
  d.add_options()
      ("help,h", "show this help")
      ("metric", po::value(&glob)->required(), "metric label glob");
  AddSelectionOptions(d, &s);
  d.add_options()
      ("last", po::value(&s.filter.last), "only the last N runs")
      ("format", po::value(&format)->default_value("terminal"), "terminal, json or csv");
  po::positional_options_description positional;
  positional.add("metric", 1);
  po::variables_map vm;
  if (auto exit = HelpOrParse("history show", args, d, &positional, &vm, out, err)) return *exit;
  if (format != "terminal" && format != "json" && format != "csv") {
    return ReportError(kHistoryCommand, UsageError("--format must be terminal, json or csv"), err);
  }
  auto store = OpenExisting(s, disk);
  if (!store.ok()) return ReportError(kHistoryCommand, store.error(), err);
  auto window = store.value()->Load(s.filter, glob, false);
  if (!window.ok()) return ReportError(kHistoryCommand, window.error(), err);
  out << history_render::RenderSeries(window.value(), format);
  return kExitOk;
}

int Detect(const CommandArgs& args, std::ostream& out, std::ostream& err, Disk& disk) {
  Selection s;
  std::string since;
  std::vector<std::string> reports;
  history::DetectOptions options;
  bool raw = false;
  bool every_part = false;
  std::string thresholds_path;
  po::options_description d(
      "Usage: etbench history detect [options]\n\n"
      "Finds change points in every metric of every (suite, device) history: E-Divisive\n"
      "means locates the split of the per-run lower deciles, Yuen's trimmed t-test on\n"
      "their logs decides (corrected for choosing the split), Benjamini-Hochberg controls\n"
      "false discoveries across metrics (docs/history.md). Each change point has an id, its\n"
      "commit range, the change with a 95% interval, the metrics of its model that moved\n"
      "with it and, for Method::execute, where the change went.\n\n"
      "The machine's level per run (the median over the time metrics of their ratio to\n"
      "their median) is removed from every metric first; its own change points are\n"
      "machine shifts, reported apart. A slower shift that lasts to the newest run, across\n"
      "a commit change, to a level not seen before could also be a code change that\n"
      "slowed every operator: it is a regression until acknowledged.\n\n"
      "What counts end to end: an end-to-end metric's (or allocator's) change must reach\n"
      "its thresholds rule's `relative` (2% Method::execute, 10% the load path); a part of\n"
      "Method::execute (operator, delegate, framework tax) must move its model's\n"
      "Method::execute by --min-change, unless Method::execute changed within one run of\n"
      "it (--every-part shows them all).\n\n"
      "Exit codes: 0 no open regression; 1 a regression change point not acknowledged\n"
      "(etbench history ack ID); 2 usage error or unreadable database.\n\nOptions");
  d.add_options()("help,h", "show this help");
  AddSelectionOptions(d, &s);
  d.add_options()
      ("since", po::value(&since),
       "report change points from here on: a date (YYYY-MM-DD[THH:MM:SSZ], UTC) or the commit "
       "(prefix) of a run; anything else is an error")
      ("report", po::value(&reports)->composing(),
       "FORMAT[=FILE]: terminal, markdown or json (repeatable; default terminal)")
      ("fdr", DoubleWithDefault(&options.fdr_q),
       "false discovery rate across metrics")
      ("min-change", DoubleWithDefault(&options.min_change),
       "ignore changes smaller than this fraction")
      ("min-segment", po::value(&options.min_segment)->default_value(options.min_segment),
       "runs on each side of a change point at least")
      ("load-cutoff", DoubleWithDefault(&options.load_cutoff),
       "leave out runs a model ran this fraction slower as a whole (load); 0 keeps all")
      ("no-machine-level", po::bool_switch(&raw),
       "test the raw per-run statistics (no machine level removed, no machine shifts)")
      ("fail-on-machine-shift", po::bool_switch(&options.machine_shifts_are_regressions),
       "every slower machine shift not acknowledged is an open regression")
      ("thresholds", po::value(&thresholds_path),
       "thresholds YAML whose end-to-end and allocations rules set what counts (default: the "
       "built-in rules)")
      ("every-part", po::bool_switch(&every_part),
       "also report operator, delegate and framework-tax changes too small to move their "
       "model's Method::execute by --min-change");
  po::variables_map vm;
  if (auto exit = HelpOrParse("history detect", args, d, nullptr, &vm, out, err)) return *exit;
  options.end_to_end_only = !every_part;
  if (!thresholds_path.empty()) {
    auto thresholds = LoadThresholdsFile(thresholds_path, disk);
    if (!thresholds.ok()) return ReportError(kHistoryCommand, thresholds.error(), err);
    options.thresholds = thresholds.value();
  }
  if (!(options.fdr_q > 0 && options.fdr_q < 1) || options.min_segment < 2 ||
      !(options.load_cutoff >= 0)) {
    return ReportError(
        kHistoryCommand, UsageError("--fdr must be in (0, 1), --min-segment ≥ 2, --load-cutoff ≥ 0"), err);
  }
  options.machine_level = !raw;
  auto store = OpenExisting(s, disk);
  if (!store.ok()) return ReportError(kHistoryCommand, store.error(), err);
  auto groups = history::DetectAll(*store.value(), s.filter, since, options);
  if (!groups.ok()) return ReportError(kHistoryCommand, groups.error(), err);
  std::vector<history::SuiteDetection> detections;
  for (const history::DetectionGroup& g : groups.value()) {
    detections.push_back({g.suite, g.device, g.detection});
  }
  const int emitted = EmitRequests(
      reports, "terminal", {"terminal", "markdown", "json"},
      [&](const std::string& format) { return history_render::RenderDetection(detections, format); },
      out, err, disk);
  if (emitted != kExitOk) return emitted;
  std::size_t open = 0;
  for (const auto& g : groups.value()) open += g.detection.OpenRegressions();
  if (open > 0) {
    err << "etbench history: " << open << " open regression change point"
        << (open == 1 ? "" : "s") << " (acknowledge with: etbench history ack ID)\n";
    return kExitRegression;
  }
  return kExitOk;
}

int Ack(const CommandArgs& args, std::ostream& out, std::ostream& err, Disk& disk) {
  Selection s;
  std::vector<std::string> ids;
  std::string note;
  po::options_description d(
      "Usage: etbench history ack ID... [options]\n\n"
      "Acknowledges change points (ids from etbench history detect): they no longer make\n"
      "detect exit 1. An id is a hash of the metric and the run its change starts at, so it\n"
      "stays the same as runs are added; the acknowledgement holds while more runs move the\n"
      "estimated start by up to two runs. An id no change point of this history can have\n"
      "(a typo, another history's) is refused and nothing is stored; acknowledging an id\n"
      "again changes nothing (its first note stays).\n\n"
      "Exit codes: 0 acknowledged (or already); 2 usage error, an id not of this history or\n"
      "unreadable database; 130 interrupted (Ctrl-C, SIGTERM; acknowledged in full or not).\n\n"
      "Options");
  d.add_options()
      ("help,h", "show this help")
      ("id", po::value(&ids)->required(), "change point ids")
      ("history", po::value(&s.history), kDatabaseHelp)
      ("note", po::value(&note), "why (kept with the acknowledgement)");
  po::positional_options_description positional;
  positional.add("id", -1);
  po::variables_map vm;
  if (auto exit = HelpOrParse("history ack", args, d, &positional, &vm, out, err)) return *exit;
  // Anything but a change point id, a typo or a commit, would be stored and
  // acknowledge nothing while the alert stays.
  for (const std::string& id : ids) {
    if (!history::IsChangePointId(id)) {
      return ReportError(kHistoryCommand,
                         UsageError("'" + id +
                                    "' is not a change point id (12 hex digits, as etbench "
                                    "history detect prints them)"),
                         err);
    }
  }
  auto store = OpenExisting(s, disk);
  if (!store.ok()) return ReportError(kHistoryCommand, store.error(), err);
  // A well-formed id of no change point (a typo of a real one) would be
  // stored and leave the real one open: every id must be one this history's
  // runs can give, whatever options detect or the gate found it with.
  auto window = store.value()->Load(history::RunFilter{}, "*", false);
  if (!window.ok()) return ReportError(kHistoryCommand, window.error(), err);
  for (const std::string& id : ids) {
    if (!history::IsChangePointIdIn(window.value(), id)) {
      return ReportError(kHistoryCommand,
                         InputError("no change point with id " + id + " in " +
                                    history::HistoryDisplayName(s.history) +
                                    " (etbench history detect lists the ids)"),
                         err);
    }
  }
  auto acknowledged = store.value()->Acknowledged();
  if (!acknowledged.ok()) return ReportError(kHistoryCommand, acknowledged.error(), err);
  for (const std::string& id : ids) {
    if (acknowledged->count(id) > 0) {
      err << "etbench history: already acknowledged " << id << "\n";
      continue;
    }
    if (Status st = store.value()->Acknowledge(id, note); !st.ok()) {
      return ReportError(kHistoryCommand, st.error(), err);
    }
    err << "etbench history: acknowledged " << id << "\n";
  }
  return kExitOk;
}

int Report(const CommandArgs& args, std::ostream& out, std::ostream& err, Disk& disk) {
  Selection s;
  std::string format, output;
  po::options_description d(
      "Usage: etbench history report --format html|markdown [options]\n\n"
      "Per (suite, device) and model: the trend of Method::execute and the slowest\n"
      "operators (per-run p50 with the 95% interval of the run's median as a band), change\n"
      "points marked with their commit ranges, the framework-overhead trend, and the table\n"
      "of open change points. Machine shifts (every operator moved together: the machine,\n"
      "not the code) get a table of their own and a mark of their own on the charts.\n"
      "HTML is one self-contained page (inline CSS and SVG); Markdown is a summary sized\n"
      "for a nightly issue.\n\n"
      "Exit codes: 0 written; 2 usage error, unreadable database or unwritable output.\n\n"
      "Options");
  d.add_options()("help,h", "show this help");
  AddSelectionOptions(d, &s);
  d.add_options()
      ("last", po::value(&s.filter.last), "only the last N runs")
      ("format", po::value(&format)->required(), "html or markdown")
      ("output,o", po::value(&output), "write to this file (default stdout)");
  po::variables_map vm;
  if (auto exit = HelpOrParse("history report", args, d, nullptr, &vm, out, err)) return *exit;
  if (format != "html" && format != "markdown") {
    return ReportError(kHistoryCommand, UsageError("--format must be html or markdown"), err);
  }
  auto store = OpenExisting(s, disk);
  if (!store.ok()) return ReportError(kHistoryCommand, store.error(), err);
  auto reports = history::BuildHistoryReports(*store.value(), s.filter, history::DetectOptions{});
  if (!reports.ok()) return ReportError(kHistoryCommand, reports.error(), err);
  const std::string text = format == "html" ? history_render::RenderHistoryHtml(reports.value())
                                            : history_render::RenderHistoryMarkdown(reports.value());
  if (Status st = EmitOutput(text, output, out, disk); !st.ok()) {
    return ReportError(kHistoryCommand, st.error(), err);
  }
  return kExitOk;
}

}  // namespace

int RunHistoryCommand(const CommandArgs& args, std::ostream& out, std::ostream& err,
                      Disk& disk) {
  return DispatchSubcommand(
      kHistoryCommand,
      "Usage: etbench history <add|list|show|detect|ack|report> [options]\n\n"
      "Results over time in SQLite (default results/history.db) or PostgreSQL\n"
      "(--history postgresql://…).\n",
      {{"add", "add results files (idempotent)", Add},
       {"list", "list the stored runs", List},
       {"show", "per-run medians of metrics matching a glob", Show},
       {"detect", "change points per metric (exit 1 on an open regression)", Detect},
       {"ack", "acknowledge change points", Ack},
       {"report", "trends and change points as one HTML page or Markdown", Report}},
      "Exit codes: 0 ok; 1 open regression change point (detect); 2 usage or input error.", args,
      out, err, disk);
}

}  // namespace etbench
