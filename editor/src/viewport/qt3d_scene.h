#pragma once
// ViewportScene: the viewport's Qt 3D aspect engine, scene root and framegraph on one QWindow
// (Qt 3D's OpenGL renderer, GLSL 330 core). One frame, in framegraph order:
//   1. Raymarch: the field shader's coarse pass, then its full pass, into offscreen colour +
//      depth textures, in their lower-left `scale` fraction (adaptive resolution); left out of
//      the extra frame that hands a read-back over (that one composites the last march). With
//      RaymarchStage::Compute both passes are compute dispatches (render::computeShaderOf)
//      writing images, each followed by a memory barrier; with RaymarchStage::Fragment they
//      are full-screen draws into render targets, writing gl_FragDepth.
//   2. Composite: that region onto the window, colour upscaled, depth written, so everything
//      after depth-tests against the field.
//   3. Overlay meshes (depth test + write: they and the field hide each other).
//   4. Lines: grid + selection (tested), the selection's hidden part (faint), tested named
//      layers, on-top named layers, the gizmo; blended, no depth write.
//   5. A QRenderCapture leaf that reads the finished window back (the whole image, or one
//      texel, which makes the frame's GPU work finish before drawFrame returns).
// Each framegraph leaf draws the render passes keyed with its ViewportPass (a QRenderPassFilter
// on the "floptlePass" key). Qt 3D runs by hand (QAspectEngine::Manual): a frame is drawn when
// drawFrame asks, so an idle viewport renders nothing.
#include <QImage>
#include <QMatrix4x4>
#include <QSize>
#include <QString>
#include <QVariant>
#include <QVector3D>

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

class QWindow;
namespace Qt3DCore {
class QAspectEngine;
class QEntity;
class QNode;
}  // namespace Qt3DCore
namespace Qt3DRender {
class QDispatchCompute;
class QEffect;
class QGeometryRenderer;
class QMaterial;
class QParameter;
class QRenderCapture;
class QRenderPass;
class QRenderTarget;
class QRenderTargetSelector;
class QShaderProgram;
class QSubtreeEnabler;
class QViewport;
}  // namespace Qt3DRender

namespace floptle::editor {

enum class ViewportPass {
  Raymarch,
  Composite,
  Mesh,
  GridSelection,
  SelectionHidden,
  TestedLines,
  OnTopLines,
  Gizmo,
  /// The raymarch's coarse pass (render::kCoarsePassDefine), before Raymarch.
  Coarse,
};
inline constexpr int kViewportPassCount = 9;

/// How the raymarch runs. Compute, where the context has OpenGL 4.3: a data-centre GPU runs
/// fragment shaders on a slice of its multiprocessors and the compute twin on all of them, and
/// elsewhere the two cost the same. Fragment otherwise.
enum class RaymarchStage { Fragment, Compute };

/// Selects Qt 3D's OpenGL renderer (GLSL 330 core) unless QT3D_RENDERER is already set; must
/// run before the first render aspect exists (RaymarchView calls it in its constructor).
void selectQt3dOpenGlRenderer();

/// An effect of one technique (OpenGL 3.3, renderingStyle=forward) and one render pass,
/// drawn by the framegraph leaf of `pass`.
Qt3DRender::QEffect* makeEffect(const std::string& vertex, const std::string& fragment,
                                ViewportPass pass, Qt3DCore::QNode* parent);

/// Sets (creates on first use) a named parameter of a material or effect.
void setParameter(std::map<QString, Qt3DRender::QParameter*>& parameters, Qt3DCore::QNode* owner,
                  const QString& name, const QVariant& value);

class SceneDataTexture;

class ViewportScene {
 public:
  ViewportScene(QWindow* window, RaymarchStage stage);
  ~ViewportScene();
  ViewportScene(const ViewportScene&) = delete;
  ViewportScene& operator=(const ViewportScene&) = delete;

  Qt3DCore::QEntity* root() const { return root_; }
  RaymarchStage stage() const { return stage_; }
  /// The line effect drawn by the leaf of `pass` (a line pass: GridSelection .. Gizmo).
  Qt3DRender::QEffect* lineEffect(ViewportPass pass) const {
    return lineEffects_[std::size_t(pass)];
  }
  Qt3DRender::QEffect* meshEffect() const { return meshEffect_; }

