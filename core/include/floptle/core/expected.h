#pragma once
// Expected<T>: a value or an Error that names what went wrong and where.
// Bad input (files, inspector values, CLI arguments, queries) is answered with one of these;
// no exception crosses a module's public API.
#include <string>
#include <utility>
#include <variant>

namespace floptle {

struct Error {
  /// Where the problem is: a JSON pointer ("/nodes/3/shape/radius"), a file:line, a field name.
  std::string where;
  /// What is wrong, in words a user can act on.
  std::string what;

  std::string message() const { return where.empty() ? what : where + ": " + what; }
};

template <class T>
class Expected {
 public:
  Expected(T value) : state_(std::move(value)) {}
  Expected(Error error) : state_(std::move(error)) {}

  bool ok() const { return state_.index() == 0; }
  explicit operator bool() const { return ok(); }

  T& value() & { return std::get<0>(state_); }
  const T& value() const& { return std::get<0>(state_); }
  T&& value() && { return std::get<0>(std::move(state_)); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }

  const Error& error() const { return std::get<1>(state_); }

 private:
  std::variant<T, Error> state_;
};

/// Expected<void>: success or an Error.
template <>
class Expected<void> {
 public:
  Expected() = default;
  Expected(Error error) : error_(std::move(error)), ok_(false) {}
  bool ok() const { return ok_; }
  explicit operator bool() const { return ok_; }
  const Error& error() const { return error_; }

 private:
  Error error_;
  bool ok_ = true;
};

}  // namespace floptle
