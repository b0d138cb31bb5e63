#pragma once
// MeshColliderCache: an imported mesh's collider built once per owner: a thread-safe cache of
// triangle colliders (BVH) and baked fields (BrickMap) keyed by what determines them. Callers
// own one and pass it on (runtime::BuildOptions::meshCache, MeshColliderOptions::cache): the
// editor owns exactly one (the main window's), handed to Import Mesh, the collider overlay
// and play mode, so a field baked at import is the one the first Play finds, and a second
// Play neither re-imports, rebuilds the BVH nor re-bakes. Each CLI run owns its own; tests
// make theirs. Two caches share nothing.
//
// Key: the file's canonical absolute path, its size and last write time (an edited file is
// read again), the import options (up axis, unit scale, the object read), the node's world
// transform (exact bits of position, rotation, scale: the collider is built in world space), and
// for a field its cell size (the band is always MeshFieldBakeSettings' default). An entry also
// keeps the size and write time of every other file the import read (an OBJ's .mtl, a glTF's .bin,
// as TriangleMesh::sourceFiles lists them) and is dropped as stale when one has changed or gone, so
// a material renamed in the .mtl alone is read again too. Value: the TriMeshCollider prototype
// (immutable, shared through TriMeshCollider::share()) and the baked BrickMaps (const; a world gets
// its own copy, since BakedFieldCollider re-bakes its map in place).
//
// Bounded: least recently used entries go once the total exceeds the budget, by default
// kMeshColliderCacheDefaultBudget = 1 GiB of BrickMap::memoryBytes() plus
// TriMeshCollider::memoryBytes(). Why that figure: the issue-4 terrain (100,352 triangles)
// costs 28 MB of mesh and BVH and its 0.25 m field 26 MB more (tests/bench/bench_mesh_cache),
// so 1 GiB keeps about 19 such baked terrains, or 37 triangle meshes: a large level, plus the
// versions a few transform edits leave behind (the collider is built in world space, so a
// moved node is a new entry), while staying a small share of an editing machine's memory
// (every running world holds its own field copy besides). An entry larger than the whole
// budget is not kept.
//
// Only complete results enter the cache: a failed or cancelled import or bake leaves nothing.
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>

#include "floptle/core/asset/mesh_import.h"
#include "floptle/core/brickmap/brick_map.h"
#include "floptle/core/expected.h"
#include "floptle/core/math.h"
#include "floptle/physics/tri_mesh_collider.h"

namespace floptle::physics {

/// Bake cell of a "field" mesh component that names none (m); the editor bakes at it too.
inline constexpr float kMeshFieldCellSize = 0.25f;
/// Default cache budget (bytes): see the header comment for the figure.
inline constexpr std::size_t kMeshColliderCacheDefaultBudget = std::size_t(1) << 30;

/// One mesh component as the physics builds it.
struct MeshColliderRequest {
  /// The mesh file (resolved: the scene directory already prepended).
  std::filesystem::path file;
  asset::ImportOptions options;
  /// The node's full world transform (applied to the vertices).
  Transform world;
  /// Also bake the signed-distance field ("collision": "field").
  bool bakeField = false;
  /// Fine cell of the field (m), > 0; used only with bakeField.
  float cellSize = kMeshFieldCellSize;
  /// False: answer from the cache when it holds this entry, but add none. For transforms that
  /// only pass by (the editor's collider overlay while a node is dragged): each would be a new
  /// entry of the whole mesh, kept until the budget pushed it out.
  bool keep = true;
};

struct MeshColliderBuild {
  /// The triangle collider prototype (world space); give a world prototype->share().
  std::shared_ptr<const TriMeshCollider> mesh;
  /// The baked field (bakeField only, else null); a world copies it.
  std::shared_ptr<const BrickMap> field;
  /// Whether the whole answer came from the cache (nothing read, built or baked).
  bool fromCache = false;
};

struct MeshColliderCacheStats {
  /// Requests answered whole from the cache (-).
  std::uint64_t hits = 0;
  /// Requests that had to import, build or bake something (-).
  std::uint64_t misses = 0;
  /// Field bakes started (-).
  std::uint64_t bakes = 0;
  /// Entries dropped for the budget (-).
  std::uint64_t evictions = 0;
  /// Entries dropped because a file their import read besides the mesh file (an OBJ's .mtl,
  /// a glTF's .bin) has changed or gone since (-).
  std::uint64_t stale = 0;
  /// Entries held now (-) and their bytes (bytes).
  std::size_t entries = 0;
  std::size_t bytes = 0;
  std::size_t budgetBytes = 0;
};

class MeshColliderCache;

/// Reads a mesh file as asset::importMesh does (same arguments, same errors). The default is
/// asset::importMesh in this process; the editor's cache reads through a worker process.
using MeshImporter = std::function<Expected<asset::TriangleMesh>(
    const std::filesystem::path&, const asset::ImportOptions&, const asset::ImportProgress&,
    const std::atomic<bool>*)>;

/// Finds or builds the collider for `request`: through `cache` when one is given, else built
/// afresh and kept nowhere. progress: fraction in [0, 1] of the whole job (import, BVH, bake)
/// and the stage in words; cancel is polled by the import and the bake.
/// Errors: where = "file" (unreadable file, no triangles, bad vertices after the transform;
/// what always names the path) or "cell_size" (a bad cell, a cancelled bake; what does not
/// name the file). A cancelled import or bake is an error and caches nothing.
Expected<MeshColliderBuild> buildMeshCollider(const MeshColliderRequest& request,
                                              MeshColliderCache* cache,
                                              const BakeProgress& progress = {},
                                              const std::atomic<bool>* cancel = nullptr);

/// Thread-safe: any thread may build through it and read its stats at once. Imports and bakes
/// run outside its lock, so two threads may build the same entry; the first kept stays.
class MeshColliderCache {
 public:
  /// budgetBytes: see setBudget.
  explicit MeshColliderCache(std::size_t budgetBytes = kMeshColliderCacheDefaultBudget);
  ~MeshColliderCache();
  MeshColliderCache(const MeshColliderCache&) = delete;
  MeshColliderCache& operator=(const MeshColliderCache&) = delete;

  /// buildMeshCollider through this cache.
  Expected<MeshColliderBuild> build(const MeshColliderRequest& request,
                                    const BakeProgress& progress = {},
                                    const std::atomic<bool>* cancel = nullptr) {
    return buildMeshCollider(request, this, progress, cancel);
  }

  MeshColliderCacheStats stats() const;
  /// Drops every entry and zeroes the counters. Colliders already handed out live on.
  void clear();
  /// Sets the budget (bytes) and evicts down to it at once.
  void setBudget(std::size_t bytes);
  /// How this cache's builds read mesh files (empty: asset::importMesh). Set it before the
  /// first build; it is called from any thread that builds.
  void setImporter(MeshImporter importer) { importer_ = std::move(importer); }

 private:
  friend Expected<MeshColliderBuild> buildMeshCollider(const MeshColliderRequest&,
                                                       MeshColliderCache*, const BakeProgress&,
                                                       const std::atomic<bool>*);
  struct Store;
  std::unique_ptr<Store> store_;
  MeshImporter importer_;
};

}  // namespace floptle::physics
