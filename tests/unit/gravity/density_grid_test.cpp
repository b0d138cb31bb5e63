// Tier 3's density grid against closed forms: a uniform ball pulls G M / r^2 outside and
// G M r / R^3 inside (the shell theorem), a hollow shell about nothing inside, and beyond the
// grid the multipole expansion continues the monopole.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "floptle/gravity/density_grid.h"
#include "floptle/gravity/poisson_solver.h"

namespace floptle::gravity {
namespace {

constexpr float kPi = 3.14159265358979f;

/// Directions the pull is checked along (not only the grid's axes).
const Vec3 kDirections[] = {Vec3(1, 0, 0), Vec3(0, -1, 0), glm::normalize(Vec3(1, 1, 1)),
                            glm::normalize(Vec3(-2, 1, 0.5f))};

DensityGrid ballGrid(float G, float radius, float density, float half, float cell,
                     float inner = 0.0f) {
  auto grid =
      DensityGrid::create(Aabb{Vec3(-half), Vec3(half)}, cell, G, "/settings/gravity/density");
  EXPECT_TRUE(grid) << (grid ? "" : grid.error().message());
  DensityGrid g = std::move(grid.value());
  g.addMatter(Aabb{Vec3(-radius), Vec3(radius)}, density, [&](Vec3 p) {
    const float r = glm::length(p);
    return inner > 0.0f ? std::max(r - radius, inner - r) : r - radius;
  });
  g.solve();
  return g;
}

/// |a - b| / |b|.
float relativeError(Vec3 a, Vec3 b) {
  return glm::length(a - b) / glm::length(b);
}

TEST(IsolatedPoissonSolver, EqualsTheDirectSumOfTheGreensFunction) {
  // A small grid of uneven sizes (padded to odd and even transform sizes), random rho.
  const glm::ivec3 n(5, 4, 7);
  const float h = 0.5f, G = 1.5f;
  IsolatedPoissonSolver solver(n, h, G);
  std::mt19937 rng(5);
  std::uniform_real_distribution<float> u(0.0f, 10.0f);
  std::vector<float> rho(std::size_t(n.x * n.y * n.z)), phi(rho.size());
  for (float& r : rho) r = u(rng);
  solver.solve(rho, phi);
  auto at = [&](int i, int j, int k) { return std::size_t((k * n.y + j) * n.x + i); };
  for (int k = 0; k < n.z; ++k)
    for (int j = 0; j < n.y; ++j)
      for (int i = 0; i < n.x; ++i) {
        double exact = 0.0;
        for (int c = 0; c < n.z; ++c)
          for (int b = 0; b < n.y; ++b)
            for (int a = 0; a < n.x; ++a) {
              const double r =
                  h * std::sqrt(double((i - a) * (i - a) + (j - b) * (j - b) + (k - c) * (k - c)));
              const double K = r > 0.0 ? -G * h * h * h / r : -G * h * h * 2.3800772619834;
              exact += K * rho[at(a, b, c)];
            }
        EXPECT_NEAR(phi[at(i, j, k)], exact, 1e-4 * std::abs(exact)) << i << " " << j << " " << k;
      }
}

TEST(DensityGrid, AUniformBallPullsGMOverRSquaredOutsideAndGMrOverRCubedInside) {
  const float G = 2.0f, R = 8.0f, rho = 3.0f;
  const DensityGrid grid = ballGrid(G, R, rho, 20.0f, 1.0f);
  const float M = rho * 4.0f / 3.0f * kPi * R * R * R;
  EXPECT_NEAR(grid.mass(), M, 0.01f * M);
  for (Vec3 dir : kDirections) {
    for (float r : {10.0f, 13.0f, 17.0f}) {
      const Vec3 expected = -G * M / (r * r) * dir;
      EXPECT_LT(relativeError(grid.sample(r * dir), expected), 0.02f) << "outside at r = " << r;
    }
    for (float r : {2.0f, 4.0f, 6.0f}) {
      const Vec3 expected = -G * M * r / (R * R * R) * dir;
      EXPECT_LT(relativeError(grid.sample(r * dir), expected), 0.03f) << "inside at r = " << r;
    }
  }
}

TEST(DensityGrid, AHollowShellPullsAboutNothingInside) {
  const float G = 1.0f, R = 10.0f, inner = 6.0f, rho = 2.0f;
  const DensityGrid grid = ballGrid(G, R, rho, 20.0f, 1.0f, inner);
  const float M = rho * 4.0f / 3.0f * kPi * (R * R * R - inner * inner * inner);
  const float surfacePull = G * M / (R * R);
  EXPECT_NEAR(grid.mass(), M, 0.02f * M);
  for (Vec3 dir : kDirections)
    for (float r : {0.0f, 2.0f, 4.0f})
      EXPECT_LT(glm::length(grid.sample(r * dir)), 0.02f * surfacePull) << "r = " << r;
  // Outside, the shell's whole mass pulls.
  EXPECT_LT(relativeError(grid.sample(Vec3(0, 15, 0)), Vec3(0, -G * M / 225.0f, 0)), 0.02f);
}

TEST(DensityGrid, BeyondTheGridTheMultipoleExpansionContinuesTheMonopole) {
  const float G = 1.0f, R = 5.0f, rho = 1.0f;
  const DensityGrid grid = ballGrid(G, R, rho, 12.0f, 1.0f);
  EXPECT_NEAR(grid.mass(), rho * 4.0f / 3.0f * kPi * R * R * R, 0.005f * grid.mass());
  const float M = rho * 4.0f / 3.0f * kPi * R * R * R;
  for (Vec3 dir : kDirections)
    for (float r : {25.0f, 60.0f, 500.0f}) {
      const Vec3 g = grid.sample(r * dir);
      EXPECT_LT(relativeError(g, -G * M / (r * r) * dir), 0.01f) << "r = " << r;
      EXPECT_LT(relativeError(g, -G * grid.mass() / (r * r) * dir), 1e-3f) << "r = " << r;
    }
  // Continuous across the grid's face (x = 12): just inside against just outside.
  const Vec3 in = grid.sample(Vec3(11.99f, 1, 0)), out = grid.sample(Vec3(12.01f, 1, 0));
  EXPECT_LT(relativeError(in, out), 0.03f);
}

TEST(DensityGrid, AnOffCentreMassIsContinuedAboutItsCentreOfMass) {
  // Two balls, off the grid's centre: the dipole about the centre is carried by the expansion.
  auto made = DensityGrid::create(Aabb{Vec3(-16), Vec3(16)}, 1.0f, 1.0f, "/d");
  ASSERT_TRUE(made);
  DensityGrid grid = std::move(made.value());
  const Vec3 a(6, 2, 0), b(-2, -3, 4);
  grid.addMatter(Aabb{a - 3.0f, a + 3.0f}, 1.0f, [&](Vec3 p) { return glm::length(p - a) - 3.0f; });
  grid.addMatter(Aabb{b - 2.0f, b + 2.0f}, 2.0f, [&](Vec3 p) { return glm::length(p - b) - 2.0f; });
  grid.solve();
  const float ma = 4.0f / 3.0f * kPi * 27.0f, mb = 2.0f * 4.0f / 3.0f * kPi * 8.0f;
  for (Vec3 p : {Vec3(40, 0, 0), Vec3(-30, 25, 10), Vec3(0, 0, -70)}) {
    const Vec3 exact = -ma * (p - a) / std::pow(glm::length(p - a), 3.0f) -
                       mb * (p - b) / std::pow(glm::length(p - b), 3.0f);
    EXPECT_LT(relativeError(grid.sample(p), exact), 0.01f) << p.x << " " << p.y << " " << p.z;
  }
}

TEST(DensityGrid, RefusesANonPositiveCellEmptyBoundsAndTooManyNodes) {
  const Aabb box{Vec3(-1), Vec3(1)};
  auto zero = DensityGrid::create(box, 0.0f, 1.0f, "/settings/gravity/density");
  ASSERT_FALSE(zero);
  EXPECT_EQ(zero.error().where, "/settings/gravity/density/cell");
  auto empty =
      DensityGrid::create(Aabb{Vec3(1), Vec3(-1)}, 0.5f, 1.0f, "/settings/gravity/density");
  ASSERT_FALSE(empty);
  EXPECT_EQ(empty.error().where, "/settings/gravity/density/bounds");
  auto huge = DensityGrid::create(box, 1e-3f, 1.0f, "/settings/gravity/density");
  ASSERT_FALSE(huge);
  EXPECT_EQ(huge.error().where, "/settings/gravity/density/cell");
}

}  // namespace
}  // namespace floptle::gravity
