// The structure of an FBX file, read as Assimp 5.2.5's tokenizers and parser read it
// (fbx_structure.h). Both tokenizers feed one StructureReader with the parser's tokens: keys,
// data, and the opening and closing of a nested scope; it keeps what Assimp's converter
// walks (the ids of the Model objects, and the object-object connections) and checks it.
#include "fbx_structure.h"

#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace floptle::asset::detail {
namespace {

/// One data token: text, as it stands in the file (a string keeps its quotes), or binary, its
/// type code followed by its bytes.
struct Datum {
  std::string_view raw;
  bool binary = false;
};

/// An id as Assimp's ParseTokenAsID reads it. Text: the leading decimal digits (at least one),
/// an overflow read as 0 (the root); binary: an 'L' (int64, little-endian).
std::optional<std::uint64_t> parseId(const Datum& d) {
  if (d.binary) {
    if (d.raw.size() != 9 || d.raw[0] != 'L') return std::nullopt;
    std::uint64_t id = 0;
    for (int i = 8; i >= 1; --i) id = (id << 8) | static_cast<unsigned char>(d.raw[i]);
    return id;
  }
  if (d.raw.empty() || d.raw[0] < '0' || d.raw[0] > '9') return std::nullopt;
  std::uint64_t id = 0;
  for (char c : d.raw) {
    if (c < '0' || c > '9') break;
    const std::uint64_t next = id * 10 + static_cast<std::uint64_t>(c - '0');
    if (next / 10 != id) return std::uint64_t{0};
    id = next;
  }
  return id;
}

/// A string as Assimp's ParseTokenAsString reads it: text between double quotes, or a binary
/// 'S' (uint32 length, then the bytes).
std::optional<std::string_view> parseString(const Datum& d) {
  if (d.binary) {
    if (d.raw.size() < 5 || d.raw[0] != 'S') return std::nullopt;
    return d.raw.substr(5);
  }
  if (d.raw.size() < 2 || d.raw.front() != '"' || d.raw.back() != '"') return std::nullopt;
  return d.raw.substr(1, d.raw.size() - 2);
}

/// The parser's side: Scope = (KEY data* ["{" Scope "}"])*. Keeps the ids of the top-level
/// Objects' "Model" elements and the top-level Connections' "C" elements that Assimp's
/// converter follows from a parent to its children ("OO", or "OP" without a property).
class StructureReader {
 public:
  void key(std::string_view name) {
    endElement();
    key_ = name;
    data_ = 0;
  }

  void data(const Datum& d) {
    const std::size_t index = data_++;
    if (scopes_.size() != 1) return;
    if (scopes_[0] == "Objects" && key_ == "Model" && index == 0) {
      if (auto id = parseId(d)) models_.insert(*id);
    } else if (scopes_[0] == "Connections" && key_ == "C" && index < 4) {
      connection_[index] = d;
      connectionData_ = index + 1;
    }
  }

  Expected<void> open() {
    endElement();
    if (scopes_.size() >= kFbxMaxNesting)
      return Error{"", "records nest deeper than " + std::to_string(kFbxMaxNesting) + " levels"};
    scopes_.push_back(key_);
    key_ = {};
    return {};
  }

  /// A close without an open (the end of Assimp's top-level scope) is read past: what follows
  /// still counts, which can only refuse more.
  void close() {
    endElement();
    if (!scopes_.empty()) scopes_.pop_back();
    key_ = {};
  }

  Expected<void> finish() {
    endElement();
    return checkModelTree();
  }

 private:
  void endElement() {
    if (connectionData_ >= 3) {
      const auto type = parseString(connection_[0]);
      const auto child = parseId(connection_[1]);
      const auto parent = parseId(connection_[2]);
      const auto property =
          connectionData_ >= 4 ? parseString(connection_[3]) : std::optional<std::string_view>();
      // Assimp skips "PP" and every link that names a property of its destination.
      const bool objectLink =
          type && *type != "PP" && (*type != "OP" || !property || property->empty());
      if (objectLink && child && parent) links_.push_back({*child, *parent});
    }
    connectionData_ = 0;
  }

