// Reading a file with Assimp, its frame, its slots and its nodes' placement (assimp_scene.h).
#include "assimp_scene.h"

#include <assimp/DefaultIOSystem.h>
#include <assimp/config.h>
#include <assimp/material.h>
#include <assimp/metadata.h>
#include <assimp/postprocess.h>
#include <assimp/ProgressHandler.hpp>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <string_view>
#include <system_error>

#include "fbx_structure.h"
#include "floptle/core/file_path.h"
#include "gltf_structure.h"

namespace floptle::asset::detail {
namespace {

/// Forwards Assimp's read progress (first half of the work) and polls the cancel flag.
class ProgressBridge final : public Assimp::ProgressHandler {
 public:
  ProgressBridge(const ImportProgress& progress, const std::atomic<bool>* cancel)
      : progress_(progress), cancel_(cancel) {}
  bool Update(float percentage) override {
    if (progress_ && percentage >= 0.0f)
      progress_(0.5f * std::clamp(percentage, 0.0f, 1.0f), "reading");
    return !(cancel_ && cancel_->load(std::memory_order_relaxed));
  }

 private:
  const ImportProgress& progress_;
  const std::atomic<bool>* cancel_;
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
      if (std::find(opened_.begin(), opened_.end(), path) == opened_.end())
        opened_.push_back(std::move(path));
    }
    return stream;
  }

 private:
  std::vector<std::filesystem::path>& opened_;
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
      case AI_INT32:
        out = *static_cast<const int32_t*>(e.mData);
        return true;
      case AI_UINT64:
        out = static_cast<double>(*static_cast<const uint64_t*>(e.mData));
        return true;
      case AI_FLOAT:
        out = *static_cast<const float*>(e.mData);
        return true;
      case AI_DOUBLE:
        out = *static_cast<const double*>(e.mData);
        return true;
      default:
        return false;
    }
  }
  return false;
}

aiMatrix4x4 linear4(const aiMatrix3x3& m) {
  return aiMatrix4x4(m);
}

/// parentFrame: the parent's content coordinates -> scene axes; ownFrame: this node's.
void place(const aiNode& node, const aiMatrix4x4& parentFrame, const aiMatrix4x4& ownFrame,
           const aiMatrix4x4& objects, const aiMatrix3x3& parentResidual,
           std::map<const aiNode*, NodePlacement>& out) {
  aiMatrix4x4 ownInverse = ownFrame;
  ownInverse.Inverse();
  // The node's transform in scene axes, under what its parent's node could not hold.
  const aiMatrix4x4 m = linear4(parentResidual) * parentFrame * node.mTransformation * ownInverse;
  aiVector3D scaling, position;
  aiQuaternion rotation;
  m.Decompose(scaling, rotation, position);
  rotation.Normalize();
  NodePlacement p;
  p.local.position = Vec3(position.x, position.y, position.z);
  p.local.rotation = Quat(rotation.w, rotation.x, rotation.y, rotation.z);
  const aiMatrix3x3 linear(m);
  const ai_real big = std::max({std::abs(scaling.x), std::abs(scaling.y), std::abs(scaling.z)});
  const bool uniform = scaling.x > 0 && scaling.y > 0 && scaling.z > 0 &&
                       std::abs(scaling.x - scaling.y) <= 1e-5f * big &&
                       std::abs(scaling.y - scaling.z) <= 1e-5f * big;
  if (uniform) {
    p.local.scale = (scaling.x + scaling.y + scaling.z) / 3.0f;
    p.residual = aiMatrix3x3();  // identity
  } else {
    // R^T * linear: what the rotation leaves, carried by the vertices (and the children).
    aiMatrix3x3 r = rotation.GetMatrix();
    p.residual = r.Transpose() * linear;
  }
  p.vertexMap = linear4(p.residual) * ownFrame;
  out[&node] = p;
  for (unsigned i = 0; i < node.mNumChildren; ++i)
    place(*node.mChildren[i], ownFrame, objects, objects, p.residual, out);
}

