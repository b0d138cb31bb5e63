#pragma once
// The viewport's raster overlays as Qt 3D entities: a LineEntity or MeshEntity owns one vertex
// buffer, re-uploaded only when its contents are set; OverlayEntities keeps the built-in
// overlays (grid, selection, gizmo) and one entity per named layer of OverlayLayers in step
// with the CPU side, uploading a named layer only when its version changed.
#include <QString>

#include <cstdint>
#include <map>
#include <memory>
#include <vector>

#include "floptle/editor/raymarch_view.h"
#include "viewport/overlay_layers.h"
#include "viewport/qt3d_scene.h"

namespace Qt3DCore {
class QAttribute;
class QBuffer;
class QEntity;
}  // namespace Qt3DCore
namespace Qt3DRender {
class QGeometryRenderer;
class QMaterial;
class QParameter;
}  // namespace Qt3DRender

namespace floptle::editor {

/// World-space coloured lines drawn in one pass with a fixed pull towards the eye and alpha.
class LineEntity {
 public:
  /// `fade` (m): alpha 1 up to fade.x from the eye, 0 from fade.y on; fade.y <= 0: no fade.
  LineEntity(ViewportScene& scene, ViewportPass pass, float pull, float alpha, Vec2 fade = {});
  ~LineEntity();
  LineEntity(const LineEntity&) = delete;
  LineEntity& operator=(const LineEntity&) = delete;
  /// Uploads the lines (replaces the buffer's contents).
  void setLines(const std::vector<OverlayLine>& lines);
  /// Drawn when visible and not empty.
  void setVisible(bool visible);
  bool drawn() const { return visible_ && vertexCount_ > 0; }

 private:
  Qt3DCore::QEntity* entity_ = nullptr;
  Qt3DCore::QBuffer* buffer_ = nullptr;
  Qt3DCore::QAttribute* position_ = nullptr;
  Qt3DCore::QAttribute* color_ = nullptr;
  Qt3DRender::QGeometryRenderer* renderer_ = nullptr;
  int vertexCount_ = 0;
  bool visible_ = true;
};

/// Flat-shaded triangles (mesh pass), placed by a transform uniform (moves without upload).
class MeshEntity {
 public:
  explicit MeshEntity(ViewportScene& scene);
  ~MeshEntity();
  MeshEntity(const MeshEntity&) = delete;
  MeshEntity& operator=(const MeshEntity&) = delete;
  void setMesh(const OverlayMesh& mesh);
  void setTransform(const Mat4& transform);
  void setVisible(bool visible);
  bool drawn() const { return visible_ && vertexCount_ > 0; }

 private:
  Qt3DCore::QEntity* entity_ = nullptr;
  Qt3DCore::QBuffer* buffer_ = nullptr;
  std::vector<Qt3DCore::QAttribute*> attributes_;
  Qt3DRender::QGeometryRenderer* renderer_ = nullptr;
  Qt3DRender::QParameter* model_ = nullptr;
  int vertexCount_ = 0;
  bool visible_ = true;
};

/// What the overlays show this frame (the built-in ones are rebuilt by the caller).
struct OverlayFrame {
  bool visible = true;
  bool grid = true;
  std::vector<OverlayLine> selection;
  std::vector<OverlayLine> gizmo;
  const OverlayLayers* layers = nullptr;
};

class OverlayEntities {
 public:
  explicit OverlayEntities(ViewportScene& scene);
  ~OverlayEntities();
  /// What a frame draws: any line entity, any mesh entity.
  struct Shown {
    bool lines = false;
    bool meshes = false;
  };
  /// Brings the entities in step with `frame`; uploads only what changed.
  Shown sync(const OverlayFrame& frame);

 private:
  struct NamedLines {
    std::unique_ptr<LineEntity> entity;
    OverlayDepth depth = OverlayDepth::Tested;
    std::uint64_t version = 0;
  };
  struct NamedMesh {
    std::unique_ptr<MeshEntity> entity;
    std::uint64_t version = 0;
  };

  ViewportScene& scene_;
  std::unique_ptr<LineEntity> grid_;       ///< 1 m lines: fade out early (they alias far off)
  std::unique_ptr<LineEntity> gridMajor_;  ///< 10 m lines and the axes: fade out further
  std::unique_ptr<LineEntity> selection_;
  std::unique_ptr<LineEntity> selectionHidden_;
  std::unique_ptr<LineEntity> gizmo_;
  std::vector<OverlayLine> shownSelection_;
  std::vector<OverlayLine> shownGizmo_;
  std::map<QString, NamedLines> lines_;
  std::map<QString, NamedMesh> meshes_;
};

}  // namespace floptle::editor