  /// Each Model under at most one parent (a Model or the root, id 0), not itself, no cycle, at
  /// most kFbxMaxModelDepth below the root.
  Expected<void> checkModelTree() const {
    std::unordered_map<std::uint64_t, std::uint64_t> parentOf;
    for (const auto& [child, parent] : links_) {
      if (!models_.count(child) || (parent != 0 && !models_.count(parent))) continue;
      if (child == parent)
        return Error{"", "model " + std::to_string(child) + " is connected as its own parent"};
      auto [it, inserted] = parentOf.emplace(child, parent);
      if (!inserted)
        return Error{"", "model " + std::to_string(child) + " is connected under two parents (" +
                             std::to_string(it->second) + " and " + std::to_string(parent) + ")"};
    }
    // Depth below the root of every model walked so far; kDetached for one no chain of
    // parents joins to the root (Assimp never reaches it).
    constexpr std::size_t kDetached = ~std::size_t{0};
    std::unordered_map<std::uint64_t, std::size_t> depthOf;
    std::vector<std::uint64_t> chain;
    std::unordered_set<std::uint64_t> onChain;
    for (const auto& [start, unused] : parentOf) {
      chain.clear();
      onChain.clear();
      std::size_t base = 0;  // the depth of what the chain hangs from
      for (std::uint64_t at = start;;) {
        if (at == 0) break;
        if (auto known = depthOf.find(at); known != depthOf.end()) {
          base = known->second;
          break;
        }
        if (!onChain.insert(at).second)
          return Error{"", "the connections make model " + std::to_string(at) +
                               " its own ancestor (a cycle)"};
        chain.push_back(at);
        auto up = parentOf.find(at);
        if (up == parentOf.end()) {
          base = kDetached;
          break;
        }
        at = up->second;
      }
      for (std::size_t i = chain.size(); i-- > 0;) {
        const std::size_t depth = base == kDetached ? kDetached : base + (chain.size() - i);
        if (depth != kDetached && depth > kFbxMaxModelDepth)
          return Error{"", "the model hierarchy is deeper than " +
                               std::to_string(kFbxMaxModelDepth) + " levels (at model " +
                               std::to_string(chain[i]) + ")"};
        depthOf[chain[i]] = depth;
      }
    }
    return {};
  }

  std::vector<std::string_view> scopes_;  // the key owning each open scope, outermost first
  std::string_view key_;                  // the current element's key
  std::size_t data_ = 0;                  // data tokens of the current element so far
  Datum connection_[4];                   // the current "C" element's first data tokens
  std::size_t connectionData_ = 0;
  std::unordered_set<std::uint64_t> models_;
  std::vector<std::pair<std::uint64_t, std::uint64_t>> links_;  // (child, parent) ids
};

Error textError(std::size_t line, const std::string& what) {
  return Error{"", "malformed FBX text at line " + std::to_string(line) + ": " + what};
}

/// Assimp's text tokenizer (up to the first NUL): ';' comments to the end of the line, double
/// quoted strings, '{' '}' ',' and ':' (which makes the token before it a key), tokens ended
/// by white space.
Expected<void> readText(std::string_view bytes, StructureReader& reader) {
  constexpr std::size_t kNone = ~std::size_t{0};
  std::size_t line = 1, begin = kNone, end = kNone;
  bool comment = false, quoted = false, pending = false;
  // Assimp's ProcessDataToken: the token [begin, end] if there is one; a ',' or ':' after a
  // token that another delimiter already ended has none, which is an error.
  auto flush = [&](bool isKey, bool mustHave) -> Expected<void> {
    const bool has = begin != kNone && end != kNone;
    if (has) {
      const std::string_view token = bytes.substr(begin, end + 1 - begin);
      if (isKey)
        reader.key(token);
      else
        reader.data(Datum{token, false});
    }
    begin = end = kNone;
    if (!has && mustHave) return textError(line, "a delimiter with no token before it");
    return {};
  };
  for (std::size_t i = 0; i < bytes.size() && bytes[i] != '\0'; ++i) {
    const char c = bytes[i];
    if (c == '\n') ++line;
    if (c == '\n' || c == '\r' || c == '\f') comment = false;
    if (comment) continue;
    if (quoted) {
      if (c == '"') {
        quoted = false;
        end = i;
        flush(false, false);
        pending = false;
      }
      continue;
    }
    Expected<void> step;
    switch (c) {
      case '"':
        if (begin != kNone) return textError(line, "a double quote inside a token");
        begin = i;
        quoted = true;
        continue;
      case ';':
        flush(false, false);
        comment = true;
        break;
      case '{':
        flush(false, false);
        if (auto opened = reader.open(); !opened) return textError(line, opened.error().what);
        break;
      case '}':
        flush(false, false);
        reader.close();
        break;
      case ',':
        if (pending) step = flush(false, true);
        break;
      case ':':
        step = pending ? flush(true, true) : textError(line, "a colon after no key");
        break;
      default:
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v') {
          if (begin != kNone) step = flush(false, false);
          pending = false;
        } else {
          end = i;
          if (begin == kNone) begin = i;
          pending = true;
        }
    }
    if (!step) return step;
  }
  return reader.finish();
}

