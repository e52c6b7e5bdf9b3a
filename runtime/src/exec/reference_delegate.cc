#include "exec/reference_delegate.h"

#include <algorithm>

#include "exec/arena.h"
#include "exec/slowdown.h"

namespace etbench::runtime {
namespace {

bool IsActivation(OpType op) {
  return op == OpType::kRelu || op == OpType::kRelu6 || op == OpType::kGelu;
}

void AppendLe(std::vector<uint8_t>* bytes, uint64_t value, int size) {
  for (int i = 0; i < size; ++i) {
    bytes->push_back(static_cast<uint8_t>(value >> (8 * i)));
  }
}

}  // namespace

std::vector<uint8_t> EncodeDelegateMetadata(uint32_t node_count,
                                            uint64_t flops) {
  std::vector<uint8_t> bytes;
  AppendLe(&bytes, 1, 4);
  AppendLe(&bytes, node_count, 4);
  AppendLe(&bytes, flops, 8);
  return bytes;
}

ReferenceDelegate::ReferenceDelegate(const Program& program,
                                     const Partition& partition)
    : spec_(program.model.delegates[partition.delegate]) {
  const Model& model = program.model;
  for (int index : partition.nodes) {
    const Node& node = model.nodes[index];
    const NodeLowering& lowering = program.lowering[index];
    init_calls_.insert(init_calls_.end(), lowering.init_calls.begin(),
                       lowering.init_calls.end());
    if (lowering.calls.empty()) continue;  // a view: no work
    const double slowdown = SlowdownFactor(model.slowdowns, node, nullptr);
    // Fuse an activation into the op before it when it is that op's only
    // reader, as real backends fuse conv + relu.
    const int producer = FindNode(model, node.inputs[0]);
    if (!ops_.empty() && IsActivation(node.op) && producer >= 0 &&
        program.lowering[producer].output == ops_.back().output &&
        program.use_count[ops_.back().output] == 1) {
      Op& op = ops_.back();
      op.calls.insert(op.calls.end(), lowering.calls.begin(),
                      lowering.calls.end());
      op.nodes.push_back(node.name);
      op.output = lowering.output;
      op.slowdown = std::max(op.slowdown, slowdown);
      continue;
    }
    Op op;
    op.calls = lowering.calls;
    op.nodes = {node.name};
    op.output = lowering.output;
    op.slowdown = slowdown;
    ops_.push_back(std::move(op));
  }
  for (std::size_t i = 0; i < ops_.size(); ++i) {
    Op& op = ops_[i];
    if (spec_.debug_ids == DelegateDebugIdKind::kInt) {
      op.debug_id_int = static_cast<int32_t>(i);
    } else {
      for (const std::string& name : op.nodes) {
        op.debug_id_str += (op.debug_id_str.empty() ? "" : "+") + name;
      }
    }
    if (spec_.metadata) {
      uint64_t flops = 0;
      for (const KernelCall& call : op.calls) flops += call.Flops();
      op.metadata = EncodeDelegateMetadata(
          static_cast<uint32_t>(op.nodes.size()), flops);
    }
  }
  durations_.resize(ops_.size());
}

std::size_t ReferenceDelegate::TempBytes() const {
  std::size_t bytes = 0;
  for (const Op& op : ops_) {
    std::size_t op_bytes = 0;
    for (const KernelCall& call : op.calls) op_bytes += call.TempBytes();
    bytes = std::max(bytes, op_bytes);
  }
  return bytes;
}

void ReferenceDelegate::Init(float* const* data, Arena& temp) const {
  for (const KernelCall& call : init_calls_) {
    RunKernelCall(call, data, temp);
    temp.Reset();
  }
}

uint64_t ReferenceDelegate::DelegateNow(const Tracer& tracer) const {
  return spec_.clock == DelegateClock::kCycles ? ReadCycleCounter()
                                               : tracer.Now();
}

void ReferenceDelegate::Log(Tracer& tracer, int32_t instruction_id,
                            const Op& op, uint64_t start, uint64_t end) const {
  tracer.LogProfilingDelegate(0, instruction_id, op.debug_id_int,
                              op.debug_id_str, op.metadata, start, end);
}

void ReferenceDelegate::Execute(Tracer& tracer, int32_t instruction_id,
                                float* const* data, Arena& temp) {
  const bool back_to_back =
      spec_.timestamps == DelegateTimestamps::kBackToBack;
  const uint64_t delegate_start = DelegateNow(tracer);
  for (std::size_t i = 0; i < ops_.size(); ++i) {
    const Op& op = ops_[i];
    const uint64_t start = DelegateNow(tracer);
    const uint64_t runtime_start = tracer.Now();
    for (const KernelCall& call : op.calls) RunKernelCall(call, data, temp);
    temp.Reset();
    if (op.slowdown > 1.0) {
      const KernelCall& last = op.calls.back();
      ExtendOpDuration(tracer, runtime_start, op.slowdown, data[last.output],
                       kernels::NumElements(last.out_shape));
    }
    const uint64_t end = DelegateNow(tracer);
    if (back_to_back) {
      durations_[i] = end - start;
    } else {
      Log(tracer, instruction_id, op, start, end);
    }
  }
  if (back_to_back) {
    // Backends that only report per-op durations (XNNPACK's profiler) have
    // their events laid out back to back from the call's start.
    uint64_t cursor = delegate_start;
    for (std::size_t i = 0; i < ops_.size(); ++i) {
      Log(tracer, instruction_id, ops_[i], cursor, cursor + durations_[i]);
      cursor += durations_[i];
    }
  }
}

}  // namespace etbench::runtime
