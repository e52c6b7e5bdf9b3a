#pragma once
// An owning, plain-C++ image of an ETDump: what the writer takes and what
// DecodeEtdump returns. Field names, defaults and order follow the format
// (docs: ETDump tables); -1 / empty mean "unset" exactly as in the file.
//
// The aggregation path does NOT use this type: it reads the verified
// FlatBuffer in place (see etdump_file.h) and never copies per event.

#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace etbench {

/// Values match ExecuTorch's ScalarType.
enum class ScalarType : int8_t {
  kByte = 0,
  kChar = 1,
  kShort = 2,
  kInt = 3,
  kLong = 4,
  kHalf = 5,
  kFloat = 6,
  kDouble = 7,
  kBool = 11,
  kQInt8 = 12,
  kQUInt8 = 13,
  kQInt32 = 14,
  kBFloat16 = 15,
  kQUInt4x2 = 16,
  kQUInt2x4 = 17,
  kBits16 = 22,
  kFloat8e5m2 = 23,
  kFloat8e4m3fn = 24,
  kFloat8e5m2fnuz = 25,
  kFloat8e4m3fnuz = 26,
  kUInt16 = 27,
  kUInt32 = 28,
  kUInt64 = 29,
};

/// Bytes per element, or 0 for types whose size etbench does not know
/// (sub-byte and quantized packed types).
std::size_t ScalarTypeSize(ScalarType type);
/// Upper-case name as in ExecuTorch ("FLOAT", "LONG", ...).
const char* ScalarTypeName(ScalarType type);

enum class ValueType : int8_t {
  kNull = 0,
  kInt = 1,
  kBool = 2,
  kFloat = 3,
  kDouble = 4,
  kTensor = 5,
  kTensorList = 6,
  kString = 7,
};

struct TensorRecord {
  ScalarType scalar_type = ScalarType::kByte;
  std::vector<int64_t> sizes;
  std::vector<int64_t> strides;
  int64_t offset = 0;  // byte offset into the debug buffer file

  bool operator==(const TensorRecord& o) const {
    return scalar_type == o.scalar_type && sizes == o.sizes &&
           strides == o.strides && offset == o.offset;
  }
};

/// A debug value. Only the member selected by `type` is meaningful; the
/// writer stores only that member (plus `output` when set).
struct ValueRecord {
  ValueType type = ValueType::kNull;
  int64_t int_value = 0;
  bool bool_value = false;
  float float_value = 0;
  double double_value = 0;
  TensorRecord tensor;
  std::vector<TensorRecord> tensor_list;
  /// Value.output: absent, or set to true/false. true marks a program output.
  std::optional<bool> output;

  bool operator==(const ValueRecord& o) const;
};

struct ProfileEventRecord {
  std::string name;
  int32_t chain_index = 0;
  int32_t instruction_id = -1;
  int32_t delegate_debug_id_int = -1;
  std::string delegate_debug_id_str;
  std::vector<uint8_t> delegate_debug_metadata;
  uint64_t start_time = 0;
  uint64_t end_time = 0;

  bool operator==(const ProfileEventRecord& o) const {
    return name == o.name && chain_index == o.chain_index &&
           instruction_id == o.instruction_id &&
           delegate_debug_id_int == o.delegate_debug_id_int &&
           delegate_debug_id_str == o.delegate_debug_id_str &&
           delegate_debug_metadata == o.delegate_debug_metadata &&
           start_time == o.start_time && end_time == o.end_time;
  }
};

struct AllocationEventRecord {
  /// 1-based, as ETDumpGen::track_allocator returns it: id k names
  /// RunDataRecord::allocators[k - 1].
  int32_t allocator_id = 0;
  uint64_t allocation_size = 0;

  bool operator==(const AllocationEventRecord& o) const {
    return allocator_id == o.allocator_id &&
           allocation_size == o.allocation_size;
  }
};

struct DebugEventRecord {
  uint64_t chain_index = 0;
  int32_t instruction_id = -1;
  ValueRecord debug_entry;
  int32_t delegate_debug_id_int = -1;
  std::string delegate_debug_id_str;
  std::string name;

  bool operator==(const DebugEventRecord& o) const {
    return chain_index == o.chain_index && instruction_id == o.instruction_id &&
           debug_entry == o.debug_entry &&
           delegate_debug_id_int == o.delegate_debug_id_int &&
           delegate_debug_id_str == o.delegate_debug_id_str && name == o.name;
  }
};

/// One Event table: the member the reference reads (profile, else debug,
/// else allocation; writers set exactly one).
using EventRecord =
    std::variant<ProfileEventRecord, AllocationEventRecord, DebugEventRecord>;

struct RunDataRecord {
  std::string name;
  int32_t bundled_input_index = -1;
  std::vector<std::string> allocators;  // Allocator.name, by allocator id
  std::vector<EventRecord> events;      // in file (= completion) order
  /// Only meaningful when `events` is empty: true = the file has an
  /// explicitly empty events vector (other writers; the reference makes a
  /// 0-event block of it), false = no vector at all (ETDumpGen's way of
  /// writing a block in which nothing was logged; the reference skips it).
  bool empty_events_vector = false;

  bool operator==(const RunDataRecord& o) const {
    return name == o.name && bundled_input_index == o.bundled_input_index &&
           allocators == o.allocators && events == o.events &&
           empty_events_vector == o.empty_events_vector;
  }
};

struct EtdumpRecord {
  uint32_t version = 0;
  std::vector<RunDataRecord> run_data;

  bool operator==(const EtdumpRecord& o) const {
    return version == o.version && run_data == o.run_data;
  }
};

}  // namespace etbench
