// The tree walk of vdb_tree.h.
#include "vdb_tree.h"

#include <array>
#include <bit>
#include <limits>
#include <map>
#include <vector>

namespace floptle::vdb {
namespace {

/// io::readCompressedValues' flag byte: which inactive values and mask precede the block.
enum ValuesFlag : std::int8_t {
  kNoMaskOneInactiveValue = 2,
  kMaskNoInactiveValues = 3,
  kMaskOneInactiveValue = 4,
  kMaskTwoInactiveValues = 5,
  kAllValues = 6,
};

constexpr std::uint64_t kFloatBytes = 4, kHalfBytes = 2;
/// A root tile: its origin (3 int32), a float value, an active flag.
constexpr std::uint64_t kTileBytes = 3 * 4 + kFloatBytes + 1;
/// A root child (a 32^3 internal node): its origin, then its child and value masks.
constexpr std::uint64_t kChildBytes = 3 * 4 + 2 * (32 * 32 * 32 / 8);
/// Voxels along a root child's edge (32 x 16 x 8): root origins are multiples of it.
constexpr std::int32_t kRootChildVoxels = 32 * 16 * 8;

/// A node mask of 2^(3 log2Dim) bits, as NodeMask::load reads it (64-bit words).
struct Mask {
  std::vector<std::uint64_t> words;