std::string metaString(const aiMetadata* meta, const char* key) {
  aiString value;
  if (meta && meta->Get(key, value)) return value.C_Str();
  return {};
}

/// See AssimpFile::objObjectsWithoutMaterial.
std::set<std::string> objObjectsWithoutMaterial(const std::filesystem::path& path) {
  std::set<std::string> without;
  std::ifstream in(path);
  std::string line, current;
  bool hasMaterial = true;
  auto close = [&] {
    if (!current.empty() && !hasMaterial) without.insert(current);
  };
  while (std::getline(in, line)) {
    if (line.rfind("o ", 0) == 0) {
      close();
      current = line.substr(2);
      while (!current.empty() && (current.back() == '\r' || current.back() == ' '))
        current.pop_back();
      hasMaterial = false;
    } else if (line.rfind("usemtl ", 0) == 0) {
      hasMaterial = true;
    }
  }
  close();
  return without;
}

}  // namespace

Expected<AssimpFile> readAssimpFile(const std::filesystem::path& path,
                                    const ImportProgress& progress,
                                    const std::atomic<bool>* cancel) {
  const std::string where = path.string();
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec))
    return Error{where,
                 std::filesystem::exists(path, ec) ? "not a regular file" : "file not found"};
  if (std::filesystem::file_size(path, ec) == 0 || ec) return Error{where, "the file is empty"};
  AssimpFile file;
  file.ext = lowerExtension(path);
  if (file.ext != ".gltf" && file.ext != ".glb" && file.ext != ".obj" && file.ext != ".fbx")
    return Error{where,
                 "unsupported mesh format '" + file.ext + "' (use .glb, .gltf, .obj or .fbx)"};

  if (file.ext == ".fbx") {
    // Assimp's FBX reader recurses without bound on some files (fbx_structure.h): those are
    // refused before it sees them.
    std::string bytes(static_cast<std::size_t>(std::filesystem::file_size(path, ec)), '\0');
    if (ec || !std::ifstream(path, std::ios::binary)
                   .read(bytes.data(), static_cast<std::streamsize>(bytes.size())))
      return Error{where, "cannot read the file"};
    if (auto checked = checkFbxStructure(bytes); !checked)
      return Error{where, "not a readable FBX file: " + checked.error().what};
  } else if (file.ext != ".obj") {
    // Assimp's glTF reader reads past its buffers on some files (gltf_structure.h): those are
    // refused before it sees them.
    if (auto checked = checkGltfFile(path, file.ext == ".glb"); !checked)
      return Error{where, "not a readable glTF file: " + checked.error().what};
  }
  std::vector<std::filesystem::path> opened;
  file.importer = std::make_unique<Assimp::Importer>();
  Assimp::Importer& importer = *file.importer;
  importer.SetIOHandler(new RecordingIOSystem(opened));  // the importer owns it
  importer.SetPropertyInteger(AI_CONFIG_PP_SBP_REMOVE,
                              aiPrimitiveType_POINT | aiPrimitiveType_LINE);
  // FBX pivots as helper nodes would stand between an object and its parent: fold them.
  importer.SetPropertyBool(AI_CONFIG_IMPORT_FBX_PRESERVE_PIVOTS, false);
  importer.SetProgressHandler(new ProgressBridge(progress, cancel));  // the importer owns it
  file.scene =
      importer.ReadFile(path.string(), aiProcess_Triangulate | aiProcess_JoinIdenticalVertices |
                                           aiProcess_SortByPType);
  if (cancel && cancel->load()) return Error{where, "import cancelled"};
  if (!file.scene || !file.scene->mRootNode) {
    std::string why = importer.GetErrorString();
    return Error{where,
                 "cannot read mesh: " + (why.empty() ? std::string("unknown Assimp error") : why)};
  }
  // The file named first (Assimp may open it more than once, or others before it).
  const std::filesystem::path named = absoluteNormal(path);
  file.sourceFiles.push_back(named);
  for (auto& f : opened)
    if (f != named) file.sourceFiles.push_back(std::move(f));
  file.blenderFbx =
      file.ext == ".fbx" &&
      metaString(file.scene->mMetaData, "SourceAsset_Generator").rfind("Blender", 0) == 0;
  if (file.ext == ".obj") file.objObjectsWithoutMaterial = objObjectsWithoutMaterial(path);
  return file;
}

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
      sign[0] = coordSign < 0 ? -1 : 1, sign[1] = upSign < 0 ? -1 : 1,
      sign[2] = frontSign < 0 ? -1 : 1;
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

