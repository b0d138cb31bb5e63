// ImportedMeshView: document mesh components -> overlay mesh layers.
#include "floptle/editor/import_mesh_view.h"

#include <QFileInfo>
#include <QFileSystemWatcher>
#include <QFutureWatcher>
#include <QtConcurrent/QtConcurrentRun>

#include <filesystem>
#include <set>
#include <sstream>

#include <glm/glm.hpp>

#include "floptle/core/file_path.h"
#include "floptle/editor/derived_scene.h"
#include "floptle/editor/editor_document.h"
#include "floptle/physics/mesh_collider_cache.h"
#include "floptle/physics/tri_mesh_collider.h"
#include "import/import_worker.h"

namespace floptle::editor {

struct ImportedMeshView::Load {
  std::string path;
  /// The mesh read (null when it could not be: then error says why, naming the path).
  std::shared_ptr<const asset::TriangleMesh> mesh;
  std::string error;
  /// The cache's collider over that mesh (null when read without the cache).
  std::shared_ptr<const physics::TriMeshCollider> collider;
};

std::optional<ImportedMeshView::Source> ImportedMeshView::sourceOf(
    const nlohmann::ordered_json& component, const std::filesystem::path& sceneDir) {
  if (!component.is_object() || !component.contains("file") || !component["file"].is_string())
    return std::nullopt;
  // A collision-only object ("-colonly") is not drawn.
  if (component.contains("drawn") && component["drawn"].is_boolean() &&
      !component["drawn"].get<bool>())
    return std::nullopt;
  const std::filesystem::path file(component["file"].get<std::string>());
  if (file.empty()) return std::nullopt;
  Source source;
  source.path = absoluteNormal(sceneDir / file).string();  // an absolute `file` stays as it is
  // Values the physics would refuse are its to report (the component's own reader): drawn as
  // the file reads by default.
  if (component.contains("up_axis") && component["up_axis"].is_string())
    source.options.upAxis = asset::parseUpAxis(component["up_axis"].get<std::string>())
                                .value_or(asset::ImportOptions::UpAxis::Automatic);
  if (component.contains("unit_scale") && component["unit_scale"].is_number())
    source.options.unitScale = component["unit_scale"].get<float>();
  if (component.contains("object") && component["object"].is_string())
    source.options.object = component["object"].get<std::string>();
  return source;
}

ImportedMeshView::ImportedMeshView(EditorDocument& document, RaymarchView& view,
                                   physics::MeshColliderCache* meshCache, QObject* parent)
    : QObject(parent),
      document_(document),
      view_(view),
      meshCache_(meshCache),
      watcher_(new QFileSystemWatcher(this)) {
  connect(&document_, &EditorDocument::documentChanged, this, &ImportedMeshView::sync);
  connect(watcher_, &QFileSystemWatcher::fileChanged, this, &ImportedMeshView::fileChanged);
  connect(watcher_, &QFileSystemWatcher::directoryChanged, this, &ImportedMeshView::fileChanged);
  settleTimer_.setSingleShot(true);
  settleTimer_.setInterval(kReloadSettleMs);
  connect(&settleTimer_, &QTimer::timeout, this, &ImportedMeshView::reloadChanged);
}

ImportedMeshView::~ImportedMeshView() {
  for (auto& [key, watcher] : loading_) watcher->waitForFinished();
}

std::string ImportedMeshView::meshCacheKey(const std::string& absolutePath,
                                           const asset::ImportOptions& options) {
  std::ostringstream key;
  key << absolutePath << '|' << asset::upAxisName(options.upAxis) << '|' << options.unitScale << '|'
      << options.object;
  return key.str();
}

void ImportedMeshView::prime(const std::string& cacheKey, asset::TriangleMesh mesh) {
  watch(cacheKey, mesh.sourceFiles);
  meshes_[cacheKey] = std::make_shared<const asset::TriangleMesh>(std::move(mesh));
  pickColliders_.erase(cacheKey);
  failed_.erase(cacheKey);
  sync();
}

void ImportedMeshView::startLoad(const std::string& key, const Source& source) {
  auto* watcher = new QFutureWatcher<std::shared_ptr<Load>>(this);
  loading_[key] = watcher;
  connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, key] {
    const std::shared_ptr<Load> load = watcher->result();
    loading_.erase(key);
    watcher->deleteLater();
    const bool reload = meshes_.count(key) > 0;
    if (load->mesh) {
      watch(key, load->mesh->sourceFiles);
      meshes_[key] = load->mesh;
      pickColliders_.erase(key);
      if (load->collider) pickColliders_[key] = load->collider;
      failed_.erase(key);
      if (reload) {
        // Uploaded again on the sync below: every layer drawn from this key.
        for (auto& [layer, signature] : shownSignature_)
          if (signature.compare(0, key.size() + 1, key + "|") == 0 || signature == key)
            signature.clear();
        ++reloads_;
        emit message(
            tr("Reloaded mesh %1 (changed on disk)").arg(QString::fromStdString(load->path)));
        emit reloaded(QString::fromStdString(load->path));
      }
    } else {
      failed_[key] = true;
      watch(key, {});  // the file, or its folder while it is missing
      // importMesh's errors start with the path already ("/x/rock.glb: file not found").
      const std::string why = load->error.empty() ? load->path + ": not loaded" : load->error;
      emit message(reload ? tr("Viewport: cannot reload mesh, the last version stays drawn: %1")
                                .arg(QString::fromStdString(why))
                          : tr("Viewport: cannot draw mesh: %1").arg(QString::fromStdString(why)));
    }
    sync();
  });
  watcher->setFuture(QtConcurrent::run([path = source.path, options = source.options,
                                        cache = meshCache_] {
    auto load = std::make_shared<Load>();
    load->path = path;
    if (cache) {
      physics::MeshColliderRequest request;
      request.file = std::filesystem::path(path);
      request.options = options;
      request.world = Transform::identity();
      if (auto built = cache->build(request); built.ok()) {
        load->collider = built->mesh;
        // The collider's own mesh (under the identity: the file's vertices), not a copy.
        load->mesh = std::shared_ptr<const asset::TriangleMesh>(built->mesh, &built->mesh->mesh());
        return load;
      }
    }
    // No cache, or a mesh the collider refuses (degenerate: drawn, not pickable): the file alone.
    auto mesh = importMeshInWorker(std::filesystem::path(path), options);
    if (mesh.ok())
      load->mesh = std::make_shared<const asset::TriangleMesh>(std::move(mesh).value());
    else
      load->error = mesh.error().message();
    return load;
  }));
}

