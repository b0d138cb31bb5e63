// ImportedMeshView: document mesh components -> overlay mesh layers.
#include "floptle/editor/import_mesh_view.h"

#include <QFileInfo>
#include <QFutureWatcher>
#include <QtConcurrent/QtConcurrentRun>

#include <filesystem>
#include <set>
#include <sstream>

#include <glm/glm.hpp>

#include "floptle/editor/derived_scene.h"
#include "floptle/editor/editor_document.h"
#include "floptle/physics/tri_mesh_collider.h"

namespace floptle::editor {

struct ImportedMeshView::Load {
  std::string key;
  std::string path;
  std::optional<Expected<asset::TriangleMesh>> mesh;
};

namespace {

struct MeshRef {
  std::string path;    ///< absolute
  std::string upAxis;  ///< "auto" | "y" | "z"
  double unitScale = 0.0;
};

std::optional<MeshRef> meshRef(const nlohmann::ordered_json& component, const std::filesystem::path& sceneDir) {
  if (!component.is_object() || !component.contains("file") || !component["file"].is_string()) return std::nullopt;
  MeshRef ref;
  std::filesystem::path file(component["file"].get<std::string>());
  if (file.empty()) return std::nullopt;
  if (file.is_relative()) file = sceneDir / file;
  std::error_code ec;
  ref.path = std::filesystem::absolute(file, ec).lexically_normal().string();
  if (component.contains("up_axis") && component["up_axis"].is_string()) ref.upAxis = component["up_axis"].get<std::string>();
  if (ref.upAxis.empty()) ref.upAxis = "auto";
  if (component.contains("unit_scale") && component["unit_scale"].is_number())
    ref.unitScale = component["unit_scale"].get<double>();
  return ref;
}

}  // namespace

ImportedMeshView::ImportedMeshView(EditorDocument& document, RaymarchView& view, QObject* parent)
    : QObject(parent), document_(document), view_(view) {
  connect(&document_, &EditorDocument::documentChanged, this, &ImportedMeshView::sync);
}

ImportedMeshView::~ImportedMeshView() {
  for (auto& [key, watcher] : loading_) watcher->waitForFinished();
}

std::string ImportedMeshView::meshCacheKey(const std::string& absolutePath, const std::string& upAxis,
                                           double unitScale) {
  std::ostringstream key;
  key << absolutePath << '|' << upAxis << '|' << unitScale;
  return key.str();
}

void ImportedMeshView::prime(const std::string& cacheKey, asset::TriangleMesh mesh) {
  meshes_[cacheKey] = std::make_shared<const asset::TriangleMesh>(std::move(mesh));
  pickColliders_.erase(cacheKey);
  failed_.erase(cacheKey);
  sync();
}

void ImportedMeshView::startLoad(const std::string& key, const std::string& path, const std::string& upAxis,
                                 double unitScale) {
  asset::ImportOptions options;
  options.upAxis = upAxis == "y"   ? asset::ImportOptions::UpAxis::Y
                   : upAxis == "z" ? asset::ImportOptions::UpAxis::Z
                                   : asset::ImportOptions::UpAxis::Automatic;
  options.unitScale = float(unitScale);
  auto* watcher = new QFutureWatcher<std::shared_ptr<Load>>(this);
  loading_[key] = watcher;
  connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, key] {
    const std::shared_ptr<Load> load = watcher->result();
    loading_.erase(key);
    watcher->deleteLater();
    if (load->mesh && load->mesh->ok()) {
      meshes_[key] = std::make_shared<const asset::TriangleMesh>(std::move(load->mesh->value()));
      pickColliders_.erase(key);
    } else {
      failed_[key] = true;
      // importMesh's errors start with the path already ("/x/rock.glb: file not found").
      const std::string why = load->mesh ? load->mesh->error().message() : load->path + ": not loaded";
      emit message(tr("Viewport: cannot draw mesh: %1").arg(QString::fromStdString(why)));
    }
    sync();
  });
  watcher->setFuture(QtConcurrent::run([key, path, options] {
    auto load = std::make_shared<Load>();
    load->key = key;
    load->path = path;
    load->mesh = asset::importMesh(std::filesystem::path(path), options);
    return load;
  }));
}

