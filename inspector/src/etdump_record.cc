#include "etbench/inspector/etdump_record.h"

namespace etbench {

std::size_t ScalarTypeSize(ScalarType type) {
  switch (type) {
    case ScalarType::kByte:
    case ScalarType::kChar:
    case ScalarType::kBool:
    case ScalarType::kQInt8:
    case ScalarType::kQUInt8:
    case ScalarType::kFloat8e5m2:
    case ScalarType::kFloat8e4m3fn:
    case ScalarType::kFloat8e5m2fnuz:
    case ScalarType::kFloat8e4m3fnuz:
      return 1;
    case ScalarType::kShort:
    case ScalarType::kHalf:
    case ScalarType::kBFloat16:
    case ScalarType::kBits16:
    case ScalarType::kUInt16:
      return 2;
    case ScalarType::kInt:
    case ScalarType::kFloat:
    case ScalarType::kQInt32:
    case ScalarType::kUInt32:
      return 4;
    case ScalarType::kLong:
    case ScalarType::kDouble:
    case ScalarType::kUInt64:
      return 8;
    case ScalarType::kQUInt4x2:
    case ScalarType::kQUInt2x4:
      return 0;
  }
  return 0;
}

const char* ScalarTypeName(ScalarType type) {
  switch (type) {
    case ScalarType::kByte: return "BYTE";
    case ScalarType::kChar: return "CHAR";
    case ScalarType::kShort: return "SHORT";
    case ScalarType::kInt: return "INT";
    case ScalarType::kLong: return "LONG";
    case ScalarType::kHalf: return "HALF";
    case ScalarType::kFloat: return "FLOAT";
    case ScalarType::kDouble: return "DOUBLE";
    case ScalarType::kBool: return "BOOL";
    case ScalarType::kQInt8: return "QINT8";
    case ScalarType::kQUInt8: return "QUINT8";
    case ScalarType::kQInt32: return "QINT32";
    case ScalarType::kBFloat16: return "BFLOAT16";
    case ScalarType::kQUInt4x2: return "QUINT4X2";
    case ScalarType::kQUInt2x4: return "QUINT2X4";
    case ScalarType::kBits16: return "BITS16";
    case ScalarType::kFloat8e5m2: return "FLOAT8E5M2";
    case ScalarType::kFloat8e4m3fn: return "FLOAT8E4M3FN";
    case ScalarType::kFloat8e5m2fnuz: return "FLOAT8E5M2FNUZ";
    case ScalarType::kFloat8e4m3fnuz: return "FLOAT8E4M3FNUZ";
    case ScalarType::kUInt16: return "UINT16";
    case ScalarType::kUInt32: return "UINT32";
    case ScalarType::kUInt64: return "UINT64";
  }
  return "UNKNOWN";
}

bool ValueRecord::operator==(const ValueRecord& o) const {
  if (type != o.type || output != o.output) return false;
  switch (type) {
    case ValueType::kNull:
    case ValueType::kString:
      return true;
    case ValueType::kInt: return int_value == o.int_value;
    case ValueType::kBool: return bool_value == o.bool_value;
    // Bitwise-equal floats compare equal, NaN included (a round trip
    // must preserve NaN payloads too).
    case ValueType::kFloat:
      return float_value == o.float_value ||
             (float_value != float_value && o.float_value != o.float_value);
    case ValueType::kDouble:
      return double_value == o.double_value ||
             (double_value != double_value && o.double_value != o.double_value);
    case ValueType::kTensor: return tensor == o.tensor;
    case ValueType::kTensorList: return tensor_list == o.tensor_list;
  }
  return false;
}

}  // namespace etbench
