#include "inspector/etrecord/etrecord_test_util.h"

#include <zip.h>

#include <stdexcept>

namespace etbench::testing {

void WriteRawZip(const std::string& path, const ZipEntries& entries) {
  int code = 0;
  zip_t* archive = zip_open(path.c_str(), ZIP_CREATE | ZIP_TRUNCATE, &code);
  if (archive == nullptr) throw std::runtime_error("zip_open failed: " + path);
  for (const auto& [name, content] : entries) {
    zip_source_t* source =
        zip_source_buffer(archive, content.data(), content.size(), 0);
    if (source == nullptr ||
        zip_file_add(archive, name.c_str(), source, ZIP_FL_OVERWRITE) < 0) {
      zip_source_free(source);
      zip_discard(archive);
      throw std::runtime_error("zip_file_add failed: " + name);
    }
  }
  if (zip_close(archive) != 0) {
    zip_discard(archive);
    throw std::runtime_error("zip_close failed: " + path);
  }
}

ZipEntries ReadRawZip(const std::string& path) {
  int code = 0;
  zip_t* archive = zip_open(path.c_str(), ZIP_RDONLY, &code);
  if (archive == nullptr) throw std::runtime_error("zip_open failed: " + path);
  ZipEntries entries;
  const zip_int64_t n = zip_get_num_entries(archive, 0);
  for (zip_int64_t i = 0; i < n; ++i) {
    const auto index = static_cast<zip_uint64_t>(i);
    zip_stat_t st;
    zip_stat_index(archive, index, 0, &st);
    std::string content(static_cast<std::size_t>(st.size), '\0');
    zip_file_t* file = zip_fopen_index(archive, index, 0);
    if (file == nullptr || zip_fread(file, content.data(), content.size()) !=
                               static_cast<zip_int64_t>(content.size())) {
      if (file != nullptr) zip_fclose(file);
      zip_discard(archive);
      throw std::runtime_error("cannot read entry of " + path);
    }
    zip_fclose(file);
    entries.emplace_back(st.name, std::move(content));
  }
  zip_discard(archive);
  return entries;
}

ModuleFrame Frame(const std::string& key, const std::string& path,
                  const std::string& type) {
  return ModuleFrame{key, path, type};
}

std::string ProgramJson(const std::string& nodes_json) {
  return R"({"graph_module": {"graph": {"inputs": [{"as_tensor": {"name": "x"}}],
    "outputs": [{"as_tensor": {"name": "n0"}}], "nodes": )" +
         nodes_json + R"(}}, "schema_version": {"major": 8, "minor": 1}})";
}

ZipEntries ValidEntries() {
  return {
      {"ETRECORD_V0", ""},
      {"edge_dialect_exported_program",
       ProgramJson(
           R"([{"target": "executorch.exir.dialects.edge.ops.aten.relu.default",
           "inputs": [{"name": "self", "arg": {"as_tensor": {"name": "x"}}}],
           "outputs": [{"as_tensor": {"name": "n0"}}],
           "metadata": {"debug_handle": "1"}}])")},
      {"debug_handle_map", R"({"forward": {"0": [1]}})"},
      {"delegate_map", R"({"forward": {}})"},
  };
}

ZipEntries WithEntry(ZipEntries entries, const std::string& name,
                     const std::string& content) {
  for (auto& entry : entries) {
    if (entry.first == name) {
      entry.second = content;
      return entries;
    }
  }
  entries.emplace_back(name, content);
  return entries;
}

ZipEntries WithoutEntry(ZipEntries entries, const std::string& name) {
  ZipEntries out;
  for (auto& entry : entries) {
    if (entry.first != name) out.push_back(std::move(entry));
  }
  return out;
}

}  // namespace etbench::testing
