#include "viewport/qt3d_scene.h"

#include <QColor>
#include <QVector2D>
#include <QWindow>
#include <Qt3DCore/QAspectEngine>
#include <Qt3DCore/QAttribute>
#include <Qt3DCore/QBuffer>
#include <Qt3DCore/QEntity>
#include <Qt3DCore/QGeometry>
#include <Qt3DRender/QBlendEquation>
#include <Qt3DRender/QBlendEquationArguments>
#include <Qt3DRender/QClearBuffers>
#include <Qt3DRender/QComputeCommand>
#include <Qt3DRender/QCullFace>
#include <Qt3DRender/QDepthTest>
#include <Qt3DRender/QDispatchCompute>
#include <Qt3DRender/QEffect>
#include <Qt3DRender/QFilterKey>
#include <Qt3DRender/QGeometryRenderer>
#include <Qt3DRender/QGraphicsApiFilter>
#include <Qt3DRender/QMaterial>
#include <Qt3DRender/QMemoryBarrier>
#include <Qt3DRender/QNoDepthMask>
#include <Qt3DRender/QNoDraw>
#include <Qt3DRender/QParameter>
#include <Qt3DRender/QRenderAspect>
#include <Qt3DRender/QRenderCapture>
#include <Qt3DRender/QRenderPass>
#include <Qt3DRender/QRenderPassFilter>
#include <Qt3DRender/QRenderSettings>
#include <Qt3DRender/QRenderSurfaceSelector>
#include <Qt3DRender/QRenderTarget>
#include <Qt3DRender/QRenderTargetOutput>
#include <Qt3DRender/QRenderTargetSelector>
#include <Qt3DRender/QShaderImage>
#include <Qt3DRender/QShaderProgram>
#include <Qt3DRender/QSubtreeEnabler>
#include <Qt3DRender/QTechnique>
#include <Qt3DRender/QTechniqueFilter>
#include <Qt3DRender/QTexture>
#include <Qt3DRender/QViewport>

#include <algorithm>
#include <cmath>

#include "floptle/core/render/raymarch_glsl.h"
#include "viewport/scene_data_texture.h"
#include "viewport/viewport_shaders.h"

