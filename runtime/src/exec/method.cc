#include "exec/method.h"

#include <algorithm>
#include <cstring>

#include "etbench/inspector/event_role.h"
#include "exec/prng.h"
#include "exec/slowdown.h"

namespace etbench::runtime {
namespace {

// ExecuTorch's EventTracer defaults: method-level events and the program
// outputs logged after Method::execute carry chain -1 and instruction 0.
constexpr int32_t kFrameworkChain = -1;
constexpr int32_t kFrameworkInstruction = 0;
// Tensor copies in the debug buffer are aligned like the runtime's.
constexpr std::size_t kDebugAlignment = 64;

std::size_t ValueBytes(const Value& value) {
  return Arena::RoundUp(
      static_cast<std::size_t>(kernels::NumElements(value.shape)) * 4);
}

}  // namespace

Method::Method(const Program& program, const MethodOptions& options,
               std::vector<uint8_t>* debug_buffer)
    : program_(program), options_(options), debug_buffer_(debug_buffer) {}

std::unique_ptr<Method> Method::Load(const Program& program,
                                     const MethodOptions& options,
                                     Tracer& tracer,
                                     std::vector<uint8_t>* debug_buffer) {
  std::unique_ptr<Method> method(new Method(program, options, debug_buffer));
  method->InternNames(tracer);
  tracer.BeginRun(method->default_block_);
  const uint64_t load_start = tracer.Now();
  method->Init(tracer);
  tracer.EndProfiling(method->load_method_, kFrameworkChain,
                      kFrameworkInstruction, load_start);
  tracer.EndRun();
  return method;
}

void Method::InternNames(Tracer& tracer) {
  default_block_ = tracer.Intern("Default");
  execute_block_ = tracer.Intern("Execute");
  load_method_ = tracer.Intern(kLoadMethodEventName);
  method_init_ = tracer.Intern(kMethodInitEventName);
  method_execute_ = tracer.Intern(kMethodExecuteEventName);
  operator_call_ = tracer.Intern("OPERATOR_CALL");
  delegate_call_ = tracer.Intern("DELEGATE_CALL");
  for (const Instruction& instruction : program_.instructions) {
    instruction_names_.push_back(tracer.Intern(instruction.event_name));
  }
}

void Method::Init(Tracer& tracer) {
  // Allocators are declared before any event of the block, as ETDumpGen
  // requires.
  int32_t method_allocator_id = -1;
  int32_t planned_memory_id = -1;
  if (options_.log_allocations) {
    method_allocator_id = tracer.TrackAllocator("method_allocator");
    planned_memory_id = tracer.TrackAllocator("planned_memory");
  }
  const uint64_t init_start = tracer.Now();

  // Memory plan: constants (inputs, weights, packed weights) in the method
  // allocator, activations in planned memory, scratch in the temp allocator.
  std::size_t constant_bytes = 0;
  std::size_t planned_bytes = 0;
  for (const Value& value : program_.values) {
    if (value.kind == ValueKind::kActivation) {
      planned_bytes += ValueBytes(value);
    } else if (value.kind != ValueKind::kView) {
      constant_bytes += ValueBytes(value);
    }
  }
  method_allocator_ =
      std::make_unique<Arena>("method_allocator", constant_bytes);
  planned_memory_ = std::make_unique<Arena>("planned_memory", planned_bytes);
  if (options_.log_allocations) {
    method_allocator_->SetTracer(&tracer, method_allocator_id);
    planned_memory_->SetTracer(&tracer, planned_memory_id);
  }
  data_.assign(program_.values.size(), nullptr);
  for (std::size_t id = 0; id < program_.values.size(); ++id) {
    const Value& value = program_.values[id];
    const int64_t count = kernels::NumElements(value.shape);
    if (value.kind == ValueKind::kActivation) {
      data_[id] = planned_memory_->AllocateFloats(count);
    } else if (value.kind != ValueKind::kView) {
      data_[id] = method_allocator_->AllocateFloats(count);
    }
    if (value.kind == ValueKind::kInput) {
      FillUniform(options_.seed, "input:" + value.name, 0.0f, 1.0f, data_[id],
                  count);
    } else if (value.kind == ValueKind::kWeight) {
      FillUniform(options_.seed, value.name, value.init_offset,
                  value.init_bound, data_[id], count);
    }
  }
  for (std::size_t id = 0; id < program_.values.size(); ++id) {
    const Value& value = program_.values[id];
    if (value.kind == ValueKind::kView) data_[id] = data_[value.alias_of];
  }
  method_allocator_->SetTracer(nullptr, -1);
  planned_memory_->SetTracer(nullptr, -1);

  std::size_t temp_bytes = 0;
  for (const Instruction& instruction : program_.instructions) {
    if (instruction.kind == Instruction::Kind::kKernel) {
      temp_bytes = std::max(temp_bytes, instruction.call.TempBytes());
    }
  }
  for (const Partition& partition : program_.partitions) {
    delegates_.push_back(std::make_unique<ReferenceDelegate>(program_, partition));
    temp_bytes = std::max(temp_bytes, delegates_.back()->TempBytes());
  }
  temp_allocator_ = std::make_unique<Arena>("temp_allocator", temp_bytes);
  for (const auto& delegate : delegates_) {
    delegate->Init(data_.data(), *temp_allocator_);
  }
  tracer.EndProfiling(method_init_, kFrameworkChain, kFrameworkInstruction,
                      init_start);
}

void Method::LogValue(Tracer& tracer, int value, uint64_t chain_index,
                      int32_t instruction_id, bool program_output) {
  if (debug_buffer_ == nullptr) return;
  const Value& info = program_.values[value];
  const std::size_t bytes =
      static_cast<std::size_t>(kernels::NumElements(info.shape)) * 4;
  const std::size_t offset =
      (debug_buffer_->size() + kDebugAlignment - 1) / kDebugAlignment *
      kDebugAlignment;
  debug_buffer_->resize(offset + bytes);
  std::memcpy(debug_buffer_->data() + offset, data_[value], bytes);

  DebugEventRecord event;
  event.chain_index = chain_index;
  event.instruction_id = instruction_id;
  event.debug_entry.type = ValueType::kTensor;
  event.debug_entry.tensor.scalar_type = ScalarType::kFloat;
  event.debug_entry.tensor.sizes = info.shape;
  std::vector<int64_t> strides(info.shape.size(), 1);
  for (int d = static_cast<int>(info.shape.size()) - 2; d >= 0; --d) {
    strides[d] = strides[d + 1] * info.shape[d + 1];
  }
  event.debug_entry.tensor.strides = std::move(strides);
  event.debug_entry.tensor.offset = static_cast<int64_t>(offset);
  // The runtime sets Value.output only on program outputs.
  if (program_output) event.debug_entry.output = true;
  tracer.LogDebugEvent(std::move(event));
}

void Method::Execute(Tracer& tracer) {
  tracer.BeginRun(execute_block_);
  if (options_.log_allocations) {
    temp_allocator_->SetTracer(&tracer,
                               tracer.TrackAllocator("temp_allocator"));
  }
  const bool log_intermediates = options_.log_intermediate_outputs;
  float* const* data = data_.data();
  Arena& temp = *temp_allocator_;
  const uint64_t execute_start = tracer.Now();
  const auto count = static_cast<int32_t>(program_.instructions.size());
  for (int32_t i = 0; i < count; ++i) {
    const Instruction& instruction = program_.instructions[i];
    const uint64_t call_start = tracer.Now();
    if (instruction.kind == Instruction::Kind::kKernel) {
      const uint64_t kernel_start = tracer.Now();
      RunKernelCall(instruction.call, data, temp);
      if (instruction.slowdown > 1.0) {
        ExtendOpDuration(tracer, kernel_start, instruction.slowdown,
                         data[instruction.call.output],
                         kernels::NumElements(instruction.call.out_shape));
      }
      tracer.EndProfiling(instruction_names_[i], 0, i, kernel_start);
      if (log_intermediates) {
        for (int value : instruction.outputs) LogValue(tracer, value, 0, i, false);
      }
      tracer.EndProfiling(operator_call_, 0, i, call_start);
    } else {
      delegates_[instruction.partition]->Execute(tracer, i, data, temp);
      if (log_intermediates) {
        for (int value : instruction.outputs) LogValue(tracer, value, 0, i, false);
      }
      tracer.EndProfiling(delegate_call_, 0, i, call_start);
    }
    temp.Reset();
  }
  tracer.EndProfiling(method_execute_, kFrameworkChain, kFrameworkInstruction,
                      execute_start);
  // Like Method::log_outputs(): after Method::execute, with the tracer's
  // unset chain (-1, stored in the unsigned DebugEvent.chain_index) and
  // instruction 0.
  if (options_.log_program_outputs || log_intermediates) {
    for (int value : program_.output_values) {
      LogValue(tracer, value, static_cast<uint64_t>(int64_t{kFrameworkChain}),
               kFrameworkInstruction, true);
    }
  }
  tracer.EndRun();
  temp_allocator_->SetTracer(nullptr, -1);
}

}  // namespace etbench::runtime
