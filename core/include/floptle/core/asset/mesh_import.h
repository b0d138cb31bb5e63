#pragma once
// Mesh import through Assimp: glTF 2.0 (.glb/.gltf), Wavefront OBJ (+ .mtl) and FBX, the formats
// Blender exports. Every aiMesh is flattened with its node transform into one TriangleMesh in
// the scene frame (+Y up, meters) with per-triangle material slot labels.
//
// Axis and unit handling (what each format needs):
//  - glTF 2.0: the specification fixes +Y up and meters; Blender's exporter converts from its
//    Z-up on export. Taken as is.
//  - OBJ: no axis metadata. Blender's OBJ exporter writes +Y up by default (forward -Z, up Y),
//    so OBJ is taken as +Y up, meters. A file exported with "Up: Z" needs UpAxis::Z.
//  - FBX: the file's GlobalSettings carry UpAxis/FrontAxis/CoordAxis (with signs) and
//    UnitScaleFactor (centimeters per file unit). Assimp hands these over as scene metadata and
//    applies neither; we map the file's coord/up/front axes to +X/+Y/+Z and scale by
//    UnitScaleFactor / 100 to meters. Blender writes UpAxis = Y and UnitScaleFactor = 100
//    (one unit = one meter) by default, so its files come through unchanged.
//  - ImportOptions can force the up axis and the unit scale for any format.
#include <atomic>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "floptle/core/asset/triangle_mesh.h"
#include "floptle/core/expected.h"

namespace floptle::asset {

struct ImportOptions {
  enum class UpAxis {
    /// From the format: glTF and OBJ +Y, FBX from its GlobalSettings.
    Automatic,
    /// The file is +Y up: keep the axes.
    Y,
    /// The file is +Z up (Blender's own frame): (x, y, z) -> (x, z, -y).
    Z,
  };
  UpAxis upAxis = UpAxis::Automatic;
  /// Meters per file unit (-); 0 means from the format (1 for glTF/OBJ, FBX UnitScaleFactor/100).
  float unitScale = 0.0f;
  /// One object of the file (the name of its node: Blender's object name) read alone, in its
  /// own frame (its vertices under the part of its transform its scene node cannot hold, see
  /// mesh_objects.h), without its children; empty: the whole file flattened in the scene frame.
  std::string object;
};

/// The up axis as the scene's mesh component and `floptle import --up` spell it: "auto", "y",
/// "z". The one mapping between the words and the enum.
std::string_view upAxisName(ImportOptions::UpAxis axis);
/// The up axis a word names, or nothing for any other word.
std::optional<ImportOptions::UpAxis> parseUpAxis(std::string_view name);

/// Progress of a long import: fraction done in [0, 1] and the stage in words.
using ImportProgress = std::function<void(float fraction, std::string_view stage)>;

/// Reads `path`. Faces in Assimp's own default material (no slot in the file) get
/// kNoMaterialSlot. Errors (where = the path): missing or unreadable file, a format Assimp
/// refuses, no object named options.object, a file (or that object) with no triangles,
/// non-finite coordinates, more than 65535 material slots, a cancelled import. `cancel` (may
/// be null) is polled between meshes; setting it makes the call return an error soon, with
/// nothing half-built escaping.
Expected<TriangleMesh> importMesh(const std::filesystem::path& path,
                                  const ImportOptions& options = {},
                                  const ImportProgress& progress = {},
                                  const std::atomic<bool>* cancel = nullptr);

}  // namespace floptle::asset
