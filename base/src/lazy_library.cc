#include "etbench/base/lazy_library.h"

#include <dlfcn.h>

#include <mutex>

namespace etbench {
namespace {
std::mutex g_load;  // dlopen is thread-safe; this guards tried_/handle_/error_
}  // namespace

void LazyLibrary::Load() {
  std::lock_guard<std::mutex> lock(g_load);
  if (tried_) return;
  // RTLD_LOCAL: its symbols stay out of the global scope, where the
  // forwarding definitions of the same names live.
  handle_ = dlopen(soname_, RTLD_NOW | RTLD_LOCAL);
  if (handle_ == nullptr) {
    const char* why = dlerror();
    error_ = std::string("cannot load ") + soname_ + " (Debian package " + package_ +
             "): " + (why != nullptr ? why : "unknown error");
  }
  tried_ = true;
}

void* LazyLibrary::Symbol(const char* name) {
  Load();
  return handle_ != nullptr ? dlsym(handle_, name) : nullptr;
}

const char* LazyLibrary::error() {
  Load();
  return error_.c_str();
}

}  // namespace etbench
