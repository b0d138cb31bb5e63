#pragma once
// The viewport's GL passes (the context must be current for every call):
//   1. raymarch the field into an offscreen colour + depth target, in its lower-left
//      `scale` fraction (adaptive resolution);
//   2. composite that region onto the widget's framebuffer, colour upscaled bilinearly and
//      depth written through gl_FragDepth, so the overlays depth-test against the field;
//   3. overlay meshes (depth test + write: they and the field hide each other);
//   4. overlays as lines: ground grid, selection boxes (dimmed where hidden), the named line
//      layers (depth-tested ones, then on-top ones), gizmo on top.
#include <QOpenGLExtraFunctions>
#include <QOpenGLShaderProgram>
#include <QOpenGLVertexArrayObject>
#include <QString>

#include <memory>
#include <string>
#include <vector>

#include "floptle/core/render/camera.h"
#include "floptle/core/render/cpu_renderer.h"
#include "viewport/gizmo.h"
#include "viewport/overlay_layers.h"

namespace floptle::editor {

struct ViewportFrame {
  render::Camera camera;
  /// Framebuffer size (device pixels).
  int width = 1;
  int height = 1;
  /// Raymarch resolution as a fraction of the framebuffer (0.1..1).
  float scale = 1.0f;
  double time = 0.0;  ///< (s)
  const std::vector<float>* params = nullptr;
  const render::MaterialColors* materials = nullptr;
  std::vector<OverlayLine> grid;
  std::vector<OverlayLine> selection;
  std::vector<OverlayLine> gizmo;
  /// Named line and mesh layers; null or hidden overlays: none drawn.
  const OverlayLayers* layers = nullptr;
  unsigned targetFramebuffer = 0;
};

class ViewportRenderer : protected QOpenGLExtraFunctions {
 public:
  ViewportRenderer();
  ~ViewportRenderer();
  void initialize();
  /// Frees the GL objects (context current).
  void release();

  /// Compiles a raymarch fragment shader. On success it replaces the shown one and the
  /// result is empty; on failure the shown one stays and the compile/link log is returned.
  QString compileRaymarch(const std::string& fragmentSource);
  bool hasRaymarch() const { return raymarch_ != nullptr; }

  void render(const ViewportFrame& frame);

 private:
  void ensureTarget(int width, int height);
  void drawLines(const std::vector<OverlayLine>& lines, const Mat4& viewProj, Vec3 eye,
                 float pull, float alpha);

  OverlayLayerRenderer layerRenderer_;
  std::unique_ptr<QOpenGLShaderProgram> raymarch_;
  std::unique_ptr<QOpenGLShaderProgram> composite_;
  std::unique_ptr<QOpenGLShaderProgram> lines_;
  QOpenGLVertexArrayObject emptyVao_;
  QOpenGLVertexArrayObject lineVao_;
  unsigned lineBuffer_ = 0;
  unsigned targetFbo_ = 0;
  unsigned colorTexture_ = 0;
  unsigned depthTexture_ = 0;
  int targetWidth_ = 0;
  int targetHeight_ = 0;
};

}  // namespace floptle::editor
