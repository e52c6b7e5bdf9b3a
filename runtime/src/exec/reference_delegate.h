#pragma once
// The reference delegate backend: takes a partition (consecutive nodes),
// compiles it its own way — activations fused into the op before them,
// linear weights transposed once at init — and runs it with the runtime's
// kernels, logging delegate-internal profile events the way real backends
// do: no name, an int or a string debug id, optional metadata bytes,
// timestamps in the runtime's unit or in CPU cycles, measured or laid back
// to back.

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "etbench/runtime/model.h"
#include "etbench/runtime/tracer.h"
#include "exec/kernel_call.h"
#include "exec/program.h"

namespace etbench::runtime {

class Arena;

class ReferenceDelegate {
 public:
  /// One delegate-internal op: a node plus the activations fused into it.
  struct Op {
    std::vector<KernelCall> calls;
    std::vector<std::string> nodes;
    int32_t debug_id_int = -1;
    std::string debug_id_str;
    std::vector<uint8_t> metadata;
    double slowdown = 1.0;
    int output = -1;
  };

  /// Compiles `partition` of `program` (no I/O, cannot fail on a validated
  /// program).
  ReferenceDelegate(const Program& program, const Partition& partition);

  const DelegateSpec& spec() const { return spec_; }
  const std::vector<Op>& ops() const { return ops_; }
  /// Scratch the delegate needs from the temp allocator, per op.
  std::size_t TempBytes() const;

  /// Init-time work (weight packing); part of Method::init.
  void Init(float* const* data, Arena& temp) const;

  /// Runs the partition as instruction `instruction_id`, logging one
  /// delegate event per op.
  void Execute(Tracer& tracer, int32_t instruction_id, float* const* data,
               Arena& temp);

 private:
  uint64_t DelegateNow(const Tracer& tracer) const;
  void Log(Tracer& tracer, int32_t instruction_id, const Op& op,
           uint64_t start, uint64_t end) const;

  DelegateSpec spec_;
  std::vector<Op> ops_;
  std::vector<KernelCall> init_calls_;
  std::vector<uint64_t> durations_;  // back-to-back mode, reused per run
};

/// Layout of the metadata bytes (little-endian, 16 bytes): uint32 version
/// (1), uint32 number of graph nodes in the op, uint64 FLOPs of the op.
std::vector<uint8_t> EncodeDelegateMetadata(uint32_t node_count,
                                            uint64_t flops);

}  // namespace etbench::runtime
