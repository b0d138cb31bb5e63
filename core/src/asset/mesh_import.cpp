// importMesh: Assimp scene -> one flattened TriangleMesh (see mesh_import.h for axes/units),
// of the whole file or of one object in its own frame.
#include "floptle/core/asset/mesh_import.h"

#include <assimp/scene.h>

#include <map>
#include <string>

#include "assimp_scene.h"

namespace floptle::asset {
namespace {

struct Flattener {
  const detail::AssimpFile& file;
  const aiScene& scene;
  TriangleMesh& mesh;
  std::map<unsigned, std::uint16_t> slotOfMaterial;  // Assimp material index -> our slot
  bool tooManySlots = false;

  /// The whole file: every node's meshes under its world transform.
  void visit(const aiNode& node, const aiMatrix4x4& parent) {
    const aiMatrix4x4 world = parent * node.mTransformation;
    addMeshesOf(node, world);
    for (unsigned i = 0; i < node.mNumChildren; ++i) visit(*node.mChildren[i], world);
  }

  /// One node's own meshes (not its children's) under `toScene`.
  void addMeshesOf(const aiNode& node, const aiMatrix4x4& toScene) {
    const bool mirrored = toScene.Determinant() < 0;  // a mirroring transform flips winding
    for (unsigned i = 0; i < node.mNumMeshes; ++i) {
      const aiMesh& mesh = *scene.mMeshes[node.mMeshes[i]];
      addMesh(mesh, toScene, mirrored, detail::withoutSlot(file, node, mesh));
    }
  }

  std::uint16_t slotFor(unsigned materialIndex, bool withoutSlot) {
    if (withoutSlot) return kNoMaterialSlot;
    if (auto found = slotOfMaterial.find(materialIndex); found != slotOfMaterial.end())
      return found->second;
    std::uint16_t slot = kNoMaterialSlot;
    if (auto named = detail::materialSlot(scene, materialIndex, file.ext)) {
      if (mesh.materialSlots.size() >= kNoMaterialSlot) {
        tooManySlots = true;
        return kNoMaterialSlot;
      }
      slot = static_cast<std::uint16_t>(mesh.materialSlots.size());
      mesh.materialSlots.push_back(std::move(*named));
    }
    slotOfMaterial[materialIndex] = slot;
    return slot;
  }

  void addMesh(const aiMesh& m, const aiMatrix4x4& world, bool mirrored, bool withoutSlot) {
    if (!(m.mPrimitiveTypes & aiPrimitiveType_TRIANGLE)) return;
    const auto base = static_cast<std::uint32_t>(mesh.positions.size());
    bool anyTriangle = false;
    for (unsigned f = 0; f < m.mNumFaces; ++f) {
      const aiFace& face = m.mFaces[f];
      if (face.mNumIndices != 3) continue;
      const std::uint16_t slot = slotFor(m.mMaterialIndex, withoutSlot);
      if (tooManySlots) return;
      std::array<std::uint32_t, 3> tri{base + face.mIndices[0], base + face.mIndices[1],
                                       base + face.mIndices[2]};
      if (mirrored) std::swap(tri[1], tri[2]);
      mesh.triangles.push_back(tri);
      mesh.triangleSlots.push_back(slot);
      anyTriangle = true;
    }
    if (!anyTriangle) return;
    for (unsigned v = 0; v < m.mNumVertices; ++v) {
      const aiVector3D p = world * m.mVertices[v];
      mesh.positions.emplace_back(p.x, p.y, p.z);
    }
  }
};

}  // namespace

std::string_view upAxisName(ImportOptions::UpAxis axis) {
  switch (axis) {
    case ImportOptions::UpAxis::Y:
      return "y";
    case ImportOptions::UpAxis::Z:
      return "z";
    case ImportOptions::UpAxis::Automatic:
      break;
  }
  return "auto";
}

std::optional<ImportOptions::UpAxis> parseUpAxis(std::string_view name) {
  for (auto axis :
       {ImportOptions::UpAxis::Automatic, ImportOptions::UpAxis::Y, ImportOptions::UpAxis::Z})
    if (upAxisName(axis) == name) return axis;
  return std::nullopt;
}

Expected<TriangleMesh> importMesh(const std::filesystem::path& path, const ImportOptions& options,
                                  const ImportProgress& progress, const std::atomic<bool>* cancel) {
  const std::string where = path.string();
  auto file = detail::readAssimpFile(path, progress, cancel);
  if (!file) return file.error();
  const aiScene& scene = *file->scene;
  if (progress) progress(0.5f, "flattening");

  TriangleMesh mesh;
  mesh.sourceFiles = file->sourceFiles;
  Flattener flattener{*file, scene, mesh, {}};
  const aiMatrix4x4 frame = detail::sceneFrame(scene, file->ext, options);
  if (options.object.empty()) {
    flattener.visit(*scene.mRootNode, frame);
  } else {
    const aiNode* node = detail::findNode(*scene.mRootNode, options.object);
    if (!node || !detail::isObjectNode(scene, *node))
      return Error{where, "no object named '" + options.object + "'"};
    const auto placements =
        detail::placeNodes(scene, frame, detail::objectFrame(*file, frame, options));
    flattener.addMeshesOf(*node, placements.at(node).vertexMap);
  }
  if (flattener.tooManySlots) return Error{where, "more than 65534 material slots"};
  if (cancel && cancel->load()) return Error{where, "import cancelled"};
  if (mesh.triangles.empty())
    return Error{where, options.object.empty()
                            ? std::string("the file contains no triangles")
                            : "object '" + options.object + "' has no triangles"};
  for (std::size_t i = 0; i < mesh.positions.size(); ++i)
    if (!isFinite(mesh.positions[i]))
      return Error{where, "vertex " + std::to_string(i) + " has a non-finite coordinate"};
  if (progress) progress(1.0f, "done");
  return mesh;
}

}  // namespace floptle::asset
