#include "etbench/inspector/etdump_writer.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <deque>
#include <string>
#include <unordered_map>

#include <fcntl.h>
#include <unistd.h>

#include "etbench/inspector/etdump_generated.h"
#include "etbench/base/output_file.h"
#include "flatbuffers/flatbuffers.h"

namespace etbench {

struct EtdumpBuilder::Impl {
  explicit Impl(uint32_t v) : fbb(1 << 20), version(v) {}

  flatbuffers::FlatBufferBuilder fbb;
  uint32_t version;
  bool in_run = false;
  std::string run_name;
  int32_t bundled_input_index = -1;
  std::vector<flatbuffers::Offset<fb::Allocator>> allocators;
  std::vector<flatbuffers::Offset<fb::Event>> events;
  std::vector<flatbuffers::Offset<fb::RunData>> runs;
  // Interned strings (one copy per distinct name in the file). Keys view
  // into name_storage, so a lookup never allocates.
  std::deque<std::string> name_storage;
  std::unordered_map<std::string_view, flatbuffers::Offset<flatbuffers::String>> names;

  flatbuffers::Offset<flatbuffers::String> Intern(std::string_view name) {
    auto it = names.find(name);
    if (it != names.end()) return it->second;
    auto off = fbb.CreateString(name.data(), name.size());
    name_storage.emplace_back(name);
    names.emplace(name_storage.back(), off);
    return off;
  }

  flatbuffers::Offset<flatbuffers::String> OptionalString(const std::string& s) {
    return s.empty() ? flatbuffers::Offset<flatbuffers::String>() : Intern(s);
  }

  flatbuffers::Offset<fb::Tensor> Tensor(const TensorRecord& t) {
    auto sizes = fbb.CreateVector(t.sizes);
    auto strides = fbb.CreateVector(t.strides);
    return fb::CreateTensor(fbb, static_cast<fb::ScalarType>(t.scalar_type), sizes,
                            strides, t.offset);
  }

