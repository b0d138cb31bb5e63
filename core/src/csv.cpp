// CSV fields and shortest round-trip numbers.
#include "floptle/core/csv.h"

#include <charconv>
#include <cmath>

namespace floptle::csv {
namespace {

template <class T>
std::string shortest(T value) {
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  char text[64];
  const auto [end, ec] = std::to_chars(text, text + sizeof text, value);
  return std::string(text, end);
}

}  // namespace

std::string field(std::string_view text) {
  if (text.find_first_of(",\"\r\n") == std::string_view::npos) return std::string(text);
  std::string out = "\"";
  for (char c : text) {
    if (c == '"') out += '"';
    out += c;
  }
  out += '"';
  return out;
}

std::string number(double value) {
  return shortest(value);
}
std::string number(float value) {
  return shortest(value);
}
std::string number(std::uint64_t value) {
  return std::to_string(value);
}

}  // namespace floptle::csv
