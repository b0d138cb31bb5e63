#pragma once
// The tree of a float grid (Tree_float_5_4_3), walked the way OpenVDB 10 reads it before
// OpenVDB reads any of it. OpenVDB trusts the size each block of values declares: an
// uncompressed block is copied into the node's buffer before its size is compared with the
// buffer's (io::bloscFromStream), so a file can write past a heap buffer; a Blosc block is
// decompressed from a buffer of the size the file declares, by the size its own header states.
// The walk computes what each node holds from its masks and checks every block against it.
//
// Byte layout (file format 222 on; tree/RootNode.h, InternalNode.h, LeafNode.h,
// io/Compression.h): topology, then buffers.
//   topology: int32 buffer count, float background, uint32 tile and child counts, the tiles
//     (3 int32 origin, float value, bool active), then per child its origin and a 32^3 node:
//     child mask, value mask, its values, then its 16^3 children in child-mask order (child
//     mask, value mask, values, then their 8^3 leaves: a value mask each);
//   buffers: per leaf, of the root's children in coordinate order (a child whose origin repeats
//     is replaced by the later one), a value mask and its values;
//   values: a flag byte, maybe one or two float inactive values, maybe a selection mask, then
//     a block of the active values (or all of them): float or half, plain or compressed (Zip or
//     Blosc, an int64 size first: negative for plain bytes).
#include <cstdint>

#include "floptle/core/expected.h"
#include "vdb_cursor.h"

namespace floptle::vdb {

/// openvdb::io::COMPRESS_* flags of a grid.
inline constexpr std::uint32_t kCompressZip = 0x1, kCompressActiveMask = 0x2, kCompressBlosc = 0x4;

struct TreeFormat {
  std::uint32_t compression = 0;  ///< kCompress* flags, as the grid's data declares them
  bool half = false;              ///< values stored as 16-bit floats (the grid's metadata)
};

/// Walks the tree that starts at `c` (its buffer count) to the end of its last leaf's values.
/// The root table's tile and child counts must first fit in the bytes before `buffersPos`
/// (where the grid's descriptor puts its voxel data), so a huge count is refused at once.
Expected<void> checkFloatTree(Cursor& c, const TreeFormat& format, std::uint64_t buffersPos);

}  // namespace floptle::vdb
