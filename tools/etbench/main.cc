// etbench: profiling regression gate. All behaviour lives in etbench::cli.
#include <iostream>
#include <string>
#include <vector>

#include "etbench/cli/etbench_cli.h"
#include "etbench/inspector/main_guard.h"

int main(int argc, char** argv) {
  return etbench::RunGuardedMain(
      "etbench",
      [&] {
        std::vector<std::string> args(argv + 1, argv + argc);
        return etbench::RunEtbench(args, std::cout, std::cerr);
      },
      std::cerr);
}
