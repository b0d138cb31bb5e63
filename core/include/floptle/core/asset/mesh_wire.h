#pragma once
// The wire format between the editor and its import worker process (floptle-import-worker):
// an imported TriangleMesh, a MeshObjectTree or an Error, as one binary frame. The worker runs
// Assimp in a process of its own, so a file that crashes, hangs or exhausts Assimp ends the
// worker, never the editor; the frame is how its result crosses the pipe.
//
// Frame: "FLMW", a format version (u32), a kind (u8), then the payload; integers little-endian
// as this machine writes them (both ends are the same build), floats as their bits, strings as
// a u32 length and bytes. Decoding checks every length against the bytes left and every index
// against what it indexes, so a truncated or corrupt frame is an Error, never undefined
// behaviour.
#include <string>
#include <string_view>
#include <variant>

#include "floptle/core/asset/mesh_objects.h"
#include "floptle/core/asset/triangle_mesh.h"
#include "floptle/core/expected.h"

namespace floptle::asset {

std::string encodeMeshFrame(const TriangleMesh& mesh);
std::string encodeObjectsFrame(const MeshObjectTree& tree);
std::string encodeErrorFrame(const Error& error);

/// What a frame holds: the worker's answer (a mesh, a tree, or the Error the import gave).
using WireResult = std::variant<TriangleMesh, MeshObjectTree, Error>;

/// Decodes one frame; an Error (where = "frame") when it is truncated or corrupt.
Expected<WireResult> decodeFrame(std::string_view bytes);

}  // namespace floptle::asset
