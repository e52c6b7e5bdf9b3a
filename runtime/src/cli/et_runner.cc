// et_runner: load a model YAML, run it N times on the reference runtime,
// write the ETDump (+ debug buffer, + metadata sidecar, + ETRecord).

#include "etbench/runtime/et_runner.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <optional>
#include <sstream>

#include <boost/program_options.hpp>

#include "etbench/base/atomic_file.h"
#include "etbench/inspector/etdump_writer.h"
#include "etbench/base/sha256.h"
#include "etbench/runtime/model_etrecord.h"
#include "etbench/runtime/model_loader.h"
#include "etbench/runtime/run_metadata.h"
#include "etbench/runtime/run_model.h"

namespace etbench::runtime {
namespace {

namespace po = boost::program_options;

struct Flags {
  std::string model_path;
  int num_executions = 1;
  std::string etdump_path = "etdump.etdp";
  std::string debug_output_path = "debug_output.bin";
  std::string etrecord_path;  // empty: no ETRecord
  bool dump_intermediate_outputs = false;
  bool dump_outputs = false;
  bool log_allocations = false;
  std::string time_source = "ns";
  std::optional<uint64_t> seed;
  std::vector<std::string> slowdowns;
  bool help = false;
};

po::options_description Describe(Flags* f) {
  po::options_description options("Options");
  options.add_options()
      ("help,h", po::bool_switch(&f->help), "Print this help and exit.")
      ("model_path", po::value(&f->model_path)->value_name("PATH"),
       "Model YAML file to run (required), e.g. configs/models/toy_cnn.yaml.")
      ("num_executions", po::value(&f->num_executions)->value_name("N")
                             ->default_value(1),
       "Number of times to execute the method (one Execute block each).")
      ("etdump_path", po::value(&f->etdump_path)->value_name("PATH")
                          ->default_value("etdump.etdp"),
       "Where to write the ETDump; run metadata goes to PATH.meta.json.")
      ("debug_output_path", po::value(&f->debug_output_path)->value_name("PATH")
                                ->default_value("debug_output.bin"),
       "Where to write the debug buffer (tensor bytes of debug events) when "
       "--dump_intermediate_outputs or --dump_outputs is set.")
      ("etrecord_path", po::value(&f->etrecord_path)->value_name("PATH"),
       "Also write the model's ETRecord (debug handles, op types, module "
       "paths) to PATH, for `etbench inspect --etrecord_path`.")
      ("dump_intermediate_outputs",
       po::value(&f->dump_intermediate_outputs)->value_name("BOOL")
           ->default_value(false)->implicit_value(true),
       "Log every instruction's output tensors (and the program outputs) as "
       "debug events.")
      ("dump_outputs", po::value(&f->dump_outputs)->value_name("BOOL")
                           ->default_value(false)->implicit_value(true),
       "Log the program outputs as debug events.")
      ("log_allocations", po::value(&f->log_allocations)->value_name("BOOL")
                              ->default_value(false)->implicit_value(true),
       "Record allocators and allocation events in every block.")
      ("time_source", po::value(&f->time_source)->value_name("ns|cycles")
                          ->default_value("ns"),
       "Tick source of event timestamps: monotonic nanoseconds, or the CPU "
       "cycle counter (TSC on x86-64, CNTVCT_EL0 on AArch64).")
      ("seed", po::value<uint64_t>()->value_name("N"),
       "Seed of weights and inputs (default: the model's `seed:`).")
      ("slowdown", po::value(&f->slowdowns)->value_name("OP=FACTOR")
                       ->composing(),
       "Make OP (an op type like conv2d, a node name, or a kernel like "
       "addmm) FACTOR times slower through real extra work; repeatable.");
  return options;
}

void PrintHelp(std::ostream& out, const po::options_description& options) {
  out << "Usage: et_runner --model_path MODEL.yaml [options]\n\n"
         "Runs a model on etbench's reference runtime and writes an ETDump "
         "that\nExecuTorch's tools (and `etbench inspect`) read like a real "
         "runtime's.\n\n"
      << options
      << "\nExample:\n"
         "  et_runner --model_path configs/models/toy_cnn.yaml "
         "--num_executions 20 \\\n"
         "            --etdump_path /tmp/t.etdp "
         "--etrecord_path /tmp/t.etrecord\n"
         "  etbench inspect --etdump_path /tmp/t.etdp "
         "--etrecord_path /tmp/t.etrecord\n\n"
         "Exit status: 0 success, 1 the run failed, 2 bad flags or model "
         "file.\n";
}

std::string FormatMs(double ms) {
  char text[32];
  std::snprintf(text, sizeof(text), "%.3f", ms);
  return text;
}

std::string FormatOutput(std::size_t index, const OutputTensor& tensor) {
  std::ostringstream text;
  text << "Output " << index << " (" << tensor.name << "): tensor(sizes=[";
  for (std::size_t i = 0; i < tensor.shape.size(); ++i) {
    text << (i > 0 ? ", " : "") << tensor.shape[i];
  }
  text << "], [";
  const std::size_t shown = std::min<std::size_t>(tensor.data.size(), 8);
  for (std::size_t i = 0; i < shown; ++i) {
    char value[32];
    std::snprintf(value, sizeof(value), "%.4g", tensor.data[i]);
    text << (i > 0 ? ", " : "") << value;
  }
  if (shown < tensor.data.size()) text << ", ...";
  text << "])";
  return text.str();
}

// Parses flags; returns an exit code to stop with, or nullopt to go on.
std::optional<int> ParseFlags(const std::vector<std::string>& args, Flags* f,
                              std::ostream& out, std::ostream& err) {
  po::options_description options = Describe(f);
  po::variables_map vars;
  try {
    po::store(po::command_line_parser(args).options(options).run(), vars);
    po::notify(vars);
  } catch (const po::error& e) {
    err << "et_runner: error: " << e.what() << " (see --help)\n";
    return kEtRunnerUsageError;
  }
  if (f->help) {
    PrintHelp(out, options);
    return kEtRunnerOk;
  }
  if (vars.count("seed") != 0) f->seed = vars["seed"].as<uint64_t>();
  if (f->model_path.empty()) {
    err << "et_runner: error: --model_path is required (see --help)\n";
    return kEtRunnerUsageError;
  }
  if (f->num_executions < 1) {
    err << "et_runner: error: --num_executions must be at least 1, got "
        << f->num_executions << "\n";
    return kEtRunnerUsageError;
  }
  if (f->etdump_path.empty()) {
    err << "et_runner: error: --etdump_path must not be empty\n";
    return kEtRunnerUsageError;
  }
  return std::nullopt;
}

}  // namespace

int RunEtRunner(const std::vector<std::string>& args, std::ostream& out,
                std::ostream& err) {
  Flags flags;
  if (auto code = ParseFlags(args, &flags, out, err)) return *code;

  RunOptions options;
  options.num_executions = flags.num_executions;
  auto time_source = ParseTimeSource(flags.time_source);
  if (!time_source) {
    err << "et_runner: error: --time_source: " << time_source.error().message
        << "\n";
    return kEtRunnerUsageError;
  }
  options.time_source = *time_source;
  options.seed = flags.seed;
  for (const std::string& text : flags.slowdowns) {
    auto slowdown = ParseSlowdownFlag(text);
    if (!slowdown) {
      err << "et_runner: error: " << slowdown.error().message << "\n";
      return kEtRunnerUsageError;
    }
    options.slowdowns.push_back(*slowdown);
  }
  options.dump_intermediate_outputs = flags.dump_intermediate_outputs;
  options.dump_outputs = flags.dump_outputs;
  options.log_allocations = flags.log_allocations;

  const auto load_start = std::chrono::steady_clock::now();
  auto model = LoadModelFile(flags.model_path);
  if (!model) {
    err << "et_runner: error: " << model.error().message << "\n";
    return kEtRunnerUsageError;
  }
  const double load_ms = std::chrono::duration<double, std::milli>(
                             std::chrono::steady_clock::now() - load_start)
                             .count();
  out << "Model loaded in " << FormatMs(load_ms) << " ms.\n";

  if (auto status = ValidateSlowdowns(*model, options.slowdowns); !status) {
    err << "et_runner: error: --" << status.error().message << "\n";
    return kEtRunnerUsageError;
  }
  const int total = flags.num_executions;
  options.on_method_loaded = [&out](double ms, int instructions) {
    out << "Method loaded in " << FormatMs(ms) << " ms (" << instructions
        << " instructions).\n";
  };
  options.on_execution = [&out, total](int index, double ms) {
    out << "Iteration " << index + 1 << " of " << total << ": "
        << FormatMs(ms) << " ms\n";
  };
  // Announce the method before running it, like executor_runner does.
  out << "Running model '" << model->name << "' (" << model->nodes.size()
      << " nodes, " << model->delegates.size() << " delegate partition(s)), "
      << total << " execution(s), time source "
      << TimeSourceName(options.time_source) << ".\n";
  auto run = RunModel(*model, options);
  if (!run) {
    err << "et_runner: error: " << run.error().message << "\n";
    return run.error().code == ErrorCode::kUsage ||
                   run.error().code == ErrorCode::kInvalidInput
               ? kEtRunnerUsageError
               : kEtRunnerFailed;
  }
  const std::vector<double>& times = run->execution_ms;
  double sum = 0;
  for (double t : times) sum += t;
  out << "Model executed successfully " << times.size() << " time(s) in "
      << FormatMs(sum) << " ms (avg " << FormatMs(sum / times.size())
      << " ms, min " << FormatMs(*std::min_element(times.begin(), times.end()))
      << " ms, max " << FormatMs(*std::max_element(times.begin(), times.end()))
      << " ms).\n";
  char rate[64];
  std::snprintf(rate, sizeof(rate), "%.0f", run->tick_rate.hz);
  out << "Time source: " << TimeSourceName(run->time_source) << ", tick rate "
      << rate << " Hz (" << (run->tick_rate.measured ? "measured" : "exact")
      << ").\n";
  for (std::size_t i = 0; i < run->outputs.size(); ++i) {
    out << FormatOutput(i, run->outputs[i]) << "\n";
  }

  if (auto s = WriteFileAtomically(flags.etdump_path, run->etdump); !s) {
    err << "et_runner: error: " << s.error().message << "\n";
    return kEtRunnerFailed;
  }
  out << "ETDump written to " << flags.etdump_path << " ("
      << run->etdump.size() << " bytes).\n";
  std::optional<std::string> debug_path;
  if (options.dump_intermediate_outputs || options.dump_outputs) {
    debug_path = flags.debug_output_path;
    if (auto s = WriteFileAtomically(*debug_path, run->debug_buffer); !s) {
      err << "et_runner: error: " << s.error().message << "\n";
      return kEtRunnerFailed;
    }
    out << "Debug output written to " << *debug_path << " ("
        << run->debug_buffer.size() << " bytes).\n";
  }
  auto model_sha256 = Sha256OfFile(flags.model_path);
  if (!model_sha256) {
    err << "et_runner: error: " << model_sha256.error().message << "\n";
    return kEtRunnerFailed;
  }
  const RunMetadata metadata =
      MakeRunMetadata(*model, *run, *model_sha256, flags.etdump_path, debug_path);
  const std::string json = RunMetadataToJson(metadata);
  const std::string metadata_path = RunMetadataPath(flags.etdump_path);
  if (auto s = WriteFileAtomically(
          metadata_path, std::vector<uint8_t>(json.begin(), json.end()));
      !s) {
    err << "et_runner: error: " << s.error().message << "\n";
    return kEtRunnerFailed;
  }
  out << "Run metadata written to " << metadata_path << ".\n";
  if (!flags.etrecord_path.empty()) {
    if (auto s = WriteModelEtrecord(*model, flags.etrecord_path); !s) {
      err << "et_runner: error: " << s.error().message << "\n";
      return kEtRunnerFailed;
    }
    out << "ETRecord written to " << flags.etrecord_path << ".\n";
  }
  return kEtRunnerOk;
}

}  // namespace etbench::runtime
