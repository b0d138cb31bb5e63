#pragma once
// A read position in a .vdb file that never reads past the file's end: the walks of
// vdb_layout.cpp and vdb_tree.cpp read what a file declares through it, and every read past
// the end is an error naming what the file declared there.
#include <cstdint>
#include <istream>
#include <string>

#include "floptle/core/expected.h"

namespace floptle::vdb {

/// Reads within the file's `size` bytes; every read past it is an error naming what the file
/// declared there.
class Cursor {
 public:
  Cursor(std::istream& in, std::uint64_t size, std::string where)
      : in_(in), size_(size), where_(std::move(where)) {}

  std::uint64_t pos() const { return pos_; }
  std::uint64_t left() const { return size_ - pos_; }

  Error error(const std::string& what) const {
    return Error{where_, "not a readable OpenVDB file: " + what};
  }
  Error pastEnd(const std::string& what, std::uint64_t bytes) const {
    return error(what + " at byte " + std::to_string(pos_) + " declares " + std::to_string(bytes) +
                 " bytes, past the file's end (" + std::to_string(size_) + " bytes)");
  }

  Expected<void> seek(std::uint64_t to, const std::string& what) {
    if (to > size_)
      return error(what + " is at byte " + std::to_string(to) + ", past the file's end (" +
                   std::to_string(size_) + " bytes)");
    in_.clear();
    in_.seekg(static_cast<std::streamoff>(to));
    if (!in_) return error("cannot seek to " + what);
    pos_ = to;
    return {};
  }
  Expected<void> read(void* out, std::uint64_t bytes, const std::string& what) {
    if (bytes > left()) return pastEnd(what, bytes);
    in_.read(static_cast<char*>(out), static_cast<std::streamsize>(bytes));
    if (static_cast<std::uint64_t>(in_.gcount()) != bytes) return error("cannot read " + what);
    pos_ += bytes;
    return {};
  }
  Expected<void> skip(std::uint64_t bytes, const std::string& what) {
    if (bytes > left()) return pastEnd(what, bytes);
    return seek(pos_ + bytes, what);
  }
  template <class T>
  Expected<T> value(const std::string& what) {
    if (sizeof(T) > left())
      return error("the file ends at byte " + std::to_string(size_) + ", inside " + what);
    T v{};
    if (auto r = read(&v, sizeof(T), what); !r) return r.error();
    return v;
  }
  /// OpenVDB's readString: a uint32 length, then as many characters.
  Expected<std::string> string(const std::string& what) {
    auto length = value<std::uint32_t>(what);
    if (!length) return length.error();
    if (*length > left()) return pastEnd(what, *length);
    std::string s(*length, '\0');
    if (auto r = read(s.data(), *length, what); !r) return r.error();
    return s;
  }
  /// The 16-byte header of a Blosc block of `packed` bytes (at least a header's).
  struct BloscHeader {
    std::uint8_t flags = 0;
    std::uint32_t unpacked = 0;  ///< the bytes it decompresses to
    std::uint32_t packed = 0;    ///< the bytes it states it has, header included
  };
  static constexpr std::uint64_t kBloscHeaderBytes = 16;
  static constexpr std::uint8_t kBloscMemcpyed = 0x2;  ///< flag: the data follows unpacked
  Expected<BloscHeader> bloscHeader(std::uint64_t packed, const std::string& what) {
    if (packed < kBloscHeaderBytes)
      return error(what + " at byte " + std::to_string(pos_) + " declares " +
                   std::to_string(packed) + " Blosc bytes, fewer than a Blosc header");
    unsigned char h[kBloscHeaderBytes];
    if (auto r = read(h, kBloscHeaderBytes, what); !r) return r.error();
    auto le32 = [&](int at) {
      return std::uint32_t(h[at]) | std::uint32_t(h[at + 1]) << 8 | std::uint32_t(h[at + 2]) << 16 |
             std::uint32_t(h[at + 3]) << 24;
    };
    return BloscHeader{h[2], le32(4), le32(12)};
  }

 private:
  std::istream& in_;
  std::uint64_t size_;
  std::uint64_t pos_ = 0;
  std::string where_;
};

}  // namespace floptle::vdb
