#pragma once
// BrickMap <-> OpenVDB .vdb files (issue 4: baked fields travel to Blender and Houdini).
//
// Written grid: an openvdb::FloatGrid named "surface" (what Blender and Houdini call an SDF
// volume), GridClass level set, a linear transform of voxel size = cellSize whose index
// (0, 0, 0) sits on the BrickMap's origin, so VDB voxel ijk holds the sample at world
// origin + ijk * cellSize: BrickMap samples are vertex-centred (at fine-cell corners) and a
// VDB voxel value sits exactly at its index point, so both interpolate the same lattice and a
// trilinear (openvdb::tools::BoxSampler) read at world p equals BrickMap::distance(p) inside
// the bricks. Background = the narrow band's outside value (bandWidth, m); the interior empty
// space is inactive -bandWidth, as openvdb's signed flood fill would leave it. Every stored
// brick's 9^3 samples are written with their exact values; those with |d| < bandWidth are the
// active voxels (the narrow band), the others inactive. Empty space is not stored (sparse).
// Grid metadata: "units" = "meters", "up_axis" = "Y", "floptle_format_version" = 1,
// "floptle_band_width" (m).
//
// Read: a float level set of any voxel size and offset becomes a BrickMap with that voxel size
// as its cell, its top-level grid laid on the file's voxel lattice (every brick sample is a
// file voxel, read without interpolation) and bandWidth = the grid's background. The centre
// values of empty top cells, which a narrow-band file does not carry, are rebuilt with the
// file's sign: within two bricks of the band the distance to the file's nearest sign crossing
// (the surface to within a voxel; a lower bound when none lies within five bricks), farther
// out a lower bound (the gap to the nearest top cell holding a band voxel), so `distance` far
// from the surface may read low there.
// Refused with an error naming the file and the grid: a missing or unreadable file, no float
// grid, a fog volume or another non-level-set class, a rotated / sheared / non-uniformly
// scaled or non-linear transform, a background <= 0, no voxels; a file larger than
// VdbReadOptions::maxFileBytes; a grid spanning more bricks than VdbReadOptions::maxBricks; a
// file whose declared sizes, counts or offsets do not fit in its bytes (checked before OpenVDB
// reads it, which trusts them: vdb_layout.h), whose root table repeats an origin or holds one
// off the 4096-voxel lattice, whose data ends early, which is older than file format 222
// (OpenVDB 2.0) or was written without grid offsets (openvdb::io::Stream); a grid that is an
// instance of another.
//
// Thread-safe; OpenVDB is initialised once on first use. No OpenVDB type crosses this header
// and no exception leaves these functions.
#include <cstdint>
#include <filesystem>
#include <string>

#include "floptle/core/brickmap/brick_map.h"
#include "floptle/core/expected.h"

namespace floptle {

struct VdbWriteOptions {
  /// Grid name; Blender and Houdini look for "surface" first.
  std::string gridName = "surface";
};

struct VdbReadOptions {
  /// Grid to read; empty = "surface" if the file has it, else its first float grid.
  std::string gridName;
  /// Worker threads for building the BrickMap (>= 1).
  int threads = 1;
  /// Larger files are refused unread (bytes). Reading costs memory in proportion to the file
  /// (every node OpenVDB builds is backed by its bytes), so this bounds it.
  std::uint64_t maxFileBytes = std::uint64_t(1) << 31;
  /// Grids whose top-level brick grid (the leaves' bounding box in bricks of 8^3 voxels, plus
  /// a ring of one) has more cells are refused before any is built. The BrickMap is dense at
  /// the top level, so reading costs time and memory in proportion to this count, however few
  /// voxels the file holds; at most BrickMap's own 2^26.
  std::uint64_t maxBricks = std::uint64_t(1) << 26;
};

/// Writes `map` to `file` (written to a temporary file in the same folder, then renamed, so a
/// failed write leaves any old file untouched). Errors: an empty map, an unwritable path.
Expected<void> writeBrickMapVdb(const BrickMap& map, const std::filesystem::path& file,
                                const VdbWriteOptions& options = {});

/// Reads a float level-set grid of `file` into a BrickMap (see the header comment).
Expected<BrickMap> readBrickMapVdb(const std::filesystem::path& file,
                                   const VdbReadOptions& options = {},
                                   const BakeProgress& progress = {});

}  // namespace floptle