/// Assimp's binary tokenizer: a 27-byte header (the magic, 5 bytes, the uint32 version: 64-bit
/// record words from 7500 on), then records: end offset, property count, property bytes, a
/// name (uint8 length), the properties, then, where the end offset leaves room, nested records
/// closed by a null record. Read with an explicit stack (Assimp recurses).
class BinaryReader {
 public:
  BinaryReader(std::string_view bytes, StructureReader& reader) : b_(bytes), reader_(reader) {}

  Expected<void> read() {
    if (b_.size() < 27) return fail(0, "shorter than the 27-byte header");
    const bool wide = word32(23) >= 7500;
    word_ = wide ? 8 : 4;
    sentinel_ = 3 * word_ + 1;
    std::size_t pos = 27;
    std::vector<std::uint64_t> open;  // end offsets of the records whose nested list is read
    for (;;) {
      if (!open.empty() && pos >= open.back() - sentinel_) {
        reader_.close();
        if (pos + sentinel_ > b_.size()) return fail(pos, "a nested list ends past the file");
        for (std::size_t i = 0; i < sentinel_; ++i)
          if (b_[pos + i] != '\0') return fail(pos, "a nested list ends without a null record");
        pos += sentinel_;
        if (pos != open.back()) return fail(pos, "a record's length is not what it says");
        open.pop_back();
        continue;
      }
      if (open.empty() && pos >= b_.size()) break;
      const std::size_t limit = open.empty() ? b_.size() : open.back() - sentinel_;
      std::uint64_t endOffset = 0;
      if (!wordAt(pos, limit, endOffset)) return fail(pos, "a record header past its end");
      if (endOffset == 0) {
        if (open.empty()) break;  // the footer
        continue;
      }
      if (endOffset > limit) return fail(pos, "a record ends past its enclosing record");
      if (endOffset < pos) return fail(pos, "a record ends before it starts");
      std::uint64_t count = 0, length = 0;
      if (!wordAt(pos, limit, count) || !wordAt(pos, limit, length))
        return fail(pos, "a record header past its end");
      if (pos >= limit) return fail(pos, "a record's name past its end");
      const std::size_t nameLength = static_cast<unsigned char>(b_[pos++]);
      if (nameLength > limit - pos) return fail(pos, "a record's name past its end");
      const std::string_view name = b_.substr(pos, nameLength);
      if (name.find('\0') != std::string_view::npos) return fail(pos, "a NUL in a record's name");
      pos += nameLength;
      reader_.key(name);
      if (length > limit - pos) return fail(pos, "properties past the record's end");
      const std::size_t propertiesEnd = pos + static_cast<std::size_t>(length);
      for (std::uint64_t i = 0; i < count; ++i) {
        const std::size_t start = pos;
        if (auto r = skipProperty(pos, propertiesEnd); !r) return r;
        reader_.data(Datum{b_.substr(start, pos - start), true});
      }
      if (pos != propertiesEnd) return fail(pos, "properties shorter than their stated length");
      if (pos < endOffset) {
        if (endOffset - pos < sentinel_) return fail(pos, "no room for a nested list's end");
        if (auto opened = reader_.open(); !opened) return fail(pos, opened.error().what);
        open.push_back(endOffset);
      } else if (pos != endOffset) {
        return fail(pos, "a record's length is not what it says");
      }
    }
    return reader_.finish();
  }

