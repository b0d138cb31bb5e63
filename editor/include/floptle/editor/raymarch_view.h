#pragma once
// RaymarchView: the editor's 3D viewport, rendered with Qt 3D (its OpenGL renderer, in a
// QWindow this widget hosts). Two layers share one depth buffer: a full-screen raymarch of
// the document's field graph (the GLSL twin of render::renderImage, writing gl_FragDepth),
// then rasterized overlays (ground grid, selection boxes, transform gizmo, named line and
// mesh layers). Frames are rendered on demand: an idle viewport draws nothing.
//
// Adaptive resolution: while the camera or a value moves, the raymarch runs at a reduced
// internal resolution chosen from the measured frame time (target ~30 fps, at least 1/10 of
// full size); 250 ms after the last change it renders once at full resolution.
//
// The widget observes; it never edits the document. Clicks become pickRequested(ray) (the
// editor raycasts the field on the CPU, e.g. with render::marchRay) and gizmo drags become
// gizmoDrag* signals the editor turns into one undo command per drag.
#include <QElapsedTimer>
#include <QImage>
#include <QPointF>
#include <QString>
#include <QStringList>
#include <QTimer>
#include <QWidget>

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <vector>

#include "floptle/core/expected.h"
#include "floptle/core/field/field_program.h"
#include "floptle/core/field/union_field.h"
#include "floptle/core/math.h"
#include "floptle/core/render/camera.h"
#include "floptle/core/render/cpu_renderer.h"

class QWindow;

namespace floptle {
class BrickMap;
}
namespace floptle::render {
class BrickAtlas;
struct BrickMapPlacement;
}  // namespace floptle::render

namespace floptle::editor {

enum class GizmoMode { None, Translate, Rotate, Scale };

struct GizmoSnap {
  bool enabled = true;
  /// Translation step (m).
  float translate = 0.25f;
  /// Rotation step (rad), 15 degrees.
  float rotate = 0.2617993878f;
  /// Scale factor step (-).
  float scale = 0.1f;
};

/// A gizmo drag's change since the press, in world space, already snapped. The editor applies
/// it to the selection's transforms as they were at gizmoDragStarted:
///   position' = pivot + rotation * (position - pivot) * scale + translation
///   rotation' = rotation * rotation_start,  scale' = scale * scale_start.
struct GizmoDelta {
  GizmoMode mode = GizmoMode::None;
  /// Dragged handle: 0 = X, 1 = Y, 2 = Z; -1 when none.
  int axis = -1;
  Vec3 pivot{0.0f};        ///< (m)
  Vec3 translation{0.0f};  ///< (m)
  Quat rotation{1.0f, 0.0f, 0.0f, 0.0f};
  float scale = 1.0f;  ///< (-)
};

/// A coloured line segment of an overlay (world space (m); colour RGBA, display-referred).
struct OverlayLine {
  Vec3 a{0.0f};
  Vec3 b{0.0f};
  Vec4 color{1.0f};
};

/// How an overlay layer meets the raymarched field.
enum class OverlayDepth {
  /// Hidden where a field surface (or a mesh layer) is nearer the camera (the default).
  Tested,
  /// Always drawn, on top of everything (like the gizmo).
  OnTop,
};

/// A triangle mesh drawn in the raster layer, depth-tested against the field and writing
/// depth (so mesh and field hide each other). Flat-shaded with the field's sun and sky;
/// `triangleColors` are linear albedos (as render::MaterialColors), one per triangle.
struct OverlayMesh {
  std::vector<Vec3> positions;                          ///< local space (m)
  std::vector<std::array<std::uint32_t, 3>> triangles;  ///< indices into positions
  std::vector<Vec3> triangleColors;                     ///< one per triangle; missing = grey
  Mat4 transform{1.0f};                                 ///< local -> world
};

struct OverlayLayers;
class CameraController;
class Gizmo;
class OverlayEntities;
class ShaderChecker;
class BrickAtlasTextures;
class ViewportScene;

class RaymarchView : public QWidget {
  Q_OBJECT

 public:
  explicit RaymarchView(QWidget* parent = nullptr);
  ~RaymarchView() override;

