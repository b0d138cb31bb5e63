// buildMeshCollider and MeshColliderCache (see mesh_collider_cache.h).
#include "floptle/physics/mesh_collider_cache.h"

#include <array>
#include <bit>
#include <compare>
#include <filesystem>
#include <list>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "floptle/physics/mesh_field_bake.h"

namespace floptle::physics {
namespace {

/// Share of the progress bar the import takes (-): with a bake the bake dominates.
constexpr float kImportShareWithBake = 0.3f;
constexpr float kImportShareWithoutBake = 0.9f;

/// What determines the triangle collider: file identity and version, import options, transform.
struct MeshKey {
  std::string canonicalPath;
  std::uintmax_t fileSize = 0;  // (bytes)
  std::int64_t writeTime = 0;   // file clock ticks
  int upAxis = 0;
  std::uint32_t unitScaleBits = 0;
  std::string object;  // the one object read (ImportOptions::object), empty: the whole file
  std::array<std::uint32_t, 8> transformBits{};  // position xyz, rotation wxyz, scale
  auto operator<=>(const MeshKey&) const = default;
};

/// A file's version as the cache tells edits apart: its size and last write time.
struct FileStamp {
  std::filesystem::path path;
  std::uintmax_t size = 0;  // (bytes)
  std::int64_t writeTime = 0;
  bool operator==(const FileStamp&) const = default;
};

/// The stamp of `path` now, or nothing when it cannot be read.
std::optional<FileStamp> stampOf(const std::filesystem::path& path) {
  std::error_code ec;
  FileStamp stamp{path, std::filesystem::file_size(path, ec), 0};
  if (ec) return std::nullopt;
  const auto written = std::filesystem::last_write_time(path, ec);
  if (ec) return std::nullopt;
  stamp.writeTime = static_cast<std::int64_t>(written.time_since_epoch().count());
  return stamp;
}

/// Stamps of the files an import read besides the mesh file itself (an OBJ's .mtl, a glTF's
/// .bin); nothing when one cannot be read (then the result is not cached).
std::optional<std::vector<FileStamp>> stampsBeside(const asset::TriangleMesh& mesh) {
  std::vector<FileStamp> stamps;
  for (std::size_t i = 1; i < mesh.sourceFiles.size(); ++i) {
    auto stamp = stampOf(mesh.sourceFiles[i]);
    if (!stamp) return std::nullopt;
    stamps.push_back(std::move(*stamp));
  }
  return stamps;
}

struct Entry {
  MeshKey key;
  /// The files the import read besides the mesh file, as they were: an entry whose .mtl or
  /// .bin has changed since is stale (the key holds only the mesh file's own stamp).
  std::vector<FileStamp> beside;
  std::shared_ptr<const TriMeshCollider> mesh;
  /// Baked fields by the bit pattern of their cell size.
  std::map<std::uint32_t, std::shared_ptr<const BrickMap>> fields;
  std::size_t bytes = 0;
};

std::size_t entryBytes(const Entry& e) {
  std::size_t bytes = e.mesh ? e.mesh->memoryBytes() : 0;
  for (const auto& [cell, map] : e.fields) bytes += map->memoryBytes();
  return bytes;
}

}  // namespace

/// The cache's state. Lookups and inserts hold the mutex; imports and bakes run outside it.
struct MeshColliderCache::Store {
 public:
  explicit Store(std::size_t budget) : budget_(budget) {}

  /// The prototype and (if asked) field for key; counts a hit when both are there.
  /// beside: the entry's stamps of the files beside the mesh file, for an insert after a bake.
  void find(const MeshKey& key, std::optional<std::uint32_t> cell, MeshColliderBuild& out,
            std::vector<FileStamp>& beside) {
    std::lock_guard lock(mutex_);
    auto it = index_.find(key);
    if (it != index_.end() && !current(*it->second)) {
      dropLocked(it);
      it = index_.end();
    }
    if (it != index_.end()) {
      lru_.splice(lru_.begin(), lru_, it->second);  // most recently used first
      out.mesh = it->second->mesh;
      beside = it->second->beside;
      if (cell) {
        auto f = it->second->fields.find(*cell);
        if (f != it->second->fields.end()) out.field = f->second;
      }
    }
    out.fromCache = out.mesh && (!cell || out.field);
    ++(out.fromCache ? stats_.hits : stats_.misses);
  }

  void countBake() {
    std::lock_guard lock(mutex_);
    ++stats_.bakes;
  }

  /// Adds a complete result (another thread may have added the same meanwhile: kept as is).
  /// beside: the stamps of the files the import read besides the mesh file (for a new entry).
  void insert(const MeshKey& key, std::optional<std::uint32_t> cell, const MeshColliderBuild& built,
              std::vector<FileStamp> beside) {
    std::lock_guard lock(mutex_);
    auto it = index_.find(key);
    if (it == index_.end()) {
      lru_.push_front(Entry{key, std::move(beside), built.mesh, {}, 0});
      it = index_.emplace(key, lru_.begin()).first;
    } else {
      lru_.splice(lru_.begin(), lru_, it->second);
    }
    Entry& e = *it->second;
    if (cell && built.field) e.fields.emplace(*cell, built.field);
    bytes_ -= e.bytes;
    e.bytes = entryBytes(e);
    bytes_ += e.bytes;
    evictLocked();
  }

  MeshColliderCacheStats stats() const {
    std::lock_guard lock(mutex_);
    MeshColliderCacheStats s = stats_;
    s.entries = lru_.size();
    s.bytes = bytes_;
    s.budgetBytes = budget_;
    return s;
  }

  void clear() {
    std::lock_guard lock(mutex_);
    index_.clear();
    lru_.clear();
    bytes_ = 0;
    stats_ = {};
  }

