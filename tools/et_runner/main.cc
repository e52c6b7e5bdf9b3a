// et_runner: runs a model YAML on etbench's reference runtime and writes an
// ETDump. All behaviour lives in etbench::runtime::RunEtRunner.
#include <iostream>
#include <string>
#include <vector>

#include "etbench/base/main_guard.h"
#include "etbench/runtime/et_runner.h"

int main(int argc, char** argv) {
  return etbench::RunGuardedMain(
      "et_runner",
      [&] {
        std::vector<std::string> args(argv + 1, argv + argc);
        return etbench::runtime::RunEtRunner(args, std::cout, std::cerr);
      },
      std::cerr);
}
