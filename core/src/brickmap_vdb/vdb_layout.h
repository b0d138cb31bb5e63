#pragma once
// What a .vdb file declares about itself, checked against the bytes it has before OpenVDB reads
// any of it. OpenVDB 10 trusts those declarations: it allocates (and fills) a string or a
// metadata value of whatever size the file states before reading it, and loops over a root
// table of whatever count the file states, past the file's end (a failed read is no error to
// it), so a few kilobytes can make it allocate gigabytes or spin for minutes.
//
// readVdbLayout walks the container structure the way OpenVDB reads it (file format 222 on,
// written by openvdb::io::File): the header, the file's metadata, and each grid's descriptor,
// checking every length, count and offset against the file's size. checkVdbGridDeclarations
// walks one grid's own part: compression flags, metadata, transform, the root node's tile and
// child counts (which must fit in the bytes before the grid's buffers), then the whole tree,
// every block of values against what its node holds (vdb_tree.h).
//
// Errors name the file, the part and the byte offset. No OpenVDB type crosses this header.
#include <cstdint>
#include <filesystem>
#include <istream>
#include <string>
#include <vector>

#include "floptle/core/expected.h"

namespace floptle::vdb {

/// The oldest file format read (OpenVDB 2.0, 2013): compression flags per grid, the UUID as
/// text, grid instancing and the new transform layout.
inline constexpr std::uint32_t kOldestFileVersion = 222;

struct GridEntry {
  std::string uniqueName;      ///< as stored: the grid's name, maybe with a numbered suffix
  std::string type;            ///< as stored, e.g. "Tree_float_5_4_3" (maybe "_HalfFloat")
  std::string instanceParent;  ///< empty unless the grid shares another grid's tree
  std::uint64_t descriptorPos = 0, gridPos = 0, blockPos = 0, endPos = 0;  ///< bytes
};

struct Layout {
  std::uint32_t fileVersion = 0;
  std::uint32_t libraryMajor = 0, libraryMinor = 0;
  std::vector<GridEntry> grids;
};

/// The bytes OpenVDB reads for a value of a registered fixed-size metadata type (it reads
/// those, whatever size the file states), 0 for any other type.
using FixedMetadataBytes = std::uint32_t (*)(const std::string& type);

/// A descriptor's grid type without the suffix of a grid saved as half floats ("_HalfFloat",
/// which GridDescriptor::read strips; not in OpenVDB's headers).
std::string treeTypeOf(const std::string& stored);

/// The header, file metadata and grid descriptors of `in`, the file `path` of `size` bytes.
Expected<Layout> readVdbLayout(std::istream& in, std::uint64_t size,
                               const std::filesystem::path& path, FixedMetadataBytes fixedBytes);

/// The declarations of the float grid `grid` of that file, its tree's included (see the header
/// comment); errors name `where` (the file and the grid).
Expected<void> checkVdbGridDeclarations(std::istream& in, std::uint64_t size,
                                        const std::string& where, const GridEntry& grid,
                                        FixedMetadataBytes fixedBytes);

}  // namespace floptle::vdb