  std::uint64_t bytes() const { return words.size() * 8; }
  std::uint64_t countOn() const {
    std::uint64_t n = 0;
    for (const std::uint64_t w : words) n += std::popcount(w);
    return n;
  }
};

Expected<Mask> readMask(Cursor& c, int log2Dim, const std::string& what) {
  Mask m;
  m.words.resize((std::uint64_t(1) << (3 * log2Dim)) / 64);
  if (auto r = c.read(m.words.data(), m.bytes(), what); !r) return r.error();
  return m;
}

/// A Blosc block of `packed` bytes that must unpack to `bytes`: its header's sizes are what
/// blosc_decompress trusts (it reads up to the size the header states).
Expected<void> bloscBlock(Cursor& c, std::uint64_t packed, std::uint64_t bytes,
                          const std::string& what) {
  auto header = c.bloscHeader(packed, what);
  if (!header) return header.error();
  const bool plain = header->flags & Cursor::kBloscMemcpyed;
  if (header->unpacked != bytes || header->packed > packed ||
      (plain && header->packed < Cursor::kBloscHeaderBytes + bytes))
    return c.error(what + " is a Blosc block of " + std::to_string(packed) +
                   " bytes whose header states " + std::to_string(header->packed) +
                   " bytes unpacking to " + std::to_string(header->unpacked) + "; its node holds " +
                   std::to_string(bytes));
  return c.skip(packed - Cursor::kBloscHeaderBytes, what);
}

/// io::readData: `bytes` of values, plain or behind an int64 size (Zip or Blosc).
Expected<void> valueBlock(Cursor& c, std::uint64_t bytes, std::uint32_t compression,
                          const std::string& what) {
  if (!(compression & (kCompressZip | kCompressBlosc))) return c.skip(bytes, what);
  const std::uint64_t at = c.pos();
  auto size = c.value<std::int64_t>(what);
  if (!size) return size.error();
  if (*size <= 0) {
    if (*size == std::numeric_limits<std::int64_t>::min() || std::uint64_t(-*size) != bytes)
      return c.error(what + " at byte " + std::to_string(at) + " declares " +
                     std::to_string(*size) + " bytes of plain values; its node holds " +
                     std::to_string(bytes));
    return c.skip(bytes, what);
  }
  if (std::uint64_t(*size) > c.left()) return c.pastEnd(what, std::uint64_t(*size));
  if (compression & kCompressBlosc) return bloscBlock(c, std::uint64_t(*size), bytes, what);
  return c.skip(std::uint64_t(*size), what);  // zlib's uncompress is bounded on both sides
}

/// io::readCompressedValues of a node of `count` values of which `active` are on.
Expected<void> nodeValues(Cursor& c, std::uint64_t count, std::uint64_t active, int log2Dim,
                          const TreeFormat& format, const std::string& what) {
  auto flag = c.value<std::int8_t>(what);
  if (!flag) return flag.error();
  const bool inactiveValues = *flag == kNoMaskOneInactiveValue || *flag == kMaskOneInactiveValue ||
                              *flag == kMaskTwoInactiveValues;
  if (inactiveValues) {
    const std::uint64_t inactive = *flag == kMaskTwoInactiveValues ? 2 : 1;
    if (auto r = c.skip(inactive * kFloatBytes, what); !r) return r;
  }
  if (*flag == kMaskNoInactiveValues || *flag == kMaskOneInactiveValue ||
      *flag == kMaskTwoInactiveValues) {
    if (auto r = c.skip((std::uint64_t(1) << (3 * log2Dim)) / 8, what); !r) return r;
  }
  const bool activeOnly = (format.compression & kCompressActiveMask) && *flag != kAllValues;
  const std::uint64_t stored = activeOnly ? active : count;
  if (format.half && stored == 0) return {};  // io::HalfReader reads nothing for no values
  return valueBlock(c, stored * (format.half ? kHalfBytes : kFloatBytes), format.compression, what);
}

/// An internal node's topology (its masks, values and children's topology); the number of
/// leaves below it.
Expected<std::uint64_t> internalTopology(Cursor& c, int log2Dim, const TreeFormat& format,
                                         const std::string& what) {
  auto children = readMask(c, log2Dim, "the child mask of " + what);
  if (!children) return children.error();
  auto values = readMask(c, log2Dim, "the value mask of " + what);
  if (!values) return values.error();
  const std::uint64_t count = std::uint64_t(1) << (3 * log2Dim);
  if (auto r = nodeValues(c, count, values->countOn(), log2Dim, format, "the values of " + what);
      !r)
    return r.error();
  if (log2Dim == 4) {  // 8^3 leaves: a value mask each
    const std::uint64_t leaves = children->countOn();
    if (auto r = c.skip(leaves * (512 / 8), "the leaf masks of " + what); !r) return r.error();
    return leaves;
  }
  std::uint64_t leaves = 0;
  const std::uint64_t n = children->countOn();
  for (std::uint64_t i = 0; i < n; ++i) {
    auto below = internalTopology(c, 4, format, "a 16^3 node of " + what);
    if (!below) return below.error();
    leaves += *below;
  }
  return leaves;
}

}  // namespace

Expected<void> checkFloatTree(Cursor& c, const TreeFormat& format, std::uint64_t buffersPos) {
  auto buffers = c.value<std::int32_t>("the grid's tree");
  if (!buffers) return buffers.error();
  if (*buffers != 1)
    return c.error("the grid's tree declares " + std::to_string(*buffers) +
                   " buffers; OpenVDB files have 1");
  if (auto r = c.skip(kFloatBytes, "the grid's background"); !r) return r;
  auto tiles = c.value<std::uint32_t>("the grid's root table");
  auto children = c.value<std::uint32_t>("the grid's root table");
  if (!tiles || !children) return c.error("the grid's root table is cut short");
  const std::uint64_t needed = *tiles * kTileBytes + *children * kChildBytes;
  const std::uint64_t room = buffersPos > c.pos() ? buffersPos - c.pos() : 0;
  if (needed > room)
    return c.error("the grid's root table declares " + std::to_string(*tiles) + " tiles and " +
                   std::to_string(*children) + " child nodes, at least " + std::to_string(needed) +
                   " bytes, but the grid has " + std::to_string(room) +
                   " bytes before its voxel data");
  // RootNode keys its table by origin: a repeated origin would replace the earlier entry (and
  // leak the child it held), and an origin off the 4096-voxel lattice names no child's place.
  // Neither occurs in a file OpenVDB wrote; both are refused.
  std::map<std::array<std::int32_t, 3>, std::string> entries;
  auto checkOrigin = [&](const std::array<std::int32_t, 3>& origin, const std::string& what,
                         std::uint64_t at) -> Expected<void> {
    const std::string where = what + " at byte " + std::to_string(at);
    const std::string coords = "(" + std::to_string(origin[0]) + ", " + std::to_string(origin[1]) +
                               ", " + std::to_string(origin[2]) + ")";
    for (const std::int32_t v : origin)
      if (v % kRootChildVoxels != 0)
        return c.error(where + " has the origin " + coords + ", not a multiple of " +
                       std::to_string(kRootChildVoxels) + " voxels");
    const auto [it, added] = entries.emplace(origin, what);
    if (!added) return c.error(where + " repeats the origin " + coords + " of " + it->second);
    return {};
  };
  for (std::uint32_t t = 0; t < *tiles; ++t) {
    const std::string what = "root tile " + std::to_string(t);
    std::array<std::int32_t, 3> origin{};
    const std::uint64_t at = c.pos();
    if (auto r = c.read(origin.data(), sizeof(origin), "the origin of " + what); !r) return r;
    if (auto r = checkOrigin(origin, what, at); !r) return r;
    if (auto r = c.skip(kFloatBytes, what); !r) return r;
    auto active = c.value<std::uint8_t>(what);
    if (!active) return active.error();
    if (*active > 1)
      return c.error(what + " at byte " + std::to_string(c.pos() - 1) + " has an active flag of " +
                     std::to_string(*active) + ", not 0 or 1");
  }
  // The leaves' buffers follow in the table's (coordinate) order; only their count matters here.
  std::uint64_t leaves = 0;
  for (std::uint32_t n = 0; n < *children; ++n) {
    const std::string what = "root child " + std::to_string(n);
    std::array<std::int32_t, 3> origin{};
    const std::uint64_t at = c.pos();
    if (auto r = c.read(origin.data(), sizeof(origin), "the origin of " + what); !r) return r;
    if (auto r = checkOrigin(origin, what, at); !r) return r;
    auto count = internalTopology(c, 5, format, what);
    if (!count) return count.error();
    leaves += *count;
  }
  for (std::uint64_t l = 0; l < leaves; ++l) {
    const std::string what = "leaf " + std::to_string(l);
    auto mask = readMask(c, 3, "the value mask of " + what);
    if (!mask) return mask.error();
    if (auto r = nodeValues(c, 512, mask->countOn(), 3, format, "the values of " + what); !r)
      return r;
  }
  return {};
}

}  // namespace floptle::vdb
