// The mesh collider cache behind makeMeshCollider: a second request for the same component is
// answered from the caller's cache (no import, no BVH, no bake) with the same bits; another
// cache shares nothing; an edited file, a
// different transform, up axis or cell size is built again; every world owns its field map;
// the least recently used entries go beyond the budget; a cancelled bake caches nothing.
#include <gtest/gtest.h>

#include <atomic>
#include <bit>
#include <chrono>
#include <thread>
#include <vector>

#include "../mesh_test_files.h"
#include "brick_map_values.h"
#include "floptle/physics/baked_field_collider.h"
#include "floptle/physics/mesh_collider.h"
#include "floptle/physics/mesh_collider_cache.h"
#include "floptle/physics/tri_mesh_collider.h"

namespace floptle::physics {
namespace {

using testing::samplesOf;

using Json = nlohmann::ordered_json;

/// A cube of half extent `half` (m) centred on the origin, 12 triangles, one material.
void writeCube(const std::filesystem::path& file, float half) {
  std::string obj;
  for (int i = 0; i < 8; ++i)
    obj += "v " + std::to_string((i & 1) ? half : -half) + " " +
           std::to_string((i & 2) ? half : -half) + " " + std::to_string((i & 4) ? half : -half) +
           "\n";
  obj += "f 1 5 7 3\nf 2 4 8 6\nf 1 2 6 5\nf 1 3 4 2\nf 5 6 8 7\nf 3 7 8 4\n";
  floptle::testing::writeText(file, obj);
}

/// Signed distances and ray casts over a lattice around the cube: the bits a world sees.
std::vector<std::uint32_t> answers(const CollisionShape& shape) {
  std::vector<std::uint32_t> bits;
  for (float x = -1.3f; x <= 1.3f; x += 0.37f)
    for (float y = -1.3f; y <= 1.3f; y += 0.41f)
      for (float z = -1.3f; z <= 1.3f; z += 0.43f) {
        const Vec3 p(x, y, z);
        bits.push_back(std::bit_cast<std::uint32_t>(shape.distance(p, 0.0)));
        const Vec3 dir = glm::normalize(-p + Vec3(0.05f, 0.02f, 0.0f));
        const auto hit = shape.castSphere(p, dir, 0.0f, 10.0f, 0.0);
        bits.push_back(hit.handled && hit.hit ? std::bit_cast<std::uint32_t>(hit.distance)
                                              : 0xffffffffu);
      }
  return bits;
}

// share(): a second collider over the same BVH, answering the same bits, alive after the
// original is gone (the state is shared, not borrowed).
TEST(TriMeshColliderShare, SharesTheStateAndOutlivesTheOriginal) {
  auto original = TriMeshCollider::create(floptle::testing::icosphere(2, 1.0f));
  ASSERT_TRUE(original.ok());
  const std::vector<std::uint32_t> expected = answers(**original);
  std::unique_ptr<TriMeshCollider> shared = (*original)->share();
  EXPECT_EQ(&shared->mesh(), &(*original)->mesh());
  EXPECT_EQ(shared->memoryBytes(), (*original)->memoryBytes());
  EXPECT_GT(shared->memoryBytes(), shared->triangleCount() * (3 * sizeof(Vec3)));
  original.value().reset();
  EXPECT_EQ(answers(*shared), expected);
  EXPECT_NEAR(shared->distance(Vec3(0.0f, 2.0f, 0.0f), 0.0), 1.0f, 0.02f);
}

class MeshColliderCacheTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = floptle::testing::makeTempDir("mesh_cache");
    writeCube(dir_ / "cube.obj", 0.5f);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  /// Options that build through this test's cache (keep: see MeshColliderRequest::keep).
  ColliderBuildOptions through(MeshColliderCache& cache, bool keep = true) {
    ColliderBuildOptions options;
    options.meshCache = &cache;
    options.keepInCache = keep;
    return options;
  }
  std::unique_ptr<CollisionShape> make(const Json& component, const Transform& world = {}) {
    auto shape = makeMeshCollider(component, dir_, world, through(cache_));
    EXPECT_TRUE(shape.ok()) << shape.error().message();
    return shape.ok() ? std::move(shape).value() : nullptr;
  }
  std::filesystem::path dir_;
  MeshColliderCache cache_;
};

TEST_F(MeshColliderCacheTest, SecondMeshColliderIsAHitSharingTheBvhWithTheSameAnswers) {
  auto first = make({{"file", "cube.obj"}});
  ASSERT_TRUE(first);
  MeshColliderCacheStats s = cache_.stats();
  EXPECT_EQ(s.misses, 1u);
  EXPECT_EQ(s.hits, 0u);
  EXPECT_EQ(s.entries, 1u);
  EXPECT_GT(s.bytes, 0u);

  auto second = make({{"file", "cube.obj"}});
  ASSERT_TRUE(second);
  s = cache_.stats();
  EXPECT_EQ(s.hits, 1u);
  EXPECT_EQ(s.misses, 1u);
  // Two colliders over one mesh: the second was not imported again.
  auto* a = dynamic_cast<TriMeshCollider*>(first.get());
  auto* b = dynamic_cast<TriMeshCollider*>(second.get());
  ASSERT_TRUE(a && b);
  EXPECT_NE(a, b);
  EXPECT_EQ(&a->mesh(), &b->mesh());
  EXPECT_EQ(answers(*first), answers(*second));
  EXPECT_NEAR(first->distance(Vec3(0.0f), 0.0), -0.5f, 1e-6f);

  // The same file named another way (a detour through a sub folder) is the same entry.
  std::filesystem::create_directories(dir_ / "sub");
  auto detour = make({{"file", "sub/../cube.obj"}});
  ASSERT_TRUE(detour);
  EXPECT_EQ(cache_.stats().hits, 2u);
  // near_radius is a world setting, not part of the bake: still a hit for a field (below).
}

// Two caches share nothing: what one built the other builds again, and each counts its own;
// no cache at all builds every time and keeps nothing.
TEST_F(MeshColliderCacheTest, SeparateCachesDoNotShareEntries) {
  const Json component = {{"file", "cube.obj"}, {"collision", "field"}, {"cell_size", 0.1}};
  ASSERT_TRUE(make(component));
  ASSERT_TRUE(make(component));
  MeshColliderCache other;
  EXPECT_EQ(other.stats().entries, 0u);
  auto elsewhere = makeMeshCollider(component, dir_, Transform{}, through(other));
  ASSERT_TRUE(elsewhere.ok()) << elsewhere.error().message();
  const MeshColliderCacheStats mine = cache_.stats(), theirs = other.stats();
  EXPECT_EQ(mine.hits, 1u);
  EXPECT_EQ(mine.misses, 1u);
  EXPECT_EQ(mine.bakes, 1u);
  EXPECT_EQ(theirs.hits, 0u) << "the other cache found this one's entry";
  EXPECT_EQ(theirs.misses, 1u);
  EXPECT_EQ(theirs.bakes, 1u);
  EXPECT_EQ(theirs.entries, 1u);
  EXPECT_EQ(answers(**elsewhere), answers(*make(component)));
  other.clear();
  EXPECT_EQ(other.stats().entries, 0u);
  EXPECT_EQ(cache_.stats().entries, 1u) << "clearing one cache emptied the other";

  MeshColliderRequest request;
  request.file = dir_ / "cube.obj";
  for (int i = 0; i < 2; ++i) {
    auto uncached = buildMeshCollider(request, nullptr);
    ASSERT_TRUE(uncached.ok());
    EXPECT_FALSE(uncached->fromCache);
  }
  EXPECT_EQ(cache_.stats().misses, 1u) << "an uncached build counted in a cache";
  EXPECT_EQ(other.stats().misses, 0u) << "an uncached build counted in a cache";
}

// A transform that only passes by (the editor's overlay of a dragged node) is answered from
// the cache when it is there, and otherwise built without being kept.
TEST_F(MeshColliderCacheTest, APassingTransformIsFoundButNotKept) {
  Transform moved;
  moved.position = Vec3(3.0f, 0.0f, 0.0f);
  for (int i = 0; i < 2; ++i) {
    auto passing =
        makeMeshCollider(Json{{"file", "cube.obj"}}, dir_, moved, through(cache_, false));
    ASSERT_TRUE(passing.ok());
    EXPECT_NEAR((*passing)->distance(Vec3(3.0f, 0.0f, 0.0f), 0.0), -0.5f, 1e-6f);
  }
  MeshColliderCacheStats s = cache_.stats();
  EXPECT_EQ(s.misses, 2u);  // built twice: nothing was kept
  EXPECT_EQ(s.entries, 0u);
  ASSERT_TRUE(make({{"file", "cube.obj"}}, moved));  // the physics keeps it
  auto found = makeMeshCollider(Json{{"file", "cube.obj"}}, dir_, moved, through(cache_, false));
  ASSERT_TRUE(found.ok());
  s = cache_.stats();
  EXPECT_EQ(s.hits, 1u);
  EXPECT_EQ(s.entries, 1u);
}

TEST_F(MeshColliderCacheTest, SecondFieldIsAHitWithoutASecondBake) {
  auto first = make({{"file", "cube.obj"}, {"collision", "field"}, {"cell_size", 0.1}});
  ASSERT_TRUE(first);
  EXPECT_EQ(cache_.stats().bakes, 1u);
  auto second =
      make({{"file", "cube.obj"}, {"collision", "field"}, {"cell_size", 0.1}, {"near_radius", 3}});
  ASSERT_TRUE(second);
  const MeshColliderCacheStats s = cache_.stats();
  EXPECT_EQ(s.bakes, 1u) << "the second world baked again";
  EXPECT_EQ(s.hits, 1u);
  auto* a = dynamic_cast<BakedFieldCollider*>(first.get());
  auto* b = dynamic_cast<BakedFieldCollider*>(second.get());
  ASSERT_TRUE(a && b);
  EXPECT_EQ(samplesOf(a->brickMap()), samplesOf(b->brickMap()));
  EXPECT_EQ(answers(*first), answers(*second));
  EXPECT_GT(s.bytes, a->brickMap().memoryBytes()) << "the budget counts the field";

  // The triangle collider of the same node (the wireframe overlay asks for it) is in the entry.
  auto mesh = make({{"file", "cube.obj"}});
  ASSERT_TRUE(mesh);
  EXPECT_EQ(cache_.stats().hits, 2u);
  EXPECT_EQ(&dynamic_cast<const TriMeshCollider&>(*a->exactShape()).mesh(),
            &dynamic_cast<TriMeshCollider&>(*mesh).mesh());
}

TEST_F(MeshColliderCacheTest, RewrittenFileIsReadAgain) {
  const std::filesystem::path file = dir_ / "cube.obj";
  auto before = make({{"file", "cube.obj"}});
  ASSERT_TRUE(before);
  EXPECT_NEAR(before->distance(Vec3(0.0f), 0.0), -0.5f, 1e-6f);

  // Same size ("1.000000" and "0.500000" are both 8 characters), newer write time.
  const auto written = std::filesystem::last_write_time(file);
  writeCube(file, 1.0f);
  std::filesystem::last_write_time(file, written + std::chrono::seconds(2));
  auto bigger = make({{"file", "cube.obj"}});
  ASSERT_TRUE(bigger);
  EXPECT_EQ(cache_.stats().misses, 2u);
  EXPECT_NEAR(bigger->distance(Vec3(0.0f), 0.0), -1.0f, 1e-6f);

  // Other size, write time forced back to the one just cached.
  const auto now = std::filesystem::last_write_time(file);
  writeCube(file, 10.0f);  // "10.000000": a longer file
  std::filesystem::last_write_time(file, now);
  auto large = make({{"file", "cube.obj"}});
  ASSERT_TRUE(large);
  EXPECT_EQ(cache_.stats().misses, 3u);
  EXPECT_NEAR(large->distance(Vec3(0.0f), 0.0), -10.0f, 1e-5f);
  EXPECT_EQ(cache_.stats().hits, 0u);
}

// The key holds the mesh file's own stamp; an edit to a file it refers to (the .mtl of an OBJ,
// the .bin of a glTF) makes the entry stale as well.
TEST_F(MeshColliderCacheTest, EditedMtlOrBinBesideTheMeshIsReadAgain) {
  const auto colourOf = [](const CollisionShape& shape, const std::string& slot) {
    for (const auto& s : dynamic_cast<const TriMeshCollider&>(shape).mesh().materialSlots)
      if (s.name == slot) return s.baseColor;
    return Vec4(-1.0f);
  };
  floptle::testing::writeTwoMaterialCubeObj(dir_);
  auto before = make({{"file", "cube.obj"}});
  ASSERT_TRUE(before);
  EXPECT_NEAR(colourOf(*before, "grass").x, 0.1f, 1e-6f);
  ASSERT_TRUE(make({{"file", "cube.obj"}}));
  EXPECT_EQ(cache_.stats().hits, 1u);

  // The .mtl alone rewritten: the same size, a later write time; cube.obj untouched.
  const auto obj = std::filesystem::last_write_time(dir_ / "cube.obj");
  const auto mtl = std::filesystem::last_write_time(dir_ / "cube.mtl");
  floptle::testing::writeText(dir_ / "cube.mtl",
                              "newmtl grass\nKd 0.9 0.8 0.2\n\nnewmtl rock\nKd 0.5 0.5 0.5\n");
  std::filesystem::last_write_time(dir_ / "cube.mtl", mtl + std::chrono::seconds(2));
  ASSERT_EQ(std::filesystem::last_write_time(dir_ / "cube.obj"), obj);
  auto after = make({{"file", "cube.obj"}});
  ASSERT_TRUE(after);
  EXPECT_NEAR(colourOf(*after, "grass").x, 0.9f, 1e-6f) << "the old .mtl was served from the cache";
  MeshColliderCacheStats s = cache_.stats();
  EXPECT_EQ(s.stale, 1u);
  EXPECT_EQ(s.misses, 2u);
  EXPECT_EQ(s.entries, 1u);
  ASSERT_TRUE(make({{"file", "cube.obj"}}));
  EXPECT_EQ(cache_.stats().hits, 2u) << "the new version is cached";

  // A glTF's .bin rewritten with the triangles 2 m higher (same size): read again.
  floptle::testing::writeTwoMaterialGltf(dir_, "two.bin");
  auto low = make({{"file", "two.gltf"}});
  ASSERT_TRUE(low);
  EXPECT_NEAR(dynamic_cast<const TriMeshCollider&>(*low).mesh().bounds().max.y, 1.0f, 1e-6f);
  const auto bin = std::filesystem::last_write_time(dir_ / "two.bin");
  const float raised[18] = {0, 2, 0, 1, 2, 0, 0, 3, 0, 3, 2, 0, 4, 2, 0, 3, 3, 0};
  floptle::testing::writeText(dir_ / "two.bin",
                              std::string(reinterpret_cast<const char*>(raised), sizeof(raised)));
  std::filesystem::last_write_time(dir_ / "two.bin", bin + std::chrono::seconds(2));
  auto high = make({{"file", "two.gltf"}});
  ASSERT_TRUE(high);
  EXPECT_NEAR(dynamic_cast<const TriMeshCollider&>(*high).mesh().bounds().max.y, 3.0f, 1e-6f);
  EXPECT_EQ(cache_.stats().stale, 2u);
}

TEST_F(MeshColliderCacheTest, OtherTransformUpAxisOrCellSizeIsBuiltAgain) {
  ASSERT_TRUE(make({{"file", "cube.obj"}}));
  Transform moved;
  moved.position = Vec3(5.0f, 0.0f, 0.0f);
  auto shifted = make({{"file", "cube.obj"}}, moved);
  ASSERT_TRUE(shifted);
  EXPECT_EQ(cache_.stats().misses, 2u);
  EXPECT_NEAR(shifted->distance(Vec3(5.0f, 0.0f, 0.0f), 0.0), -0.5f, 1e-6f);
  Transform turned;
  turned.rotation = glm::angleAxis(0.25f, Vec3(0, 1, 0));
  ASSERT_TRUE(make({{"file", "cube.obj"}}, turned));
  Transform scaled;
  scaled.scale = 3.0f;
  auto big = make({{"file", "cube.obj"}}, scaled);
  ASSERT_TRUE(big);
  EXPECT_NEAR(big->distance(Vec3(0.0f), 0.0), -1.5f, 1e-6f);
  EXPECT_EQ(cache_.stats().misses, 4u);

  // Up axis z: (x, y, z) -> (x, z, -y); a different entry (the cube looks the same).
  ASSERT_TRUE(make({{"file", "cube.obj"}, {"up_axis", "z"}}));
  EXPECT_EQ(cache_.stats().misses, 5u);
  ASSERT_TRUE(make({{"file", "cube.obj"}, {"unit_scale", 2.0}}));
  EXPECT_EQ(cache_.stats().misses, 6u);
  EXPECT_EQ(cache_.stats().hits, 0u);

  // Cell sizes: each its own bake; the same one again is a hit.
  ASSERT_TRUE(make({{"file", "cube.obj"}, {"collision", "field"}, {"cell_size", 0.2}}));
  ASSERT_TRUE(make({{"file", "cube.obj"}, {"collision", "field"}, {"cell_size", 0.1}}));
  ASSERT_TRUE(make({{"file", "cube.obj"}, {"collision", "field"}, {"cell_size", 0.2}}));
  const MeshColliderCacheStats s = cache_.stats();
  EXPECT_EQ(s.bakes, 2u);
  EXPECT_EQ(s.misses, 8u);
  EXPECT_EQ(s.hits, 1u);
  EXPECT_EQ(s.entries, 6u) << "fields of one mesh share its entry";
}

TEST_F(MeshColliderCacheTest, EveryWorldOwnsItsFieldMap) {
  const Json component = {{"file", "cube.obj"}, {"collision", "field"}, {"cell_size", 0.1}};
  auto first = make(component);
  auto second = make(component);
  ASSERT_TRUE(first && second);
  auto& a = dynamic_cast<BakedFieldCollider&>(*first);
  auto& b = dynamic_cast<BakedFieldCollider&>(*second);
  const std::vector<std::uint32_t> original = samplesOf(b.brickMap());
  ASSERT_EQ(samplesOf(a.brickMap()), original);

  // Re-bake world a's map (the map a BakedFieldCollider owns and re-bakes in place) towards
  // another field: a sphere of radius 0.3 m. Its bricks change; b's and the cache's must not.
  BrickMap& map = const_cast<BrickMap&>(a.brickMap());
  const DistanceBatchFn sphere = [](std::span<const Vec3> points, float, std::span<float> out) {
    for (std::size_t i = 0; i < points.size(); ++i) out[i] = glm::length(points[i]) - 0.3f;
  };
  const Vec3 centre(0.0f);
  ASSERT_GT(map.rebakeNearest(sphere, std::span<const Vec3>(&centre, 1), 1000, 100.0f), 0);
  ASSERT_NE(samplesOf(map), original) << "the rebake changed nothing: the test proves nothing";
  EXPECT_EQ(samplesOf(b.brickMap()), original);
  auto third = make(component);
  ASSERT_TRUE(third);
  EXPECT_EQ(cache_.stats().bakes, 1u);
  EXPECT_EQ(samplesOf(dynamic_cast<BakedFieldCollider&>(*third).brickMap()), original);
}

TEST_F(MeshColliderCacheTest, LeastRecentlyUsedGoesBeyondTheBudget) {
  for (const char* name : {"a.obj", "b.obj", "c.obj"}) writeCube(dir_ / name, 0.5f);
  ASSERT_TRUE(make({{"file", "a.obj"}}));
  const std::size_t one = cache_.stats().bytes;
  ASSERT_GT(one, 0u);
  ASSERT_TRUE(make({{"file", "b.obj"}}));
  EXPECT_EQ(cache_.stats().bytes, 2 * one);
  cache_.setBudget(2 * one + one / 2);     // room for two
  ASSERT_TRUE(make({{"file", "a.obj"}}));  // a is now the most recent
  EXPECT_EQ(cache_.stats().hits, 1u);
  ASSERT_TRUE(make({{"file", "c.obj"}}));  // b goes
  MeshColliderCacheStats s = cache_.stats();
  EXPECT_EQ(s.entries, 2u);
  EXPECT_EQ(s.evictions, 1u);
  EXPECT_LE(s.bytes, s.budgetBytes);
  ASSERT_TRUE(make({{"file", "a.obj"}}));
  EXPECT_EQ(cache_.stats().hits, 2u) << "a was evicted, not b";
  ASSERT_TRUE(make({{"file", "b.obj"}}));
  EXPECT_EQ(cache_.stats().hits, 2u) << "b was kept, a evicted";
  EXPECT_EQ(cache_.stats().misses, 4u);

  // A budget below one entry keeps nothing; the collider still works.
  cache_.setBudget(one / 2);
  EXPECT_EQ(cache_.stats().entries, 0u);
  auto alone = make({{"file", "a.obj"}});
  ASSERT_TRUE(alone);
  EXPECT_NEAR(alone->distance(Vec3(0.0f), 0.0), -0.5f, 1e-6f);
  EXPECT_EQ(cache_.stats().entries, 0u);
}

TEST_F(MeshColliderCacheTest, CancelledBakeCachesNothing) {
  MeshColliderRequest request;
  request.file = dir_ / "cube.obj";
  request.bakeField = true;
  request.cellSize = 0.05f;
  std::atomic<bool> cancel{false};
  std::vector<float> fractions;
  auto cancelled = cache_.build(
      request,
      [&](float f, std::string_view stage) {
        fractions.push_back(f);
        if (stage.find("BVH") != std::string_view::npos)
          cancel.store(true);  // just before the bake
      },
      &cancel);
  ASSERT_FALSE(cancelled.ok());
  EXPECT_EQ(cache_.stats().entries, 0u);
  cancel.store(false);
  fractions.clear();
  auto built = cache_.build(
      request, [&](float f, std::string_view) { fractions.push_back(f); }, &cancel);
  ASSERT_TRUE(built.ok()) << built.error().message();
  EXPECT_FALSE(built->fromCache);
  ASSERT_TRUE(built->field);
  EXPECT_GT(built->field->brickCount(), 0);
  EXPECT_TRUE(std::is_sorted(fractions.begin(), fractions.end()));
  EXPECT_FLOAT_EQ(fractions.back(), 1.0f);
  auto again = cache_.build(request);
  ASSERT_TRUE(again.ok());
  EXPECT_TRUE(again->fromCache);
  EXPECT_EQ(again->field, built->field);

  // Cancelled mid-bake: an error, and the entry holds no field for that cell.
  request.cellSize = 0.04f;
  cancel.store(false);
  auto midBake = cache_.build(
      request,
      [&](float f, std::string_view) {
        if (f > 0.5f && f < 1.0f) cancel.store(true);
      },
      &cancel);
  EXPECT_FALSE(midBake.ok());
  cancel.store(false);
  const std::uint64_t bakes = cache_.stats().bakes;
  auto after = cache_.build(request);
  ASSERT_TRUE(after.ok());
  EXPECT_FALSE(after->fromCache);
  EXPECT_EQ(cache_.stats().bakes, bakes + 1);
}

TEST_F(MeshColliderCacheTest, ErrorsAreTheComponentsAsBefore) {
  auto missing = makeMeshCollider(Json{{"file", "gone.obj"}}, dir_, Transform{}, through(cache_));
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error().where, "mesh/file");
  EXPECT_NE(missing.error().what.find("gone.obj"), std::string::npos);
  floptle::testing::writeText(dir_ / "points.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\n");
  auto empty = makeMeshCollider(Json{{"file", "points.obj"}, {"collision", "field"}}, dir_,
                                Transform{}, through(cache_));
  ASSERT_FALSE(empty.ok());
  EXPECT_EQ(empty.error().where, "mesh/file");
  EXPECT_EQ(cache_.stats().entries, 0u);
}

TEST_F(MeshColliderCacheTest, ConcurrentRequestsAgreeAndKeepOneEntry) {
  const Json component = {{"file", "cube.obj"}, {"collision", "field"}, {"cell_size", 0.1}};
  std::vector<std::unique_ptr<CollisionShape>> shapes(4);
  std::vector<std::thread> threads;
  for (std::size_t i = 0; i < shapes.size(); ++i)
    threads.emplace_back([&, i] {
      auto s = makeMeshCollider(component, dir_, Transform{}, through(cache_));
      if (s.ok()) shapes[i] = std::move(s).value();
    });
  for (auto& t : threads) t.join();
  for (const auto& s : shapes) ASSERT_TRUE(s);
  for (std::size_t i = 1; i < shapes.size(); ++i)
    EXPECT_EQ(answers(*shapes[i]), answers(*shapes[0]));
  const MeshColliderCacheStats s = cache_.stats();
  EXPECT_EQ(s.entries, 1u);
  EXPECT_EQ(s.hits + s.misses, 4u);
}

}  // namespace
}  // namespace floptle::physics
