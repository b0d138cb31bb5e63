// The program cache: equal graphs share one compiled program, unequal ones do not, a refused
// graph is refused every time; and a program moved from is still assignable.
#include <gtest/gtest.h>

#include <random>

#include "field_test_util.h"
#include "floptle/core/field/program_cache.h"

using namespace floptle;
using namespace floptle::field;
using namespace floptle::field::test;

namespace {

TEST(ProgramCache, EqualGraphsShareOneProgramThatKeepsTheClosedForm) {
  ProgramCache cache;
  const FieldNode a = xform({1, 2, 3}, Quat(1, 0, 0, 0), 1, sphere(0.75f));
  const auto first = cache.compile(a);
  const auto second = cache.compile(FieldNode(a));
  ASSERT_TRUE(first && second);
  EXPECT_EQ(first->get(), second->get());
  EXPECT_EQ(cache.size(), 1u);
  std::mt19937 rng(4);
  std::uniform_real_distribution<float> u(-3.0f, 3.0f);
  for (int i = 0; i < 200; ++i) {
    const Vec3 p(u(rng), u(rng), u(rng));
    EXPECT_NEAR((*second)->distance(p, 0.0), glm::length(p - Vec3(1, 2, 3)) - 0.75f, 1e-5f);
  }
}

TEST(ProgramCache, GraphsThatDifferAnywhereGetTheirOwnProgram) {
  ProgramCache cache;
  FieldNode animated = sphere(0.5f);
  animated.params[0].driver = AnimatedScalar::Driver::Sine;
  animated.params[0].amplitude = 0.1f;
  animated.params[0].frequency = 1.0f;
  const FieldNode graphs[] = {
      sphere(0.5f),
      sphere(0.25f),                  // a parameter
      withMaterial(sphere(0.5f), 2),  // the material
      box({0.5f, 0.5f, 0.5f}),        // the type
      animated,                       // the driver
      csg(NodeType::Union, {sphere(0.5f), sphere(0.25f)}),
      csg(NodeType::Union, {sphere(0.25f), sphere(0.5f)}),  // the children's order
  };
  std::vector<const FieldProgram*> programs;
  for (const FieldNode& graph : graphs) {
    const auto program = cache.compile(graph);
    ASSERT_TRUE(program) << program.error().message();
    for (const FieldProgram* earlier : programs) EXPECT_NE(program->get(), earlier);
    programs.push_back(program->get());
  }
  EXPECT_EQ(cache.size(), std::size(graphs));
  // The animated one evaluates its own driver: at t = 0.25 s the radius is 0.5 + 0.1.
  EXPECT_NEAR(programs[4]->distance(Vec3(2, 0, 0), 0.25), 2.0f - 0.6f, 1e-5f);
}

TEST(ProgramCache, ZerosOfEitherSignAreOneGraph) {
  // FieldNode's == takes -0 for 0; the cache's hash must too, or equal graphs would miss.
  ProgramCache cache;
  const auto positive = cache.compile(xform({0.0f, 1, 0}, Quat(1, 0, 0, 0), 1, sphere(1)));
  const auto negative = cache.compile(xform({-0.0f, 1, 0}, Quat(1, 0, 0, 0), 1, sphere(1)));
  ASSERT_TRUE(positive && negative);
  EXPECT_EQ(positive->get(), negative->get());
  EXPECT_EQ(FieldNodeHash{}(xform({0.0f, 1, 0}, Quat(1, 0, 0, 0), 1, sphere(1))),
            FieldNodeHash{}(xform({-0.0f, 1, 0}, Quat(1, 0, 0, 0), 1, sphere(1))));
}

TEST(ProgramCache, ARefusedGraphIsRefusedEveryTimeAndNotKept) {
  ProgramCache cache;
  const FieldNode bad = sphere(-1.0f);
  for (int i = 0; i < 2; ++i) {
    const auto program = cache.compile(bad);
    ASSERT_FALSE(program);
    EXPECT_NE(program.error().what.find("radius"), std::string::npos) << program.error().what;
  }
  EXPECT_EQ(cache.size(), 0u);
}

TEST(FieldProgramMove, TheMovedToProgramEvaluatesAndTheMovedFromOneTakesAnAssignment) {
  FieldProgram source = compileOrDie(sphere(2.0f));
  FieldProgram moved(std::move(source));
  EXPECT_FLOAT_EQ(moved.distance(Vec3(5, 0, 0), 0.0), 3.0f);
  const FieldProgram box1 = compileOrDie(box({1, 1, 1}));
  source = box1;  // a copy into the moved-from program
  EXPECT_FLOAT_EQ(source.distance(Vec3(3, 0, 0), 0.0), 2.0f);
  FieldProgram again(std::move(source));
  source = compileOrDie(sphere(0.5f));  // a move into it
  EXPECT_FLOAT_EQ(source.distance(Vec3(0, 1.5f, 0), 0.0), 1.0f);
  EXPECT_FLOAT_EQ(again.distance(Vec3(3, 0, 0), 0.0), 2.0f);
}

}  // namespace