std::optional<MaterialSlot> materialSlot(const aiScene& scene, unsigned index,
                                         const std::string& ext) {
  const aiMaterial* material = index < scene.mNumMaterials ? scene.mMaterials[index] : nullptr;
  if (!material) return std::nullopt;
  MaterialSlot slot;
  aiString name;
  if (material->Get(AI_MATKEY_NAME, name) == AI_SUCCESS && name.length > 0)
    slot.name = name.C_Str();
  if (slot.name == AI_DEFAULT_MATERIAL_NAME) return std::nullopt;
  const bool gltf = ext == ".glb" || ext == ".gltf";
  if (slot.name.empty() && gltf && index + 1 == scene.mNumMaterials) return std::nullopt;
  if (slot.name.empty()) slot.name = "slot" + std::to_string(index);
  aiColor4D color;
  if (material->Get(AI_MATKEY_BASE_COLOR, color) == AI_SUCCESS ||
      material->Get(AI_MATKEY_COLOR_DIFFUSE, color) == AI_SUCCESS) {
    slot.baseColor = glm::clamp(Vec4(color.r, color.g, color.b, color.a), Vec4(0.0f), Vec4(1.0f));
  }
  return slot;
}

aiMatrix4x4 objectFrame(const AssimpFile& file, const aiMatrix4x4& frame,
                        const ImportOptions& options) {
  if (!file.blenderFbx || options.upAxis != ImportOptions::UpAxis::Automatic ||
      options.unitScale > 0.0f)
    return frame;
  // (x, y, z) -> (x, z, -y): Blender's +Z up to +Y up, meters kept.
  aiMatrix4x4 m;
  m.a1 = 1, m.b1 = 0, m.c1 = 0;
  m.a2 = 0, m.b2 = 0, m.c2 = -1;
  m.a3 = 0, m.b3 = 1, m.c3 = 0;
  return m;
}

std::map<const aiNode*, NodePlacement> placeNodes(const aiScene& scene, const aiMatrix4x4& frame,
                                                  const aiMatrix4x4& objects) {
  std::map<const aiNode*, NodePlacement> out;
  // The root: its transform and content in the file frame; below it, the objects' frame.
  if (scene.mRootNode) place(*scene.mRootNode, frame, frame, objects, aiMatrix3x3(), out);
  return out;
}

bool withoutSlot(const AssimpFile& file, const aiNode& node, const aiMesh& mesh) {
  if (file.objObjectsWithoutMaterial.count(node.mName.C_Str())) return true;
  return !materialSlot(*file.scene, mesh.mMaterialIndex, file.ext).has_value();
}

bool isObjectNode(const aiScene& scene, const aiNode& node) {
  if (&node == scene.mRootNode) return node.mNumMeshes > 0 || !node.mTransformation.IsIdentity();
  for (unsigned i = 0; i < scene.mNumCameras; ++i)
    if (scene.mCameras[i]->mName == node.mName) return false;
  for (unsigned i = 0; i < scene.mNumLights; ++i)
    if (scene.mLights[i]->mName == node.mName) return false;
  return true;
}

const aiNode* findNode(const aiNode& root, const std::string& name) {
  if (name == root.mName.C_Str()) return &root;
  for (unsigned i = 0; i < root.mNumChildren; ++i)
    if (const aiNode* found = findNode(*root.mChildren[i], name)) return found;
  return nullptr;
}

}  // namespace floptle::asset::detail
