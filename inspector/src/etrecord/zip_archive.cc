#include "etrecord/zip_archive.h"

#include <sys/stat.h>
#include <zip.h>

#include <cerrno>
#include <cstring>
#include <ctime>

#include "etbench/base/input_file.h"

namespace etbench::etrecord_internal {
namespace {

// 1980-01-02: the DOS date range starts at 1980-01-01 local time, so one day
// later is representable in every time zone.
constexpr std::time_t kFixedMtime = 315619200;

std::string ZipErrorText(zip_error_t* error) {
  return zip_error_strerror(error);
}

Error OpenError(const std::string& name, zip_error_t* error) {
  const int code = zip_error_code_zip(error);
  if (code == ZIP_ER_NOZIP || code == ZIP_ER_INCONS) {
    return InputError(name +
                      ": not a zip archive (an ETRecord is a zip "
                      "file): " +
                      ZipErrorText(error));
  }
  if (code == ZIP_ER_NOENT || code == ZIP_ER_OPEN || code == ZIP_ER_READ) {
    return IoError(name + ": cannot open: " + ZipErrorText(error));
  }
  return InputError(name +
                    ": cannot read as a zip archive: " + ZipErrorText(error));
}

std::vector<std::string> ListEntries(zip_t* archive) {
  std::vector<std::string> names;
  const zip_int64_t n = zip_get_num_entries(archive, 0);
  for (zip_int64_t i = 0; i < n; ++i) {
    const char* name = zip_get_name(archive, static_cast<zip_uint64_t>(i), 0);
    if (name != nullptr) names.emplace_back(name);
  }
  return names;
}

}  // namespace

void ZipReader::Closer::operator()(struct zip* archive) const {
  if (archive != nullptr) zip_discard(archive);
}

ZipReader::ZipReader(std::unique_ptr<struct zip, Closer> archive,
                     std::string display_name)
    : archive_(std::move(archive)), display_name_(std::move(display_name)) {
  entries_ = ListEntries(archive_.get());
}

Result<ZipReader> ZipReader::OpenFile(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) {
    return IoError(path + ": cannot open: " + std::strerror(errno));
  }
  // A FIFO would block libzip's open, a directory make it fail obscurely.
  if (Status regular = CheckRegularFile(path); !regular.ok()) return regular.error();
  // libzip opens an empty file as an empty archive; say what it is.
  if (S_ISREG(st.st_mode) && st.st_size == 0) {
    return InputError(path +
                      ": not a zip archive (an ETRecord is a zip "
                      "file): the file is empty");
  }
  int code = 0;
  zip_t* archive = zip_open(path.c_str(), ZIP_RDONLY, &code);
  if (archive == nullptr) {
    zip_error_t error;
    zip_error_init_with_code(&error, code);
    Error result = OpenError(path, &error);
    zip_error_fini(&error);
    return result;
  }
  return ZipReader(std::unique_ptr<struct zip, Closer>(archive), path);
}

Result<ZipReader> ZipReader::OpenBytes(const std::vector<uint8_t>& bytes,
                                       const std::string& display_name) {
  if (bytes.empty()) {
    return InputError(display_name +
                      ": not a zip archive (an ETRecord is a "
                      "zip file): no bytes");
  }
  zip_error_t error;
  zip_error_init(&error);
  zip_source_t* source =
      zip_source_buffer_create(bytes.data(), bytes.size(), 0, &error);
  if (source == nullptr) {
    Error result = OpenError(display_name, &error);
    zip_error_fini(&error);
    return result;
  }
  zip_t* archive = zip_open_from_source(source, ZIP_RDONLY, &error);
  if (archive == nullptr) {
    zip_source_free(source);
    Error result = OpenError(display_name, &error);
    zip_error_fini(&error);
    return result;
  }
  zip_error_fini(&error);
  return ZipReader(std::unique_ptr<struct zip, Closer>(archive), display_name);
}

bool ZipReader::Has(const std::string& name) const {
  return zip_name_locate(archive_.get(), name.c_str(), 0) >= 0;
}

