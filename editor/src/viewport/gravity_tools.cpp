// GravityTools: regions, sources and emitters drawn, picked and moved; the slice arrows.
#include "floptle/editor/gravity_tools.h"

#include <QFileInfo>

#include <algorithm>
#include <cmath>

#include "document/gravity_edit.h"
#include "floptle/core/scene/component_values.h"
#include "floptle/core/scene/gravity_desc.h"
#include "floptle/editor/derived_scene.h"
#include "floptle/gravity/gravity_field.h"
#include "floptle/gravity/scene_gravity.h"
#include "floptle/physics/scene_collision.h"
#include "viewport/overlay_shapes.h"

namespace floptle::editor {
namespace {

/// Angle about a ray within which a click picks an item's centre (rad): ~8 px in a 60 degree
/// view 800 px tall.
constexpr float kPickAngle = 0.012f;

const Vec4 kRegionColor(0.35f, 0.85f, 1.0f, 0.9f);
const Vec4 kSourceColor(1.0f, 0.55f, 0.95f, 0.9f);
const Vec4 kShellColor(0.95f, 0.35f, 0.85f, 0.9f);
const Vec4 kSelectedColor(1.0f, 0.85f, 0.1f, 1.0f);

/// |g| of the colour scale's middle (m/s^2): Earth's.
constexpr float kOneG = 9.81f;

/// A fixed scale, the same in every scene: blue at 0, green at 1 g, red at 2 g and more.
Vec4 magnitudeColor(float magnitude) {
  const float t = std::clamp(magnitude / (2.0f * kOneG), 0.0f, 1.0f);
  const Vec3 blue(0.2f, 0.45f, 1.0f), green(0.2f, 0.95f, 0.35f), red(1.0f, 0.25f, 0.15f);
  const Vec3 c = t < 0.5f ? glm::mix(blue, green, t * 2.0f) : glm::mix(green, red, t * 2.0f - 1.0f);
  return Vec4(c, 1.0f);
}

/// The one region or source `item` as core reads it (defaults filled in); nullopt if refused.
std::optional<scene::GravityFieldDesc> readItem(const Json& item, bool region,
                                                const std::string& pointer) {
  Json wrapped = Json::object();
  wrapped[region ? "regions" : "sources"] = Json::array({item});
  auto desc = scene::readGravityField(wrapped, pointer);
  if (!desc) return std::nullopt;
  return desc.value();
}

/// How far an item reaches from its centre (m): what the slice should cover.
float itemReach(const scene::GravityFieldDesc& d) {
  if (!d.boxes.empty()) return glm::length(d.boxes.front().halfExtents);
  if (!d.spheres.empty()) return d.spheres.front().radius;
  if (d.sources.empty()) return 0.0f;
  const scene::GravitySource& s = d.sources.front();
  const float along =
      s.type == scene::GravitySource::Type::Line ? 0.5f * glm::distance(s.center, s.end) : 0.0f;
  return along + (s.rOuter > 0.0f ? s.rOuter : std::max(s.radius, 10.0f));
}

Vec3 jsonVec3(const Json& object, const char* key, Vec3 fallback) {
  if (!object.contains(key) || !object[key].is_array() || object[key].size() != 3) return fallback;
  const Json& v = object[key];
  return Vec3(v[0].get<float>(), v[1].get<float>(), v[2].get<float>());
}

}  // namespace

GravityTools::GravityTools(EditorDocument& document, RaymarchView& view, QObject* parent)
    : QObject(parent), document_(document), view_(view) {
  connect(&document_, &EditorDocument::documentChanged, this, [this] {
    fieldStale_ = true;
    refresh();
  });
  connect(&document_, &EditorDocument::selectionChanged, this, [this](const QStringList& names) {
    if (!names.isEmpty() && !selected_.empty()) {
      selected_.clear();
      emit selectionChanged({});
    }
    refresh();
  });
  connect(&view_, &RaymarchView::cameraChanged, this, [this] {
    if (arrowsShown_) refreshSlice();
  });
  connect(&view_, &RaymarchView::gizmoDragStarted, this, [this] { beginDrag(); });
  connect(&view_, &RaymarchView::gizmoDragged, this, [this](const GizmoDelta& d) { drag(d); });
  connect(&view_, &RaymarchView::gizmoDragFinished, this,
          [this](const GizmoDelta& d) { finishDrag(d); });
  connect(&view_, &RaymarchView::gizmoDragCancelled, this, [this] { cancelDrag(); });
  refresh();
}

GravityTools::~GravityTools() = default;

std::vector<GravityItem> GravityTools::items() const {
  std::vector<GravityItem> out;
  if (!gravityIsObject(document_)) return out;
  const Json gravity = gravityObject(document_);
  for (const char* list : {"regions", "sources"}) {
    if (!gravity.contains(list) || !gravity[list].is_array()) continue;
    const bool region = std::string_view(list) == "regions";
    for (std::size_t i = 0; i < gravity[list].size(); ++i) {
      const Json& item = gravity[list][i];
      GravityItem g;
      g.pointer = gravityPointer({list, std::to_string(i)});
      g.region = region;
      g.kind = item.value(region ? "shape" : "type", std::string());
      g.centre = g.kind == "line"
                     ? 0.5f * (jsonVec3(item, "a", Vec3(0.0f)) + jsonVec3(item, "b", Vec3(0.0f)))
                     : jsonVec3(item, "center", Vec3(0.0f));
      out.push_back(std::move(g));
    }
  }
  return out;
}

std::optional<GravityItem> GravityTools::selectedItem() const {
  if (selected_.empty()) return std::nullopt;
  for (GravityItem& item : items())
    if (item.pointer == selected_) return item;
  return std::nullopt;
}

void GravityTools::select(const std::string& pointer) {
  std::string next;
  for (const GravityItem& item : items())
    if (item.pointer == pointer) next = pointer;
  if (!next.empty()) document_.setSelection({});  // an item or nodes, never both
  if (next == selected_) return;
  selected_ = next;
  refresh();
  emit selectionChanged(QString::fromStdString(selected_));
}

std::optional<std::string> GravityTools::pick(const Ray& ray) const {
  std::optional<std::string> best;
  float bestAngle = kPickAngle;
  for (const GravityItem& item : items()) {
    const Vec3 to = item.centre - ray.origin;
    const float distance = glm::length(to);
    if (!(distance > 1e-4f)) continue;
    const float cosine =
        std::clamp(glm::dot(to / distance, glm::normalize(ray.direction)), -1.0f, 1.0f);
    const float angle = std::acos(cosine);
    if (angle < bestAngle) {
      bestAngle = angle;
      best = item.pointer;
    }
  }
  return best;
}

void GravityTools::beginDrag() {
  dragStart_.reset();
  if (selected_.empty() || !document_.selection().isEmpty()) return;
  if (std::optional<Json> item = document_.valueAt(selected_)) dragStart_.emplace(selected_, *item);
}

void GravityTools::drag(const GizmoDelta& delta) {
  if (!dragStart_ || delta.mode != GizmoMode::Translate) return;
  const auto& [pointer, start] = *dragStart_;
  std::vector<std::pair<std::string, Json>> values;
  const bool line = start.value("type", std::string()) == "line";
  for (const char* key :
       line ? std::vector<const char*>{"a", "b"} : std::vector<const char*>{"center"})
    values.emplace_back(pointer + "/" + key,
                        vec3Json(jsonVec3(start, key, Vec3(0.0f)) + delta.translation));
  document_.setValues(values, tr("Move gravity item with gizmo"), kMergeGizmoDrag);
}

void GravityTools::finishDrag(const GizmoDelta& delta) {
  if (!dragStart_) return;
  drag(delta);
  document_.closeMergeWindow();  // the drag is one undo step
  dragStart_.reset();
}

void GravityTools::cancelDrag() {
  if (!dragStart_) return;
  document_.setValue(dragStart_->first, dragStart_->second, kMergeGizmoDrag);
  document_.closeMergeWindow();
  dragStart_.reset();
}

void GravityTools::setArrowsShown(bool shown) {
  if (shown == arrowsShown_) return;
  arrowsShown_ = shown;
  refreshSlice();
}

void GravityTools::refresh() {
  if (!selected_.empty() && !selectedItem()) {
    selected_.clear();
    emit selectionChanged({});
  }
  drawItems();
  refreshSlice();
}

void GravityTools::refreshSlice() {
  if (!arrowsShown_) {
    slice_.clear();
    view_.clearOverlayLines(arrowsLayer());
    return;
  }
  drawSlice();
}

gravity::GravityField* GravityTools::field() {
  if (!fieldStale_) return field_.get();
  fieldStale_ = false;
  field_.reset();
  surface_.reset();
  const scene::Scene& scene = document_.derived().scene();
  auto desc = gravity::sceneGravityField(scene);
  if (!desc) {
    emit message(tr("Gravity arrows: %1").arg(QString::fromStdString(desc.error().message())));
    return nullptr;
  }
  field_ = std::make_unique<gravity::GravityField>(std::move(desc.value()));
  if (field_->desc().sdf) {
    // The surface the sdf tier pulls onto: the scene's fixed collidable geometry, as the
    // simulation has it (moving bodies and controllers are not part of it).
    const std::filesystem::path dir =
        document_.filePath().isEmpty()
            ? std::filesystem::path()
            : std::filesystem::path(QFileInfo(document_.filePath()).absolutePath().toStdString());
    auto world = physics::buildCollisionWorld(scene, dir);
    if (!world) {
      emit message(tr("Gravity arrows: %1").arg(QString::fromStdString(world.error().message())));
    } else {
      surface_ = std::make_unique<physics::CollisionWorld>(std::move(world.value()));
      for (physics::ColliderId id : surface_->ids()) {
        const int n = document_.derived().findNode(surface_->nodeName(id));
        if (n < 0) continue;
        const scene::SceneNode& node = scene.nodes[std::size_t(n)];
        if (surface_->body(id) == physics::BodyKind::Dynamic || node.hasComponent("character") ||
            node.hasComponent("vehicle") || node.hasComponent("drift"))
          surface_->setCollidable(id, false);
      }
      field_->setSurface(surface_.get());
    }
  }
  return field_.get();
}

Vec3 GravityTools::sample(Vec3 p, double t) {
  gravity::GravityField* f = field();
  return f ? f->sample(p, t) : Vec3(0.0f);
}

void GravityTools::drawItems() {
  std::vector<OverlayLine> lines;
  if (gravityIsObject(document_)) {
    for (const GravityItem& item : items()) {
      const std::optional<Json> json = document_.valueAt(item.pointer);
      if (!json) continue;
      const auto desc = readItem(*json, item.region, item.pointer);
      if (!desc) continue;
      const bool selected = item.pointer == selected_;
      const Vec4 color = selected ? kSelectedColor : item.region ? kRegionColor : kSourceColor;
      const Vec4 shell = selected ? kSelectedColor * Vec4(1, 1, 1, 0.5f) : kShellColor;
      if (!desc->boxes.empty()) {
        const scene::GravityBoxRegion& b = desc->boxes.front();
        addWireBox(lines, b.center, b.halfExtents, b.rotation, color);
        const float length = std::min(glm::length(b.halfExtents), 3.0f);
        addArrow(lines, b.center, b.center + b.direction * length, Vec3(0, 1, 0), color);
      } else if (!desc->spheres.empty()) {
        const scene::GravitySphereRegion& s = desc->spheres.front();
        addWireSphere(lines, s.center, s.radius, color);
      } else if (!desc->sources.empty()) {
        const scene::GravitySource& s = desc->sources.front();
        if (s.type == scene::GravitySource::Type::Line) {
          lines.push_back({s.center, s.end, color});
          addCross(lines, s.center, 0.3f, color);
          addCross(lines, s.end, 0.3f, color);
          if (s.rOuter > 0.0f) {
            addWireSphere(lines, s.center, s.rOuter, shell);
            addWireSphere(lines, s.end, s.rOuter, shell);
          }
        } else {
          addCross(lines, s.center, 0.5f, color);
          if (s.type == scene::GravitySource::Type::Sphere)
            addWireSphere(lines, s.center, s.radius, color);
          if (s.rOuter > 0.0f) addWireSphere(lines, s.center, s.rOuter, shell);
        }
      }
      if (selected) addCross(lines, item.centre, 1.0f, kSelectedColor);
    }
  }
  // Node emitters: their pull's reach about the node (moved with the node itself).
  for (const scene::SceneNode& node : document_.derived().scene().nodes) {
    if (!node.hasComponent("gravity_source")) continue;
    const Json& emitter = node.components["gravity_source"];
    addCross(lines, node.world.position, 0.5f, kSourceColor);
    const float rOuter = emitter.value("r_outer", 0.0f);
    if (rOuter > 0.0f) addWireSphere(lines, node.world.position, rOuter, kShellColor);
  }
  if (lines.empty()) {
    view_.clearOverlayLines(itemsLayer());
  } else {
    view_.setOverlayLines(itemsLayer(), std::move(lines), OverlayDepth::Tested);
  }
}

Vec3 GravityTools::sliceCentre() const {
  if (const std::optional<GravityItem> item = selectedItem()) return item->centre;
  const scene::Scene& scene = document_.derived().scene();
  Vec3 sum(0.0f);
  int count = 0;
  for (const QString& name : document_.selection()) {
    const int index = document_.derived().findNode(name.toStdString());
    if (index < 0) continue;
    sum += scene.nodes[std::size_t(index)].world.position;
    ++count;
  }
  return count > 0 ? sum / float(count) : Vec3(0.0f);
}

void GravityTools::drawSlice() {
  slice_.clear();
  const Vec3 centre = sliceCentre();
  // The plane faces the camera's nearest axis.
  const Vec3 forward = glm::abs(view_.camera().basis().forward);
  sliceAxis_ = forward.x > forward.y && forward.x > forward.z ? 0 : forward.y > forward.z ? 1 : 2;
  // Half size (m): what the items and emitters reach from the centre, within [10, 80].
  float half = 0.0f;
  if (gravityIsObject(document_))
    for (const GravityItem& item : items())
      if (const std::optional<Json> json = document_.valueAt(item.pointer))
        if (const auto desc = readItem(*json, item.region, item.pointer))
          half = std::max(half, glm::distance(centre, item.centre) + itemReach(*desc));
  for (const scene::SceneNode& node : document_.derived().scene().nodes)
    if (node.hasComponent("gravity_source"))
      half = std::max(half, glm::distance(centre, node.world.position) +
                                node.components["gravity_source"].value("r_outer", 20.0f));
  half = std::clamp(half > 0.0f ? half : 20.0f, 10.0f, 80.0f);
  const int u = (sliceAxis_ + 1) % 3, v = (sliceAxis_ + 2) % 3;
  const float spacing = 2.0f * half / float(kSliceSamples - 1);
  float strongest = 0.0f;
  for (int i = 0; i < kSliceSamples; ++i) {
    for (int j = 0; j < kSliceSamples; ++j) {
      Vec3 p = centre;
      p[u] += -half + spacing * float(i);
      p[v] += -half + spacing * float(j);
      const Vec3 g = sample(p, view_.time());
      if (!isFinite(g) || !(glm::length(g) > 1e-6f)) continue;
      slice_.push_back({p, g});
      strongest = std::max(strongest, glm::length(g));
    }
  }
  std::vector<OverlayLine> lines;
  Vec3 normal(0.0f);
  normal[sliceAxis_] = 1.0f;
  for (const GravitySample& s : slice_) {
    const float t = glm::length(s.g) / strongest;
    const float length = spacing * 0.8f * (0.35f + 0.65f * t);
    addArrow(lines, s.at, s.at + glm::normalize(s.g) * length, normal,
             magnitudeColor(glm::length(s.g)));
  }
  view_.setOverlayLines(arrowsLayer(), std::move(lines), OverlayDepth::Tested);
}

}  // namespace floptle::editor