void ImportedMeshView::watch(const std::string& key,
                             const std::vector<std::filesystem::path>& files) {
  std::vector<QString> paths;
  for (const auto& file : files) paths.push_back(QString::fromStdString(file.string()));
  if (const auto source = sources_.find(key); source != sources_.end()) {
    const QString main = QString::fromStdString(source->second.path);
    // The mesh file itself even when it could not be read (broken: its next write may fix it),
    // and while it is missing, its folder (to notice it being written).
    if (QFileInfo::exists(main))
      paths.push_back(main);
    else
      paths.push_back(QFileInfo(main).absolutePath());
  }
  for (const QString& path : paths) {
    watchedBy_[path].insert(key);
    addWatch(path);
  }
}

void ImportedMeshView::addWatch(const QString& path) {
  if (QFileInfo::exists(path) && !watcher_->files().contains(path) &&
      !watcher_->directories().contains(path))
    watcher_->addPath(path);
}

void ImportedMeshView::fileChanged(const QString& path) {
  const auto it = watchedBy_.find(path);
  if (it == watchedBy_.end()) return;
  const bool folder = watcher_->directories().contains(path);
  for (const std::string& key : it->second) {
    // A folder changes whenever anything in it does: it counts only once the missing file is
    // there (and not yet watched itself).
    if (folder) {
      const auto source = sources_.find(key);
      if (source == sources_.end()) continue;
      const QString main = QString::fromStdString(source->second.path);
      if (!QFileInfo::exists(main) || watcher_->files().contains(main)) continue;
    }
    changed_.insert(key);
  }
  // An exporter that writes a new file and renames it over the old one ends the watch: renew it.
  addWatch(path);
  if (!changed_.empty()) settleTimer_.start();
}

void ImportedMeshView::reloadChanged() {
  std::set<std::string> later;
  for (const std::string& key : changed_) {
    if (loading_.count(key)) {
      later.insert(key);  // read again once the read in flight is in
      continue;
    }
    const auto source = sources_.find(key);
    if (source == sources_.end() || (!meshes_.count(key) && !failed_.count(key))) continue;
    failed_.erase(key);
    startLoad(key, source->second);
    emit sourceChanged(QString::fromStdString(source->second.path));
  }
  changed_ = std::move(later);
  if (!changed_.empty()) settleTimer_.start();
}

void ImportedMeshView::sync() {
  const scene::Scene& scene = document_.derived().scene();
  const QString docPath = document_.filePath();
  const std::filesystem::path sceneDir =
      docPath.isEmpty() ? std::filesystem::current_path()
                        : std::filesystem::path(QFileInfo(docPath).absolutePath().toStdString());
  std::set<QString> seen;
  shownMeshes_.clear();
  for (const scene::SceneNode& node : scene.nodes) {
    if (!node.hasComponent("mesh")) continue;
    const nlohmann::ordered_json& component = node.components["mesh"];
    const auto source = sourceOf(component, sceneDir);
    if (!source) continue;
    const QString layer = layerName(QString::fromStdString(node.name));
    const std::string key = meshCacheKey(source->path, source->options);
    sources_[key] = *source;  // what a reload reads
    const auto found = meshes_.find(key);
    if (found == meshes_.end()) {
      if (!loading_.count(key) && !failed_.count(key)) startLoad(key, *source);
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
        if (const scene::Material* material =
                scene.material(scene.findMaterial(component["materials"][slot])))
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
      collider =
          pickColliders_.emplace(shown.key, built.ok() ? std::move(built.value()) : nullptr).first;
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
