// ColliderWireframes: document -> (worker thread) drawn_surface edges -> the viewport's
// "colliders" layer.
#include "floptle/editor/wireframe_overlay.h"

#include <QFileInfo>
#include <QFutureWatcher>
#include <QtConcurrent/QtConcurrentRun>

#include <functional>

#include "floptle/editor/derived_scene.h"
#include "floptle/editor/editor_document.h"

namespace floptle::editor {

namespace {
/// Quiet time after a document change before extracting (ms): a gizmo drag re-extracts once
/// it pauses, not at every mouse move.
constexpr int kDebounceMs = 80;
/// Cached wireframes kept beyond the shown ones (entries).
constexpr std::size_t kCacheLimit = 256;
}  // namespace

struct ColliderWireframes::Job {
  struct Item {
    QString name;
    std::uint64_t key = 0;
    scene::SceneNode node;
    std::optional<Expected<std::vector<OverlayLine>>> result;
  };
  std::vector<Item> items;
  std::vector<scene::Material> materials;
  std::filesystem::path sceneDir;
  double t = 0.0;
  physics::MeshColliderCache* meshCache = nullptr;
  std::shared_ptr<std::atomic<bool>> cancel;
};

ColliderWireframes::ColliderWireframes(EditorDocument& document, RaymarchView& view,
                                       physics::MeshColliderCache* meshCache, QObject* parent)
    : QObject(parent), document_(document), view_(view), meshCache_(meshCache) {
  debounce_.setSingleShot(true);
  debounce_.setInterval(kDebounceMs);
  connect(&debounce_, &QTimer::timeout, this, &ColliderWireframes::refresh);
  connect(&document_, &EditorDocument::documentChanged, this, &ColliderWireframes::scheduleRefresh);
  watcher_ = new QFutureWatcher<std::shared_ptr<Job>>(this);
  connect(watcher_, &QFutureWatcherBase::finished, this, &ColliderWireframes::onJobFinished);
}

ColliderWireframes::~ColliderWireframes() {
  if (cancel_) cancel_->store(true);
  watcher_->waitForFinished();
}

void ColliderWireframes::setEnabled(bool enabled) {
  if (enabled == enabled_) return;
  enabled_ = enabled;
  refresh();
}

void ColliderWireframes::setNodeShown(const QString& node, bool shown) {
  overrides_[node] = shown;
  refresh();
}

void ColliderWireframes::clearNodeOverride(const QString& node) {
  if (overrides_.erase(node)) refresh();
}

bool ColliderWireframes::nodeShown(const QString& node) const {
  const auto found = overrides_.find(node);
  return found != overrides_.end() ? found->second : enabled_;
}

bool ColliderWireframes::busy() const {
  return debounce_.isActive() || jobActive_;
}

std::size_t ColliderWireframes::lineCount(const QString& node) const {
  const auto key = shownKeys_.find(node);
  if (key == shownKeys_.end()) return 0;
  const auto lines = cache_.find(key->second);
  return lines == cache_.end() ? 0 : lines->second->size();
}

void ColliderWireframes::scheduleRefresh() {
  debounce_.start();
}

std::uint64_t ColliderWireframes::nodeKey(const scene::SceneNode& node) const {
  // The node's own JSON (children excluded: they are nodes of their own), its world transform
  // (a parent's move moves it) and the folder its mesh paths resolve against.
  Json own = document_.valueAt(node.pointer).value_or(Json::object());
  if (own.is_object()) own.erase("children");
  std::string text = own.dump();
  const Transform& w = node.world;
  for (float v : {w.position.x, w.position.y, w.position.z, w.rotation.x, w.rotation.y,
                  w.rotation.z, w.rotation.w, w.scale})
    text += ' ' + std::to_string(v);
  text += ' ' + QFileInfo(document_.filePath()).absolutePath().toStdString();
  return std::hash<std::string>{}(text);
}

void ColliderWireframes::filesChanged() {
  cache_.clear();
  refresh();
}

void ColliderWireframes::refresh() {
  debounce_.stop();
  if (jobActive_) {  // the running job is stale: stop it, then start over
    if (cancel_) cancel_->store(true);
    refreshAgain_ = true;
    return;
  }
  const scene::Scene& scene = document_.derived().scene();
  shownKeys_.clear();
  auto job = std::make_shared<Job>();
  for (const scene::SceneNode& node : scene.nodes) {
    const QString name = QString::fromStdString(node.name);
    if (!nodeShown(name)) continue;
    const std::uint64_t key = nodeKey(node);
    shownKeys_[name] = key;
    if (!cache_.count(key)) job->items.push_back({name, key, node, std::nullopt});
  }
  publish();
  if (job->items.empty()) return;
  job->materials = scene.materials;
  job->sceneDir =
      document_.filePath().isEmpty()
          ? std::filesystem::current_path()
          : std::filesystem::path(QFileInfo(document_.filePath()).absolutePath().toStdString());
  job->t = time_;
  job->meshCache = meshCache_;
  cancel_ = std::make_shared<std::atomic<bool>>(false);
  job->cancel = cancel_;
  jobActive_ = true;
  watcher_->setFuture(QtConcurrent::run([job] {
    for (Job::Item& item : job->items) {
      if (job->cancel->load()) break;
      item.result = extractColliderWireframe(item.node, job->materials, job->sceneDir, job->t,
                                             job->meshCache, job->cancel.get());
    }
    return job;
  }));
}

void ColliderWireframes::onJobFinished() {
  jobActive_ = false;
  const std::shared_ptr<Job> job = watcher_->result();
  const bool cancelled = job->cancel->load();
  for (Job::Item& item : job->items) {
    if (!item.result) continue;
    ++extractions_;
    if (item.result->ok()) {
      cache_[item.key] =
          std::make_shared<const std::vector<OverlayLine>>(std::move(item.result->value()));
    } else if (!cancelled) {
      // Cache the failure as no lines: the same content fails the same way.
      cache_[item.key] = std::make_shared<const std::vector<OverlayLine>>();
      emit failed(item.name, QString::fromStdString(item.result->error().message()));
    }
  }
  if (cache_.size() > kCacheLimit) {
    std::set<std::uint64_t> keep;
    for (const auto& [name, key] : shownKeys_) keep.insert(key);
    for (auto it = cache_.begin(); it != cache_.end() && cache_.size() > kCacheLimit;)
      it = keep.count(it->first) ? std::next(it) : cache_.erase(it);
  }
  if (refreshAgain_) {
    refreshAgain_ = false;
    refresh();
    return;
  }
  publish();
}

void ColliderWireframes::publish() {
  std::vector<OverlayLine> all;
  for (const auto& [name, key] : shownKeys_) {
    auto found = cache_.find(key);
    if (found != cache_.end()) {
      shownLines_[name] = found->second;
    } else if (!shownLines_.count(name)) {
      continue;  // nothing yet: the extraction is on its way
    }
    // Not cached yet: the node's previous lines stay until the new ones arrive (no flicker).
    const auto& lines = *shownLines_[name];
    all.insert(all.end(), lines.begin(), lines.end());
  }
  for (auto it = shownLines_.begin(); it != shownLines_.end();)
    it = shownKeys_.count(it->first) ? std::next(it) : shownLines_.erase(it);
  lineCount_ = all.size();
  if (all.empty()) {
    view_.clearOverlayLines(layerName());
  } else {
    view_.setOverlayLines(layerName(), std::move(all), OverlayDepth::Tested);
  }
  emit updated();
}

}  // namespace floptle::editor
