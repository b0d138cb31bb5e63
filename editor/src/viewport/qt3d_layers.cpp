#include "viewport/qt3d_layers.h"

#include <QMatrix4x4>
#include <QVector2D>
#include <Qt3DCore/QAttribute>
#include <Qt3DCore/QBuffer>
#include <Qt3DCore/QEntity>
#include <Qt3DCore/QGeometry>
#include <Qt3DRender/QGeometryRenderer>
#include <Qt3DRender/QMaterial>
#include <Qt3DRender/QParameter>

#include <glm/gtc/type_ptr.hpp>

#include "floptle/core/render/shading_model.h"

namespace floptle::editor {

namespace {

/// Pull of the grid and the selection towards the eye (-): larger than the raymarch's hit
/// epsilon per metre (shading::kHitEpsilonPerMeter) so a ground plane at y = 0 does not hide
/// its own grid.
constexpr float kGridPull = 2e-3f;
/// Pull of depth-tested line layers (-): wireframes of a collider's drawn surface lie on the
/// field's surface (chords slightly inside it), so they need a little more than the grid.
constexpr float kLayerPull = 3e-3f;

struct LineVertex {
  float position[3];
  float color[4];
};

struct MeshVertex {
  float position[3];
  float normal[3];
  float albedo[3];
};

/// Distances from the eye (m) over which the grid fades out: 1 m lines turn to moire
/// rings within a few tens of metres at grazing angles, 10 m lines hold up further.
const Vec2 kMinorGridFade{8.0f, 30.0f};
const Vec2 kMajorGridFade{30.0f, 70.0f};

/// The ground grid's 1 m lines (`major` false) or its 10 m lines and axes (true).
std::vector<OverlayLine> gridLines(bool majorLines) {
  std::vector<OverlayLine> lines;
  const int n = int(kGridHalfSize);
  for (int i = -n; i <= n; ++i) {
    const float v = float(i);
    const bool major = i % 10 == 0;
    if (major != majorLines) continue;
    Vec4 color = major ? Vec4(0.25f, 0.25f, 0.28f, 0.55f) : Vec4(0.3f, 0.3f, 0.33f, 0.25f);
    Vec4 xColor = i == 0 ? Vec4(0.85f, 0.2f, 0.2f, 0.8f) : color;  // the X axis (z = 0)
    Vec4 zColor = i == 0 ? Vec4(0.2f, 0.35f, 0.9f, 0.8f) : color;  // the Z axis (x = 0)
    lines.push_back({{-kGridHalfSize, 0.0f, v}, {kGridHalfSize, 0.0f, v}, xColor});
    lines.push_back({{v, 0.0f, -kGridHalfSize}, {v, 0.0f, kGridHalfSize}, zColor});
  }
  return lines;
}

bool sameLines(const std::vector<OverlayLine>& a, const std::vector<OverlayLine>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (a[i].a != b[i].a || a[i].b != b[i].b || a[i].color != b[i].color) return false;
  return true;
}

/// Flat shading: three vertices per triangle, each with the face normal (local space).
std::vector<MeshVertex> meshVertices(const OverlayMesh& mesh) {
  std::vector<MeshVertex> vertices;
  vertices.reserve(mesh.triangles.size() * 3);
  const Vec3 grey = render::shading::kDefaultAlbedo;
  const std::size_t count = mesh.positions.size();
  for (std::size_t t = 0; t < mesh.triangles.size(); ++t) {
    const auto& tri = mesh.triangles[t];
    if (tri[0] >= count || tri[1] >= count || tri[2] >= count) continue;
    const Vec3 a = mesh.positions[tri[0]], b = mesh.positions[tri[1]], c = mesh.positions[tri[2]];
    Vec3 n = glm::cross(b - a, c - a);
    const float length = glm::length(n);
    n = length > 0.0f ? n / length : Vec3(0.0f, 1.0f, 0.0f);
    const Vec3 albedo = t < mesh.triangleColors.size() ? mesh.triangleColors[t] : grey;
    for (Vec3 p : {a, b, c})
      vertices.push_back({{p.x, p.y, p.z}, {n.x, n.y, n.z}, {albedo.x, albedo.y, albedo.z}});
  }
  return vertices;
}

template <class Vertex>
QByteArray bytesOf(const std::vector<Vertex>& vertices) {
  return QByteArray(reinterpret_cast<const char*>(vertices.data()),
                    qsizetype(vertices.size() * sizeof(Vertex)));
}

Qt3DCore::QAttribute* addAttribute(Qt3DCore::QGeometry* geometry, Qt3DCore::QBuffer* buffer,
                                   const QString& name, uint components, uint offset, uint stride) {
  auto* attribute = new Qt3DCore::QAttribute(buffer, name, Qt3DCore::QAttribute::Float, components,
                                             0, offset, stride, geometry);
  attribute->setAttributeType(Qt3DCore::QAttribute::VertexAttribute);
  geometry->addAttribute(attribute);
  return attribute;
}

QMatrix4x4 toQt(const Mat4& m) {
  return QMatrix4x4(glm::value_ptr(m)).transposed();  // QMatrix4x4(const float*) is row-major
}

}  // namespace

// --- LineEntity --------------------------------------------------------------------------------

LineEntity::LineEntity(ViewportScene& scene, ViewportPass pass, float pull, float alpha,
                       Vec2 fade) {
  entity_ = new Qt3DCore::QEntity(scene.root());
  auto* geometry = new Qt3DCore::QGeometry(entity_);
  buffer_ = new Qt3DCore::QBuffer(geometry);
  const uint stride = sizeof(LineVertex);
  position_ = addAttribute(geometry, buffer_, Qt3DCore::QAttribute::defaultPositionAttributeName(),
                           3, 0, stride);
  color_ = addAttribute(geometry, buffer_, Qt3DCore::QAttribute::defaultColorAttributeName(), 4,
                        offsetof(LineVertex, color), stride);
  renderer_ = new Qt3DRender::QGeometryRenderer(entity_);
  renderer_->setGeometry(geometry);
  renderer_->setPrimitiveType(Qt3DRender::QGeometryRenderer::Lines);
  auto* material = new Qt3DRender::QMaterial(entity_);
  material->setEffect(scene.lineEffect(pass));
  material->addParameter(new Qt3DRender::QParameter("u_pull", pull, material));
  material->addParameter(new Qt3DRender::QParameter("u_alpha", alpha, material));
  material->addParameter(new Qt3DRender::QParameter("u_fade", QVector2D(fade.x, fade.y), material));
  entity_->addComponent(renderer_);
  entity_->addComponent(material);
  entity_->setEnabled(false);
}

LineEntity::~LineEntity() {
  delete entity_;
}

void LineEntity::setLines(const std::vector<OverlayLine>& lines) {
  std::vector<LineVertex> vertices;
  vertices.reserve(lines.size() * 2);
  for (const OverlayLine& line : lines)
    for (Vec3 p : {line.a, line.b})
      vertices.push_back(
          {{p.x, p.y, p.z}, {line.color.x, line.color.y, line.color.z, line.color.w}});
  vertexCount_ = int(vertices.size());
  if (vertexCount_ > 0) {
    buffer_->setData(bytesOf(vertices));
    position_->setCount(uint(vertexCount_));
    color_->setCount(uint(vertexCount_));
    renderer_->setVertexCount(vertexCount_);
  }
  setVisible(visible_);
}

void LineEntity::setVisible(bool visible) {
  visible_ = visible;
  const bool enabled = visible && vertexCount_ > 0;
  if (entity_->isEnabled() != enabled) entity_->setEnabled(enabled);
}

// --- MeshEntity --------------------------------------------------------------------------------

MeshEntity::MeshEntity(ViewportScene& scene) {
  entity_ = new Qt3DCore::QEntity(scene.root());
  auto* geometry = new Qt3DCore::QGeometry(entity_);
  buffer_ = new Qt3DCore::QBuffer(geometry);
  const uint stride = sizeof(MeshVertex);
  attributes_ = {addAttribute(geometry, buffer_,
                              Qt3DCore::QAttribute::defaultPositionAttributeName(), 3, 0, stride),
                 addAttribute(geometry, buffer_, Qt3DCore::QAttribute::defaultNormalAttributeName(),
                              3, offsetof(MeshVertex, normal), stride),
                 addAttribute(geometry, buffer_, Qt3DCore::QAttribute::defaultColorAttributeName(),
                              3, offsetof(MeshVertex, albedo), stride)};
  renderer_ = new Qt3DRender::QGeometryRenderer(entity_);
  renderer_->setGeometry(geometry);
  renderer_->setPrimitiveType(Qt3DRender::QGeometryRenderer::Triangles);
  auto* material = new Qt3DRender::QMaterial(entity_);
  material->setEffect(scene.meshEffect());
  model_ = new Qt3DRender::QParameter("u_model", QMatrix4x4(), material);
  material->addParameter(model_);
  entity_->addComponent(renderer_);
  entity_->addComponent(material);
  entity_->setEnabled(false);
}

MeshEntity::~MeshEntity() {
  delete entity_;
}

void MeshEntity::setMesh(const OverlayMesh& mesh) {
  const std::vector<MeshVertex> vertices = meshVertices(mesh);
  vertexCount_ = int(vertices.size());
  if (vertexCount_ > 0) {
    buffer_->setData(bytesOf(vertices));
    for (auto* attribute : attributes_) attribute->setCount(uint(vertexCount_));
    renderer_->setVertexCount(vertexCount_);
  }
  setTransform(mesh.transform);
  setVisible(visible_);
}

void MeshEntity::setTransform(const Mat4& transform) {
  const QVariant value = toQt(transform);
  if (model_->value() != value) model_->setValue(value);
}

void MeshEntity::setVisible(bool visible) {
  visible_ = visible;
  const bool enabled = visible && vertexCount_ > 0;
  if (entity_->isEnabled() != enabled) entity_->setEnabled(enabled);
}

// --- OverlayEntities ---------------------------------------------------------------------------

OverlayEntities::OverlayEntities(ViewportScene& scene)
    : scene_(scene),
      grid_(std::make_unique<LineEntity>(scene, ViewportPass::GridSelection, kGridPull, 1.0f,
                                         kMinorGridFade)),
      gridMajor_(std::make_unique<LineEntity>(scene, ViewportPass::GridSelection, kGridPull, 1.0f,
                                              kMajorGridFade)),
      selection_(std::make_unique<LineEntity>(scene, ViewportPass::GridSelection, kGridPull, 1.0f)),
      selectionHidden_(
          std::make_unique<LineEntity>(scene, ViewportPass::SelectionHidden, kGridPull, 0.25f)),
      gizmo_(std::make_unique<LineEntity>(scene, ViewportPass::Gizmo, 0.0f, 1.0f)) {
  grid_->setLines(gridLines(false));
  gridMajor_->setLines(gridLines(true));
}

OverlayEntities::~OverlayEntities() = default;

OverlayEntities::Shown OverlayEntities::sync(const OverlayFrame& frame) {
  grid_->setVisible(frame.visible && frame.grid);
  gridMajor_->setVisible(frame.visible && frame.grid);
  if (!sameLines(frame.selection, shownSelection_)) {
    shownSelection_ = frame.selection;
    selection_->setLines(shownSelection_);
    selectionHidden_->setLines(shownSelection_);
  }
  if (!sameLines(frame.gizmo, shownGizmo_)) {
    shownGizmo_ = frame.gizmo;
    gizmo_->setLines(shownGizmo_);
  }
  for (LineEntity* entity : {selection_.get(), selectionHidden_.get(), gizmo_.get()})
    entity->setVisible(frame.visible);

  static const OverlayLayers kNone;
  const OverlayLayers& layers = frame.layers ? *frame.layers : kNone;
  std::erase_if(lines_, [&](const auto& entry) { return !layers.lines.count(entry.first); });
  std::erase_if(meshes_, [&](const auto& entry) { return !layers.meshes.count(entry.first); });
  for (const auto& [name, layer] : layers.lines) {
    NamedLines& shown = lines_[name];
    if (!shown.entity || shown.depth != layer.depth) {
      const bool onTop = layer.depth == OverlayDepth::OnTop;
      shown.entity = std::make_unique<LineEntity>(
          scene_, onTop ? ViewportPass::OnTopLines : ViewportPass::TestedLines,
          onTop ? 0.0f : kLayerPull, 1.0f);
      shown.depth = layer.depth;
      shown.version = 0;
    }
    if (shown.version != layer.version) {
      shown.entity->setLines(layer.lines);
      shown.version = layer.version;
    }
    shown.entity->setVisible(frame.visible);
  }
  for (const auto& [name, layer] : layers.meshes) {
    NamedMesh& shown = meshes_[name];
    if (!shown.entity) shown.entity = std::make_unique<MeshEntity>(scene_);
    if (shown.version != layer.version) {
      shown.entity->setMesh(layer.mesh);
      shown.version = layer.version;
    } else {
      shown.entity->setTransform(layer.mesh.transform);
    }
    shown.entity->setVisible(frame.visible);
  }

  Shown result;
  for (const LineEntity* entity :
       {grid_.get(), gridMajor_.get(), selection_.get(), selectionHidden_.get(), gizmo_.get()})
    result.lines = result.lines || entity->drawn();
  for (const auto& [name, shown] : lines_) result.lines = result.lines || shown.entity->drawn();
  for (const auto& [name, shown] : meshes_) result.meshes = result.meshes || shown.entity->drawn();
  return result;
}

}  // namespace floptle::editor
