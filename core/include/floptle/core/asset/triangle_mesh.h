#pragma once
// TriangleMesh: an imported model flattened into one indexed triangle list in the scene's
// frame (+Y up, meters), with one material slot label per triangle.
#include <array>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "floptle/core/math.h"

namespace floptle::asset {

/// The slot of a face the file gave no material (a Blender face in no slot, Assimp's injected
/// default material): it names no MaterialSlot, and a hit on it answers no material.
inline constexpr std::uint16_t kNoMaterialSlot = 0xFFFF;

/// One material slot of a mesh (a Blender material slot, an OBJ `usemtl`, a glTF material).
struct MaterialSlot {
  /// The slot's name as written in the file; never empty (unnamed slots get "slot<N>").
  std::string name;
  /// Base colour, linear RGBA, each 0..1 (OBJ `Kd`, glTF baseColorFactor).
  Vec4 baseColor{0.8f, 0.8f, 0.8f, 1.0f};
};

struct TriangleMesh {
  /// Vertex positions (m), +Y up.
  std::vector<Vec3> positions;
  /// Triangles as three indices into `positions`, counter-clockwise seen from outside.
  std::vector<std::array<std::uint32_t, 3>> triangles;
  /// Material slot of each triangle (index into `materialSlots`, or kNoMaterialSlot); same size
  /// as `triangles`.
  std::vector<std::uint16_t> triangleSlots;
  /// Slots actually used by some triangle, in first-use order of the file's materials.
  std::vector<MaterialSlot> materialSlots;
  /// Every file an import read to build this mesh, as absolute paths: the mesh file first, then
  /// what it refers to (an OBJ's .mtl, a glTF's .bin buffers). Empty for a mesh built in code.
  std::vector<std::filesystem::path> sourceFiles;

  std::size_t triangleCount() const { return triangles.size(); }
  /// Bounds of every vertex (m); empty for an empty mesh.
  Aabb bounds() const {
    Aabb box;
    for (const Vec3& p : positions) box.expand(p);
    return box;
  }
  /// The three corners of triangle i (m).
  std::array<Vec3, 3> corners(std::size_t i) const {
    const auto& t = triangles[i];
    return {positions[t[0]], positions[t[1]], positions[t[2]]};
  }
  /// Applies a rigid transform with uniform scale to every vertex (winding is kept: scale > 0).
  void transform(const Transform& xf) {
    for (Vec3& p : positions) p = xf.applyToPoint(p);
  }
};

}  // namespace floptle::asset
