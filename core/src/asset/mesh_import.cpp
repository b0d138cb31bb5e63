// importMesh: Assimp scene -> one flattened TriangleMesh (see mesh_import.h for axes/units).
#include "floptle/core/asset/mesh_import.h"
#include "floptle/core/file_path.h"

#include <assimp/DefaultIOSystem.h>
#include <assimp/Importer.hpp>
#include <assimp/ProgressHandler.hpp>
#include <assimp/config.h>
#include <assimp/material.h>
#include <assimp/metadata.h>
#include <assimp/postprocess.h>
#include <assimp/scene.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <system_error>

namespace floptle::asset {
namespace {

/// Forwards Assimp's read progress (first half of the work) and polls the cancel flag.
class ProgressBridge final : public Assimp::ProgressHandler {
 public:
  ProgressBridge(const ImportProgress& progress, const std::atomic<bool>* cancel)
      : progress_(progress), cancel_(cancel) {}
  bool Update(float percentage) override {
    if (progress_ && percentage >= 0.0f) progress_(0.5f * std::clamp(percentage, 0.0f, 1.0f), "reading");
    return !(cancel_ && cancel_->load(std::memory_order_relaxed));
  }

 private:
  const ImportProgress& progress_;
  const std::atomic<bool>* cancel_;
};

std::string lowerExtension(const std::filesystem::path& path) {
  std::string ext = path.extension().string();
  for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return ext;
}

bool readMetaNumber(const aiMetadata* meta, const char* key, double& out) {
  if (!meta) return false;
  for (unsigned i = 0; i < meta->mNumProperties; ++i) {
    if (std::string_view(meta->mKeys[i].C_Str()) != key) continue;
    const aiMetadataEntry& e = meta->mValues[i];
    switch (e.mType) {
      case AI_INT32: out = *static_cast<const int32_t*>(e.mData); return true;
      case AI_UINT64: out = static_cast<double>(*static_cast<const uint64_t*>(e.mData)); return true;
      case AI_FLOAT: out = *static_cast<const float*>(e.mData); return true;
      case AI_DOUBLE: out = *static_cast<const double*>(e.mData); return true;
      default: return false;
    }
  }
  return false;
}

/// The file -> scene frame matrix (axes and unit scale), from the options and the format.
aiMatrix4x4 sceneFrame(const aiScene& scene, const std::string& ext, const ImportOptions& options) {
  // rows of the 3x3 part: scene X, Y, Z as (file axis index, sign).
  int axis[3] = {0, 1, 2};
  double sign[3] = {1, 1, 1};
  double scale = 1.0;
  if (ext == ".fbx") {
    double up = 1, upSign = 1, front = 2, frontSign = 1, coord = 0, coordSign = 1, unit = 100;
    readMetaNumber(scene.mMetaData, "UpAxis", up);
    readMetaNumber(scene.mMetaData, "UpAxisSign", upSign);
    readMetaNumber(scene.mMetaData, "FrontAxis", front);
    readMetaNumber(scene.mMetaData, "FrontAxisSign", frontSign);
    readMetaNumber(scene.mMetaData, "CoordAxis", coord);
    readMetaNumber(scene.mMetaData, "CoordAxisSign", coordSign);
    readMetaNumber(scene.mMetaData, "UnitScaleFactor", unit);
    const int c = static_cast<int>(coord), u = static_cast<int>(up), f = static_cast<int>(front);
    // Only a proper permutation of the three axes is trusted; anything else keeps identity.
    if (c >= 0 && c < 3 && u >= 0 && u < 3 && f >= 0 && f < 3 && c != u && u != f && c != f) {
      axis[0] = c, axis[1] = u, axis[2] = f;
      sign[0] = coordSign < 0 ? -1 : 1, sign[1] = upSign < 0 ? -1 : 1, sign[2] = frontSign < 0 ? -1 : 1;
    }
    if (std::isfinite(unit) && unit > 0) scale = unit / 100.0;
  }
  if (options.upAxis == ImportOptions::UpAxis::Y) {
    axis[0] = 0, axis[1] = 1, axis[2] = 2, sign[0] = sign[1] = sign[2] = 1;
  } else if (options.upAxis == ImportOptions::UpAxis::Z) {
    // (x, y, z) -> (x, z, -y): a -90 degree turn about X, Blender's Z-up to Y-up.
    axis[0] = 0, axis[1] = 2, axis[2] = 1, sign[0] = 1, sign[1] = 1, sign[2] = -1;
  }
  if (options.unitScale > 0.0f) scale = options.unitScale;
  aiMatrix4x4 m;  // identity
  for (int row = 0; row < 3; ++row)
    for (int col = 0; col < 3; ++col)
      m[row][col] = (col == axis[row]) ? static_cast<ai_real>(sign[row] * scale) : ai_real(0);
  return m;
}

MaterialSlot slotOf(const aiMaterial& material, unsigned index) {
  MaterialSlot slot;
  aiString name;
  if (material.Get(AI_MATKEY_NAME, name) == AI_SUCCESS && name.length > 0) slot.name = name.C_Str();
  if (slot.name.empty()) slot.name = "slot" + std::to_string(index);
  aiColor4D color;
  if (material.Get(AI_MATKEY_BASE_COLOR, color) == AI_SUCCESS ||
      material.Get(AI_MATKEY_COLOR_DIFFUSE, color) == AI_SUCCESS) {
    slot.baseColor = glm::clamp(Vec4(color.r, color.g, color.b, color.a), Vec4(0.0f), Vec4(1.0f));
  }
  return slot;
}

struct Flattener {
  const aiScene& scene;
  TriangleMesh& mesh;
  std::map<unsigned, std::uint16_t> slotOfMaterial;  // Assimp material index -> our slot
  bool tooManySlots = false;

