// Uses an installed etbench: the inspector reads an ETDump, base formats a
// date, results parses a results file, the command line runs in-process.
#include <iostream>
#include <sstream>

#include "etbench/base/environment.h"
#include "etbench/base/utc_date.h"
#include "etbench/cli/etbench_cli.h"
#include "etbench/inspector/etdump_file.h"
#include "etbench/inspector/inspector.h"
#include "etbench/results/results.h"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: consumer ETDUMP\n";
    return 2;
  }
  auto file = etbench::EtdumpFile::Open(argv[1]);
  if (!file.ok()) {
    std::cerr << file.error().message << "\n";
    return 2;
  }
  auto blocks = etbench::BuildEventBlocks(file.value(), etbench::InspectorOptions{});
  if (!blocks.ok()) {
    std::cerr << blocks.error().message << "\n";
    return 2;
  }
  std::cout << "blocks: " << blocks->size() << "\n";
  std::cout << "epoch: " << etbench::FormatUtcDate(0) << "\n";
  std::cout << "data: " << ETBENCH_DATA_DIR << "\n";
  auto results = etbench::results::ParseResultsJson(
      etbench::results::ResultsToJson(etbench::results::RunResults{}), "consumer");
  if (!results.ok()) {
    std::cerr << results.error().message << "\n";
    return 2;
  }
  std::cout << "results schema: " << results->schema_version << "\n";

  std::ostringstream out, err;
  etbench::MapEnvironment env;
  etbench::CliDeps deps;
  deps.out = &out;
  deps.err = &err;
  deps.env = &env;
  const int exit_code = etbench::RunEtbench({"--version"}, deps);
  std::cout << "cli: " << out.str();
  return exit_code;
}
