#pragma once
// A shared library loaded with dlopen the first time one of its functions
// is needed, instead of by the dynamic loader when the program starts.
// etbench links its optional heavy dependencies this way (libpq for a
// PostgreSQL history, libzip for ETRecord archives): each library it does
// not load saves every process that never uses it the library's loading,
// relocation and constructors (libpq: 21 libraries, ~3 ms).
//
// The users define the library's functions themselves (same names and
// signatures as its header declares) and forward each call to
// Function<F>(name); a function whose library could not be loaded gets
// nullptr and answers as a failure of the library would, with error() as
// the message.

#include <string>

namespace etbench {

class LazyLibrary {
 public:
  /// `soname` as dlopen takes it ("libpq.so.5"); `package` names the Debian
  /// package that provides it, for the error message.
  LazyLibrary(const char* soname, const char* package) : soname_(soname), package_(package) {}

  /// The library's function `name` cast to F, or nullptr when the library
  /// cannot be loaded (or lacks `name`). Loads it on the first call;
  /// thread-safe.
  template <typename F>
  F Function(const char* name) {
    return reinterpret_cast<F>(Symbol(name));
  }

  /// Why the library could not be loaded ("" if it was, or was not tried).
  const char* error();

 private:
  void* Symbol(const char* name);
  void Load();

  const char* soname_;
  const char* package_;
  bool tried_ = false;
  void* handle_ = nullptr;
  std::string error_;
};

}  // namespace etbench
