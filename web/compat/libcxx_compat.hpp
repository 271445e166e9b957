// Force-included into every C++ file of the browser build (CMakeLists.txt, EMSCRIPTEN): what
// C++20's standard library has and the libc++ of Debian bookworm's emscripten 3.1.6 lacks.
// Each piece defines itself only when the library says it is missing, so a newer toolchain
// uses its own.
#pragma once
#include <bit>
#include <version>

#if !defined(__cpp_lib_bit_cast)
#include <type_traits>
namespace std {
/// std::bit_cast (C++20, <bit>) through the compiler's builtin, which libc++'s own uses too.
template <class To, class From>
  requires(sizeof(To) == sizeof(From) && is_trivially_copyable_v<To> && is_trivially_copyable_v<From>)
constexpr To bit_cast(const From& from) noexcept {
  return __builtin_bit_cast(To, from);
}
}  // namespace std
#endif

// Floating-point std::to_chars / std::from_chars (C++17, <charconv>): libc++ 14 has the integer
// ones only. These go through the C library, with from_chars' rules kept (no leading space or
// '+', no hexadecimal, the value untouched on an error). Callers in the tree: the shortest
// decimal of a float cost (app/io/scene_file.cpp) and reading map numbers (core/src/grid).
#include <charconv>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <system_error>

#if !defined(__cpp_lib_to_chars)
namespace std {
/// The shortest decimal that reads back as `value` (printf's %g with the fewest digits that
/// round-trip: the same number as C++17's shortest form, though 1e-05 may read 1.0000000000000001e-05).
inline to_chars_result to_chars(char* first, char* last, float value) noexcept {
  char text[32];
  int n = 0;
  for (int digits = 1; digits <= 9; ++digits) {
    n = snprintf(text, sizeof text, "%.*g", digits, static_cast<double>(value));
    if (strtof(text, nullptr) == value) break;
  }
  if (n < 0 || n > last - first) return {last, errc::value_too_large};
  for (int i = 0; i < n; ++i) first[i] = text[i];
  return {first + n, errc()};
}

inline from_chars_result from_chars(const char* first, const char* last, double& value) noexcept {
  const char* digits = first != last && *first == '-' ? first + 1 : first;
  if (digits == last || !(isdigit(static_cast<unsigned char>(*digits)) || *digits == '.' || *digits == 'i' ||
                          *digits == 'I' || *digits == 'n' || *digits == 'N'))
    return {first, errc::invalid_argument};
  string text(first, last);
  if (digits + 1 < last && digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X'))
    text.resize(static_cast<size_t>(digits + 1 - first));  // "0x1p3" reads "0", as from_chars does
  errno = 0;
  char* end = nullptr;
  const double parsed = strtod(text.c_str(), &end);
  if (end == text.c_str()) return {first, errc::invalid_argument};
  const char* ptr = first + (end - text.c_str());
  if (errno == ERANGE) return {ptr, errc::result_out_of_range};
  value = parsed;
  return {ptr, errc()};
}
}  // namespace std
#endif
