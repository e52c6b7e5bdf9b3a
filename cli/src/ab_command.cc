// `etbench ab CONFIG --a … --b …`: local before/after. Runs two variants of
// a suite interleaved in randomised ABBA blocks on this machine, then
// compares B (candidate) with A (baseline) like `etbench compare`.
#include <algorithm>
#include <cstdio>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "command_support.h"
#include "etbench/base/terminal_text.h"
#include "commands.h"
#include "comparison_cli.h"
#include "etbench/cli/etbench_cli.h"
#include "etbench/cli/history_recording.h"
#include "etbench/harness/workflows.h"
#include "suite_run.h"

namespace etbench {

namespace po = boost::program_options;

namespace {

const char kAbCommand[] = "ab";

struct AbFlags {
  harness::AbRequest request;
  int iterations = -1;
  int warmup = -1;
  double budget_s = 0, min_time_s = 0, warmup_time_s = 0;
  std::string history;  // --history DB: where A's runs are appended
  bool no_layout_randomization = false;
  ComparisonOutput output;
};

po::options_description AbOptions(AbFlags* f) {
  po::options_description d(
      "Usage: etbench ab CONFIG [--a SETTING]... [--b SETTING]... [options]\n\n"
      "Local before/after: runs two variants of the suite CONFIG on this machine,\n"
      "interleaved in randomised ABBA blocks (each block runs A B B A or B A A B, so\n"
      "drift, heat and background load hit both alike), then compares B (candidate)\n"
      "with A (baseline) block by block. Each run is one repetition with a fresh\n"
      "method (or process), sized by time: a calibration run of each variant measures\n"
      "every model, then each run warms up for --warmup-time and measures at least\n"
      "--min-time seconds per model. Blocks are added until every gated metric is\n"
      "decided (regressed, improved, or a threshold-sized change ruled out) or the\n"
      "--budget is spent; the inference stays valid under this stopping\n"
      "(docs/comparison.md). A model whose every gated metric is decided is not run\n"
      "in later blocks (its rows stay as decided), so the rest of the budget goes to\n"
      "the models still undecided; the summary names the models stopped early. A\n"
      "model's run hit by interference leaves that model out of its block.\n\n"
      "A variant is the suite plus KEY=VALUE settings (repeat --a/--b for several):\n"
      "  config=FILE        the variant's own suite file\n"
      "  program=PATH       command runner: the program (argv[0]), e.g. two builds\n"
      "  command=ARGV       command runner: the whole argv template ('…' quotes)\n"
      "  model=PATH         the model file of the suite's only (or --model) model\n"
      "  model.NAME=PATH    the model file (gbench: benchmark binary) of model NAME\n"
      "  arg=VALUE          appended to every model's args (command, gbench)\n"
      "  env.NAME=VALUE     environment of the programs (command, gbench)\n"
      "  slowdown=OP=FACTOR builtin runner: slow OP down, e.g. conv2d=1.1\n"
      "  runner=KIND        builtin or command\n"
      "A variant without settings is the suite as it is (A/A: the noise floor).\n\n"
      "Examples:\n"
      "  etbench ab configs/et_runner_command.yaml \\\n"
      "      --a program=../main/build/tools/et_runner/et_runner \\\n"
      "      --b program=build/tools/et_runner/et_runner\n"
      "  etbench ab my_suite.yaml --model net --a model=net_old.pte --b model=net_new.pte\n"
      "  etbench ab configs/default.yaml --model toy_cnn --b slowdown=conv2d=1.1\n\n"
      "Writes the merged sides <output-dir>/a.json and b.json (baseline files:\n"
      "'etbench compare A B' repeats the comparison). Each run's directory\n"
      "<output-dir>/NN-a|b/ (its results, its ETDumps) is removed once read, unless\n"
      "--keep-runs, --keep-etdumps or --history; a failed run's stays.\n\n"
      "Exit codes: 0 no regression (or --advisory); 1 B regressed; 2 usage or input error, or a model\n"
      "failed; 3 inconclusive with --fail-on-inconclusive; 130 interrupted.\n\nOptions");
  // clang-format off
  d.add_options()
      ("help,h", "show this help")
      ("config", po::value(&f->request.config_path)->required(), "suite file (YAML)")
      ("a", po::value(&f->request.a_settings)->composing(),
       "a setting of variant A (baseline); repeatable")
      ("b", po::value(&f->request.b_settings)->composing(),
       "a setting of variant B (candidate); repeatable")
      ("blocks", po::value(&f->request.blocks),
       "exactly this many ABBA blocks (default: sequential, until decided)")
      ("budget", po::value(&f->budget_s), "seconds for everything (default: suite budget_s, else 60 per model run)")
      ("min-time", po::value(&f->min_time_s),
       "measured seconds per model and run (default: suite min_time_s, 0.2; 0: --iterations)")
      ("warmup-time", po::value(&f->warmup_time_s),
       "warm-up seconds per model and run (default: suite warmup_time_s, 0.05)")
      ("seed", po::value(&f->request.seed),
       "order of the blocks (default: random, printed so the order can be repeated)")
      ("iterations", po::value(&f->iterations),
       "executions measured per run (turns time sizing off unless --min-time is given)")
      ("warmup", po::value(&f->warmup), "executions per run not measured")
      ("model", po::value(&f->request.overrides.models)->composing(),
       "run only this model (repeatable)")
      ("label", po::value(&f->request.overrides.labels)->composing(), "KEY=VALUE metadata label")
      ("output-dir", po::value(&f->request.output_dir),
       "where the runs go (default: <suite output_dir>/ab)")
      ("thresholds", po::value(&f->request.thresholds_path),
       "thresholds YAML (overrides the suite's)")
      ("history", po::value(&f->history),
       "append A's runs (the baseline variant) to this history (SQLite file or\n"
       "postgresql://…), checked before anything runs")
      ("report", po::value(&f->output.report_specs)->composing(),
       "FORMAT[=FILE]: terminal, markdown, junit, json, csv, tsv, html (repeatable)")
      ("color", po::value(&f->output.color)->default_value("auto"), "auto, always or never")
      ("fail-on-inconclusive", po::bool_switch(&f->output.fail_on_inconclusive),
       "exit 3 when the outcome is inconclusive")
      ("keep-etdumps", po::bool_switch(&f->request.keep_etdumps),
       "keep every run's ETDump and directory (default: removed once its numbers are in the run's results file)")
      ("keep-runs", po::bool_switch(&f->request.keep_runs),
       "keep every run's directory <output-dir>/NN-a|b/ with its results file (default: removed once read; a.json and b.json hold every sample)")
      ("no-layout-randomization", po::bool_switch(&f->no_layout_randomization),
       "run each side's program in place with the environment as it is (default: every "
       "run starts it from one of 8 byte copies, through a path of random length, with "
       "ETBENCH_LAYOUT_PAD of random length, so that where a build happens to sit in "
       "memory does not pass for a change of its code)")
      ("advisory", po::bool_switch(&f->request.advisory),
       "verdicts are advice: exit 0, reports say 'advisory' first, JUnit has no failures");
  // clang-format on
  return d;
}

std::string OrderText(const std::vector<AbVariant>& order) {
  std::string text;
  for (std::size_t i = 0; i < order.size(); ++i) {
    if (i > 0 && i % 4 == 0) text += ' ';
    text += order[i] == AbVariant::kA ? 'A' : 'B';
  }
  return text;
}

std::string FormatSeconds(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.0f s", s);
  return buf;
}

// "toy_cnn decided after 9 blocks (52 s); mlp decided after 14 blocks
// (90 s); later blocks ran only the undecided models", earliest first.
std::string StoppedText(const std::map<std::string, Decision>& stopped) {
  std::vector<std::pair<std::string, Decision>> order(stopped.begin(), stopped.end());
  std::stable_sort(order.begin(), order.end(), [](const auto& x, const auto& y) {
    return x.second.blocks < y.second.blocks;
  });
  std::string text;
  for (const auto& [model, at] : order) {
    text += model + " decided after " + std::to_string(at.blocks) + " blocks (" +
            FormatSeconds(at.seconds) + "); ";
  }
  return text + "later blocks ran only the undecided models";
}

// "per block 0.31 s: models 0.01 s, runner processes 0.21 s (start, load,
// ETDump write), ETDump reading 0.04 s, results files 0.03 s, looks 0.02 s".
std::string OverheadText(const harness::AbOverhead& o) {
  char buf[320];
  std::snprintf(buf, sizeof buf,
                "per block %.2f s: models executing %.2f s, runner processes %.2f s (start, load, "
                "ETDump write), ETDump reading %.2f s, results files %.2f s, looks %.2f s",
                o.block_s, o.execute_s, o.process_s, o.etdump_s, o.results_s, o.looks_s);
  return buf;
}

}  // namespace

std::shared_ptr<const po::options_description> AbOptionTable() {
  struct Table {
    AbFlags flags;
    po::options_description options = AbOptions(&flags);
  };
  auto table = std::make_shared<Table>();
  return std::shared_ptr<const po::options_description>(table, &table->options);
}

int RunAbCommand(const CommandArgs& args, const CliDeps& deps) {
  std::ostream& out = *deps.out;
  std::ostream& err = *deps.err;
  AbFlags flags;
  po::options_description options = AbOptions(&flags);
  po::positional_options_description positional;
  positional.add("config", 1);
  po::variables_map vm;
  if (auto exit = HelpOrParse(kAbCommand, args, options, &positional, &vm, out, err)) return *exit;
  harness::AbRequest& request = flags.request;
  if (vm.count("iterations")) request.overrides.iterations = flags.iterations;
  if (vm.count("warmup")) request.overrides.warmup = flags.warmup;
  if (vm.count("blocks") && request.blocks < 1) {
    return ReportError(kAbCommand, UsageError("--blocks must be at least 1"), err);
  }
  if (vm.count("budget")) request.budget_s = flags.budget_s;
  if (vm.count("min-time")) request.min_time_s = flags.min_time_s;
  if (vm.count("warmup-time")) request.warmup_time_s = flags.warmup_time_s;
  request.iterations_only = vm.count("iterations") && !vm.count("min-time");
  if (!vm.count("seed")) request.seed = std::random_device{}();
  request.layout_randomization = !flags.no_layout_randomization;

  // --history adds A's runs from their results files, so they stay.
  request.keep_runs = request.keep_runs || !flags.history.empty();
  // An unusable history fails now, in seconds, not after both sides ran.
  if (!flags.history.empty()) {
    if (Status s = history::CheckHistoryForAdding(flags.history); !s) {
      return ReportError(kAbCommand, s.error(), err);
    }
  }
  // Progress and Ctrl-C (what ran is kept: merged sides, or the runs with --keep-runs) until the end.
  SuiteRunContext context(deps, /*show_progress=*/true);
  auto ab = harness::Ab(request, context.deps(),
                        [&err](const harness::AbPlan& plan, const std::vector<AbVariant>& order) {
                          err << "etbench ab: " << plan.a_description << "\n"
                              << "etbench ab: " << plan.b_description << "\n"
                              << "etbench ab: "
                              << (plan.blocks > 0 ? "order " + OrderText(order)
                                                  : "ABBA blocks until decided, budget " +
                                                        FormatSeconds(plan.budget_s))
                              << " (--seed " << plan.seed << "), runs in " << plan.output_dir
                              << "\n";
                        });
  if (!ab) return ReportError(kAbCommand, ab.error(), err);
  const harness::AbRunOutput& run = ab->run;
  if (run.interrupted) {
    err << "etbench ab: interrupted after " << run.run_paths.size();
    if (ab->plan.blocks > 0) err << " of " << ab->plan.blocks * 4;  // sequential: open-ended
    if (ab->plan.keep_runs || ab->plan.keep_etdumps) {
      err << " runs; their results are in " << TerminalText(ab->plan.output_dir) << "\n";
    } else if (!run.a_path.empty() || !run.b_path.empty()) {
      err << " runs; what ran is merged in "
          << TerminalText(run.a_path.empty() ? run.b_path
                                             : run.b_path.empty() ? run.a_path
                                                                  : run.a_path + " and " + run.b_path)
          << " (each run's directory was removed once read; --keep-runs keeps them)\n";
    } else {
      err << " runs; none was merged (each run's directory was removed once read; --keep-runs "
             "keeps them)\n";
    }
    return kExitInterrupted;
  }
  err << "etbench ab: " << run.blocks << " blocks";
  if (run.dropped_blocks > 0) err << " (" << run.dropped_blocks << " dropped: interference)";
  err << " in " << FormatSeconds(run.seconds)
      << (run.budget_spent ? ", budget spent before every metric was decided" : "");
  if (run.block_limit) {
    err << ", block limit reached before every metric was decided (" << run.max_blocks
        << " blocks: "
        << (ab->plan.max_blocks > 0
                ? std::string("the plan's limit")
                : "what keeps the ab directory within " +
                      std::to_string(static_cast<long long>(ab->plan.disk_budget_bytes / 1e6)) +
                      " MB")
        << "; time was left)";
  }
  err << "\n";
  if (!run.stopped_models.empty()) err << "etbench ab: " << StoppedText(run.stopped_models) << "\n";
  for (const auto& [model, n] : run.iterations) {
    err << "etbench ab: " << model << ": " << run.warmup.at(model) << " warm-up + " << n
        << " measured executions per run";
    if (auto capped = run.capped_by.find(model); capped != run.capped_by.end()) {
      err << " (min-time asked " << run.time_iterations.at(model) << "; capped: "
          << (capped->second == "etdump" ? "ETDump size" : "the run's median is stable") << ")";
    }
    err << "\n";
  }
  if (run.blocks > 0 && run.overhead.block_s > 0) err << "etbench ab: " << OverheadText(run.overhead) << "\n";
  if (!run.layout.empty()) {
    err << "etbench ab: layout randomised per run: " << run.layout
        << " (--no-layout-randomization turns it off)\n";
  }
  if (run.etdumps_removed > 0) {
    char buf[160];
    std::snprintf(buf, sizeof buf,
                  "etbench ab: removed %zu ETDump file(s), %.1f MB, once their numbers were in the "
                  "runs' results files (--keep-etdumps keeps them)\n",
                  run.etdumps_removed, run.etdump_bytes_removed / 1e6);
    err << buf;
  }
  if (!flags.history.empty()) {
    // Only A: B is the experiment, and one series must not mix the two.
    auto store = history::OpenHistory(flags.history);
    if (!store) return ReportError(kAbCommand, store.error(), err);
    for (std::size_t i = 0; i < run.run_paths.size(); ++i) {
      if (run.order[i] != AbVariant::kA) continue;
      auto added = AddResultsFile(**store, run.run_paths[i], {}, nullptr, *deps.env, *deps.disk);
      if (!added) return ReportError(kAbCommand, added.error(), err);
    }
    err << "etbench ab: added A's runs to the history "
        << TerminalText(history::HistoryDisplayName(flags.history)) << "\n";
  }
  err << "etbench ab: wrote " << TerminalText(run.a_path) << " and " << TerminalText(run.b_path) << "\n";
  flags.output.title = ab->title;
  return EmitComparison(kAbCommand, *ab->comparison, run.a, run.b, flags.output, *deps.env,
                        *deps.disk, out, err);
}

}  // namespace etbench
