#pragma once
// A model lowered to an execution plan, as ExecuTorch's emitter would lower
// it: a value table (inputs, weights, activations, views) and a list of
// instructions, each a kernel call or a call into a delegate partition.

#include <cstdint>
#include <string>
#include <vector>

#include "etbench/runtime/model.h"
#include "exec/kernel_call.h"

namespace etbench::runtime {

enum class ValueKind {
  kInput,         // model input, filled once from the seed
  kWeight,        // parameter, filled once from the seed
  kActivation,    // written by an instruction on every execution
  kPackedWeight,  // written once by a delegate at init (e.g. a transpose)
  kView,          // shares the buffer of `alias_of` (reshape, flatten)
};

struct Value {
  std::string name;
  std::vector<int64_t> shape;
  ValueKind kind = ValueKind::kActivation;
  int alias_of = -1;  // kView only
  // kWeight: offset + U(-bound, bound) from the stream named `name`.
  float init_offset = 0;
  float init_bound = 1;
};

/// How one node lowers: the kernel calls it runs on every execution, and
/// (delegated linear) calls a delegate runs once at init to pack weights.
struct NodeLowering {
  std::vector<KernelCall> calls;
  std::vector<KernelCall> init_calls;
  int output = -1;  // value id of the node's result
};

struct Instruction {
  enum class Kind { kKernel, kDelegate };
  Kind kind = Kind::kKernel;
  /// The profile event name: "native_call_<kernel>" or "DELEGATE_CALL".
  std::string event_name;
  KernelCall call;     // kKernel
  int partition = -1;  // kDelegate: index into Program::partitions
  int node = -1;       // the (first) node it came from
  /// Values logged as this instruction's intermediate outputs.
  std::vector<int> outputs;
  /// Regression injection: > 1 makes the kernel this much slower.
  double slowdown = 1.0;
};

struct Partition {
  int delegate = -1;       // index into model.delegates
  std::vector<int> nodes;  // consecutive node indices
  int instruction = -1;
};

struct Program {
  Model model;
  std::vector<Value> values;
  std::vector<NodeLowering> lowering;  // per node
  std::vector<Instruction> instructions;
  std::vector<Partition> partitions;
  std::vector<int> input_values;
  std::vector<int> output_values;
  /// Per value: how many node inputs and model outputs read it.
  std::vector<int> use_count;
};

/// Lowers a validated model. `slowdowns` are applied on top of the model's
/// own (factors of matching slowdowns multiply).
Program LowerModel(const Model& model, const std::vector<Slowdown>& slowdowns);

/// Product of the factors of `slowdowns` that match `node` as a whole (name
/// or op type) or the given kernel ("convolution.out"); null kernel: any of
/// the node's kernels.
double SlowdownFactor(const std::vector<Slowdown>& slowdowns, const Node& node,
                      const char* kernel_name);

}  // namespace etbench::runtime
