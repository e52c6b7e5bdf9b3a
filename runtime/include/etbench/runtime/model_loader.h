#pragma once
// Loads and validates model YAML files.

#include <string>

#include "etbench/base/result.h"
#include "etbench/runtime/model.h"

namespace etbench::runtime {

/// Reads, parses and validates a model file. Errors are one line:
/// "path:line:column: node 'name' (op): what is wrong" (or without the
/// node part for model-level keys).
Result<Model> LoadModelFile(const std::string& path);

/// Same, from YAML text; `source_name` stands for the path in messages.
Result<Model> ParseModelYaml(const std::string& text,
                             const std::string& source_name = "<memory>");

/// Parses "OP=FACTOR" (et_runner's --slowdown). FACTOR must be >= 1.
Result<Slowdown> ParseSlowdownFlag(const std::string& text);

/// Checks that every slowdown target matches at least one node of `model`
/// (by node name, op type or kernel name) and that factors are >= 1.
Status ValidateSlowdowns(const Model& model,
                         const std::vector<Slowdown>& slowdowns);

}  // namespace etbench::runtime
