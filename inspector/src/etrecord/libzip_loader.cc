// libzip, loaded when the first ETRecord archive is read or written instead
// of when etbench starts (base/lazy_library.h): libzip brings libcrypto,
// libbz2 and libz, whose loading and relocation cost every etbench process
// about 0.8 ms on a 2.3 GHz VM, though most never open an ETRecord. These
// definitions of the libzip functions zip_archive.cc calls forward to the
// real ones in libzip.so.4 (Debian package libzip4).
//
// When libzip.so.4 cannot be loaded, opening an archive fails with
// ZIP_ER_INTERNAL and the error's text is the dlerror() message; nothing
// else is affected. A function zip_archive.cc starts to call must be added
// here (the link fails with "undefined reference to zip_..." until it is).
#include <zip.h>

#include "etbench/base/lazy_library.h"

namespace {

etbench::LazyLibrary& Libzip() {
  static etbench::LazyLibrary library("libzip.so.4", "libzip4");
  return library;
}

}  // namespace

// `real`: the library's own `name` (of the type of its declaration in the
// header), or nullptr when libzip cannot be loaded.
#define ETBENCH_LIBZIP(name) \
  static const auto real = Libzip().Function<decltype(&::name)>(#name)

extern "C" {

// Errors: plain structs, handled here when the library is missing so that
// the caller's message names the reason.
void zip_error_init(zip_error_t* error) {
  ETBENCH_LIBZIP(zip_error_init);
  if (real) return real(error);
  error->zip_err = ZIP_ER_OK;
  error->sys_err = 0;
  error->str = nullptr;
}

void zip_error_init_with_code(zip_error_t* error, int code) {
  ETBENCH_LIBZIP(zip_error_init_with_code);
  if (real) return real(error, code);
  zip_error_init(error);
  error->zip_err = code;
}

void zip_error_fini(zip_error_t* error) {
  ETBENCH_LIBZIP(zip_error_fini);
  if (real) real(error);
}

int zip_error_code_zip(const zip_error_t* error) {
  ETBENCH_LIBZIP(zip_error_code_zip);
  return real ? real(error) : error->zip_err;
}

const char* zip_error_strerror(zip_error_t* error) {
  ETBENCH_LIBZIP(zip_error_strerror);
  return real ? real(error) : Libzip().error();
}

zip_t* zip_open(const char* path, int flags, int* errorp) {
  ETBENCH_LIBZIP(zip_open);
  if (real) return real(path, flags, errorp);
  if (errorp != nullptr) *errorp = ZIP_ER_INTERNAL;
  return nullptr;
}

zip_t* zip_open_from_source(zip_source_t* source, int flags, zip_error_t* error) {
  ETBENCH_LIBZIP(zip_open_from_source);
  if (real) return real(source, flags, error);
  if (error != nullptr) zip_error_init_with_code(error, ZIP_ER_INTERNAL);
  return nullptr;
}

zip_source_t* zip_source_buffer_create(const void* data, zip_uint64_t size, int freep,
                                       zip_error_t* error) {
  ETBENCH_LIBZIP(zip_source_buffer_create);
  if (real) return real(data, size, freep, error);
  if (error != nullptr) zip_error_init_with_code(error, ZIP_ER_INTERNAL);
  return nullptr;
}

// The rest take an archive, file or source that only the library makes:
// without it they are never reached, and answer as failures.
int zip_close(zip_t* archive) {
  ETBENCH_LIBZIP(zip_close);
  return real ? real(archive) : -1;
}

void zip_discard(zip_t* archive) {
  ETBENCH_LIBZIP(zip_discard);
  if (real) real(archive);
}

const char* zip_strerror(zip_t* archive) {
  ETBENCH_LIBZIP(zip_strerror);
  return real ? real(archive) : Libzip().error();
}

zip_int64_t zip_get_num_entries(zip_t* archive, zip_flags_t flags) {
  ETBENCH_LIBZIP(zip_get_num_entries);
  return real ? real(archive, flags) : -1;
}

const char* zip_get_name(zip_t* archive, zip_uint64_t index, zip_flags_t flags) {
  ETBENCH_LIBZIP(zip_get_name);
  return real ? real(archive, index, flags) : nullptr;
}

zip_int64_t zip_name_locate(zip_t* archive, const char* name, zip_flags_t flags) {
  ETBENCH_LIBZIP(zip_name_locate);
  return real ? real(archive, name, flags) : -1;
}

void zip_stat_init(zip_stat_t* stat) {
  ETBENCH_LIBZIP(zip_stat_init);
  if (real) real(stat);
}

int zip_stat_index(zip_t* archive, zip_uint64_t index, zip_flags_t flags, zip_stat_t* stat) {
  ETBENCH_LIBZIP(zip_stat_index);
  return real ? real(archive, index, flags, stat) : -1;
}

zip_file_t* zip_fopen_index(zip_t* archive, zip_uint64_t index, zip_flags_t flags) {
  ETBENCH_LIBZIP(zip_fopen_index);
  return real ? real(archive, index, flags) : nullptr;
}

zip_int64_t zip_fread(zip_file_t* file, void* buffer, zip_uint64_t size) {
  ETBENCH_LIBZIP(zip_fread);
  return real ? real(file, buffer, size) : -1;
}

int zip_fclose(zip_file_t* file) {
  ETBENCH_LIBZIP(zip_fclose);
  return real ? real(file) : -1;
}

const char* zip_file_strerror(zip_file_t* file) {
  ETBENCH_LIBZIP(zip_file_strerror);
  return real ? real(file) : Libzip().error();
}

zip_int64_t zip_file_add(zip_t* archive, const char* name, zip_source_t* source,
                         zip_flags_t flags) {
  ETBENCH_LIBZIP(zip_file_add);
  return real ? real(archive, name, source, flags) : -1;
}

int zip_file_set_mtime(zip_t* archive, zip_uint64_t index, time_t mtime, zip_flags_t flags) {
  ETBENCH_LIBZIP(zip_file_set_mtime);
  return real ? real(archive, index, mtime, flags) : -1;
}

int zip_set_file_compression(zip_t* archive, zip_uint64_t index, zip_int32_t method,
                             zip_uint32_t flags) {
  ETBENCH_LIBZIP(zip_set_file_compression);
  return real ? real(archive, index, method, flags) : -1;
}

zip_source_t* zip_source_buffer(zip_t* archive, const void* data, zip_uint64_t size, int freep) {
  ETBENCH_LIBZIP(zip_source_buffer);
  return real ? real(archive, data, size, freep) : nullptr;
}

void zip_source_free(zip_source_t* source) {
  ETBENCH_LIBZIP(zip_source_free);
  if (real) real(source);
}

void zip_source_keep(zip_source_t* source) {
  ETBENCH_LIBZIP(zip_source_keep);
  if (real) real(source);
}

int zip_source_open(zip_source_t* source) {
  ETBENCH_LIBZIP(zip_source_open);
  return real ? real(source) : -1;
}

zip_int64_t zip_source_read(zip_source_t* source, void* buffer, zip_uint64_t size) {
  ETBENCH_LIBZIP(zip_source_read);
  return real ? real(source, buffer, size) : -1;
}

int zip_source_close(zip_source_t* source) {
  ETBENCH_LIBZIP(zip_source_close);
  return real ? real(source) : -1;
}

int zip_source_stat(zip_source_t* source, zip_stat_t* stat) {
  ETBENCH_LIBZIP(zip_source_stat);
  return real ? real(source, stat) : -1;
}

}  // extern "C"
