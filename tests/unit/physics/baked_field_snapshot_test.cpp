// Complete snapshots: Simulation::save / restore cover the bricks a re-bake budget rewrites
// each step, so a replay after restore is bit for bit the run it rewinds; bricks are shared
// copy-on-write between a map and its snapshots.
#include <gtest/gtest.h>

#include "baked_sphere_fixture.h"
#include "brick_map_values.h"

namespace floptle::physics::testing {
namespace {

constexpr int kBudget = 8;

/// A pebble drifting into the growing sphere, so the bricks under it are re-baked every step
/// and it collides with what they hold.
Simulation morphingScene(int threads = 1) {
  Simulation sim = simulationWithBakedSphere(/*nearRadius=*/0.0f, kBudget, threads);
  sim.addBody(pebbleAt(Vec3(1.6f, 0.05f, 0.0f), Vec3(-0.4f, 0.0f, 0.0f)));
  return sim;
}

TEST(BakedFieldSnapshot, ReplayAfterRestoreIsBitIdentical) {
  Simulation sim = morphingScene();
  for (int i = 0; i < 30; ++i) sim.step();
  const SimulationState saved = sim.save();
  const std::uint64_t hashAtSave = sim.stateHash();
  const std::vector<std::uint32_t> bricksAtSave = samplesOf(bakedBlob(sim).brickMap());
  constexpr int kTicks = 40;
  for (int i = 0; i < kTicks; ++i) sim.step();
  const std::uint64_t hashFirst = sim.stateHash();
  const std::vector<std::uint32_t> bricksFirst = samplesOf(bakedBlob(sim).brickMap());
  ASSERT_NE(bricksFirst, bricksAtSave) << "the re-bake must have rewritten bricks";

  sim.restore(saved);
  EXPECT_EQ(sim.stateHash(), hashAtSave);
  EXPECT_EQ(samplesOf(bakedBlob(sim).brickMap()), bricksAtSave);
  for (int i = 0; i < kTicks; ++i) sim.step();
  EXPECT_EQ(sim.stateHash(), hashFirst);
  EXPECT_EQ(samplesOf(bakedBlob(sim).brickMap()), bricksFirst);
  // Restoring twice from one state works as well (a state is immutable).
  sim.restore(saved);
  for (int i = 0; i < kTicks; ++i) sim.step();
  EXPECT_EQ(sim.stateHash(), hashFirst);
}

TEST(BakedFieldSnapshot, TheHashCoversTheBricks) {
  Simulation a = morphingScene(), b = morphingScene();
  for (int i = 0; i < 10; ++i) a.step(), b.step();
  ASSERT_EQ(a.stateHash(), b.stateHash());
  const SimulationState saved = b.save();
  for (int i = 0; i < 5; ++i) b.step();
  // Bodies and characters back to tick 10 by hand would leave the bricks of tick 15: the
  // restored state must not hash like that.
  SimulationState bodiesOnly = saved;
  bodiesOnly.colliders.clear();
  b.restore(bodiesOnly);
  EXPECT_NE(a.stateHash(), b.stateHash());
  b.restore(saved);
  EXPECT_EQ(a.stateHash(), b.stateHash());
}

TEST(BakedFieldSnapshot, SaveAndRestoreAgreeAtOneTwoAndFourBakeThreads) {
  std::vector<std::uint64_t> atSave, afterRestore, replayed;
  for (int threads : {1, 2, 4}) {
    Simulation sim = morphingScene(threads);
    for (int i = 0; i < 20; ++i) sim.step();
    const SimulationState saved = sim.save();
    atSave.push_back(sim.stateHash());
    for (int i = 0; i < 20; ++i) sim.step();
    sim.restore(saved);
    afterRestore.push_back(sim.stateHash());
    for (int i = 0; i < 20; ++i) sim.step();
    replayed.push_back(sim.stateHash());
  }
  for (std::size_t i = 0; i < atSave.size(); ++i) {
    EXPECT_EQ(atSave[i], atSave[0]) << "bake threads must not change the state";
    EXPECT_EQ(afterRestore[i], atSave[i]);
    EXPECT_EQ(replayed[i], replayed[0]);
  }
}

TEST(BrickMapSnapshot, BricksAreSharedUntilReBaked) {
  BrickMapSettings settings;
  settings.bounds = Aabb::fromCenterHalf(Vec3(0.0f), Vec3(2.0f));
  settings.cellSize = kCell;
  GrowingSphere sphere;
  auto distanceAt = [&](double t) {
    return [&sphere, t](std::span<const Vec3> points, float, std::span<float> out) {
      for (std::size_t i = 0; i < points.size(); ++i) out[i] = sphere.distance(points[i], t);
    };
  };
  auto baked = BrickMap::bake(settings, distanceAt(0.0));
  ASSERT_TRUE(baked.ok());
  BrickMap map = std::move(baked).value();
  const BrickMap::Snapshot first = map.snapshot(), again = map.snapshot();
  ASSERT_EQ(first.bricks.size(), again.bricks.size());
  for (std::size_t b = 0; b < first.bricks.size(); ++b) EXPECT_EQ(first.bricks[b], again.bricks[b]);
  const std::uint64_t hashFirst = map.contentHash();
  const std::vector<std::uint32_t> valuesFirst = samplesOf(map);

  const Vec3 body(1.5f, 0.0f, 0.0f);
  const int rebaked = map.rebakeNearest(distanceAt(1.0), std::span<const Vec3>(&body, 1), 4, 1.0f);
  ASSERT_GT(rebaked, 0);
  const BrickMap::Snapshot later = map.snapshot();
  int copied = 0;
  for (std::size_t b = 0; b < first.bricks.size() && b < later.bricks.size(); ++b)
    copied += first.bricks[b] != later.bricks[b];
  EXPECT_GT(copied, 0);
  EXPECT_LE(copied, rebaked);  // only the re-baked bricks were copied
  EXPECT_NE(map.contentHash(), hashFirst);

  map.restore(first);
  EXPECT_EQ(map.contentHash(), hashFirst);
  EXPECT_EQ(samplesOf(map), valuesFirst);
  map.restore(later);
  EXPECT_EQ(samplesOf(map).size() > 0, true);
  EXPECT_NE(samplesOf(map), valuesFirst);
}

}  // namespace
}  // namespace floptle::physics::testing