  // --- the field ---------------------------------------------------------------------------
  /// Shows `program` with the shader emitted for it. Re-emits and recompiles only when its
  /// structureHash differs from the shown one; otherwise only its parameterValues(time()) are
  /// uploaded.
  void setField(const field::FieldProgram& program);
  /// Shows the scene's parts with the scene program (render::viewportFragmentShader(buffers))
  /// reading the scene from a uniform array (small scenes) or a texture (large ones), see
  /// render::packSceneBuffers: a moved node, a new value or a new time uploads data and never
  /// compiles; only a new set of part structures does. A scene over the GPU's limits keeps the
  /// shown image and reports shaderError naming the limit.
  void setSceneField(field::UnionField field);
  /// Rows of scene data the GPU takes: its GL_MAX_TEXTURE_SIZE (render::kLeastMaxTextureSize
  /// without a context to ask). setSceneRowLimit lowers it (a test of the refusal); 0 restores.
  int sceneRowLimit();
  void setSceneRowLimit(int rows) { sceneRowLimitOverride_ = rows; }
  /// The scene field shown (null: none, or a single program set by setField).
  const field::UnionField* sceneField() const { return sceneField_ ? &*sceneField_ : nullptr; }
  /// Programs compiled so far and scene-texture uploads so far (tests count them).
  std::uint64_t shaderCompiles() const { return compileCount_; }
  /// True when the raymarch runs as compute dispatches (RaymarchStage::Compute: the context
  /// has OpenGL 4.3, unless FLOPTLE_VIEWPORT_STAGE=fragment), false for full-screen draws.
  bool raymarchComputes() const;
  std::uint64_t sceneDataUploads() const;

  // --- brick maps (render::BrickAtlas) -----------------------------------------------------
  // Sparse fields drawn with the scene field (setSceneField): baked-field colliders and
  // matter's re-sampled surfaces. The viewport copies a map's bricks into its GPU atlas; the
  // caller keeps the BrickMap (e.g. a soft body re-sampling it each step) and says which top
  // cells it re-sampled, so a frame sends only those bricks. Adding the first map recompiles
  // the scene program once (it gains the atlas sampler); maps come and go as data after that.
  /// Draws `map` placed and coloured by `placement`; returns its id. Refused, naming the limit
  /// (atlas slots, index, number of maps), when it does not fit; `name` says which map.
  Expected<int> addBrickMap(const BrickMap& map, const render::BrickMapPlacement& placement,
                            const std::string& name);
  /// Re-sends the bricks of `changedCells` (top cells; render::cellsSampledInLastRound(map)
  /// after a rebakeNearest). The map must keep the grid it was added with.
  Expected<void> updateBrickMap(int id, const BrickMap& map,
                                std::span<const glm::ivec3> changedCells);
  void setBrickMapPlacement(int id, const render::BrickMapPlacement& placement);
  void removeBrickMap(int id);
  /// The atlas drawn (null before the first map), for a CPU render of the same image.
  const render::BrickAtlas* brickAtlas() const { return brickAtlas_.get(); }
  /// Bricks sent to the GPU so far (a test counts them).
  std::uint64_t brickUploads() const;

  /// Lower level: a map() GLSL source (reading FP(i)) with its structure hash and parameter
  /// values; used by setField, and by tests and tools that bring their own GLSL.
  void setFieldGlsl(const std::string& mapGlsl, std::uint64_t structureHash,
                    std::vector<float> parameterValues);
  /// Field time (s); an animated field's parameters follow it.
  void setTime(double seconds);
  double time() const { return time_; }
  /// Linear albedo per material index (index 0 = no material), as render::renderImage takes.
  void setMaterialColors(const render::MaterialColors& colors);

  /// True once a shader compiled; lastShaderError() is the log of the latest failure, or the
  /// refusal of scene data over the GPU's limits (empty when the latest compile succeeded and
  /// the latest scene data fitted).
  bool hasShader() const;
  QString lastShaderError() const { return lastShaderError_; }