 private:
  std::uint64_t word32(std::size_t at) const {
    std::uint64_t v = 0;
    for (int i = 3; i >= 0; --i) v = (v << 8) | static_cast<unsigned char>(b_[at + i]);
    return v;
  }

  /// Reads one record word (4 or 8 bytes) at pos, below limit.
  bool wordAt(std::size_t& pos, std::size_t limit, std::uint64_t& out) const {
    if (pos > limit || limit - pos < word_) return false;
    out = 0;
    for (std::size_t i = word_; i-- > 0;)
      out = (out << 8) | static_cast<unsigned char>(b_[pos + i]);
    pos += word_;
    return true;
  }

  /// Assimp's ReadData: a type code and what it holds, within [pos, end).
  Expected<void> skipProperty(std::size_t& pos, std::size_t end) const {
    if (pos >= end) return fail(pos, "a property past the record's properties");
    const char type = b_[pos++];
    std::uint64_t size = 0;
    switch (type) {
      case 'C':
        size = 1;
        break;
      case 'Y':
        size = 2;
        break;
      case 'I':
      case 'F':
        size = 4;
        break;
      case 'D':
      case 'L':
        size = 8;
        break;
      case 'R':
      case 'S':
        if (end - pos < 4) return fail(pos, "a property past the record's properties");
        size = 4 + word32(pos);
        break;
      case 'b':
        size = end - pos;
        break;
      case 'f':
      case 'd':
      case 'l':
      case 'i':
      case 'c': {
        if (end - pos < 12) return fail(pos, "an array header past the record's properties");
        const auto count = static_cast<std::uint32_t>(word32(pos));
        const auto encoding = word32(pos + 4);
        const auto stored = static_cast<std::uint32_t>(word32(pos + 8));
        const std::uint32_t stride = (type == 'd' || type == 'l') ? 8 : (type == 'c' ? 1 : 4);
        if (encoding == 0 && static_cast<std::uint32_t>(count * stride) != stored)
          return fail(pos, "an array whose byte count disagrees with its length");
        if (encoding > 1) return fail(pos, "an array in an unknown encoding");
        size = 12 + std::uint64_t{stored};
        break;
      }
      default:
        return fail(pos - 1, std::string("an unknown property type code '") + type + "'");
    }
    if (size > end - pos) return fail(pos, "a property past the record's properties");
    pos += static_cast<std::size_t>(size);
    return {};
  }

  Error fail(std::size_t pos, const std::string& what) const {
    return Error{"", "malformed binary FBX at byte " + std::to_string(pos) + ": " + what};
  }

  std::string_view b_;
  StructureReader& reader_;
  std::size_t word_ = 4, sentinel_ = 13;
};

}  // namespace

Expected<void> checkFbxStructure(std::string_view bytes) {
  StructureReader reader;
  constexpr std::string_view kMagic = "Kaydara FBX Binary";
  if (bytes.substr(0, kMagic.size()) == kMagic) return BinaryReader(bytes, reader).read();
  return readText(bytes, reader);
}

}  // namespace floptle::asset::detail