  flatbuffers::Offset<fb::Value> Value(const ValueRecord& v) {
    flatbuffers::Offset<fb::Tensor> tensor;
    flatbuffers::Offset<fb::TensorList> tensor_list;
    flatbuffers::Offset<fb::Int> int_value;
    flatbuffers::Offset<fb::Float> float_value;
    flatbuffers::Offset<fb::Double> double_value;
    flatbuffers::Offset<fb::Bool> bool_value;
    flatbuffers::Offset<fb::Bool> output;
    switch (v.type) {
      case ValueType::kInt: int_value = fb::CreateInt(fbb, v.int_value); break;
      case ValueType::kBool: bool_value = fb::CreateBool(fbb, v.bool_value); break;
      case ValueType::kFloat: float_value = fb::CreateFloat(fbb, v.float_value); break;
      case ValueType::kDouble: double_value = fb::CreateDouble(fbb, v.double_value); break;
      case ValueType::kTensor: tensor = Tensor(v.tensor); break;
      case ValueType::kTensorList: {
        std::vector<flatbuffers::Offset<fb::Tensor>> ts;
        ts.reserve(v.tensor_list.size());
        for (const TensorRecord& t : v.tensor_list) ts.push_back(Tensor(t));
        tensor_list = fb::CreateTensorList(fbb, fbb.CreateVector(ts));
        break;
      }
      case ValueType::kNull:
      case ValueType::kString:
        break;
    }
    if (v.output) output = fb::CreateBool(fbb, *v.output);
    return fb::CreateValue(fbb, static_cast<fb::ValueType>(v.type), tensor, tensor_list,
                           int_value, float_value, double_value, bool_value, output);
  }
};

EtdumpBuilder::EtdumpBuilder(uint32_t version) : impl_(new Impl(version)) {}
EtdumpBuilder::~EtdumpBuilder() { delete impl_; }

void EtdumpBuilder::BeginRun(std::string_view name, int32_t bundled_input_index) {
  if (impl_->in_run) EndRun();
  impl_->in_run = true;
  impl_->run_name.assign(name.data(), name.size());
  impl_->bundled_input_index = bundled_input_index;
  impl_->allocators.clear();
  impl_->events.clear();
}

int32_t EtdumpBuilder::AddAllocator(std::string_view name) {
  impl_->allocators.push_back(fb::CreateAllocator(impl_->fbb, impl_->Intern(name)));
  return static_cast<int32_t>(impl_->allocators.size());
}

void EtdumpBuilder::AddProfileEvent(const ProfileEventRecord& e) {
  auto& fbb = impl_->fbb;
  auto name = impl_->OptionalString(e.name);
  auto id_str = impl_->OptionalString(e.delegate_debug_id_str);
  flatbuffers::Offset<flatbuffers::Vector<uint8_t>> metadata;
  if (!e.delegate_debug_metadata.empty()) metadata = fbb.CreateVector(e.delegate_debug_metadata);
  auto pe = fb::CreateProfileEvent(fbb, name, e.chain_index, e.instruction_id,
                                   e.delegate_debug_id_int, id_str, metadata, e.start_time,
                                   e.end_time);
  impl_->events.push_back(fb::CreateEvent(fbb, pe));
}

void EtdumpBuilder::AddProfileEvent(std::string_view name, int32_t chain_index,
                                    int32_t instruction_id, uint64_t start_time,
                                    uint64_t end_time) {
  auto& fbb = impl_->fbb;
  auto n = name.empty() ? flatbuffers::Offset<flatbuffers::String>() : impl_->Intern(name);
  auto pe = fb::CreateProfileEvent(fbb, n, chain_index, instruction_id, -1, 0, 0, start_time,
                                   end_time);
  impl_->events.push_back(fb::CreateEvent(fbb, pe));
}

void EtdumpBuilder::AddAllocationEvent(int32_t allocator_id, uint64_t allocation_size) {
  auto& fbb = impl_->fbb;
  auto ae = fb::CreateAllocationEvent(fbb, allocator_id, allocation_size);
  impl_->events.push_back(fb::CreateEvent(fbb, 0, ae));
}

void EtdumpBuilder::AddDebugEvent(const DebugEventRecord& e) {
  auto& fbb = impl_->fbb;
  auto value = impl_->Value(e.debug_entry);
  auto id_str = impl_->OptionalString(e.delegate_debug_id_str);
  auto name = impl_->OptionalString(e.name);
  auto de = fb::CreateDebugEvent(fbb, e.chain_index, e.instruction_id, value,
                                 e.delegate_debug_id_int, id_str, name);
  impl_->events.push_back(fb::CreateEvent(fbb, 0, 0, de));
}

void EtdumpBuilder::EndRun(bool empty_events_vector) {
  if (!impl_->in_run) return;
  auto& fbb = impl_->fbb;
  auto name = fbb.CreateString(impl_->run_name);
  auto allocators = impl_->allocators.empty()
                        ? flatbuffers::Offset<flatbuffers::Vector<flatbuffers::Offset<fb::Allocator>>>()
                        : fbb.CreateVector(impl_->allocators);
  auto events = impl_->events.empty() && !empty_events_vector
                    ? flatbuffers::Offset<flatbuffers::Vector<flatbuffers::Offset<fb::Event>>>()
                    : fbb.CreateVector(impl_->events);
  impl_->runs.push_back(
      fb::CreateRunData(fbb, name, impl_->bundled_input_index, allocators, events));
  impl_->in_run = false;
}

std::vector<uint8_t> EtdumpBuilder::Finish(const EtdumpWriteOptions& options) {
  EndRun();
  auto& fbb = impl_->fbb;
  auto runs = fbb.CreateVector(impl_->runs);
  auto root = fb::CreateETDump(fbb, impl_->version, runs);
  if (options.size_prefixed) {
    fb::FinishSizePrefixedETDumpBuffer(fbb, root);
  } else {
    fb::FinishETDumpBuffer(fbb, root);
  }
  return std::vector<uint8_t>(fbb.GetBufferPointer(), fbb.GetBufferPointer() + fbb.GetSize());
}

std::vector<uint8_t> WriteEtdump(const EtdumpRecord& record, const EtdumpWriteOptions& options) {
  EtdumpBuilder builder(record.version);
  for (const RunDataRecord& run : record.run_data) {
    builder.BeginRun(run.name, run.bundled_input_index);
    for (const std::string& a : run.allocators) builder.AddAllocator(a);
    for (const EventRecord& event : run.events) {
      if (const auto* p = std::get_if<ProfileEventRecord>(&event)) {
        builder.AddProfileEvent(*p);
      } else if (const auto* a = std::get_if<AllocationEventRecord>(&event)) {
        builder.AddAllocationEvent(a->allocator_id, a->allocation_size);
      } else {
        builder.AddDebugEvent(std::get<DebugEventRecord>(event));
      }
    }
    builder.EndRun(run.empty_events_vector);
  }
  return builder.Finish(options);
}

}  // namespace etbench
