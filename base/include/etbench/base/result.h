#pragma once
// Errors as values at library boundaries.
//
// Contract: every public entry point that reads user input (files, flags,
// YAML) returns Result<T>. The Error carries a one-line, user-facing message
// that names the file, the offset or position, and what was wrong, plus a
// coarse code the CLI maps to an exit status.

#include <cassert>
#include <string>
#include <utility>
#include <variant>

namespace etbench {

enum class ErrorCode {
  kInvalidInput,  // malformed or inconsistent data (exit 2)
  kIo,            // missing/unreadable file, failed write (exit 2)
  kUsage,         // bad flags or options (exit 2)
  kInternal,      // a bug in etbench
};

struct Error {
  ErrorCode code = ErrorCode::kInvalidInput;
  std::string message;
};

inline Error InputError(std::string message) {
  return Error{ErrorCode::kInvalidInput, std::move(message)};
}
inline Error IoError(std::string message) {
  return Error{ErrorCode::kIo, std::move(message)};
}
inline Error UsageError(std::string message) {
  return Error{ErrorCode::kUsage, std::move(message)};
}

/// Either a value or an Error. Deliberately tiny (C++17 has no
/// std::expected): check ok(), then use value() or error().
template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : data_(std::move(value)) {}  // NOLINT: implicit by design
  Result(Error error) : data_(std::move(error)) {}  // NOLINT

  bool ok() const { return data_.index() == 0; }
  explicit operator bool() const { return ok(); }

  T& value() & {
    assert(ok());
    return std::get<0>(data_);
  }
  const T& value() const& {
    assert(ok());
    return std::get<0>(data_);
  }
  T&& value() && {
    assert(ok());
    return std::get<0>(std::move(data_));
  }
  const Error& error() const {
    assert(!ok());
    return std::get<1>(data_);
  }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }

 private:
  std::variant<T, Error> data_;
};

/// Result for operations that produce no value.
struct Ok {};
using Status = Result<Ok>;

}  // namespace etbench
