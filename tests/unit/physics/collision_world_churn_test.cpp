// Colliders that come and go: remove and add between queries, ids with generations (a stale
// id is caught, never taken for the collider now in its slot), the broadphase after a long
// history of inserts and removes against the brute-force scan, and the bulk build.
#include <algorithm>
#include <random>
#include <vector>

#include "broadphase_check.h"
#include "collision_fixtures.h"
#include "floptle/physics/collider_bvh.h"

namespace floptle::physics::testing {
namespace {

const Ray kDown{Vec3(0, 10, 0), Vec3(0, -1, 0)};

TEST(CollisionWorldChurn, QueriesSeeARemovedColliderGoAndAnAddedOneCome) {
  CollisionWorld world;
  const ColliderId high = world.add(placed(sphereNode(1.0f), pose(Vec3(0, 4, 0))), "high");
  world.add(placed(sphereNode(1.0f), pose(Vec3(0, 0, 0))), "low");
  EXPECT_EQ(world.nodeName(*world.raycast(kDown, 20.0f, 0.0).value()), "high");
  ASSERT_TRUE(world.remove(high).ok());
  EXPECT_EQ(world.size(), 1u);
  for (bool broad : {true, false}) {
    world.setUseBroadphase(broad);
    EXPECT_EQ(world.nodeName(*world.raycast(kDown, 20.0f, 0.0).value()), "low");
    EXPECT_EQ(world.nodeName(*world.closest(Vec3(0, 4, 0), 0.0).value()), "low");
    EXPECT_FALSE(world.sphereOverlap(Vec3(0, 4, 0), 0.5f, 0.0).value().has_value());
  }
  world.setUseBroadphase(true);
  const ColliderId top = world.add(placed(boxNode(Vec3(1)), pose(Vec3(0, 6, 0))), "top");
  EXPECT_EQ(world.nodeName(*world.raycast(kDown, 20.0f, 0.0).value()), "top");
  EXPECT_EQ(world.find("top"), std::optional<ColliderId>(top));
  EXPECT_FALSE(world.find("high").has_value());
}

TEST(CollisionWorldChurn, AStaleIdIsInvalidAfterItsSlotIsReused) {
  CollisionWorld world;
  const ColliderId old = world.add(placed(sphereNode(1.0f), pose(Vec3(0))), "old");
  EXPECT_TRUE(world.valid(old));
  EXPECT_FALSE(world.valid(ColliderId{}));  // the null id
  ASSERT_TRUE(world.remove(old).ok());
  EXPECT_FALSE(world.valid(old));
  const ColliderId reused = world.add(placed(sphereNode(1.0f), pose(Vec3(0))), "new");
  EXPECT_EQ(reused.index, old.index);            // the slot is reused...
  EXPECT_NE(reused.generation, old.generation);  // ...under a new generation
  EXPECT_TRUE(world.valid(reused));
  EXPECT_FALSE(world.valid(old));
  EXPECT_LT(old, reused);  // ordered by index, then generation
  // Removing through the stale id is an error that names it, and removes nothing.
  const Expected<void> again = world.remove(old);
  ASSERT_FALSE(again.ok());
  EXPECT_EQ(again.error().where, "collider");
  EXPECT_NE(again.error().what.find("stale"), std::string::npos) << again.error().message();
  EXPECT_FALSE(world.remove(ColliderId{}).ok());
  EXPECT_TRUE(world.valid(reused));
  EXPECT_EQ(world.size(), 1u);
  EXPECT_EQ(world.nodeName(reused), "new");
}

TEST(CollisionWorldChurn, IdsVisitTheLiveCollidersInIndexOrder) {
  CollisionWorld world;
  std::vector<ColliderId> ids;
  for (int i = 0; i < 6; ++i)
    ids.push_back(world.add(placed(sphereNode(0.5f), pose(Vec3(float(i) * 3, 0, 0))),
                            "s" + std::to_string(i)));
  ASSERT_TRUE(world.remove(ids[1]).ok());
  ASSERT_TRUE(world.remove(ids[4]).ok());
  const std::vector<ColliderId> live(world.ids().begin(), world.ids().end());
  EXPECT_EQ(live, (std::vector<ColliderId>{ids[0], ids[2], ids[3], ids[5]}));
  EXPECT_EQ(world.size(), 4u);
  EXPECT_EQ(world.slotCount(), 6u);
}

TEST(CollisionWorldChurn, BroadphaseMatchesBruteForceAfterRandomInsertsAndRemoves) {
  std::mt19937 rng(77);
  CollisionWorld world;
  world.add(placed(planeNode(Vec3(0, 1, 0), -20.0f), pose(Vec3(0))), "floor");
  std::vector<ColliderId> live;
  for (int i = 0; i < 120; ++i)
    live.push_back(world.add(randomCollider(rng, i), "a" + std::to_string(i)));
  // 500 random operations, a third of them removals.
  for (int op = 0; op < 500; ++op) {
    if (op % 3 == 2 && !live.empty()) {
      const std::size_t k = rng() % live.size();
      ASSERT_TRUE(world.remove(live[k]).ok());
      live.erase(live.begin() + static_cast<std::ptrdiff_t>(k));
    } else {
      live.push_back(world.add(randomCollider(rng, op), "b" + std::to_string(op)));
    }
  }
  EXPECT_EQ(world.size(), live.size() + 1);
  for (ColliderId id : live) EXPECT_TRUE(world.valid(id));
  // 170 rounds of six query kinds: 1,020 queries.
  EXPECT_GT(expectBroadphaseMatchesBruteForce(world, 78, 0.0, 170), 300);
}

TEST(CollisionWorldChurn, AnswersDoNotDependOnTheHistoryOfTheTree) {
  // The same colliders under the same ids, reached by a bulk build in one world and by
  // inserts interleaved with removes of other colliders in the other: the trees differ,
  // the answers must not.
  std::mt19937 shapesA(5), shapesB(5), other(6);
  CollisionWorld bulk, churned;
  std::vector<CollisionWorld::NewCollider> batch;
  for (int i = 0; i < 200; ++i)
    batch.push_back({randomCollider(shapesA, i), "n" + std::to_string(i)});
  bulk.addMany(std::move(batch));
  std::vector<ColliderId> decoys;
  for (int i = 0; i < 200; ++i) {
    churned.add(randomCollider(shapesB, i), "n" + std::to_string(i));
    if (i % 4 == 0) decoys.push_back(churned.add(randomCollider(other, i), "decoy"));
    if (i % 8 == 4) {
      ASSERT_TRUE(churned.remove(decoys.front()).ok());
      decoys.erase(decoys.begin());
    }
  }
  // The decoys took slots, so ids differ between the worlds: hits compare by name.
  for (ColliderId d : decoys) ASSERT_TRUE(churned.remove(d).ok());
  std::mt19937 rng(9);
  std::uniform_real_distribution<float> U(0.0f, 1.0f);
  for (int i = 0; i < 300; ++i) {
    const Vec3 p = (Vec3(U(rng), U(rng), U(rng)) - 0.5f) * 44.0f, d = randomUnit(rng);
    const auto a = bulk.raycast(Ray{p, d}, 80.0f, 0.0).value();
    const auto b = churned.raycast(Ray{p, d}, 80.0f, 0.0).value();
    ASSERT_EQ(a.has_value(), b.has_value());
    if (a) {
      EXPECT_EQ(bulk.nodeName(*a), churned.nodeName(*b));
      EXPECT_EQ(a->distance, b->distance);
      EXPECT_EQ(a->normal, b->normal);
    }
    const auto ca = bulk.closest(p, 0.0).value(), cb = churned.closest(p, 0.0).value();
    ASSERT_TRUE(ca && cb);
    EXPECT_EQ(bulk.nodeName(*ca), churned.nodeName(*cb));
    EXPECT_EQ(ca->distance, cb->distance);
  }
}

TEST(CollisionWorldChurn, AddManyBuildsATreeTheQueriesAgreeWith) {
  std::mt19937 rng(11);
  CollisionWorld world;
  std::vector<CollisionWorld::NewCollider> batch;
  batch.push_back({placed(planeNode(Vec3(0, 1, 0), -20.0f), pose(Vec3(0))), "floor"});
  for (int i = 0; i < 400; ++i) batch.push_back({randomCollider(rng, i), "n" + std::to_string(i)});
  const std::vector<ColliderId> ids = world.addMany(std::move(batch));
  ASSERT_EQ(ids.size(), 401u);
  for (std::uint32_t i = 0; i < ids.size(); ++i) EXPECT_EQ(ids[i], (ColliderId{i, 1}));
  EXPECT_GT(expectBroadphaseMatchesBruteForce(world, 12, 0.0, 100), 150);
  // Then incremental changes on top of the bulk-built tree.
  for (std::size_t i = 1; i < ids.size(); i += 3) ASSERT_TRUE(world.remove(ids[i]).ok());
  for (int i = 0; i < 50; ++i) world.add(randomCollider(rng, i), "late" + std::to_string(i));
  EXPECT_GT(expectBroadphaseMatchesBruteForce(world, 13, 0.0, 100), 150);
}

TEST(ColliderBvhTree, StaysLinkedAndBalancedThroughInsertsAndRemoves) {
  std::mt19937 rng(3);
  std::uniform_real_distribution<float> U(-50.0f, 50.0f);
  ColliderBvh tree;
  std::vector<ColliderBvh::Leaf> leaves;
  // Sorted boxes along a line: the order that degenerates an unbalanced tree into a list.
  for (std::uint32_t i = 0; i < 2000; ++i)
    leaves.push_back(tree.insert(i, Aabb::fromCenterHalf(Vec3(float(i), 0, 0), Vec3(0.4f))));
  ASSERT_TRUE(tree.valid());
  EXPECT_LE(tree.height(), 24);  // AVL: <= 1.44 log2(n + 2)
  for (std::size_t i = 0; i < leaves.size(); i += 2) tree.remove(leaves[i]);
  ASSERT_TRUE(tree.valid());
  EXPECT_EQ(tree.itemCount(), 1000u);
  for (std::uint32_t i = 0; i < 1000; ++i)
    tree.insert(5000 + i, Aabb::fromCenterHalf(Vec3(U(rng), U(rng), U(rng)), Vec3(1.0f)));
  ASSERT_TRUE(tree.valid());
  EXPECT_LE(tree.height(), 24);
  // A bulk build, including an unbounded box (a plane) and an empty one.
  std::vector<std::uint32_t> items;
  std::vector<Aabb> boxes;
  for (std::uint32_t i = 0; i < 3000; ++i) {
    items.push_back(i);
    boxes.push_back(Aabb::fromCenterHalf(Vec3(U(rng), U(rng), U(rng)), Vec3(0.5f)));
  }
  boxes[7] = Aabb{Vec3(-std::numeric_limits<float>::infinity()),
                  Vec3(std::numeric_limits<float>::infinity())};
  boxes[8] = Aabb{};
  std::vector<ColliderBvh::Leaf> built(items.size());
  tree.build(items, boxes, built);
  ASSERT_TRUE(tree.valid());
  EXPECT_EQ(tree.itemCount(), 3000u);
  int visited = 0;
  tree.forEachOverlapping(Aabb::fromCenterHalf(Vec3(0), Vec3(1000)),
                          [&](std::uint32_t) { ++visited; });
  EXPECT_EQ(visited, 2999);  // all but the empty box
  tree.remove(built[7]);
  tree.remove(built[100]);
  ASSERT_TRUE(tree.valid());
}

}  // namespace
}  // namespace floptle::physics::testing
