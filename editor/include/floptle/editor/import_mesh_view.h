#pragma once
// ImportedMeshView: draws every node's "mesh" component in the viewport as an overlay mesh
// layer ("mesh:<node>"), with its materials (per-triangle material slot -> the node's
// mesh.materials[slot] -> that scene material's colour; a slot with no scene material keeps the
// file's base colour), placed by the node's world transform. The raster mesh writes depth and
// is tested against the raymarched depth, so mesh and fields hide each other.
//
// Files load on a worker thread through the editor's mesh collider cache (the component's
// up_axis/unit_scale, the identity transform: the node as an import writes it, so the first
// Play of an unmoved node finds its triangle collider there), kept here by absolute path and
// options; a moved node only changes the layer's transform (no re-upload). A file that fails
// to load logs one message and draws nothing.
//
// Live reload: every file a loaded mesh was read from (TriangleMesh::sourceFiles: the mesh
// file, an OBJ's .mtl, a glTF's .bin) is watched. When one changes on disk (a re-export from
// Blender), the mesh is read again in the background and swapped in when it is ready; the old
// one stays drawn meanwhile, and a failed read keeps it and says why. Changes within
// kReloadSettleMs are taken as one (an exporter writes the .gltf and then the .bin). A file
// that was missing is looked for again when its folder changes. Play and the collider overlay
// pick the new file up by themselves (the physics mesh cache checks the same files).
//
// pick() answers a viewport click against the drawn meshes (exact ray vs triangles through a
// physics TriMeshCollider per file: the cache's collider the mesh was loaded with, or for a
// mesh handed over by prime() one built on the first pick and kept with the mesh).
#include <QObject>
#include <QSet>
#include <QString>
#include <QTimer>

#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "floptle/core/asset/mesh_import.h"
#include "floptle/core/asset/triangle_mesh.h"
#include "floptle/editor/raymarch_view.h"
#include "floptle/editor/scene_picker.h"

namespace floptle::physics {
class MeshColliderCache;
class TriMeshCollider;
}  // namespace floptle::physics

template <class T>
class QFutureWatcher;
class QFileSystemWatcher;

namespace floptle::editor {

class EditorDocument;

class ImportedMeshView : public QObject {
  Q_OBJECT

 public:
  /// Loads through `meshCache` (null: reads the files alone), which must outlive this object.
  ImportedMeshView(EditorDocument& document, RaymarchView& view,
                   physics::MeshColliderCache* meshCache, QObject* parent = nullptr);
  ~ImportedMeshView() override;

  /// Hands over a mesh already in memory (right after an import) so the view need not read
  /// the file again; `cacheKey` as meshCacheKey() makes it.
  void prime(const std::string& cacheKey, asset::TriangleMesh mesh);
  /// Key of a mesh file as loaded: its absolute path and the import options (as its mesh
  /// component records them).
  static std::string meshCacheKey(const std::string& absolutePath,
                                  const asset::ImportOptions& options);

  /// Nearest drawn mesh along `ray` (world, unit direction) within maxDistance (m): its node,
  /// the distance along the ray (m) and the point. Meshes still loading are not hit.
  std::optional<PickHit> pick(const Ray& ray, float maxDistance = 250.0f) const;

  /// Files still loading (-).
  int pendingLoads() const { return int(loading_.size()); }
  /// Meshes read again after their files changed on disk (-).
  int reloads() const { return reloads_; }
  /// How long after a change on disk the mesh is read again, so a burst of writes is one
  /// reload (ms).
  static constexpr int kReloadSettleMs = 250;
  /// Layer name of a node's mesh.
  static QString layerName(const QString& node) { return QStringLiteral("mesh:") + node; }

 signals:
  /// The layers were rebuilt.
  void updated();
  /// A mesh was read again after its files changed on disk (`path`: the mesh file).
  void reloaded(const QString& path);
  /// A drawn mesh's files changed on disk and settled (`path`: the mesh file, absolute), once
  /// per mesh read again: several for a file that several nodes show.
  void sourceChanged(const QString& path);
  void message(const QString& text);

 public slots:
  void sync();

 private:
  struct Load;
  /// What a mesh component asks to be read: the file (absolute) and how.
  struct Source {
    std::string path;
    asset::ImportOptions options;
  };
  /// A component's Source, resolved against the scene's folder; nothing without a file name.
  static std::optional<Source> sourceOf(const nlohmann::ordered_json& component,
                                        const std::filesystem::path& sceneDir);
  void startLoad(const std::string& key, const Source& source);
  /// Watches the files `key` was read from (or, when it could not be read, its folder).
  void watch(const std::string& key, const std::vector<std::filesystem::path>& files);
  /// Watches `path` when it exists and is not watched yet.
  void addWatch(const QString& path);
  void fileChanged(const QString& path);
  void reloadChanged();

  EditorDocument& document_;
  RaymarchView& view_;
  physics::MeshColliderCache* meshCache_ = nullptr;
  std::map<std::string, std::shared_ptr<const asset::TriangleMesh>> meshes_;
  std::map<std::string, QFutureWatcher<std::shared_ptr<Load>>*> loading_;
  /// Keys that failed to load (logged once, not retried until a file or folder they depend on
  /// changes).
  std::map<std::string, bool> failed_;
  /// What each key was loaded from.
  std::map<std::string, Source> sources_;
  QFileSystemWatcher* watcher_ = nullptr;
  /// Watched file or folder -> the keys read from it (or missing in it).
  std::map<QString, std::set<std::string>> watchedBy_;
  /// Keys whose files changed, reloaded when settleTimer_ fires.
  std::set<std::string> changed_;
  QTimer settleTimer_;
  int reloads_ = 0;
  /// Per shown layer: the mesh key and colours it was uploaded with (upload only on change).
  std::map<QString, std::string> shownSignature_;
  struct ShownMesh {
    std::string key;       ///< into meshes_
    Mat4 transform{1.0f};  ///< node local -> world
  };
  /// Per node drawn (node name, sorted: picks are deterministic): what pick() casts against.
  std::map<std::string, ShownMesh> shownMeshes_;
  /// Ray colliders of the meshes (local space), by mesh key, built on the first pick.
  mutable std::map<std::string, std::shared_ptr<const physics::TriMeshCollider>> pickColliders_;
};

}  // namespace floptle::editor