void ImportedMeshView::sync() {
  const scene::Scene& scene = document_.derived().scene;
  const QString docPath = document_.filePath();
  const std::filesystem::path sceneDir = docPath.isEmpty()
                                             ? std::filesystem::current_path()
                                             : std::filesystem::path(QFileInfo(docPath).absolutePath().toStdString());
  std::set<QString> seen;
  shownMeshes_.clear();
  for (const scene::SceneNode& node : scene.nodes) {
    if (!node.hasComponent("mesh")) continue;
    const nlohmann::ordered_json& component = node.components["mesh"];
    const auto ref = meshRef(component, sceneDir);
    if (!ref) continue;
    const QString layer = layerName(QString::fromStdString(node.name));
    const std::string key = meshCacheKey(ref->path, ref->upAxis, ref->unitScale);
    const auto found = meshes_.find(key);
    if (found == meshes_.end()) {
      if (!loading_.count(key) && !failed_.count(key)) startLoad(key, ref->path, ref->upAxis, ref->unitScale);
      continue;  // drawn once loaded
    }
    seen.insert(layer);
    const asset::TriangleMesh& mesh = *found->second;

    // Slot colours: the node's mesh.materials[slot] scene material, else the file's colour.
    std::vector<Vec3> slotColors;
    for (std::size_t slot = 0; slot < mesh.materialSlots.size(); ++slot) {
      Vec3 color = Vec3(mesh.materialSlots[slot].baseColor);
      if (component.contains("materials") && component["materials"].is_array() &&
          slot < component["materials"].size()) {
        if (const scene::Material* material = scene.material(scene.findMaterial(component["materials"][slot])))
          color = material->color;
      }
      slotColors.push_back(color);
    }
    std::ostringstream signature;
    signature << key;
    for (const Vec3& c : slotColors) signature << '|' << c.x << ',' << c.y << ',' << c.z;
    const Mat4 transform = node.world.matrix();
    shownMeshes_[node.name] = ShownMesh{key, transform};
    if (shownSignature_[layer] == signature.str()) {
      view_.setOverlayMeshTransform(layer, transform);
      continue;
    }
    shownSignature_[layer] = signature.str();
    OverlayMesh overlay;
    overlay.positions = mesh.positions;
    overlay.triangles = mesh.triangles;
    overlay.triangleColors.reserve(mesh.triangles.size());
    for (std::size_t t = 0; t < mesh.triangles.size(); ++t) {
      const std::size_t slot = t < mesh.triangleSlots.size() ? mesh.triangleSlots[t] : 0;
      overlay.triangleColors.push_back(slot < slotColors.size() ? slotColors[slot] : Vec3(0.72f));
    }
    overlay.transform = transform;
    view_.setOverlayMesh(layer, std::move(overlay));
  }
  for (auto it = shownSignature_.begin(); it != shownSignature_.end();) {
    if (seen.count(it->first)) {
      ++it;
    } else {
      view_.clearOverlayMesh(it->first);
      it = shownSignature_.erase(it);
    }
  }
  emit updated();
}

std::optional<PickHit> ImportedMeshView::pick(const Ray& ray, float maxDistance) const {
  std::optional<PickHit> best;
  for (const auto& [node, shown] : shownMeshes_) {
    auto collider = pickColliders_.find(shown.key);
    if (collider == pickColliders_.end()) {
      const auto mesh = meshes_.find(shown.key);
      if (mesh == meshes_.end()) continue;
      auto built = physics::TriMeshCollider::create(*mesh->second, {.labelled = false});
      collider = pickColliders_.emplace(shown.key, built.ok() ? std::move(built.value()) : nullptr).first;
    }
    if (!collider->second) continue;  // a mesh the collider refuses (degenerate) is not pickable
    // Into the node's frame: the local direction's length is the local metres per world metre.
    const Mat4 toLocal = glm::inverse(shown.transform);
    const Vec3 origin = Vec3(toLocal * Vec4(ray.origin, 1.0f));
    const Vec3 direction = Vec3(toLocal * Vec4(ray.direction, 0.0f));
    const float stretch = glm::length(direction);
    if (!(stretch > 0.0f) || !std::isfinite(stretch)) continue;
    const auto hit = collider->second->raycast(origin, direction / stretch, maxDistance * stretch);
    if (!hit.hit) continue;
    const float distance = hit.distance / stretch;
    if (!best || distance < best->distance) best = PickHit{node, distance, ray.at(distance)};
  }
  return best;
}

}  // namespace floptle::editor
