#pragma once
// A loaded method: memory, weights, delegates, and the instrumented
// execution loop. Mirrors ExecuTorch's Method so that the ETDump it produces
// follows the runtime's conventions (docs: etdump-format.md):
//
//   Default block: Method::init, then Program::load_method (enclosing it);
//   Execute block per execution: per instruction i, either
//     native_call_<kernel> then OPERATOR_CALL (chain 0, instruction i), or
//     the delegate's events then DELEGATE_CALL (chain 0, instruction i);
//   then Method::execute (chain -1, instruction 0) last.

#include <cstdint>
#include <memory>
#include <vector>

#include "etbench/runtime/tracer.h"
#include "exec/arena.h"
#include "exec/program.h"
#include "exec/reference_delegate.h"

namespace etbench::runtime {

struct MethodOptions {
  /// Seed of the weights and inputs.
  uint64_t seed = 0;
  /// Debug events with every instruction's output tensors.
  bool log_intermediate_outputs = false;
  /// Debug events with the program outputs (Value.output = true).
  bool log_program_outputs = false;
  /// Allocators and AllocationEvents (method, planned and temp memory).
  bool log_allocations = false;
};

class Method {
 public:
  /// Program::load_method + Method::init, recorded into `tracer` as the
  /// "Default" block. Tensor bytes of debug events go to `debug_buffer`
  /// (may be null when no values are logged).
  static std::unique_ptr<Method> Load(const Program& program,
                                      const MethodOptions& options,
                                      Tracer& tracer,
                                      std::vector<uint8_t>* debug_buffer);

  /// One execution, recorded as an "Execute" block.
  void Execute(Tracer& tracer);

  const Program& program() const { return program_; }
  /// The buffer of value `id` (valid after Load).
  const float* ValueData(int id) const { return data_[id]; }

 private:
  Method(const Program& program, const MethodOptions& options,
         std::vector<uint8_t>* debug_buffer);

  void Init(Tracer& tracer);
  void InternNames(Tracer& tracer);
  void LogValue(Tracer& tracer, int value, uint64_t chain_index,
                int32_t instruction_id, bool program_output);

  const Program& program_;
  MethodOptions options_;
  std::vector<uint8_t>* debug_buffer_;
  std::vector<float*> data_;
  std::unique_ptr<Arena> method_allocator_;
  std::unique_ptr<Arena> planned_memory_;
  std::unique_ptr<Arena> temp_allocator_;
  std::vector<std::unique_ptr<ReferenceDelegate>> delegates_;

  // Interned tracer names.
  uint32_t default_block_ = 0;
  uint32_t execute_block_ = 0;
  uint32_t load_method_ = 0;
  uint32_t method_init_ = 0;
  uint32_t method_execute_ = 0;
  uint32_t operator_call_ = 0;
  uint32_t delegate_call_ = 0;
  std::vector<uint32_t> instruction_names_;
};

}  // namespace etbench::runtime
