#pragma once
// Comma-separated values as the CLI writes them (RFC 4180): fields joined by ',', rows ended
// by '\n', a field quoted only when it holds a comma, a quote or a line break. Numbers in the
// shortest text that reads back to the same value, so a row is byte-identical wherever the
// same values were computed.
#include <cstdint>
#include <string>
#include <string_view>

namespace floptle::csv {

/// `text` as one field: as is, or in double quotes with inner quotes doubled.
std::string field(std::string_view text);

/// The shortest decimal text that reads back to `value` ("0.1", "1e-07", "3"); "nan" /
/// "inf" / "-inf" for non-finite values.
std::string number(double value);
std::string number(float value);
std::string number(std::uint64_t value);

}  // namespace floptle::csv
