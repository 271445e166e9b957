#pragma once
/// @file status.hpp
/// Error reporting for the whole core: a status code, a message meant for a
/// person, and `Result<T>`, a value-or-error return type (C++20 has no
/// std::expected). Functions that can fail on user input return a Result and
/// never throw across the API.

#include <cassert>
#include <string>
#include <utility>
#include <variant>

namespace pathlab {

/// Why an operation failed.
enum class StatusCode {
  ok = 0,
  invalid_argument,  ///< A parameter is NaN, out of range or otherwise unusable.
  parse_error,       ///< A file or string does not follow its format.
  io_error,          ///< A file could not be opened, read or written.
  out_of_bounds,     ///< A point lies outside the map.
  blocked,           ///< A point lies inside a wall.
  too_large,         ///< A size exceeds the documented limits.
  unsupported,       ///< The combination of options is not supported.
};

/// Short lower-case name of a status code, e.g. "parse_error".
const char* to_string(StatusCode code) noexcept;

/// An error: its code and a message that names the file, line or argument.
struct Error {
  StatusCode code = StatusCode::invalid_argument;
  std::string message;
};

/// Convenience constructor: `return fail(StatusCode::blocked, "start (3,4) is inside a wall");`
inline Error fail(StatusCode code, std::string message) { return Error{code, std::move(message)}; }

/// A value or an error. Check with `ok()` or `if (result)`, then use `value()` or `*result`.
template <class T>
class Result {
 public:
  Result(T value) : data_(std::move(value)) {}          // NOLINT(implicit): mirrors std::expected
  Result(Error error) : data_(std::move(error)) {}      // NOLINT(implicit)

  bool ok() const noexcept { return data_.index() == 0; }
  explicit operator bool() const noexcept { return ok(); }

  T& value() & { assert(ok()); return std::get<0>(data_); }
  const T& value() const& { assert(ok()); return std::get<0>(data_); }
  T&& value() && { assert(ok()); return std::get<0>(std::move(data_)); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }

  const Error& error() const { assert(!ok()); return std::get<1>(data_); }

 private:
  std::variant<T, Error> data_;
};

/// Result of an operation that returns nothing but may fail.
using Status = Result<std::monostate>;
inline Status ok_status() { return Status(std::monostate{}); }

}  // namespace pathlab
