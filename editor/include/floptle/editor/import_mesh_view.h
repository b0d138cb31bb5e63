#pragma once
// ImportedMeshView: draws every node's "mesh" component in the viewport as an overlay mesh
// layer ("mesh:<node>"), with its materials (per-triangle material slot -> the node's
// mesh.materials[slot] -> that scene material's colour; a slot with no scene material keeps the
// file's base colour), placed by the node's world transform. The raster mesh writes depth and
// is tested against the raymarched depth, so mesh and fields hide each other.
//
// Files load on a worker thread (asset::importMesh with the component's up_axis/unit_scale),
// cached by absolute path and options; a moved node only changes the layer's transform (no
// re-upload). A file that fails to load logs one message and draws nothing.
//
// pick() answers a viewport click against the drawn meshes (exact ray vs triangles through a
// physics TriMeshCollider per file, built on the first pick and kept with the mesh).
#include <QObject>
#include <QSet>
#include <QString>

#include <map>
#include <memory>
#include <string>

#include "floptle/core/asset/mesh_import.h"
#include "floptle/core/asset/triangle_mesh.h"
#include "floptle/editor/raymarch_view.h"
#include "floptle/editor/scene_picker.h"

namespace floptle::physics {
class TriMeshCollider;
}

template <class T>
class QFutureWatcher;

namespace floptle::editor {

class EditorDocument;

class ImportedMeshView : public QObject {
  Q_OBJECT

 public:
  ImportedMeshView(EditorDocument& document, RaymarchView& view, QObject* parent = nullptr);
  ~ImportedMeshView() override;

  /// Hands over a mesh already in memory (right after an import) so the view need not read
  /// the file again; `cacheKey` as meshCacheKey() makes it.
  void prime(const std::string& cacheKey, asset::TriangleMesh mesh);
  /// Key of a mesh component's file as loaded: absolute path + import options.
  static std::string meshCacheKey(const std::string& absolutePath, const std::string& upAxis, double unitScale);

  /// Nearest drawn mesh along `ray` (world, unit direction) within maxDistance (m): its node,
  /// the distance along the ray (m) and the point. Meshes still loading are not hit.
  std::optional<PickHit> pick(const Ray& ray, float maxDistance = 250.0f) const;

  /// Files still loading (-).
  int pendingLoads() const { return int(loading_.size()); }
  /// Layer name of a node's mesh.
  static QString layerName(const QString& node) { return QStringLiteral("mesh:") + node; }

 signals:
  /// The layers were rebuilt.
  void updated();
  void message(const QString& text);

 public slots:
  void sync();

 private:
  struct Load;
  void startLoad(const std::string& key, const std::string& path, const std::string& upAxis, double unitScale);

  EditorDocument& document_;
  RaymarchView& view_;
  std::map<std::string, std::shared_ptr<const asset::TriangleMesh>> meshes_;
  std::map<std::string, QFutureWatcher<std::shared_ptr<Load>>*> loading_;
  /// Keys that failed to load (logged once, not retried until the component changes).
  std::map<std::string, bool> failed_;
  /// Per shown layer: the mesh key and colours it was uploaded with (upload only on change).
  std::map<QString, std::string> shownSignature_;
  struct ShownMesh {
    std::string key;  ///< into meshes_
    Mat4 transform{1.0f};  ///< node local -> world
  };
  /// Per node drawn (node name, sorted: picks are deterministic): what pick() casts against.
  std::map<std::string, ShownMesh> shownMeshes_;
  /// Ray colliders of the meshes (local space), by mesh key, built on the first pick.
  mutable std::map<std::string, std::shared_ptr<const physics::TriMeshCollider>> pickColliders_;
};

}  // namespace floptle::editor
