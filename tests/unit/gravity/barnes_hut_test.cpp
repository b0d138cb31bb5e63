// The Barnes-Hut tree against the direct sum: within its opening angle's error, more exact as
// theta falls, and exact where every cell is opened.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "floptle/gravity/barnes_hut.h"

namespace floptle::gravity {
namespace {

struct Cloud {
  std::vector<Vec3> positions;
  std::vector<float> masses;
};

/// n masses: a Plummer-like clump plus a uniform spread, fixed seed.
Cloud cloud(int n) {
  std::mt19937 rng(11);
  std::normal_distribution<float> clump(0.0f, 5.0f);
  std::uniform_real_distribution<float> spread(-60.0f, 60.0f), mass(0.5f, 2.0f);
  Cloud c;
  for (int i = 0; i < n; ++i) {
    c.positions.push_back(i % 2 ? Vec3(clump(rng), clump(rng), clump(rng))
                                : Vec3(spread(rng), spread(rng), spread(rng)));
    c.masses.push_back(mass(rng));
  }
  return c;
}

/// RMS over every mass of |tree - direct| / |direct|, each evaluated at the mass itself.
float rmsError(const Cloud& c, float theta) {
  BarnesHutTree tree;
  tree.build(c.positions, c.masses);
  double sum = 0.0;
  for (const Vec3& p : c.positions) {
    const Vec3 exact = BarnesHutTree::directSum(p, c.positions, c.masses, 1.0f, 0.01f);
    const Vec3 approx = tree.accel(p, 1.0f, theta, 0.01f);
    const double e = glm::length(approx - exact) / glm::length(exact);
    sum += e * e;
  }
  return float(std::sqrt(sum / double(c.positions.size())));
}

TEST(BarnesHut, MatchesTheDirectSumWithinItsOpeningAngleError) {
  const Cloud c = cloud(3000);
  const float e05 = rmsError(c, 0.5f), e03 = rmsError(c, 0.3f), e10 = rmsError(c, 1.0f);
  EXPECT_LT(e05, 0.01f);  // the bar: <= 1% RMS at the default theta
  EXPECT_LT(e03, e05);
  EXPECT_LT(e05, e10);
  EXPECT_LT(e10, 0.05f);
}

TEST(BarnesHut, TheGroupedWalkMatchesTheDirectSumWithinTheSameError) {
  const Cloud c = cloud(3000);
  BarnesHutTree tree;
  tree.build(c.positions, c.masses);
  std::vector<Vec3> grouped(c.positions.size()), direct(c.positions.size());
  tree.accelAll(1.0f, 0.5f, 0.01f, grouped);
  BarnesHutTree::directSumAll(c.positions, c.masses, 1.0f, 0.01f, direct);
  double sum = 0.0;
  for (std::size_t i = 0; i < c.positions.size(); ++i) {
    const Vec3 exact = BarnesHutTree::directSum(c.positions[i], c.positions, c.masses, 1.0f, 0.01f);
    EXPECT_LT(glm::length(direct[i] - exact), 1e-4f * glm::length(exact));
    const double e = glm::length(grouped[i] - exact) / glm::length(exact);
    sum += e * e;
  }
  EXPECT_LT(std::sqrt(sum / double(c.positions.size())), 0.01);
}

TEST(BarnesHut, ATinyOpeningAngleOpensEveryCell) {
  const Cloud c = cloud(500);
  BarnesHutTree tree;
  tree.build(c.positions, c.masses);
  for (std::size_t i = 0; i < c.positions.size(); i += 37) {
    const Vec3 p = c.positions[i] + Vec3(0.3f, -0.2f, 0.1f);
    const Vec3 exact = BarnesHutTree::directSum(p, c.positions, c.masses, 2.0f, 0.0f);
    const Vec3 approx = tree.accel(p, 2.0f, 1e-4f, 0.0f);
    EXPECT_LT(glm::length(approx - exact), 1e-4f * glm::length(exact));
  }
}

TEST(BarnesHut, AMassPullsNothingAtItselfAndAnEmptyTreeNothingAnywhere) {
  BarnesHutTree tree;
  EXPECT_EQ(tree.accel(Vec3(1, 2, 3), 1.0f, 0.5f, 0.0f), Vec3(0.0f));
  const std::vector<Vec3> p = {Vec3(1, 2, 3)};
  const std::vector<float> m = {5.0f};
  tree.build(p, m);
  EXPECT_EQ(tree.accel(Vec3(1, 2, 3), 1.0f, 1.0f, 0.0f), Vec3(0.0f));
  const Vec3 g = tree.accel(Vec3(1, 4, 3), 1.0f, 0.5f, 0.0f);
  EXPECT_NEAR(g.y, -5.0f / 4.0f, 1e-6f);
}

}  // namespace
}  // namespace floptle::gravity