  // --- overlays ------------------------------------------------------------------------------
  /// World boxes of the selected nodes (drawn as outlines, dimmed where hidden); empty clears.
  void setSelectionBounds(const std::vector<Aabb>& boxes);
  /// Shows the gizmo at `pivot` (m); GizmoMode::None hides it.
  void setGizmo(GizmoMode mode, Vec3 pivot);
  GizmoMode gizmoMode() const;
  void setGizmoSnap(const GizmoSnap& snap);
  const GizmoSnap& gizmoSnap() const;
  bool gridVisible() const { return gridVisible_; }
  bool adaptiveResolution() const { return adaptive_; }
  void setGridVisible(bool visible);
  /// All rasterized overlays at once (grid, selection, gizmo, line and mesh layers); off for
  /// image comparisons.
  void setOverlaysVisible(bool visible);

  // --- named overlay layers ----------------------------------------------------------------
  // Any part of the editor can own a named layer ("colliders", "play/trajectory", ...) and
  // replace its contents whenever it likes: each layer keeps its own vertex buffer, uploaded
  // only when the layer changed, so resetting a few thousand lines every frame is cheap.
  // Layers draw in name order after the selection boxes and before the gizmo.
  /// Replaces the lines of `layer` (creates it); an empty vector keeps an empty layer.
  void setOverlayLines(const QString& layer, std::vector<OverlayLine> lines,
                       OverlayDepth depth = OverlayDepth::Tested);
  /// Removes the line layer (no-op when absent).
  void clearOverlayLines(const QString& layer);
  /// Names of the current line layers, sorted.
  QStringList overlayLineLayers() const;
  /// Number of lines in `layer` (0 when absent).
  std::size_t overlayLineCount(const QString& layer) const;
  /// Replaces the mesh of `layer` (creates it). Meshes draw before every line layer.
  void setOverlayMesh(const QString& layer, OverlayMesh mesh);
  /// Moves a mesh layer without re-uploading its triangles (no-op when absent).
  void setOverlayMeshTransform(const QString& layer, const Mat4& transform);
  void clearOverlayMesh(const QString& layer);
  QStringList overlayMeshLayers() const;

  // --- camera --------------------------------------------------------------------------------
  void setCamera(const render::Camera& camera);
  render::Camera camera() const;
  /// Keeps the view direction and backs off so `bounds` fills the view.
  void frameBounds(const Aabb& bounds);
  /// World ray through a widget position (logical pixels, origin top-left).
  Ray rayAt(QPointF widgetPos) const;

  // --- frames --------------------------------------------------------------------------------
  void setAdaptiveResolution(bool enabled);
  /// Internal raymarch resolution of the latest frame as a fraction of full size (0.1..1).
  float lastResolutionScale() const { return lastScale_; }
  /// Duration of the latest frame, GPU work included: from handing it to Qt 3D until its
  /// read-back completed (ms).
  double lastFrameTimeMs() const { return lastFrameMs_; }
  std::uint64_t frameCount() const { return frameCount_; }
  /// Renders a full-resolution frame now and returns it upright (Format_RGBA8888).
  QImage captureImage();

 signals:
  /// A click (press and release within a few pixels, not on the gizmo).
  void clicked(QPointF widgetPos, floptle::Ray ray, Qt::KeyboardModifiers modifiers);
  void pickRequested(floptle::Ray ray);
  void frameTimeChanged(double milliseconds);
  void shaderError(const QString& log);
  void shaderCompiled();
  void cameraChanged();
  void gizmoDragStarted(floptle::editor::GizmoMode mode);
  void gizmoDragged(const floptle::editor::GizmoDelta& delta);
  void gizmoDragFinished(const floptle::editor::GizmoDelta& delta);
  /// Escape during a drag: the editor restores the transforms of gizmoDragStarted.
  void gizmoDragCancelled();