Result<std::string> ZipReader::Read(const std::string& name,
                                    uint64_t max_bytes) const {
  const std::string where = display_name_ + ": entry '" + name + "'";
  const zip_int64_t index = zip_name_locate(archive_.get(), name.c_str(), 0);
  if (index < 0) return InputError(where + ": missing");
  zip_stat_t st;
  zip_stat_init(&st);
  if (zip_stat_index(archive_.get(), static_cast<zip_uint64_t>(index), 0,
                     &st) != 0 ||
      (st.valid & ZIP_STAT_SIZE) == 0) {
    return InputError(
        where + ": cannot read its size: " + zip_strerror(archive_.get()));
  }
  if (st.size > max_bytes) {
    return InputError(where + ": " + std::to_string(st.size) +
                      " bytes, more than the limit of " +
                      std::to_string(max_bytes));
  }
  zip_file_t* file =
      zip_fopen_index(archive_.get(), static_cast<zip_uint64_t>(index), 0);
  if (file == nullptr) {
    return InputError(where + ": cannot open: " + zip_strerror(archive_.get()));
  }
  std::string data(static_cast<std::size_t>(st.size), '\0');
  std::size_t filled = 0;
  std::string failure;
  while (filled < data.size()) {
    const zip_int64_t n =
        zip_fread(file, data.data() + filled, data.size() - filled);
    if (n < 0) {
      failure = zip_file_strerror(file);
      break;
    }
    if (n == 0) {
      failure = "truncated after " + std::to_string(filled) + " of " +
                std::to_string(data.size()) + " bytes";
      break;
    }
    filled += static_cast<std::size_t>(n);
  }
  // A CRC mismatch is reported at the end of the data.
  if (failure.empty()) {
    char extra = 0;
    if (zip_fread(file, &extra, 1) < 0) failure = zip_file_strerror(file);
  }
  zip_fclose(file);
  if (!failure.empty()) return InputError(where + ": unreadable: " + failure);
  return data;
}

Result<std::vector<uint8_t>> WriteZipToMemory(
    const std::vector<std::pair<std::string, std::string>>& entries) {
  zip_error_t error;
  zip_error_init(&error);
  zip_source_t* buffer = zip_source_buffer_create(nullptr, 0, 0, &error);
  if (buffer == nullptr) {
    std::string text = ZipErrorText(&error);
    zip_error_fini(&error);
    return Error{ErrorCode::kInternal, "zip: cannot create a buffer: " + text};
  }
  zip_t* archive = zip_open_from_source(buffer, ZIP_TRUNCATE, &error);
  if (archive == nullptr) {
    std::string text = ZipErrorText(&error);
    zip_error_fini(&error);
    zip_source_free(buffer);
    return Error{ErrorCode::kInternal,
                 "zip: cannot create an archive: " + text};
  }
  zip_error_fini(&error);
  // The archive now owns the buffer; keep it alive after zip_close so that
  // its bytes can be read.
  zip_source_keep(buffer);

  auto fail = [&](const std::string& what) -> Error {
    std::string text = what + ": " + zip_strerror(archive);
    zip_discard(archive);
    zip_source_free(buffer);
    return Error{ErrorCode::kInternal, "zip: " + text};
  };
  for (const auto& [name, content] : entries) {
    zip_source_t* source =
        zip_source_buffer(archive, content.data(), content.size(), 0);
    if (source == nullptr) return fail("entry '" + name + "'");
    const zip_int64_t index = zip_file_add(archive, name.c_str(), source, 0);
    if (index < 0) {
      zip_source_free(source);
      return fail("entry '" + name + "'");
    }
    const auto at = static_cast<zip_uint64_t>(index);
    if (zip_set_file_compression(archive, at, ZIP_CM_STORE, 0) != 0 ||
        zip_file_set_mtime(archive, at, kFixedMtime, 0) != 0) {
      return fail("entry '" + name + "'");
    }
  }
  if (zip_close(archive) != 0) return fail("close");

  std::vector<uint8_t> bytes;
  zip_stat_t st;
  zip_stat_init(&st);
  bool ok = zip_source_open(buffer) == 0;
  if (ok) {
    ok = zip_source_stat(buffer, &st) == 0 && (st.valid & ZIP_STAT_SIZE) != 0;
    if (ok) {
      bytes.resize(static_cast<std::size_t>(st.size));
      ok = zip_source_read(buffer, bytes.data(), bytes.size()) ==
           static_cast<zip_int64_t>(bytes.size());
    }
    zip_source_close(buffer);
  }
  zip_source_free(buffer);
  if (!ok) return Error{ErrorCode::kInternal, "zip: cannot read the archive"};
  return bytes;
}

}  // namespace etbench::etrecord_internal
