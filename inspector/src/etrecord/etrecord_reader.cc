// ETRecord archive -> Etrecord. Entry names and map shapes follow ExecuTorch's
// devtools/etrecord/_etrecord.py: debug_handle_map and delegate_map are
// json.dumps of {method: {instruction_id: ...}}, so every key is a string.

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "etbench/base/join.h"
#include "etbench/inspector/etrecord.h"
#include "etrecord/json_access.h"
#include "etrecord/zip_archive.h"

namespace etbench {
namespace {

using etrecord_internal::ExpectHandles;
using etrecord_internal::ExpectObject;
using etrecord_internal::ExpectString;
using etrecord_internal::JsonFormatError;
using etrecord_internal::KeyPath;
using etrecord_internal::MemberPath;
using etrecord_internal::OptionalMember;
using etrecord_internal::ParseInstructionKey;
using etrecord_internal::ZipReader;

std::string EntryWhere(const std::string& path, const std::string& entry) {
  return path + ": entry '" + entry + "'";
}

std::string JoinNames(const std::vector<std::string>& names) {
  return names.empty() ? "none" : JoinStrings(names);
}

// Members keep their file order (JsonValue iterates in document order), so
// delegate identifiers do too (the reference's substring fallback takes the
// last match).
Result<JsonDocument> ReadJsonEntry(const ZipReader& zip, const std::string& path,
                                   const std::string& entry) {
  auto text = zip.Read(entry, kEtrecordMaxJsonEntryBytes);
  if (!text.ok()) return text.error();
  return etrecord_internal::ParseEntryJson(text.value(), EntryWhere(path, entry));
}

bool AllKeysAreInstructionIds(const JsonValue& object) {
  for (const JsonValue item : object) {
    try {
      ParseInstructionKey(std::string(item.key()), "");
    } catch (const JsonFormatError&) {
      return false;
    }
  }
  return true;
}

// The per-method part of a map keyed by method. An empty map yields an empty
// object; a legacy map keyed directly by instruction id is used as is.
// Returns nullptr (and lists the methods) when `method` is absent.
std::optional<JsonValue> SelectMethod(const JsonValue& root, const std::string& method,
                                      std::vector<std::string>* methods,
                                      std::string* json_path) {
  ExpectObject(root, "");
  methods->clear();
  *json_path = "";
  if (root.size() == 0 || AllKeysAreInstructionIds(root)) return root;
  for (const JsonValue item : root) methods->emplace_back(item.key());
  const JsonValue selected = root.Get(method);
  if (!selected.present()) return std::nullopt;
  *json_path = method;
  return ExpectObject(selected, method);
}

std::map<int32_t, std::vector<int64_t>> ParseHandleMap(
    const JsonValue& object, const std::string& json_path) {
  std::map<int32_t, std::vector<int64_t>> map;
  for (const JsonValue item : object) {
    const int32_t id = ParseInstructionKey(std::string(item.key()), json_path);
    map[id] = ExpectHandles(item, KeyPath(json_path, item.key()));
  }
  return map;
}

std::map<int32_t, DelegateMapping> ParseDelegateMap(
    const JsonValue& object, const std::string& json_path) {
  std::map<int32_t, DelegateMapping> map;
  for (const JsonValue item : object) {
    const int32_t id = ParseInstructionKey(std::string(item.key()), json_path);
    const std::string at = KeyPath(json_path, item.key());
    const JsonValue value = ExpectObject(item, at);
    DelegateMapping mapping;
    if (auto name = OptionalMember(value, "name")) {
      mapping.backend_name = ExpectString(*name, MemberPath(at, "name"));
    }
    if (auto ids = OptionalMember(value, "delegate_map")) {
      const std::string ids_at = MemberPath(at, "delegate_map");
      ExpectObject(*ids, ids_at);
      for (const JsonValue entry : *ids) {
        mapping.handles_by_id.emplace_back(std::string(entry.key()),
                                           ExpectHandles(entry, KeyPath(ids_at, entry.key())));
      }
    }
    map[id] = std::move(mapping);
  }
  return map;
}

Status ReadDebugHandleMap(const ZipReader& zip, Etrecord& out) {
  const std::string entry = kEtrecordDebugHandleMapEntry;
  if (!zip.Has(entry)) {
    out.warnings.push_back(out.path + ": no '" + entry +
                           "' entry: events cannot be linked to the graph");
    return Ok{};
  }
  auto json = ReadJsonEntry(zip, out.path, entry);
  if (!json.ok()) return json.error();
  try {
    std::string json_path;
    const auto map = SelectMethod(json->root(), out.method, &out.methods, &json_path);
    if (!map) {
      return InputError(EntryWhere(out.path, entry) + ": no method '" +
                        out.method + "' (methods: " + JoinNames(out.methods) +
                        ")");
    }
    out.debug_handle_map = ParseHandleMap(*map, json_path);
  } catch (const JsonFormatError& e) {
    return InputError(EntryWhere(out.path, entry) + ": " + e.what());
  }
  return Ok{};
}

Status ReadDelegateMap(const ZipReader& zip, Etrecord& out) {
  const std::string entry = kEtrecordDelegateMapEntry;
  if (!zip.Has(entry)) return Ok{};
  auto json = ReadJsonEntry(zip, out.path, entry);
  if (!json.ok()) return json.error();
  try {
    std::vector<std::string> methods;
    std::string json_path;
    const auto map = SelectMethod(json->root(), out.method, &methods, &json_path);
    if (map) out.delegate_map = ParseDelegateMap(*map, json_path);
  } catch (const JsonFormatError& e) {
    return InputError(EntryWhere(out.path, entry) + ": " + e.what());
  }
  return Ok{};
}

Status ReadEdgeProgram(const ZipReader& zip, Etrecord& out) {
  const std::string per_method =
      std::string(kEtrecordEdgeProgramEntry) + "/" + out.method;
  std::string entry;
  if (zip.Has(per_method)) {
    entry = per_method;
  } else if (zip.Has(kEtrecordEdgeProgramEntry)) {
    entry = kEtrecordEdgeProgramEntry;
    if (out.method != "forward") {
      out.warnings.push_back(
          out.path + ": no '" + per_method + "' entry; using '" + entry +
          "' (the default method's program) for '" + out.method + "'");
    }
  } else {
    return InputError(out.path + ": no '" +
                      std::string(kEtrecordEdgeProgramEntry) +
                      "' entry (entries: " + JoinNames(out.entries) + ")");
  }
  auto text = zip.Read(entry, kEtrecordMaxJsonEntryBytes);
  if (!text.ok()) return text.error();
  auto graph = ParseOperatorGraph(text.value(), entry);
  if (!graph.ok()) {
    return Error{graph.error().code, out.path + ": " + graph.error().message};
  }
  out.graph = std::move(graph.value());
  for (const std::string& warning : out.graph.warnings) {
    out.warnings.push_back(out.path + ": " + warning);
  }
  return Ok{};
}

Result<Etrecord> LoadFromZip(const ZipReader& zip, const std::string& path,
                             const std::string& method) {
  Etrecord out;
  out.path = path;
  out.method = method;
  out.entries = zip.entries();
  if (!zip.Has(kEtrecordMarkerEntry)) {
    return InputError(path + ": not an ETRecord: the archive has no '" +
                      std::string(kEtrecordMarkerEntry) +
                      "' entry (entries: " + JoinNames(out.entries) + ")");
  }
  for (auto step : {&ReadDebugHandleMap, &ReadDelegateMap, &ReadEdgeProgram}) {
    Status status = step(zip, out);
    if (!status.ok()) return status.error();
  }
  return out;
}

}  // namespace

Result<Etrecord> LoadEtrecord(const std::string& path,
                              const std::string& method) {
  auto zip = ZipReader::OpenFile(path);
  if (!zip.ok()) return zip.error();
  return LoadFromZip(zip.value(), path, method);
}

Result<Etrecord> LoadEtrecordFromBytes(const std::vector<uint8_t>& bytes,
                                       const std::string& display_name,
                                       const std::string& method) {
  auto zip = ZipReader::OpenBytes(bytes, display_name);
  if (!zip.ok()) return zip.error();
  return LoadFromZip(zip.value(), display_name, method);
}

}  // namespace etbench