  /// Replaces the raymarch fragment shader (the caller checked that it compiles, or its compute
  /// twin with RaymarchStage::Compute): it runs in two passes, render::withDefine(fragment,
  /// kCoarsePassDefine) into the coarse target, then with kCoarseInputDefine into the raymarch
  /// target.
  void setRaymarchShader(const std::string& fragment);
  bool hasRaymarchShader() const { return raymarchProgram_ != nullptr; }
  /// True when every program a frame with these overlays draws has been through a finished
  /// frame. Qt 3D compiles a new program during the first frame that needs it and draws that
  /// frame without the program's entities (QShaderProgram::status() does not tell, it stays
  /// NotReady on the frontend in Qt 6.4), so such a frame is drawn again.
  /// Also remembers what the frame about to be drawn draws.
  bool programsSettled(bool lines, bool meshes);
  /// The frame asked for last finished: its programs are compiled from now on.
  void noteFrameFinished();
  /// Replaces the raymarch's scene texture `u_sceneData` (render::SceneBuffers: 4 floats a
  /// texel, width x height). Same size: one upload; a new size: a new texture.
  void setSceneData(const std::vector<float>& texels, int width, int height);
  /// Scene texture uploads so far (a test counts them against shader compiles).
  std::uint64_t sceneDataUploads() const { return sceneDataUploads_; }
  /// Sets a raymarch uniform; values outlive shader changes.
  void setRaymarchUniform(const QString& name, const QVariant& value);
  /// Window size (device pixels) and the raymarch's fraction of it (0.05..1).
  void setFrame(QSize size, float scale);
  /// The overlays' camera: world -> clip, and the eye (m).
  void setViewProjection(const QMatrix4x4& viewProj, const QVector3D& eye);
  /// Draws a frame now, the field raymarched anew, and returns when it is drawn: with
  /// `readBack`, the window's image (empty if Qt 3D gave none); else an empty image.
  QImage drawFrame(bool readBack);

 private:
  void buildFrameGraph(QWindow* window);
  void buildFullscreenEntities();
  void makeTarget(QSize size);
  void makeImages(QSize size);

  RaymarchStage stage_;
  std::unique_ptr<Qt3DCore::QAspectEngine> engine_;
  Qt3DCore::QEntity* root_ = nullptr;
  Qt3DRender::QViewport* raymarchViewport_ = nullptr;
  Qt3DRender::QRenderCapture* capture_ = nullptr;
  Qt3DRender::QRenderTargetSelector* targetSelector_ = nullptr;
  Qt3DRender::QSubtreeEnabler* marchOnce_ = nullptr;  ///< single shot over the raymarch branch
  Qt3DRender::QRenderTarget* target_ = nullptr;  ///< the raymarch's colour + depth, window-sized
  Qt3DRender::QRenderTargetSelector* coarseSelector_ = nullptr;
  Qt3DRender::QViewport* coarseViewport_ = nullptr;
  /// The coarse pass's R32F target: a texel per render::kCoarseTile pixels of the window.
  Qt3DRender::QRenderTarget* coarseTarget_ = nullptr;
  // RaymarchStage::Compute: the two dispatches and the node that owns the window-sized images
  // (remade on resize).
  Qt3DRender::QDispatchCompute* coarseDispatch_ = nullptr;
  Qt3DRender::QDispatchCompute* raymarchDispatch_ = nullptr;
  Qt3DCore::QNode* images_ = nullptr;
  std::array<Qt3DRender::QEffect*, kViewportPassCount> lineEffects_{};
  Qt3DRender::QEffect* meshEffect_ = nullptr;
  Qt3DCore::QEntity* raymarchEntity_ = nullptr;
  Qt3DRender::QRenderPass* raymarchPass_ = nullptr;
  Qt3DRender::QShaderProgram* raymarchProgram_ = nullptr;
  Qt3DRender::QRenderPass* coarsePass_ = nullptr;
  Qt3DRender::QShaderProgram* coarseProgram_ = nullptr;
  Qt3DRender::QMaterial* raymarchMaterial_ = nullptr;
  Qt3DRender::QMaterial* compositeMaterial_ = nullptr;
  std::map<QString, Qt3DRender::QParameter*> raymarchParameters_;
  std::map<QString, Qt3DRender::QParameter*> compositeParameters_;
  std::array<std::map<QString, Qt3DRender::QParameter*>, kViewportPassCount> lineParameters_;
  std::map<QString, Qt3DRender::QParameter*> meshParameters_;
  SceneDataTexture* sceneData_ = nullptr;
  std::uint64_t sceneDataUploads_ = 0;
  QSize size_;
  // Programs Qt 3D compiled in a finished frame (see programsSettled).
  bool raymarchCompiled_ = false;
  bool fullscreenCompiled_ = false;
  bool linesCompiled_ = false;
  bool meshesCompiled_ = false;
  bool linesInFlight_ = false;
  bool meshesInFlight_ = false;
};

}  // namespace floptle::editor