 protected:
  /// update() from outside (or an expose) asks for a frame.
  void paintEvent(QPaintEvent* event) override;
  void resizeEvent(QResizeEvent* event) override;
  /// Mouse, wheel and key events that reach the Qt 3D window go to this widget's handlers.
  bool eventFilter(QObject* watched, QEvent* event) override;
  void mousePressEvent(QMouseEvent* event) override;
  void mouseMoveEvent(QMouseEvent* event) override;
  void mouseReleaseEvent(QMouseEvent* event) override;
  void wheelEvent(QWheelEvent* event) override;
  /// While flying (right mouse button held) the fly keys reach keyPressEvent even where a
  /// window shortcut uses the same letter (W / E tools).
  bool event(QEvent* event) override;
  void keyPressEvent(QKeyEvent* event) override;
  void keyReleaseEvent(QKeyEvent* event) override;

 private:
  struct PendingShader {
    std::string source;
    std::uint64_t hash = 0;
    std::vector<float> params;
    std::optional<field::FieldProgram> program;
  };

  void compilePending();
  /// Packs sceneField_ at time_ into the scene texture (false, with shaderError, on refusal).
  bool uploadSceneData();
  /// Camera or values moved: render at reduced resolution until things are still.
  void noteMotion();
  /// Asks for a frame (coalesced: one frame per event-loop turn).
  void requestFrame();
  /// Pushes the current state into the Qt 3D scene and draws the frame; `full` keeps its
  /// image in lastCapture_. A frame in which Qt 3D compiled a program is drawn again.
  void drawFrame(bool full);
  void flyTick();
  /// Sends the atlas's changed bricks and index, binds the textures.
  void flushBrickMaps();

  // Qt 3D: the hosted window, its scene and overlay entities, the shader pre-check.
  QWindow* window_ = nullptr;
  std::unique_ptr<ViewportScene> scene_;
  std::unique_ptr<OverlayEntities> overlays_;
  std::unique_ptr<ShaderChecker> checker_;
  bool hasShader_ = false;
  bool frameWanted_ = false;
  QImage lastCapture_;
  QElapsedTimer clock_;
  std::unique_ptr<CameraController> cameraController_;
  std::unique_ptr<Gizmo> gizmo_;
  /// Named line and mesh layers (CPU side; the renderer uploads what changed).
  std::unique_ptr<OverlayLayers> layers_;

  // The shown shader's state. `shownProgram_` follows setTime when the field is animated.
  std::optional<PendingShader> pending_;
  std::optional<std::uint64_t> shownHash_;
  std::vector<float> shownParams_;
  std::optional<field::FieldProgram> shownProgram_;
  std::optional<field::UnionField> sceneField_;
  std::unique_ptr<render::BrickAtlas> brickAtlas_;
  std::unique_ptr<BrickAtlasTextures> brickTextures_;
  std::uint64_t compileCount_ = 0;
  /// Scene data handed over as a uniform array (small scenes; the rest go by texture).
  std::uint64_t uniformUploads_ = 0;
  QString lastShaderError_;
  /// True while lastShaderError_ is a refusal of scene data (the next upload that fits clears
  /// it).
  bool sceneDataRefused_ = false;
  int sceneRowLimitOverride_ = 0;

  double time_ = 0.0;  // (s)
  render::MaterialColors materials_;
  std::vector<Aabb> selection_;
  bool gridVisible_ = true;
  bool overlaysVisible_ = true;

  bool adaptive_ = true;
  bool moving_ = false;
  float scale_ = 0.25f;     ///< reduced resolution while moving, adapted per frame (-)
  float lastScale_ = 1.0f;  ///< (-)
  double lastFrameMs_ = 0.0;
  std::uint64_t frameCount_ = 0;
  QTimer refineTimer_;
  QTimer frameTimer_;  ///< zero-interval single shot: coalesces frame requests

  // Mouse and fly state.
  enum class Drag { None, Pending, Orbit, Pan, Look, Gizmo };
  Drag drag_ = Drag::None;
  QPointF pressPos_;
  QPointF lastPos_;
  std::optional<int> hotAxis_;
  std::set<int> flyKeys_;
  QTimer flyTimer_;
};

}  // namespace floptle::editor

Q_DECLARE_METATYPE(floptle::Ray)
Q_DECLARE_METATYPE(floptle::editor::GizmoDelta)
Q_DECLARE_METATYPE(floptle::editor::GizmoMode)
