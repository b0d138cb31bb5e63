// Rigid bodies: restitution, resting contact, body against body, sleeping, mass from density.
#include <gtest/gtest.h>

#include <cmath>

#include "floptle/core/field/field_program.h"
#include "play_test_world.h"

namespace floptle::physics {
namespace {

using namespace testing;

Simulation flatWorld(SurfaceMaterial ground, double hz = 60.0) {
  TestWorld tw;
  tw.add(plane(Vec3(0, 1, 0)), ground);
  SimulationSettings s;
  s.fixedDt = 1.0 / hz;
  return tw.simulation(s);
}

/// Height of the first rebound's apex (gap under the sphere, m) for a drop from `height`.
float reboundApex(float e, float height, double hz) {
  Simulation sim = flatWorld({0.5f, 0.0f}, hz);
  RigidBodyDesc ball;
  const float r = 0.25f;
  ball.shape = BodyShape::sphere(r);
  ball.restitution = e;
  ball.position = Vec3(0, r + height, 0);
  const std::uint32_t id = sim.addBody(ball).index;
  bool bounced = false;
  float apex = 0.0f;
  for (int i = 0; i < int(6 * hz); ++i) {
    sim.step();
    const BodyState& s = sim.bodies().state(id);
    if (!bounced && s.linearVelocity.y > 0.0f) bounced = true;
    if (bounced) {
      apex = std::max(apex, s.position.y - r);
      if (s.linearVelocity.y < 0.0f) break;
    }
  }
  EXPECT_TRUE(bounced);
  return apex;
}

TEST(PlayRigid, SphereReboundsToESquaredOfItsHeight) {
  for (double hz : {60.0, 120.0})
    for (float e : {0.5f, 0.8f}) {
      const float h = 2.0f;
      const float apex = reboundApex(e, h, hz);
      EXPECT_NEAR(apex, e * e * h, 0.05f * e * e * h) << "e " << e << " hz " << hz;
    }
}

TEST(PlayRigid, InelasticSphereComesToRestOnThePlaneAndSleeps) {
  Simulation sim = flatWorld({0.5f, 0.0f});
  RigidBodyDesc ball;
  ball.shape = BodyShape::sphere(0.5f);
  ball.position = Vec3(0, 3, 0);
  const std::uint32_t id = sim.addBody(ball).index;
  for (int i = 0; i < 240; ++i) sim.step();
  const BodyState& s = sim.bodies().state(id);
  EXPECT_NEAR(s.position.y, 0.5f, sim.bodies().settings().penetrationSlop + 1e-3f);
  EXPECT_EQ(s.asleep, 1);
  EXPECT_EQ(sim.bodies().counters().sleepingBodies, 1u);
}

TEST(PlayRigid, BoxStackRestsAndSettles) {
  Simulation sim = flatWorld({0.6f, 0.0f});
  std::vector<std::uint32_t> ids;
  for (int i = 0; i < 4; ++i) {
    RigidBodyDesc box;
    box.name = "box" + std::to_string(i);
    box.shape = BodyShape::box(Vec3(0.5f));
    box.friction = 0.6f;
    box.mass = 8.0f;
    box.position = Vec3(0.0f, 0.5f + float(i) * 1.001f, 0.0f);
    ids.push_back(sim.addBody(box).index);
  }
  for (int i = 0; i < 180; ++i) sim.step();
  for (int i = 0; i < 4; ++i) {
    const BodyState& s = sim.bodies().state(ids[std::size_t(i)]);
    EXPECT_NEAR(s.position.y, 0.5f + float(i), 0.03f) << i;
    EXPECT_NEAR(s.position.x, 0.0f, 0.01f) << i;
    EXPECT_LT(glm::length(s.linearVelocity), 0.05f) << i;
    // The stack is one island: it falls asleep as a whole, not box by box.
    EXPECT_EQ(s.asleep, 1) << i;
  }
}

TEST(PlayRigid, SpheresCollideAndExchangeMomentum) {
  // Head-on elastic collision of equal spheres in zero gravity: velocities swap.
  TestWorld tw;
  SimulationSettings s;
  s.gravity = Vec3(0.0f);
  Simulation sim = tw.simulation(s);
  RigidBodyDesc a;
  a.shape = BodyShape::sphere(0.5f);
  a.restitution = 1.0f;
  a.position = Vec3(-2, 0, 0);
  a.linearVelocity = Vec3(3, 0, 0);
  RigidBodyDesc b = a;
  b.position = Vec3(2, 0, 0);
  b.linearVelocity = Vec3(0.0f);
  const auto ia = sim.addBody(a).index, ib = sim.addBody(b).index;
  for (int i = 0; i < 120; ++i) sim.step();
  EXPECT_NEAR(sim.bodies().state(ia).linearVelocity.x, 0.0f, 0.05f);
  EXPECT_NEAR(sim.bodies().state(ib).linearVelocity.x, 3.0f, 0.05f);
  EXPECT_GT(sim.bodies().state(ib).position.x, 2.0f + 1.0f);
}

TEST(PlayRigid, ShapesHaveClosedFormVolumeAndInertia) {
  const BodyShape sphere = BodyShape::sphere(0.5f);
  EXPECT_NEAR(sphere.volume(), 4.0f / 3.0f * kPi * 0.125f, 1e-5f);
  EXPECT_NEAR(sphere.unitInertia().x, 0.4f * 0.25f, 1e-6f);
  const BodyShape box = BodyShape::box(Vec3(1.0f, 0.5f, 0.25f));
  EXPECT_NEAR(box.volume(), 1.0f, 1e-6f);
  EXPECT_NEAR(box.unitInertia().x, (1.0f + 0.25f) / 12.0f, 1e-6f);
  // A convex field body (a sphere as a field) by sampling: close to the closed form.
  auto program = field::FieldProgram::compile(field::makeDefaultNode(field::NodeType::Sphere));
  ASSERT_TRUE(program.ok());
  Vec3 com(1.0f);
  auto convex = BodyShape::convexField(
      std::make_shared<const field::FieldProgram>(std::move(program.value())), com);
  ASSERT_TRUE(convex.ok()) << convex.error().message();
  EXPECT_NEAR(convex->volume(), sphere.volume(), 0.03f * sphere.volume());
  EXPECT_LT(glm::length(com), 0.01f);
  EXPECT_NEAR(convex->boundingRadius(), 0.5f, 0.01f);
}

TEST(PlayRigid, ConvexFieldBodyLandsOnThePlane) {
  field::FieldNode rounded = field::makeDefaultNode(field::NodeType::RoundBox);
  setParam(rounded, "half_extents", {0.4f, 0.2f, 0.4f});
  setParam(rounded, "radius", {0.05f});
  auto program = field::FieldProgram::compile(rounded);
  ASSERT_TRUE(program.ok());
  Vec3 com(0.0f);
  auto shape = BodyShape::convexField(
      std::make_shared<const field::FieldProgram>(std::move(program.value())), com);
  ASSERT_TRUE(shape.ok());
  Simulation sim = flatWorld({0.8f, 0.0f});
  RigidBodyDesc d;
  d.shape = shape.value();
  d.position = Vec3(0, 1, 0);
  const auto id = sim.addBody(d).index;
  for (int i = 0; i < 180; ++i) sim.step();
  EXPECT_NEAR(sim.bodies().state(id).position.y, 0.2f, 0.02f);
}

}  // namespace
}  // namespace floptle::physics
