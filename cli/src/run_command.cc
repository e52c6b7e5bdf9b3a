// `etbench run CONFIG`: runs a suite (configs/README.md) and writes its
// results file; the summary table goes to stdout, progress and
// diagnostics to stderr.
#include <iostream>

#include "command_support.h"
#include "etbench/base/terminal_text.h"
#include "commands.h"
#include "etbench/cli/etbench_cli.h"
#include "etbench/cli/history_recording.h"
#include "etbench/harness/config.h"
#include "etbench/harness/orchestrator.h"
#include "etbench/harness/workflows.h"
#include "etbench/reports/summary.h"
#include "etbench/reports/reports.h"
#include "etbench/reports/summary.h"
#include "suite_run.h"

namespace etbench {

namespace po = boost::program_options;

namespace {

const char kRunCommand[] = "run";

struct RunFlags {
  std::string config;
  harness::ConfigOverrides overrides;
  int iterations = -1;
  int warmup = -1;
  int repetitions = -1;
  std::string runner;
  std::string time_source;
  std::string output_dir;
  std::string shard;
  std::string summary = "table";
  std::string history;  // --history DB
  std::vector<std::string> reports;  // --report FORMAT[=FILE]
};

po::options_description RunOptions(RunFlags* f) {
  po::options_description d(
      "Usage: etbench run CONFIG [options]\n\n"
      "Runs the suite CONFIG (YAML; every key in configs/README.md): warm-up, iterations\n"
      "and repetitions of each model on its runner (builtin, command or gbench); writes\n"
      "<output_dir>/results.json (docs/results.md) with the ETDumps beside it, and prints\n"
      "a summary per model (p50/p90 of Method::execute, framework tax, slowest ops).\n\n"
      "--history DB is opened and checked (reachable, schema, writable) before any model\n"
      "runs.\n\n"
      "Exit codes: 0 every model ok; 2 bad config, flags, output directory or history;\n"
      "4 some models failed (results written, failures recorded); 130 interrupted\n"
      "(Ctrl-C; the models that finished are written).\n\nOptions");
  // clang-format off
  d.add_options()
      ("help,h", "show this help")
      ("config", po::value(&f->config)->required(), "suite file (YAML)")
      ("iterations", po::value(&f->iterations), "executions measured per repetition")
      ("warmup", po::value(&f->warmup), "executions per repetition not measured")
      ("repetitions", po::value(&f->repetitions), "fresh methods / processes per model")
      ("runner", po::value(&f->runner), "builtin or command (switch between model runners)")
      ("time-source", po::value(&f->time_source), "ns or cycles")
      ("output-dir", po::value(&f->output_dir), "results directory ({suite} = suite name)")
      ("shard", po::value(&f->shard), "I/N: run every N-th model starting at the I-th (1-based)")
      ("model", po::value(&f->overrides.models)->composing(), "run only this model (repeatable)")
      ("label", po::value(&f->overrides.labels)->composing(),
       "KEY=VALUE metadata label (repeatable; device, branch, commit override detection)")
      ("quiet,q", po::bool_switch(&f->overrides.quiet), "no progress, no summary; errors only")
      ("history", po::value(&f->history),
       "append the results to this history (SQLite file or postgresql://…)")
      ("summary", po::value(&f->summary)->default_value("table"), "table, json or none")
      ("report", po::value(&f->reports)->composing(),
       "FORMAT[=FILE]: a report of the results (terminal, markdown, junit, json, csv, tsv,\n"
       "html); repeatable");
  // clang-format on
  return d;
}

void CopyFlags(const po::variables_map& vm, RunFlags* f) {
  harness::ConfigOverrides& o = f->overrides;
  if (vm.count("iterations")) o.iterations = f->iterations;
  if (vm.count("warmup")) o.warmup = f->warmup;
  if (vm.count("repetitions")) o.repetitions = f->repetitions;
  if (vm.count("runner")) o.runner = f->runner;
  if (vm.count("time-source")) o.time_source = f->time_source;
  if (vm.count("output-dir")) o.output_dir = f->output_dir;
  if (vm.count("shard")) o.shard = f->shard;
}

}  // namespace

int RunRunCommand(const CommandArgs& args, const CliDeps& deps) {
  std::ostream& out = *deps.out;
  std::ostream& err = *deps.err;
  RunFlags flags;
  po::options_description options = RunOptions(&flags);
  po::positional_options_description positional;
  positional.add("config", 1);
  po::variables_map vm;
  if (auto exit = HelpOrParse(kRunCommand, args, options, &positional, &vm, out, err)) return *exit;
  CopyFlags(vm, &flags);
  if (flags.summary != "table" && flags.summary != "json" && flags.summary != "none") {
    return ReportError(kRunCommand, UsageError("--summary must be table, json or none"), err);
  }

  // An unusable history fails now, in seconds, not after the suite ran.
  if (!flags.history.empty()) {
    if (Status s = history::CheckHistoryForAdding(flags.history); !s) {
      return ReportError(kRunCommand, s.error(), err);
    }
  }
  auto outcome = harness::Run(flags.config, flags.overrides, RunSuiteFn(deps), *deps.disk);
  if (!outcome) return ReportError(kRunCommand, outcome.error(), err);
  const harness::SuiteConfig& config = outcome->config;
  const std::string& results_path = outcome->run.results_path;
  const results::RunResults& results = outcome->run.results;
  if (!config.quiet) {
    if (flags.summary == "table") {
      out << reports::RenderSummaryTable(results, results_path);
    } else if (flags.summary == "json") {
      out << reports::RenderSummaryJson(results, results_path);
    }
    out.flush();
  }
  if (!flags.reports.empty()) {
    auto requests = reports::ParseReportRequests(flags.reports);
    if (!requests) return ReportError(kRunCommand, requests.error(), err);
    reports::ReportInput input;
    input.results = &results;
    input.title = config.suite;
    reports::ReportOptions report_options;
    report_options.generator = std::string("etbench ") + ETBENCH_VERSION;
    if (Status s = reports::WriteReports(*requests, input, report_options, out, *deps.disk); !s) {
      return ReportError(kRunCommand, s.error(), err);
    }
  }
  if (!flags.history.empty()) {
    auto note = RecordRun(flags.history, results, results_path);
    if (!note) return ReportError(kRunCommand, note.error(), err);
    err << "etbench run: " << note.value() << "\n";
  }
  const std::size_t failed = results.CountWithStatus(results::ModelStatus::kFailed);
  const std::size_t ok = results.CountWithStatus(results::ModelStatus::kOk);
  if (!config.quiet || failed > 0 || results.interrupted) {
    err << "etbench run: wrote " << TerminalText(results_path) << " (" << ok << " ok, " << failed
        << " failed" << (results.interrupted ? ", interrupted" : "") << ")\n";
  }
  if (results.interrupted) return kExitInterrupted;
  return failed > 0 ? kExitModelsFailed : kExitOk;
}

}  // namespace etbench
