// Step 1 of loading: the text itself. A RapidJSON SAX pass (iterative, so deep nesting
// cannot overflow the stack) tracks the JSON pointer of the value being read, so that a
// syntax error, a number beyond double range, a nesting deeper than kMaxSceneDepth or a
// duplicate key is reported at its pointer with line and column. The same pass builds the
// document (the tree nlohmann's parser would build: ordered_json_builder.h) and checks it
// against the whole schema (step 3's first answer: scene_parsed.h). Numbers reach the handler
// as their text and are converted here (PointerTracker::RawNumber, std::from_chars): RapidJSON
// 1.1's own conversion reads a zero with a large exponent ("0e100") as 1.9e81, through
// undefined behaviour, and 1.8e308 as NaN.
#include <algorithm>
#include <charconv>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <unordered_set>
#include <vector>

#include <rapidjson/error/en.h>
#include <rapidjson/memorystream.h>
#include <rapidjson/reader.h>

#include "floptle/core/scene/scene_io.h"
#include "scene/ordered_json_builder.h"
#include "scene/scene_internal.h"
#include "scene/scene_parsed.h"

namespace floptle::scene {
namespace {

/// The power of ten of a JSON number's first non-zero digit (0 for "1.5", -3 for "0.002",
/// 301 for "12e300"), saturating far beyond double range; 0 for a zero.
long long decimalExponentOfLeadingDigit(std::string_view number) {
  const std::size_t expAt = std::min(number.find_first_of("eE"), number.size());
  const std::string_view mantissa = number.substr(0, expAt);
  long long exponent = 0;
  if (expAt < number.size()) {
    std::size_t i = expAt + 1;
    const bool negative = number[i] == '-';
    if (number[i] == '-' || number[i] == '+') ++i;
    for (; i < number.size(); ++i) {
      exponent = std::min(exponent * 10 + (number[i] - '0'), 1'000'000'000LL);
    }
    if (negative) exponent = -exponent;
  }
  const std::size_t point = std::min(mantissa.find('.'), mantissa.size());
  const std::size_t first = mantissa.find_first_of("123456789");
  if (first == std::string_view::npos) return 0;
  const long long position = first < point ? static_cast<long long>(point - first) - 1
                                           : -static_cast<long long>(first - point);
  return position + exponent;
}

struct Frame {
  bool isArray = false;
  /// Array: index of the next element. Object: the last key read.
  std::size_t index = 0;
  std::string key;
  /// Object: true between a key and the end of its value.
  bool awaitingValue = false;
  /// Object: its keys, for the duplicate check once it has more than kKeysScanned (an object
  /// of fewer is checked by scanning its keys: no allocation for the common small object).
  std::unordered_set<std::string> keys;
};

constexpr std::size_t kKeysScanned = 16;

/// Tracks the pointer of the current value; stops the parse at the first structural problem.
/// Every event it accepts goes on to `tree` (the document) and to `schema`, the whole-schema
/// validator, until that first refuses one.
class PointerTracker : public rapidjson::BaseReaderHandler<rapidjson::UTF8<>, PointerTracker> {
 public:
  PointerTracker(OrderedJsonBuilder& tree, rapidjson::SchemaValidator& schema)
      : tree_(tree), schema_(schema) {}

  std::vector<Frame> stack;
  std::optional<Error> problem;
  /// A string holds a UTF-16 surrogate on its own ("\uDC00"): the reader takes it, nlohmann
  /// refuses the text, and so does the load, with nlohmann's message.
  bool loneSurrogate = false;
  /// The schema validator refused an event: the document breaks the schema somewhere.
  bool schemaRefused = false;

  /// Pointer of the value now being read (or of the innermost container when none is).
  std::string currentPointer(bool includePending) const {
    std::string pointer;
    for (std::size_t i = 0; i < stack.size(); ++i) {
      const Frame& frame = stack[i];
      const bool last = i + 1 == stack.size();
      if (frame.isArray) {
        if (!last || includePending) pointer += "/" + std::to_string(frame.index);
      } else if (!last || (includePending && frame.awaitingValue)) {
        pointer += "/" + escapePointerToken(frame.key);
      }
    }
    return pointer;
  }

  /// A number, as its JSON text (the reader has checked its grammar). An integer that fits
  /// 64 bits goes on as one: written with a minus through Int/Int64 and without through
  /// Uint/Uint64, signed exactly where nlohmann's parser makes it signed. Any other number
  /// goes on as the nearest double; beyond double range it stops the parse, and below the
  /// smallest subnormal it is a zero of its sign, as every JSON reader takes it.
  bool RawNumber(const char* text, rapidjson::SizeType length, bool /*copy*/) {
    const char* end = text + length;
    const std::string_view number(text, length);
    if (number.find_first_of(".eE") == std::string_view::npos) {
      if (number.front() == '-') {
        std::int64_t value = 0;
        if (std::from_chars(text, end, value).ec == std::errc{}) {
          return value >= std::numeric_limits<int>::min() ? Int(static_cast<int>(value))
                                                          : Int64(value);
        }
      } else {
        std::uint64_t value = 0;
        if (std::from_chars(text, end, value).ec == std::errc{}) {
          return value <= std::numeric_limits<unsigned>::max() ? Uint(static_cast<unsigned>(value))
                                                               : Uint64(value);
        }
      }
    }
    double value = 0.0;
    if (std::from_chars(text, end, value).ec == std::errc::result_out_of_range) {
      if (decimalExponentOfLeadingDigit(number) > 0) {
        problem = Error{currentPointer(true),
                        "number too big for a double (JSON numbers must be finite)"};
        return false;
      }
      value = number.front() == '-' ? -0.0 : 0.0;
    }
    return Double(value);
  }

  bool Null() {
    tree_.null();
    toSchema([&](auto& schema) { return schema.Null(); });
    return valueDone();
  }
  bool Bool(bool value) {
    tree_.boolean(value);
    toSchema([&](auto& schema) { return schema.Bool(value); });
    return valueDone();
  }
  bool Int(int value) {
    tree_.integer(value);
    toSchema([&](auto& schema) { return schema.Int(value); });
    return valueDone();
  }
  bool Uint(unsigned value) {
    tree_.unsignedInteger(value);
    toSchema([&](auto& schema) { return schema.Uint(value); });
    return valueDone();
  }
  bool Int64(std::int64_t value) {
    tree_.integer(value);
    toSchema([&](auto& schema) { return schema.Int64(value); });
    return valueDone();
  }
  bool Uint64(std::uint64_t value) {
    tree_.unsignedInteger(value);
    toSchema([&](auto& schema) { return schema.Uint64(value); });
    return valueDone();
  }
  bool Double(double value) {
    tree_.number(value);
    toSchema([&](auto& schema) { return schema.Double(value); });
    return valueDone();
  }
  bool String(const char* text, rapidjson::SizeType length, bool copy) {
    noteLoneSurrogate(text, length);
    tree_.string({text, length});
    toSchema([&](auto& schema) { return schema.String(text, length, copy); });
    return valueDone();
  }
  bool StartObject() {
    if (!open(false)) return false;
    tree_.startObject();
    toSchema([](auto& schema) { return schema.StartObject(); });
    return true;
  }
  bool StartArray() {
    if (!open(true)) return false;
    tree_.startArray();
    toSchema([](auto& schema) { return schema.StartArray(); });
    return true;
  }
  bool Key(const char* text, rapidjson::SizeType length, bool copy) {
    Frame& frame = stack.back();
    frame.key.assign(text, length);
    frame.awaitingValue = true;
    if (isDuplicate(frame)) {
      problem = Error{currentPointer(true), "duplicate key \"" + frame.key + "\" in one object"};
      return false;
    }
    noteLoneSurrogate(text, length);
    tree_.key({text, length});
    toSchema([&](auto& schema) { return schema.Key(text, length, copy); });
    return true;
  }
  bool EndObject(rapidjson::SizeType members) {
    tree_.end();
    toSchema([&](auto& schema) { return schema.EndObject(members); });
    return close();
  }
  bool EndArray(rapidjson::SizeType elements) {
    tree_.end();
    toSchema([&](auto& schema) { return schema.EndArray(elements); });
    return close();
  }

 private:
  bool open(bool isArray) {
    if (static_cast<int>(stack.size()) + 1 > kMaxSceneDepth) {
      problem =
          Error{currentPointer(true), "nesting deeper than " + std::to_string(kMaxSceneDepth) +
                                          " arrays/objects (the limit of a scene file)"};
      return false;
    }
    stack.push_back(Frame{isArray, 0, {}, false, {}});
    return true;
  }
  bool close() {
    stack.pop_back();
    return valueDone();
  }
  /// Passes one event to the schema validator, until it first refuses one.
  template <typename Event>
  void toSchema(const Event& event) {
    if (!schemaRefused) schemaRefused = !event(schema_);
  }
  /// Whether frame.key is already a key of the innermost object (the tree holds its keys so far).
  bool isDuplicate(Frame& frame) {
    const std::span<const std::string> earlier = tree_.openObjectKeys();
    if (earlier.size() < kKeysScanned) {
      return std::find(earlier.begin(), earlier.end(), frame.key) != earlier.end();
    }
    if (frame.keys.empty()) frame.keys.insert(earlier.begin(), earlier.end());
    return !frame.keys.insert(frame.key).second;
  }
  /// The reader turns "\uD800".."\uDFFF" without its pair into the bytes ED A0..BF xx, which
  /// valid UTF-8 text (checked as it is read) cannot hold otherwise.
  void noteLoneSurrogate(const char* text, rapidjson::SizeType length) {
    for (rapidjson::SizeType i = 0; i + 1 < length; ++i) {
      const auto lead = static_cast<unsigned char>(text[i]);
      const auto next = static_cast<unsigned char>(text[i + 1]);
      if (lead == 0xED && next >= 0xA0) loneSurrogate = true;
    }
  }
  bool valueDone() {
    if (stack.empty()) return true;
    Frame& frame = stack.back();
    if (frame.isArray) ++frame.index;
    frame.awaitingValue = false;
    return true;
  }

  OrderedJsonBuilder& tree_;
  rapidjson::SchemaValidator& schema_;
};

/// 1-based line and column of a byte offset.
std::string lineColumn(std::string_view text, std::size_t offset) {
  offset = std::min(offset, text.size());
  std::size_t line = 1;
  std::size_t lineStart = 0;
  for (std::size_t i = 0; i < offset; ++i) {
    if (text[i] == '\n') {
      ++line;
      lineStart = i + 1;
    }
  }
  return "line " + std::to_string(line) + ", column " + std::to_string(offset - lineStart + 1);
}

/// Errors about a value (rather than about the container around it).
bool isValueError(rapidjson::ParseErrorCode code) {
  switch (code) {
    case rapidjson::kParseErrorValueInvalid:
    case rapidjson::kParseErrorNumberTooBig:
    case rapidjson::kParseErrorNumberMissFraction:
    case rapidjson::kParseErrorNumberMissExponent:
    case rapidjson::kParseErrorStringUnicodeEscapeInvalidHex:
    case rapidjson::kParseErrorStringUnicodeSurrogateInvalid:
    case rapidjson::kParseErrorStringEscapeInvalid:
    case rapidjson::kParseErrorStringMissQuotationMark:
    case rapidjson::kParseErrorStringInvalidEncoding:
      return true;
    default:
      return false;
  }
}

}  // namespace

Expected<ParsedJson> parseJsonText(std::string_view text) {
  if (text.size() > kMaxSceneFileBytes) {
    return Error{"", "the scene text is " + std::to_string(text.size()) +
                         " bytes, more than the limit of " +
                         std::to_string(kMaxSceneFileBytes / (1024 * 1024)) + " MiB"};
  }
  ParsedJson parsed;
  OrderedJsonBuilder tree;
  const std::unique_ptr<rapidjson::SchemaValidator> schema = wholeSchemaValidator();
  PointerTracker tracker(tree, *schema);
  rapidjson::Reader reader;
  rapidjson::MemoryStream stream(text.data(), text.size());
  constexpr unsigned kFlags = rapidjson::kParseIterativeFlag |
                              rapidjson::kParseNumbersAsStringsFlag |
                              rapidjson::kParseValidateEncodingFlag;
  const rapidjson::ParseResult result = reader.Parse<kFlags>(stream, tracker);
  if (result.IsError()) {
    const std::string where = lineColumn(text, result.Offset());
    if (tracker.problem) {
      return Error{tracker.problem->where, where + ": " + tracker.problem->what};
    }
    const rapidjson::ParseErrorCode code = result.Code();
    std::string what = rapidjson::GetParseError_En(code);
    if (code == rapidjson::kParseErrorNumberTooBig) {
      what = "number too big for a double (JSON numbers must be finite)";
    } else if (code == rapidjson::kParseErrorValueInvalid) {
      what += " (JSON has no NaN or Infinity; check for a missing quote or a typo)";
    }
    if (!what.empty() && what.back() == '.') what.pop_back();
    return Error{tracker.currentPointer(isValueError(code)), where + ": " + what};
  }
  parsed.schemaValid = !tracker.schemaRefused && schema->IsValid();
  if (!tracker.loneSurrogate) {
    parsed.document = std::move(tree.root());
    return parsed;
  }
  // nlohmann refuses a lone surrogate; its own parse says how, and a library disagreement
  // must still not escape as an exception.
  try {
    parsed.document = nlohmann::ordered_json::parse(text.begin(), text.end());
    return parsed;
  } catch (const nlohmann::json::exception& e) {
    return Error{"", e.what()};
  }
}

}  // namespace floptle::scene
