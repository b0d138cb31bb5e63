// The soft body's batched constraint sweeps (matter/src/soft_body_sweep.h) give the bits of
// the seed's one-at-a-time XPBD updates in the same order: the distance update of xpbd.h and
// the tetrahedral volume update of soft_body.h, with the compaction's virials; the baseline
// build (SSE2) and the AVX2 and AVX-512 builds where this CPU has them agree bit for bit, and
// so do shape matching's pull and its particle-by-particle glm form, and the tetrahedra's
// volume sum and its plain form.
#include <algorithm>
#include <cstring>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include "../../../matter/src/soft_body_sweep.h"
#include "floptle/matter/xpbd.h"
#include "soft_body_test_util.h"

namespace floptle::matter {
namespace {

constexpr int kLanes = SoftBody::kLanes;
constexpr std::uint32_t kParticles = 40;
constexpr std::uint32_t kZero = kParticles;  // the padding lanes' slot

/// Constraints (each a list of distinct particles) in batches as soft_body_solve.cpp lays
/// them out: `sizes` real lanes per batch, no particle twice within a batch.
struct Layout {
  std::vector<std::vector<std::uint32_t>> constraints;
  std::vector<std::uint32_t> first, ends;
  std::vector<std::uint8_t> mask;
};

Layout makeLayout(int arity, const std::vector<int>& sizes, std::mt19937& rng) {
  Layout l;
  for (int used : sizes) {
    std::vector<std::uint32_t> order(kParticles);
    for (std::uint32_t i = 0; i < kParticles; ++i) order[i] = i;
    std::shuffle(order.begin(), order.end(), rng);  // distinct particles across the batch
    const auto first = std::uint32_t(l.constraints.size());
    const std::size_t base = l.ends.size();
    l.ends.resize(base + std::size_t(kLanes * arity), sweep::offsetOf(kZero));
    l.first.push_back(first);
    for (int lane = 0; lane < used; ++lane) {
      std::vector<std::uint32_t> c;
      for (int k = 0; k < arity; ++k) {
        c.push_back(order[std::size_t(lane * arity + k)]);
        l.ends[base + std::size_t(k * kLanes + lane)] = sweep::offsetOf(c.back());
      }
      l.constraints.push_back(c);
    }
    l.mask.push_back(std::uint8_t((1u << used) - 1u));
  }
  return l;
}

/// Random positions, and when measuring random virials so far (the sweeps add to them); on
/// the other substeps every virial slot holds 0 (soft_body_sweep.h).
std::vector<SoftBody::Packed> randomPositions(std::mt19937& rng, bool measuring) {
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  std::vector<SoftBody::Packed> x(kParticles + 1);
  for (std::uint32_t i = 0; i < kParticles; ++i) {
    x[i] = {u(rng), u(rng), u(rng), u(rng)};
    if (!measuring) x[i].virial = 0.0f;
  }
  return x;
}

std::vector<float> virials(const std::vector<SoftBody::Packed>& x) {
  std::vector<float> v;
  for (std::uint32_t i = 0; i < kParticles; ++i) v.push_back(x[i].virial);
  return v;
}

std::vector<Vec3> unpacked(const std::vector<SoftBody::Packed>& x) {
  std::vector<Vec3> v;
  for (std::uint32_t i = 0; i < kParticles; ++i) v.emplace_back(x[i].x, x[i].y, x[i].z);
  return v;
}

void expectSameBits(const std::vector<SoftBody::Packed>& got, const std::vector<Vec3>& want,
                    const char* what) {
  for (std::uint32_t i = 0; i < kParticles; ++i) {
    const Vec3 g(got[i].x, got[i].y, got[i].z);
    EXPECT_EQ(std::memcmp(&g, &want[i], sizeof g), 0)
        << what << ": particle " << i << " (" << g.x << ", " << g.y << ", " << g.z << ") vs ("
        << want[i].x << ", " << want[i].y << ", " << want[i].z << ")";
  }
  EXPECT_EQ(got[kZero].x, 0.0f) << what << ": the padding slot was written";
  EXPECT_EQ(got[kZero].virial, 0.0f) << what << ": the padding slot was written";
}

/// The builds this CPU runs: the baseline (this file's SSE2), AVX2 and AVX-512 where it has them.
std::vector<const sweep::Kernels*> builds() {
  std::vector<const sweep::Kernels*> b{&sweep::baselineKernels()};
  if (const sweep::Kernels* k = sweep::avx2Kernels()) b.push_back(k);
  if (const sweep::Kernels* k = sweep::avx512Kernels()) b.push_back(k);
  return b;
}

void expectSameBits(const std::vector<float>& got, const std::vector<float>& want,
                    const char* what) {
  ASSERT_EQ(got.size(), want.size());
  for (std::size_t i = 0; i < got.size(); ++i)
    EXPECT_EQ(std::memcmp(&got[i], &want[i], sizeof(float)), 0)
        << what << ": " << i << " " << got[i] << " vs " << want[i];
}

TEST(SoftBodySweeps, DistanceBatchesGiveTheBitsOfTheOneAtATimeXpbdUpdate) {
  std::mt19937 rng(19);
  // Full batches and cut-short ones (padding lanes), as at colour boundaries.
  const Layout l = makeLayout(2, {8, 5, 8, 1, 8, 3}, rng);
  std::uniform_real_distribution<float> restLength(0.1f, 2.0f);
  std::vector<float> rest;
  for (std::size_t c = 0; c < l.constraints.size(); ++c) rest.push_back(restLength(rng));
  std::vector<std::uint8_t> broken(l.constraints.size(), 0);
  broken[3] = broken[10] = 1;  // snapped edges are left alone
  const float w = 0.37f, alphaTilde = 0.21f;
  const Vec3 axis = glm::normalize(Vec3(0.3f, -1.0f, 0.2f));
  for (bool backward : {false, true}) {
    for (bool measure : {false, true}) {
      const std::vector<SoftBody::Packed> start = randomPositions(rng, measure);
      // The reference: xpbd.h's update constraint by constraint in sweep order, and the
      // compaction's share 1/2 dlambda (d . g^)^2 / |d| to each end (soft_body.h).
      std::vector<Vec3> want = unpacked(start);
      const std::vector<float> startVirial = virials(start);
      std::vector<float> wantVirial = startVirial;
      const std::size_t n = l.constraints.size();
      for (std::size_t k = 0; k < n; ++k) {
        const std::size_t c = backward ? n - 1 - k : k;
        if (broken[c]) continue;
        Vec3& a = want[l.constraints[c][0]];
        Vec3& b = want[l.constraints[c][1]];
        const Vec3 d = a - b;
        const float len = glm::length(d);
        float lambda = 0.0f;
        const float dLambda = solveDistance(a, b, w, w, rest[c], alphaTilde, lambda);
        if (len > 0.0f) {
          const float share = 0.5f * dLambda * (glm::dot(d, axis) * glm::dot(d, axis)) / len;
          wantVirial[l.constraints[c][0]] += share;
          wantVirial[l.constraints[c][1]] += share;
        }
      }
      sweep::Distances s;
      s.first = l.first.data();
      s.ends = l.ends.data();
      s.mask = l.mask.data();
      s.batches = l.mask.size();
      s.backward = backward;
      s.rest = rest.data();
      s.broken = broken.data();
      s.weight = w;
      s.denominator = w + w + alphaTilde;
      s.axial = true;
      s.axis[0] = axis.x, s.axis[1] = axis.y, s.axis[2] = axis.z;
      for (const sweep::Kernels* build : builds()) {
        std::vector<SoftBody::Packed> got = start;
        s.x = got.data();
        build->distances(s, measure);
        expectSameBits(got, want, build->name);
        expectSameBits(virials(got), measure ? wantVirial : startVirial, build->name);
      }
    }
  }
}

TEST(SoftBodySweeps, VolumeBatchesGiveTheBitsOfTheOneAtATimeXpbdUpdate) {
  std::mt19937 rng(2);
  const Layout l = makeLayout(4, {8, 8, 2, 8, 7}, rng);
  std::uniform_real_distribution<float> restVolume(0.01f, 0.2f);
  std::vector<float> rest;
  for (std::size_t c = 0; c < l.constraints.size(); ++c) rest.push_back(restVolume(rng));
  std::vector<std::uint8_t> broken(l.constraints.size(), 0);
  broken[9] = 1;
  const float w = 0.5f, knob = 0.03f, bulk = 0.7f;
  for (bool measure : {false, true}) {
    const std::vector<SoftBody::Packed> start = randomPositions(rng, measure);
    // The reference: soft_body.h's update on C' = 6 (V - V0), tetrahedron by tetrahedron.
    std::vector<Vec3> want = unpacked(start);
    const std::vector<float> startVirial = virials(start);
    std::vector<float> wantVirial = startVirial;
    for (std::size_t c = 0; c < l.constraints.size(); ++c) {
      if (broken[c]) continue;
      const auto& id = l.constraints[c];
      Vec3 &x0 = want[id[0]], &x1 = want[id[1]], &x2 = want[id[2]], &x3 = want[id[3]];
      const Vec3 e1 = x1 - x0, e2 = x2 - x0, e3 = x3 - x0;
      const Vec3 g1 = glm::cross(e2, e3), g2 = glm::cross(e3, e1), g3 = glm::cross(e1, e2);
      const Vec3 g0 = -(g1 + g2 + g3);
      const float sixVolume = glm::dot(g3, e3);
      const float sum =
          w * (glm::dot(g0, g0) + glm::dot(g1, g1) + glm::dot(g2, g2) + glm::dot(g3, g3));
      const float alphaTilde = knob + bulk * rest[c];
      const float dLambda = -(sixVolume - 6.0f * rest[c]) / (sum + alphaTilde);
      const float step = w * dLambda;
      x0 += step * g0, x1 += step * g1, x2 += step * g2, x3 += step * g3;
      for (int k = 0; k < 4; ++k) wantVirial[id[std::size_t(k)]] += 0.25f * sixVolume * dLambda;
    }
    sweep::Volumes s;
    s.first = l.first.data();
    s.ends = l.ends.data();
    s.mask = l.mask.data();
    s.batches = l.mask.size();
    s.rest = rest.data();
    s.broken = broken.data();
    s.weight = w;
    s.knob = knob;
    s.bulk = bulk;
    for (const sweep::Kernels* build : builds()) {
      std::vector<SoftBody::Packed> got = start;
      s.x = got.data();
      build->volumes(s, measure);
      expectSameBits(got, want, build->name);
      expectSameBits(virials(got), measure ? wantVirial : startVirial, build->name);
    }
  }
  // The volume sum over the same batches: the plain sum in constraint order (soft_body.h's
  // tetVolume).
  const std::vector<SoftBody::Packed> x = randomPositions(rng, false);
  float want = 0.0f;
  for (const auto& id : l.constraints) {
    const auto at = [&](int k) {
      const SoftBody::Packed& p = x[id[std::size_t(k)]];
      return Vec3(p.x, p.y, p.z);
    };
    want += glm::dot(glm::cross(at(1) - at(0), at(2) - at(0)), at(3) - at(0)) / 6.0f;
  }
  sweep::VolumeSum sum;
  sum.x = x.data();
  sum.ends = l.ends.data();
  sum.mask = l.mask.data();
  sum.batches = l.mask.size();
  for (const sweep::Kernels* build : builds()) {
    const float got = build->volumeSum(sum);
    EXPECT_EQ(std::memcmp(&got, &want, sizeof got), 0)
        << build->name << ": volume sum " << got << " vs " << want;
  }
}

TEST(SoftBodySweeps, ShapeMatchingsPullGivesTheBitsOfTheParticleByParticleUpdate) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  // 13 particles: a full batch of 8 and a tail of 5 (padding lanes on the zero slot).
  const std::size_t n = 13;
  std::vector<SoftBody::Packed> start(n + 1), q(n + 1);
  for (std::size_t i = 0; i < n; ++i) {
    start[i] = {u(rng), u(rng), u(rng), u(rng)};  // the virial rides along untouched
    q[i] = {u(rng), u(rng), u(rng), 0.0f};
  }
  const Vec3 c(0.1f, -0.3f, 0.7f);
  const Mat3 r = glm::mat3_cast(glm::angleAxis(0.7f, glm::normalize(Vec3(1, 2, 3)))) * 0.93f;
  const float beta = 0.137f;
  // The reference: x_i += beta ((c - x_i) + R q_i) as soft_body.h writes it, with glm.
  std::vector<Vec3> want;
  for (std::size_t i = 0; i < n; ++i) {
    Vec3 x(start[i].x, start[i].y, start[i].z);
    x += beta * ((c - x) + r * Vec3(q[i].x, q[i].y, q[i].z));
    want.push_back(x);
  }
  sweep::ShapePull s;
  s.q = q.data();
  s.count = n;
  s.centre[0] = c.x, s.centre[1] = c.y, s.centre[2] = c.z;
  for (int col = 0; col < 3; ++col)
    for (int row = 0; row < 3; ++row) s.r[3 * col + row] = r[col][row];
  s.beta = beta;
  const auto check = [&](const std::vector<SoftBody::Packed>& got, const char* what) {
    for (std::size_t i = 0; i < n; ++i) {
      const Vec3 g(got[i].x, got[i].y, got[i].z);
      EXPECT_EQ(std::memcmp(&g, &want[i], sizeof g), 0) << what << ": particle " << i;
      EXPECT_EQ(std::memcmp(&got[i].virial, &start[i].virial, sizeof(float)), 0)
          << what << ": particle " << i << "'s virial";
    }
    EXPECT_EQ(got[n].x, 0.0f) << what << ": the padding slot was written";
  };
  for (const sweep::Kernels* build : builds()) {
    std::vector<SoftBody::Packed> got = start;
    s.x = got.data();
    build->pull(s);
    check(got, build->name);
  }
}

}  // namespace
}  // namespace floptle::matter