  void visit(const aiNode& node, const aiMatrix4x4& parent) {
    const aiMatrix4x4 world = parent * node.mTransformation;
    const bool mirrored = world.Determinant() < 0;  // a mirroring transform flips winding
    for (unsigned i = 0; i < node.mNumMeshes; ++i) addMesh(*scene.mMeshes[node.mMeshes[i]], world, mirrored);
    for (unsigned i = 0; i < node.mNumChildren; ++i) visit(*node.mChildren[i], world);
  }

  void addMesh(const aiMesh& m, const aiMatrix4x4& world, bool mirrored) {
    if (!(m.mPrimitiveTypes & aiPrimitiveType_TRIANGLE)) return;
    auto found = slotOfMaterial.find(m.mMaterialIndex);
    std::uint16_t slot = 0;
    bool slotKnown = found != slotOfMaterial.end();
    if (slotKnown) slot = found->second;
    const auto base = static_cast<std::uint32_t>(mesh.positions.size());
    bool anyTriangle = false;
    for (unsigned f = 0; f < m.mNumFaces; ++f) {
      const aiFace& face = m.mFaces[f];
      if (face.mNumIndices != 3) continue;
      if (!slotKnown) {
        if (mesh.materialSlots.size() >= 65535) { tooManySlots = true; return; }
        slot = static_cast<std::uint16_t>(mesh.materialSlots.size());
        const aiMaterial* material = m.mMaterialIndex < scene.mNumMaterials ? scene.mMaterials[m.mMaterialIndex] : nullptr;
        mesh.materialSlots.push_back(material ? slotOf(*material, m.mMaterialIndex) : MaterialSlot{"slot" + std::to_string(m.mMaterialIndex), {}});
        slotOfMaterial[m.mMaterialIndex] = slot;
        slotKnown = true;
      }
      std::array<std::uint32_t, 3> tri{base + face.mIndices[0], base + face.mIndices[1], base + face.mIndices[2]};
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

/// Assimp's own file access, noting every file it opens: an OBJ's .mtl and a glTF's .bin are
/// part of the mesh as much as the file named, and a cache of what was built from it must know
/// them to notice an edit.
class RecordingIOSystem : public Assimp::DefaultIOSystem {
 public:
  explicit RecordingIOSystem(std::vector<std::filesystem::path>& opened) : opened_(opened) {}
  Assimp::IOStream* Open(const char* file, const char* mode) override {
    Assimp::IOStream* stream = DefaultIOSystem::Open(file, mode);
    if (stream) {
      std::filesystem::path path = absoluteNormal(file);
      if (std::find(opened_.begin(), opened_.end(), path) == opened_.end()) opened_.push_back(std::move(path));
    }
    return stream;
  }

 private:
  std::vector<std::filesystem::path>& opened_;
};

}  // namespace

std::string_view upAxisName(ImportOptions::UpAxis axis) {
  switch (axis) {
    case ImportOptions::UpAxis::Y: return "y";
    case ImportOptions::UpAxis::Z: return "z";
    case ImportOptions::UpAxis::Automatic: break;
  }
  return "auto";
}

std::optional<ImportOptions::UpAxis> parseUpAxis(std::string_view name) {
  for (auto axis : {ImportOptions::UpAxis::Automatic, ImportOptions::UpAxis::Y, ImportOptions::UpAxis::Z})
    if (upAxisName(axis) == name) return axis;
  return std::nullopt;
}

Expected<TriangleMesh> importMesh(const std::filesystem::path& path, const ImportOptions& options,
                                  const ImportProgress& progress, const std::atomic<bool>* cancel) {
  const std::string where = path.string();
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec))
    return Error{where, std::filesystem::exists(path, ec) ? "not a regular file" : "file not found"};
  if (std::filesystem::file_size(path, ec) == 0 || ec) return Error{where, "the file is empty"};
  const std::string ext = lowerExtension(path);
  if (ext != ".gltf" && ext != ".glb" && ext != ".obj" && ext != ".fbx")
    return Error{where, "unsupported mesh format '" + ext + "' (use .glb, .gltf, .obj or .fbx)"};

