// DecodeEtdump: verified FlatBuffer → owning EtdumpRecord.
#include "etbench/inspector/etdump_file.h"

namespace etbench {
namespace {

std::string Str(const flatbuffers::String* s) { return s ? s->str() : std::string(); }

TensorRecord DecodeTensor(const fb::Tensor& t) {
  TensorRecord out;
  out.scalar_type = static_cast<ScalarType>(t.scalar_type());
  if (t.sizes()) out.sizes.assign(t.sizes()->begin(), t.sizes()->end());
  if (t.strides()) out.strides.assign(t.strides()->begin(), t.strides()->end());
  out.offset = t.offset();
  return out;
}

ValueRecord DecodeValue(const fb::Value& v) {
  ValueRecord out;
  out.type = static_cast<ValueType>(v.val());
  switch (v.val()) {
    case fb::ValueType::Int: out.int_value = v.int_value()->int_val(); break;
    case fb::ValueType::Bool: out.bool_value = v.bool_value()->bool_val(); break;
    case fb::ValueType::Float: out.float_value = v.float_value()->float_val(); break;
    case fb::ValueType::Double: out.double_value = v.double_value()->double_val(); break;
    case fb::ValueType::Tensor: out.tensor = DecodeTensor(*v.tensor()); break;
    case fb::ValueType::TensorList:
      if (const auto* ts = v.tensor_list()->tensors()) {
        for (const fb::Tensor* t : *ts) out.tensor_list.push_back(DecodeTensor(*t));
      }
      break;
    default: break;
  }
  if (v.output()) out.output = v.output()->bool_val();
  return out;
}

}  // namespace

EtdumpRecord DecodeEtdump(const EtdumpFile& file) {
  EtdumpRecord out;
  const fb::ETDump& root = file.root();
  out.version = root.version();
  if (!root.run_data()) return out;
  for (const fb::RunData* run : *root.run_data()) {
    RunDataRecord r;
    r.name = Str(run->name());
    r.bundled_input_index = run->bundled_input_index();
    if (run->allocators()) {
      for (const fb::Allocator* a : *run->allocators()) r.allocators.push_back(Str(a->name()));
    }
    r.empty_events_vector = run->events() != nullptr && run->events()->size() == 0;
    if (run->events()) {
      r.events.reserve(run->events()->size());
      // The member the reference reads: profile, else debug (its
      // find_populated_event); allocation events only when alone.
      for (const fb::Event* e : *run->events()) {
        if (const auto* p = e->profile_event()) {
          ProfileEventRecord pe;
          pe.name = Str(p->name());
          pe.chain_index = p->chain_index();
          pe.instruction_id = p->instruction_id();
          pe.delegate_debug_id_int = p->delegate_debug_id_int();
          pe.delegate_debug_id_str = Str(p->delegate_debug_id_str());
          if (p->delegate_debug_metadata()) {
            pe.delegate_debug_metadata.assign(p->delegate_debug_metadata()->begin(),
                                              p->delegate_debug_metadata()->end());
          }
          pe.start_time = p->start_time();
          pe.end_time = p->end_time();
          r.events.emplace_back(std::move(pe));
        } else if (const auto* d = e->debug_event()) {
          DebugEventRecord de;
          de.chain_index = d->chain_index();
          de.instruction_id = d->instruction_id();
          de.debug_entry = DecodeValue(*d->debug_entry());
          de.delegate_debug_id_int = d->delegate_debug_id_int();
          de.delegate_debug_id_str = Str(d->delegate_debug_id_str());
          de.name = Str(d->name());
          r.events.emplace_back(std::move(de));
        } else if (const auto* a = e->allocation_event()) {
          r.events.emplace_back(AllocationEventRecord{a->allocator_id(), a->allocation_size()});
        }
      }
    }
    out.run_data.push_back(std::move(r));
  }
  return out;
}

}  // namespace etbench