namespace floptle::editor {

using namespace Qt3DRender;

namespace {

const QString kFilterName = QStringLiteral("renderingStyle");
const QString kFilterValue = QStringLiteral("forward");
/// The render-pass key that routes a material's pass to one framegraph leaf (ViewportPass).
const QString kPassKey = QStringLiteral("floptlePass");

enum class Blend { Off, Alpha };

struct PassStates {
  QDepthTest::DepthFunction depth;
  bool depthWrite;
  Blend blend;
};

/// Each pass's depth function, depth write and blending. LessOrEqual for the full-screen
/// passes against the cleared 1.0, not Always: Qt 3D's OpenGL renderer turns the depth test off
/// for Always, and with it off no depth reaches the buffer.
PassStates passStates(ViewportPass pass) {
  using D = QDepthTest;
  switch (pass) {
    case ViewportPass::Raymarch:
      return {D::LessOrEqual, true, Blend::Off};
    case ViewportPass::Composite:
      return {D::LessOrEqual, true, Blend::Off};
    case ViewportPass::Mesh:
      return {D::Less, true, Blend::Off};
    case ViewportPass::GridSelection:
      return {D::LessOrEqual, false, Blend::Alpha};
    case ViewportPass::SelectionHidden:
      return {D::Greater, false, Blend::Alpha};
    case ViewportPass::TestedLines:
      return {D::LessOrEqual, false, Blend::Alpha};
    case ViewportPass::OnTopLines:
      return {D::Always, false, Blend::Alpha};
    case ViewportPass::Gizmo:
      return {D::Always, false, Blend::Alpha};
    case ViewportPass::Coarse:  // a colour target alone
      return {D::Always, false, Blend::Off};
  }
  return {D::LessOrEqual, true, Blend::Off};
}

/// A render pass's states, carried by the pass itself so that a framegraph leaf is nothing but
/// the filter that picks its passes; never face culling.
void addPassStates(QRenderPass* pass, PassStates states) {
  auto* test = new QDepthTest(pass);
  test->setDepthFunction(states.depth);
  pass->addRenderState(test);
  if (!states.depthWrite) pass->addRenderState(new QNoDepthMask(pass));
  auto* cull = new QCullFace(pass);
  cull->setMode(QCullFace::NoCulling);
  pass->addRenderState(cull);
  if (states.blend == Blend::Alpha) {
    auto* arguments = new QBlendEquationArguments(pass);
    arguments->setSourceRgba(QBlendEquationArguments::SourceAlpha);
    arguments->setDestinationRgba(QBlendEquationArguments::OneMinusSourceAlpha);
    pass->addRenderState(arguments);
    auto* equation = new QBlendEquation(pass);
    equation->setBlendFunction(QBlendEquation::Add);
    pass->addRenderState(equation);
  }
}

QTexture2D* targetTexture(Qt3DCore::QNode* parent, QAbstractTexture::TextureFormat format,
                          QAbstractTexture::Filter filter, QSize size) {
  auto* texture = new QTexture2D(parent);
  texture->setFormat(format);
  texture->setGenerateMipMaps(false);
  texture->setMinificationFilter(filter);
  texture->setMagnificationFilter(filter);
  texture->wrapMode()->setX(QTextureWrapMode::ClampToEdge);
  texture->wrapMode()->setY(QTextureWrapMode::ClampToEdge);
  texture->setComparisonMode(QAbstractTexture::CompareNone);
  texture->setSize(size.width(), size.height());
  return texture;
}

}  // namespace

void selectQt3dOpenGlRenderer() {
  if (!qEnvironmentVariableIsSet("QT3D_RENDERER")) qputenv("QT3D_RENDERER", "opengl");
}

/// A pass of `technique` keyed to the framegraph leaf of `passKind`, with its states.
QRenderPass* keyedPass(QTechnique* technique, ViewportPass passKind) {
  auto* pass = new QRenderPass(technique);
  auto* passKey = new QFilterKey(pass);
  passKey->setName(kPassKey);
  passKey->setValue(int(passKind));
  pass->addFilterKey(passKey);
  addPassStates(pass, passStates(passKind));
  return pass;
}

QEffect* makeEffect(const std::string& vertex, const std::string& fragment, ViewportPass passKind,
                    Qt3DCore::QNode* parent) {
  auto* effect = new QEffect(parent);
  auto* technique = new QTechnique(effect);
  technique->graphicsApiFilter()->setApi(QGraphicsApiFilter::OpenGL);
  technique->graphicsApiFilter()->setMajorVersion(3);
  technique->graphicsApiFilter()->setMinorVersion(3);
  technique->graphicsApiFilter()->setProfile(QGraphicsApiFilter::CoreProfile);
  auto* key = new QFilterKey(technique);
  key->setName(kFilterName);
  key->setValue(kFilterValue);
  technique->addFilterKey(key);
  auto* pass = keyedPass(technique, passKind);
  auto* program = new QShaderProgram(pass);
  program->setVertexShaderCode(QByteArray::fromStdString(vertex));
  program->setFragmentShaderCode(QByteArray::fromStdString(fragment));
  pass->setShaderProgram(program);
  technique->addRenderPass(pass);
  effect->addTechnique(technique);
  return effect;
}

void setParameter(std::map<QString, QParameter*>& parameters, Qt3DCore::QNode* owner,
                  const QString& name, const QVariant& value) {
  auto found = parameters.find(name);
  if (found != parameters.end()) {
    if (found->second->value() != value) found->second->setValue(value);
    return;
  }
  auto* parameter = new QParameter(name, value, owner);
  if (auto* material = qobject_cast<QMaterial*>(owner))
    material->addParameter(parameter);
  else if (auto* effect = qobject_cast<QEffect*>(owner))
    effect->addParameter(parameter);
  parameters.emplace(name, parameter);
}

ViewportScene::ViewportScene(QWindow* window, RaymarchStage stage) : stage_(stage) {
  selectQt3dOpenGlRenderer();
  engine_ = std::make_unique<Qt3DCore::QAspectEngine>();
  engine_->registerAspect(new QRenderAspect());
  // Frames are drawn when drawFrame asks, not on Qt 3D's animation ticks: a frame's changes
  // are drawn at once and its read-back is in hand when drawFrame returns.
  engine_->setRunMode(Qt3DCore::QAspectEngine::Manual);
  root_ = new Qt3DCore::QEntity;
  for (ViewportPass pass :
       {ViewportPass::GridSelection, ViewportPass::SelectionHidden, ViewportPass::TestedLines,
        ViewportPass::OnTopLines, ViewportPass::Gizmo})
    lineEffects_[std::size_t(pass)] =
        makeEffect(viewport_shaders::kLineVertex, viewport_shaders::kLineFragment, pass, root_);
  meshEffect_ = makeEffect(viewport_shaders::kMeshVertex, viewport_shaders::meshFragment(),
                           ViewportPass::Mesh, root_);
  buildFrameGraph(window);
  buildFullscreenEntities();
  engine_->setRootEntity(Qt3DCore::QEntityPtr(root_));
}

ViewportScene::~ViewportScene() {
  // The engine owns the root; dropping it first tears the scene down before the aspects.
  engine_->setRootEntity(Qt3DCore::QEntityPtr());
  engine_.reset();
}

void ViewportScene::buildFrameGraph(QWindow* window) {
  auto* selector = new QRenderSurfaceSelector;
  selector->setSurface(window);
  auto* techniques = new QTechniqueFilter(selector);
  auto* key = new QFilterKey(techniques);
  key->setName(kFilterName);
  key->setValue(kFilterValue);
  techniques->addMatch(key);
  auto* viewport = new QViewport(techniques);
  // Leaves select render passes by key (each effect has one keyed pass carrying its states).
  auto filterLeaf = [](Qt3DCore::QNode* parent, ViewportPass pass) {
    auto* filter = new QRenderPassFilter(parent);
    auto* key = new QFilterKey(filter);
    key->setName(kPassKey);
    key->setValue(int(pass));
    filter->addMatch(key);
  };

  // 1. Raymarch into the offscreen targets or images (made, and remade on resize, by setFrame),
  // in the frames drawFrame asks for (marchOnce_ enabled): the coarse pass, then the full one.
  marchOnce_ = new QSubtreeEnabler(viewport);
  // Image writes reach the texture fetches of the passes after a barrier.
  auto barrier = [](Qt3DCore::QNode* parent) {
    auto* node = new QMemoryBarrier(parent);
    node->setWaitOperations(QMemoryBarrier::Operations(QMemoryBarrier::TextureFetch) |
                            QMemoryBarrier::ShaderImageAccess);
    return node;
  };
  if (stage_ == RaymarchStage::Compute) {
    coarseDispatch_ = new QDispatchCompute(marchOnce_);
    filterLeaf(coarseDispatch_, ViewportPass::Coarse);
    raymarchDispatch_ = new QDispatchCompute(barrier(marchOnce_));
    filterLeaf(raymarchDispatch_, ViewportPass::Raymarch);
  } else {
    coarseSelector_ = new QRenderTargetSelector(marchOnce_);
    coarseViewport_ = new QViewport(coarseSelector_);
    auto* coarseClear = new QClearBuffers(coarseViewport_);
    coarseClear->setBuffers(QClearBuffers::ColorBuffer);
    coarseClear->setClearColor(QColor(Qt::black));  // a start of 0: the near distance
    filterLeaf(coarseClear, ViewportPass::Coarse);
    auto* targetSelector = new QRenderTargetSelector(marchOnce_);
    targetSelector_ = targetSelector;
    raymarchViewport_ = new QViewport(targetSelector);
    auto* targetClear = new QClearBuffers(raymarchViewport_);
    targetClear->setBuffers(QClearBuffers::ColorDepthBuffer);
    targetClear->setClearColor(QColor::fromRgbF(0.2f, 0.2f, 0.22f));
    filterLeaf(targetClear, ViewportPass::Raymarch);
  }

  // 2. Composite onto the window (clears first), 3. meshes, 4. lines.
  Qt3DCore::QNode* compositeParent = viewport;
  if (stage_ == RaymarchStage::Compute) compositeParent = barrier(viewport);
  auto* clear = new QClearBuffers(compositeParent);
  clear->setBuffers(QClearBuffers::ColorDepthBuffer);
  clear->setClearColor(QColor::fromRgbF(0.2f, 0.2f, 0.22f));
  filterLeaf(clear, ViewportPass::Composite);
  filterLeaf(viewport, ViewportPass::Mesh);
  filterLeaf(viewport, ViewportPass::GridSelection);
  filterLeaf(viewport, ViewportPass::SelectionHidden);
  filterLeaf(viewport, ViewportPass::TestedLines);
  filterLeaf(viewport, ViewportPass::OnTopLines);
  filterLeaf(viewport, ViewportPass::Gizmo);

  // 5. Read-back of the finished window.
  capture_ = new QRenderCapture(viewport);
  new QNoDraw(capture_);

  auto* settings = new QRenderSettings(root_);
  settings->setActiveFrameGraph(selector);
  settings->setRenderPolicy(QRenderSettings::OnDemand);
  root_->addComponent(settings);
}

void ViewportScene::buildFullscreenEntities() {
  // One triangle covering the clip square: (-1,-1), (3,-1), (-1,3).
  static const float kTriangle[9] = {-1.0f, -1.0f, 0.0f, 3.0f, -1.0f, 0.0f, -1.0f, 3.0f, 0.0f};
  auto* geometry = new Qt3DCore::QGeometry(root_);
  auto* buffer = new Qt3DCore::QBuffer(geometry);
  buffer->setData(QByteArray(reinterpret_cast<const char*>(kTriangle), sizeof kTriangle));
  auto* position =
      new Qt3DCore::QAttribute(buffer, Qt3DCore::QAttribute::defaultPositionAttributeName(),
                               Qt3DCore::QAttribute::Float, 3, 3, 0, 3 * sizeof(float));
  position->setAttributeType(Qt3DCore::QAttribute::VertexAttribute);
  geometry->addAttribute(position);
  auto* triangle = new QGeometryRenderer(root_);
  triangle->setGeometry(geometry);
  triangle->setPrimitiveType(QGeometryRenderer::Triangles);
  triangle->setVertexCount(3);

  raymarchMaterial_ = new QMaterial(root_);
  auto* raymarchEffect = makeEffect(viewport_shaders::kFullscreenVertex, "", ViewportPass::Raymarch,
                                    raymarchMaterial_);
  QTechnique* raymarchTechnique = raymarchEffect->techniques().front();
  raymarchPass_ = raymarchTechnique->renderPasses().front();
  delete raymarchPass_->shaderProgram();  // none until the first good field shader
  coarsePass_ = keyedPass(raymarchTechnique, ViewportPass::Coarse);
  raymarchTechnique->addRenderPass(coarsePass_);
  raymarchMaterial_->setEffect(raymarchEffect);
  raymarchEntity_ = new Qt3DCore::QEntity(root_);
  if (stage_ == RaymarchStage::Compute) {
    // One invocation a pixel: the dispatches' work group counts (setFrame) rule.
    raymarchEntity_->addComponent(new QComputeCommand(raymarchEntity_));
  } else {
    raymarchEntity_->addComponent(triangle);
  }
  raymarchEntity_->addComponent(raymarchMaterial_);
  raymarchEntity_->setEnabled(false);

  compositeMaterial_ = new QMaterial(root_);
  compositeMaterial_->setEffect(makeEffect(viewport_shaders::kFullscreenVertex,
                                           viewport_shaders::kCompositeFragment,
                                           ViewportPass::Composite, compositeMaterial_));
  auto* composite = new Qt3DCore::QEntity(root_);
  composite->addComponent(triangle);
  composite->addComponent(compositeMaterial_);
  // Until the first march the raymarch's images hold nothing: the composite leaves the window's
  // clear colour and depth.
  setParameter(compositeParameters_, compositeMaterial_, "u_blank", 1.0f);
  setFrame({1, 1}, 1.0f);
}

void ViewportScene::setRaymarchShader(const std::string& fragment) {
  auto replace = [this](QRenderPass* pass, QShaderProgram*& program, const std::string& source) {
    QShaderProgram* old = program;
    program = new QShaderProgram(pass);
    if (stage_ == RaymarchStage::Compute) {
      program->setComputeShaderCode(QByteArray::fromStdString(render::computeShaderOf(source)));
    } else {
      program->setVertexShaderCode(viewport_shaders::kFullscreenVertex);
      program->setFragmentShaderCode(QByteArray::fromStdString(source));
    }
    pass->setShaderProgram(program);
    delete old;
  };
  replace(raymarchPass_, raymarchProgram_,
          render::withDefine(fragment, render::kCoarseInputDefine));
  replace(coarsePass_, coarseProgram_, render::withDefine(fragment, render::kCoarsePassDefine));
  raymarchCompiled_ = false;
  raymarchEntity_->setEnabled(true);
  setParameter(compositeParameters_, compositeMaterial_, "u_blank", 0.0f);
}

bool ViewportScene::programsSettled(bool lines, bool meshes) {
  linesInFlight_ = lines;
  meshesInFlight_ = meshes;
  return (!raymarchProgram_ || raymarchCompiled_) && fullscreenCompiled_ &&
         (!lines || linesCompiled_) && (!meshes || meshesCompiled_);
}

void ViewportScene::noteFrameFinished() {
  raymarchCompiled_ = raymarchProgram_ != nullptr;
  fullscreenCompiled_ = true;
  linesCompiled_ = linesCompiled_ || linesInFlight_;
  meshesCompiled_ = meshesCompiled_ || meshesInFlight_;
}

void ViewportScene::setSceneData(const std::vector<float>& texels, int width, int height) {
  if (!sceneData_ || sceneData_->width() != width || sceneData_->height() != height) {
    Qt3DRender::QTexture2D* old = sceneData_ ? sceneData_->texture() : nullptr;
    sceneData_ = new SceneDataTexture(raymarchMaterial_, width, height);
    setRaymarchUniform("u_sceneData", QVariant::fromValue(sceneData_->texture()));
    delete old;
  }
  sceneData_->upload(texels);
  ++sceneDataUploads_;
}

void ViewportScene::setRaymarchUniform(const QString& name, const QVariant& value) {
  setParameter(raymarchParameters_, raymarchMaterial_, name, value);
}

void ViewportScene::setFrame(QSize size, float scale) {
  size = size.expandedTo({1, 1});
  scale = std::clamp(scale, 0.05f, 1.0f);
  if (size != size_) {
    size_ = size;
    if (stage_ == RaymarchStage::Compute)
      makeImages(size);
    else
      makeTarget(size);
  }
  const int renderedW = std::clamp(int(std::lround(size.width() * scale)), 1, size.width());
  const int renderedH = std::clamp(int(std::lround(size.height() * scale)), 1, size.height());
  // QViewport's rectangle has its origin top-left: the lower-left region starts at 1 - h.
  const float w = float(renderedW) / float(size.width()),
              h = float(renderedH) / float(size.height());
  if (stage_ == RaymarchStage::Compute) {
    // An invocation a pixel of the region (a tile in the coarse pass), groups over its edge.
    auto groups = [](int n) { return (n + render::kComputeGroup - 1) / render::kComputeGroup; };
    raymarchDispatch_->setWorkGroupX(groups(renderedW));
    raymarchDispatch_->setWorkGroupY(groups(renderedH));
    coarseDispatch_->setWorkGroupX(groups(render::coarseTiles(renderedW)));
    coarseDispatch_->setWorkGroupY(groups(render::coarseTiles(renderedH)));
  } else {
    raymarchViewport_->setNormalizedRect(QRectF(0.0, 1.0 - double(h), double(w), double(h)));
    // The coarse pass: the tiles of the rendered region, in the lower-left of its target.
    const double tw = double(render::coarseTiles(renderedW)) / render::coarseTiles(size.width()),
                 th = double(render::coarseTiles(renderedH)) / render::coarseTiles(size.height());
    coarseViewport_->setNormalizedRect(QRectF(0.0, 1.0 - th, tw, th));
  }
  setRaymarchUniform("u_frame", QVector2D(float(renderedW), float(renderedH)));
  setParameter(compositeParameters_, compositeMaterial_, "u_rendered",
               QVector2D(float(renderedW), float(renderedH)));
  setParameter(compositeParameters_, compositeMaterial_, "u_exact",
               (renderedW == size.width() && renderedH == size.height()) ? 1.0f : 0.0f);
}

void ViewportScene::makeTarget(QSize size) {
  // A new target with new textures, never QTexture2D::setSize on the old ones: Qt 3D 6.4 kept
  // the attachments' first size, and the composite then read black beyond it.
  auto* target = new QRenderTarget(root_);
  auto* color =
      targetTexture(target, QAbstractTexture::RGBA8_UNorm, QAbstractTexture::Linear, size);
  auto* depth = targetTexture(target, QAbstractTexture::D32F, QAbstractTexture::Nearest, size);
  for (auto [point, texture] : {std::pair{QRenderTargetOutput::Color0, color},
                                std::pair{QRenderTargetOutput::Depth, depth}}) {
    auto* output = new QRenderTargetOutput(target);
    output->setAttachmentPoint(point);
    output->setTexture(texture);
    target->addOutput(output);
  }
  targetSelector_->setTarget(target);
  setParameter(compositeParameters_, compositeMaterial_, "u_color", QVariant::fromValue(color));
  setParameter(compositeParameters_, compositeMaterial_, "u_depth", QVariant::fromValue(depth));
  delete target_;  // with its textures
  target_ = target;

  auto* coarse = new QRenderTarget(root_);
  auto* starts =
      targetTexture(coarse, QAbstractTexture::R32F, QAbstractTexture::Nearest,
                    QSize(render::coarseTiles(size.width()), render::coarseTiles(size.height())));
  auto* output = new QRenderTargetOutput(coarse);
  output->setAttachmentPoint(QRenderTargetOutput::Color0);
  output->setTexture(starts);
  coarse->addOutput(output);
  coarseSelector_->setTarget(coarse);
  setRaymarchUniform("u_coarse", QVariant::fromValue(starts));
  delete coarseTarget_;
  coarseTarget_ = coarse;
}

void ViewportScene::makeImages(QSize size) {
  auto* images = new Qt3DCore::QNode(root_);
  auto image = [images](QTexture2D* texture, QShaderImage::ImageFormat format) {
    auto* shaderImage = new QShaderImage(images);
    shaderImage->setTexture(texture);
    shaderImage->setAccess(QShaderImage::WriteOnly);
    shaderImage->setFormat(format);
    shaderImage->setLayered(false);
    shaderImage->setMipLevel(0);
    return QVariant::fromValue(shaderImage);
  };
  auto* color =
      targetTexture(images, QAbstractTexture::RGBA8_UNorm, QAbstractTexture::Linear, size);
  auto* depth = targetTexture(images, QAbstractTexture::R32F, QAbstractTexture::Nearest, size);
  auto* starts =
      targetTexture(images, QAbstractTexture::R32F, QAbstractTexture::Nearest,
                    QSize(render::coarseTiles(size.width()), render::coarseTiles(size.height())));
  setRaymarchUniform("u_colorOut", image(color, QShaderImage::RGBA8_UNorm));
  setRaymarchUniform("u_depthOut", image(depth, QShaderImage::R32F));
  setRaymarchUniform("u_coarseOut", image(starts, QShaderImage::R32F));
  setRaymarchUniform("u_coarse", QVariant::fromValue(starts));
  setParameter(compositeParameters_, compositeMaterial_, "u_color", QVariant::fromValue(color));
  setParameter(compositeParameters_, compositeMaterial_, "u_depth", QVariant::fromValue(depth));
  delete images_;  // with its textures and images
  images_ = images;
}

void ViewportScene::setViewProjection(const QMatrix4x4& viewProj, const QVector3D& eye) {
  for (std::size_t pass = 0; pass < lineEffects_.size(); ++pass) {
    if (!lineEffects_[pass]) continue;
    setParameter(lineParameters_[pass], lineEffects_[pass], "u_viewProj", viewProj);
    setParameter(lineParameters_[pass], lineEffects_[pass], "u_eye", eye);
  }
  setParameter(meshParameters_, meshEffect_, "u_viewProj", viewProj);
}

QImage ViewportScene::drawFrame(bool readBack) {
  // The read-back makes the frame's GPU work finish inside processFrame. Qt 3D hands a
  // read-back to its reply in the processFrame after the one that took it: a whole-window one
  // is collected by a second processFrame here, a one-texel one deletes itself on arrival.
  QRenderCaptureReply* reply =
      readBack ? capture_->requestCapture() : capture_->requestCapture(QRect(0, 0, 1, 1));
  reply->setParent(capture_);
  if (!readBack)
    QObject::connect(reply, &QRenderCaptureReply::completed, reply, &QObject::deleteLater);
  marchOnce_->setEnabled(true);
  engine_->processFrame();
  // Any processFrame until the next drawFrame (Qt 3D keeps a parameter change dirty for one
  // frame more, and a read-back needs one) composites this march instead of marching again.
  marchOnce_->setEnabled(false);
  if (!readBack) return {};
  engine_->processFrame();
  QImage image = reply->isComplete() ? reply->image() : QImage();
  delete reply;
  return image;
}

}  // namespace floptle::editor
