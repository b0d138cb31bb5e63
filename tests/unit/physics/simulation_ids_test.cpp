// Ids of bodies and controllers carry their simulation's generation: an id kept past its
// simulation (the editor across a Stop and the next Play) is caught, never dereferenced.
#include <gtest/gtest.h>

#include "play_test_world.h"

namespace floptle::physics {
namespace {

using namespace testing;

Simulation withOneOfEach() {
  TestWorld tw;
  tw.add(plane(Vec3(0, 1, 0)), {0.8f, 0.0f});
  Simulation sim = tw.simulation({});
  RigidBodyDesc ball;
  ball.name = "ball";
  ball.position = Vec3(0, 2, 0);
  sim.addBody(ball);
  CharacterDesc hero;
  hero.name = "hero";
  hero.position = Vec3(3, 0.9f, 0);
  sim.addCharacter(hero);
  VehicleDesc car;
  car.name = "car";
  car.position = Vec3(-3, 1, 0);
  car.wheels.push_back(WheelDesc{});
  sim.addVehicle(car);
  return sim;
}

TEST(SimulationIds, AnIdIsValidOnlyInTheSimulationThatIssuedIt) {
  Simulation first = withOneOfEach();
  const BodyId ball = *first.findBody("ball");
  const CharacterId hero = *first.findCharacter("hero");
  const VehicleId car = *first.findVehicle("car");
  EXPECT_TRUE(first.valid(ball) && first.valid(hero) && first.valid(car));
  EXPECT_EQ(ball.index, 0u);
  EXPECT_EQ(first.bodies().desc(ball.index).name, "ball");
  // The next Play builds a new simulation of the same scene: same indices, other generation.
  Simulation second = withOneOfEach();
  EXPECT_FALSE(second.valid(ball));
  EXPECT_FALSE(second.valid(hero));
  EXPECT_FALSE(second.valid(car));
  EXPECT_NE(*second.findBody("ball"), ball);
  // A moved simulation keeps its ids; null ids are never valid.
  Simulation moved = std::move(first);
  EXPECT_TRUE(moved.valid(ball) && moved.valid(hero) && moved.valid(car));
  EXPECT_FALSE(moved.valid(BodyId{}));
  EXPECT_FALSE(moved.valid(BodyId{7, ball.generation})) << "past the end";
  // The chassis is a rigid body but no free body: findBody does not hand it out by name.
  EXPECT_FALSE(moved.findBody("car"));
}

}  // namespace
}  // namespace floptle::physics