  std::vector<std::filesystem::path> opened;
  Assimp::Importer importer;
  importer.SetIOHandler(new RecordingIOSystem(opened));  // the importer owns it
  importer.SetPropertyInteger(AI_CONFIG_PP_SBP_REMOVE, aiPrimitiveType_POINT | aiPrimitiveType_LINE);
  importer.SetProgressHandler(new ProgressBridge(progress, cancel));  // the importer owns it
  const aiScene* scene = importer.ReadFile(
      path.string(), aiProcess_Triangulate | aiProcess_JoinIdenticalVertices | aiProcess_SortByPType);
  if (cancel && cancel->load()) return Error{where, "import cancelled"};
  if (!scene || !scene->mRootNode) {
    std::string why = importer.GetErrorString();
    return Error{where, "cannot read mesh: " + (why.empty() ? std::string("unknown Assimp error") : why)};
  }
  if (progress) progress(0.5f, "flattening");

  TriangleMesh mesh;
  // The file named first (Assimp may open it more than once, or others before it).
  const std::filesystem::path named = absoluteNormal(path);
  mesh.sourceFiles.push_back(named);
  for (auto& file : opened)
    if (file != named) mesh.sourceFiles.push_back(std::move(file));
  Flattener flattener{*scene, mesh, {}};
  flattener.visit(*scene->mRootNode, sceneFrame(*scene, ext, options));
  if (flattener.tooManySlots) return Error{where, "more than 65535 material slots"};
  if (cancel && cancel->load()) return Error{where, "import cancelled"};
  if (mesh.triangles.empty()) return Error{where, "the file contains no triangles"};
  for (std::size_t i = 0; i < mesh.positions.size(); ++i)
    if (!isFinite(mesh.positions[i]))
      return Error{where, "vertex " + std::to_string(i) + " has a non-finite coordinate"};
  if (progress) progress(1.0f, "done");
  return mesh;
}

}  // namespace floptle::asset
