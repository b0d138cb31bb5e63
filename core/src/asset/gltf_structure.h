#pragma once
// The data layout of a glTF 2.0 file, checked before Assimp reads it.
//
// Assimp 5.2.5 (Debian 12's) trusts parts of what a glTF file says about where its data lies,
// and reads past its heap memory, or through a null pointer, where that is wrong:
// - an accessor is checked as byteOffset + count * (one component's size) against its buffer
//   view, not to the end of its last element;
// - a sparse accessor's indices and values are read without checking their views' lengths;
// - a primitive's JOINTS_n and WEIGHTS_n sets are read in pairs, each for as many vertices as
//   WEIGHTS_0 holds;
// - a skin's inverseBindMatrices are read once per joint, through a null pointer when the
//   skin has none;
// - a cubic-spline sampler's output is read at three values per key.
// This check holds a file to the glTF 2.0 specification's rules for each of those (buffers,
// buffer views, accessors, primitives, skins, animations) and refuses what breaks them with
// the JSON pointer of the object, so none of these reads happens on a file that passes.
#include <cstddef>
#include <filesystem>

#include "floptle/core/expected.h"

namespace floptle::asset::detail {

/// The deepest nesting of JSON arrays and objects accepted (glTF's own objects nest 6 deep;
/// the rest is room for extras). RapidJSON, inside Assimp, parses by recursion.
inline constexpr std::size_t kGltfMaxJsonDepth = 512;

/// Checks a binary glTF (.glb, `binary`) or a .gltf file. A .glb's header, JSON chunk and BIN
/// chunk header are read, not its binary data. A buffer given by a URI is held to its declared
/// byteLength, which Assimp checks against the data it reads. The error's `where` is empty: the
/// caller names the file.
Expected<void> checkGltfFile(const std::filesystem::path& path, bool binary);

}  // namespace floptle::asset::detail