  void setBudget(std::size_t bytes) {
    std::lock_guard lock(mutex_);
    budget_ = bytes;
    evictLocked();
  }

 private:
  /// Whether the files the entry's import read besides the mesh file are as they were.
  static bool current(const Entry& e) {
    for (const FileStamp& was : e.beside)
      if (stampOf(was.path) != was) return false;
    return true;
  }

  void dropLocked(std::map<MeshKey, std::list<Entry>::iterator>::iterator it) {
    bytes_ -= it->second->bytes;
    lru_.erase(it->second);
    index_.erase(it);
    ++stats_.stale;
  }

  /// Least recently used first, until the total fits (the newest goes too if alone too big).
  void evictLocked() {
    while (bytes_ > budget_ && !lru_.empty()) {
      bytes_ -= lru_.back().bytes;
      index_.erase(lru_.back().key);
      lru_.pop_back();
      ++stats_.evictions;
    }
  }

  mutable std::mutex mutex_;
  std::list<Entry> lru_;  // front: most recently used
  std::map<MeshKey, std::list<Entry>::iterator> index_;
  std::size_t bytes_ = 0;
  std::size_t budget_;
  MeshColliderCacheStats stats_;
};

namespace {

/// The key, or nothing when the file cannot be identified (then importMesh reports why).
std::optional<MeshKey> keyOf(const MeshColliderRequest& request) {
  std::error_code ec;
  MeshKey key;
  const std::filesystem::path canonical = std::filesystem::canonical(request.file, ec);
  if (ec) return std::nullopt;
  key.canonicalPath = canonical.string();
  const std::optional<FileStamp> stamp = stampOf(canonical);
  if (!stamp) return std::nullopt;
  key.fileSize = stamp->size;
  key.writeTime = stamp->writeTime;
  key.upAxis = static_cast<int>(request.options.upAxis);
  key.unitScaleBits = std::bit_cast<std::uint32_t>(request.options.unitScale);
  key.object = request.options.object;
  const Transform& w = request.world;
  key.transformBits = {
      std::bit_cast<std::uint32_t>(w.position.x), std::bit_cast<std::uint32_t>(w.position.y),
      std::bit_cast<std::uint32_t>(w.position.z), std::bit_cast<std::uint32_t>(w.rotation.w),
      std::bit_cast<std::uint32_t>(w.rotation.x), std::bit_cast<std::uint32_t>(w.rotation.y),
      std::bit_cast<std::uint32_t>(w.rotation.z), std::bit_cast<std::uint32_t>(w.scale)};
  return key;
}

}  // namespace

Expected<MeshColliderBuild> buildMeshCollider(const MeshColliderRequest& request,
                                              MeshColliderCache* owner,
                                              const BakeProgress& progress,
                                              const std::atomic<bool>* cancel) {
  const float importShare = request.bakeField ? kImportShareWithBake : kImportShareWithoutBake;
  auto report = [&](float fraction, std::string_view stage) {
    if (progress) progress(fraction, stage);
  };
  const std::optional<MeshKey> key = keyOf(request);
  const std::optional<std::uint32_t> cell =
      request.bakeField ? std::optional(std::bit_cast<std::uint32_t>(request.cellSize))
                        : std::nullopt;
  MeshColliderCache::Store* cache = owner ? owner->store_.get() : nullptr;
  MeshColliderBuild built;
  std::vector<FileStamp> beside;  // of the mesh built or found
  if (key && cache) {
    cache->find(*key, cell, built, beside);
    if (built.fromCache) {
      report(1.0f, "done (cached)");
      return built;
    }
  }

  bool cacheable = cache && key && request.keep;
  if (!built.mesh) {
    const asset::ImportProgress importProgress = [&](float f, std::string_view stage) {
      report(f * importShare, stage);
    };
    auto mesh = owner && owner->importer_
                    ? owner->importer_(request.file, request.options, importProgress, cancel)
                    : asset::importMesh(request.file, request.options, importProgress, cancel);
    if (!mesh) return Error{"file", mesh.error().message()};
    if (auto stamps = stampsBeside(*mesh))
      beside = std::move(*stamps);
    else
      cacheable = false;  // a file it read is gone already: nothing to tell an edit by
    mesh->transform(request.world);
    report(importShare, "building the triangle BVH");
    auto collider = TriMeshCollider::create(*mesh);
    if (!collider) return Error{"file", request.file.string() + ": " + collider.error().message()};
    built.mesh = std::shared_ptr<const TriMeshCollider>(std::move(collider).value());
  }
  if (cancel && cancel->load()) return Error{"file", request.file.string() + ": cancelled"};
  if (request.bakeField) {
    MeshFieldBakeSettings bake;
    bake.cellSize = request.cellSize;
    bake.threads = 2;
    if (cache) cache->countBake();
    auto map = bakeMeshField(
        *built.mesh, bake,
        [&](float f, std::string_view stage) {
          report(importShare + f * (1.0f - importShare), stage);
        },
        cancel);
    if (!map) return Error{"cell_size", map.error().message()};
    built.field = std::make_shared<const BrickMap>(std::move(map).value());
  }
  if (cacheable) cache->insert(*key, cell, built, std::move(beside));
  report(1.0f, "done");
  return built;
}

MeshColliderCache::MeshColliderCache(std::size_t budgetBytes)
    : store_(std::make_unique<Store>(budgetBytes)) {}
MeshColliderCache::~MeshColliderCache() = default;
MeshColliderCacheStats MeshColliderCache::stats() const {
  return store_->stats();
}
void MeshColliderCache::clear() {
  store_->clear();
}
void MeshColliderCache::setBudget(std::size_t bytes) {
  store_->setBudget(bytes);
}

}  // namespace floptle::physics
