// The soft body's per-substep particle passes (matter/src/soft_body_particles.h) give the bits
// of their plain particle-by-particle glm loops (soft_body.h's formulas), whole blocks of four
// and the particles left over alike; the tetrahedra's volume sum taken side by side gives the
// bits of the plain sum over the tetrahedra in order.
#include <cstring>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include "../../../matter/src/soft_body_particles.h"
#include "soft_body_test_util.h"

namespace floptle::matter {
namespace {

using Packed = SoftBody::Packed;

// 3 whole blocks of four and 2 left over.
constexpr std::size_t kCount = 14;

std::vector<Vec3> randomVectors(std::mt19937& rng, float scale) {
  std::uniform_real_distribution<float> u(-scale, scale);
  std::vector<Vec3> v;
  for (std::size_t i = 0; i < kCount; ++i) v.emplace_back(u(rng), u(rng), u(rng));
  return v;
}

std::vector<float> randomFloats(std::mt19937& rng) {
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  std::vector<float> v;
  for (std::size_t i = 0; i < kCount; ++i) v.push_back(u(rng));
  return v;
}

template <class T>
bool sameBits(const T& a, const T& b) {
  return std::memcmp(&a, &b, sizeof(T)) == 0;
}

void expectSameBits(const std::vector<Vec3>& got, const std::vector<Vec3>& want, const char* what) {
  ASSERT_EQ(got.size(), want.size());
  for (std::size_t i = 0; i < got.size(); ++i)
    EXPECT_TRUE(sameBits(got[i], want[i]))
        << what << ": particle " << i << " (" << got[i].x << ", " << got[i].y << ", " << got[i].z
        << ") vs (" << want[i].x << ", " << want[i].y << ", " << want[i].z << ")";
}

void expectSameBits(const std::vector<Packed>& got, const std::vector<Vec3>& want,
                    const std::vector<float>& wantVirial, const char* what) {
  for (std::size_t i = 0; i < want.size(); ++i) {
    const Vec3 g(got[i].x, got[i].y, got[i].z);
    EXPECT_TRUE(sameBits(g, want[i])) << what << ": particle " << i;
    EXPECT_TRUE(sameBits(got[i].virial, wantVirial[i])) << what << ": particle " << i;
  }
}

TEST(SoftBodyParticles, ThePredictGivesTheBitsOfThePlainLoop) {
  std::mt19937 rng(3);
  const std::vector<Vec3> x = randomVectors(rng, 50.0f), v0 = randomVectors(rng, 3.0f);
  const std::vector<float> virial = randomFloats(rng);
  const Vec3 pull = Vec3(0.1f, -9.81f, 0.3f) * (1.0f / 600.0f);
  const float h = 1.0f / 600.0f;
  for (bool measuring : {false, true}) {
    // soft_body.h: v += g h; x_prev = x; x += v h; the working copy holds x and the virial.
    std::vector<Vec3> wantV = v0, wantPrevious, wantPredicted;
    std::vector<float> wantVirial(kCount, 0.0f);
    for (std::size_t i = 0; i < kCount; ++i) {
      wantV[i] = v0[i] + pull;
      wantPrevious.push_back(x[i]);
      wantPredicted.push_back(x[i] + wantV[i] * h);
      if (measuring) wantVirial[i] = virial[i];
    }
    std::vector<Vec3> v = v0, previous(kCount), predicted(kCount);
    std::vector<Packed> packed(kCount + 1);
    particles::predict(kCount, x.data(), v.data(), previous.data(), predicted.data(), packed.data(),
                       measuring ? virial.data() : nullptr, pull, h);
    expectSameBits(v, wantV, "velocity");
    expectSameBits(previous, wantPrevious, "previous");
    expectSameBits(predicted, wantPredicted, "predicted");
    expectSameBits(packed, wantPredicted, wantVirial, "working copy");
  }
}

TEST(SoftBodyParticles, VelocitiesAndDampingGiveTheBitsOfThePlainLoops) {
  std::mt19937 rng(5);
  const std::vector<Vec3> x = randomVectors(rng, 50.0f), predicted = randomVectors(rng, 50.0f);
  const std::vector<Vec3> v0 = randomVectors(rng, 3.0f);
  const float inv = 600.0f, keep = 0.9983f;
  std::vector<Vec3> want = v0;
  Vec3 wantSum(0.0f);
  for (std::size_t i = 0; i < kCount; ++i) {
    want[i] = v0[i] + (x[i] - predicted[i]) * inv;
    wantSum += want[i];
  }
  std::vector<Vec3> v = v0;
  const Vec3 sum = particles::correctVelocities(kCount, x.data(), predicted.data(), v.data(), inv);
  expectSameBits(v, want, "velocity");
  EXPECT_TRUE(sameBits(sum, wantSum)) << "the sum";
  const Vec3 mean = wantSum / float(kCount);
  for (Vec3& w : want) w = mean + (w - mean) * keep;
  particles::damp(kCount, v.data(), mean, keep);
  expectSameBits(v, want, "damped velocity");
}

TEST(SoftBodyParticles, PackAndUnpackCarryPositionsAndVirialsExactly) {
  std::mt19937 rng(11);
  const std::vector<Vec3> x = randomVectors(rng, 50.0f);
  const std::vector<float> virial = randomFloats(rng);
  std::vector<Packed> packed(kCount + 1);
  particles::pack(kCount, x.data(), nullptr, packed.data());
  expectSameBits(packed, x, std::vector<float>(kCount, 0.0f), "packed without virials");
  particles::pack(kCount, x.data(), virial.data(), packed.data());
  expectSameBits(packed, x, virial, "packed with virials");
  std::vector<Vec3> back(kCount);
  std::vector<float> virialBack(kCount, 7.0f);
  particles::unpack(kCount, packed.data(), back.data(), nullptr);
  expectSameBits(back, x, "unpacked");
  particles::unpack(kCount, packed.data(), back.data(), virialBack.data());
  for (std::size_t i = 0; i < kCount; ++i)
    EXPECT_TRUE(sameBits(virialBack[i], virial[i])) << "virial " << i;
}

TEST(SoftBodyParticles, ShapeMatchingsSumsGiveTheBitsOfThePlainLoops) {
  std::mt19937 rng(13);
  // Far from the origin, as a body that travelled: the sums' rounding shows.
  const std::vector<Vec3> x = randomVectors(rng, 300.0f), q = randomVectors(rng, 0.5f);
  const std::vector<float> virial = randomFloats(rng);  // the working copy's fourth floats
  std::vector<Packed> px(kCount + 1), pq(kCount + 1);
  particles::pack(kCount, x.data(), virial.data(), px.data());
  particles::pack(kCount, q.data(), nullptr, pq.data());
  glm::dvec3 wantSum(0.0);
  for (Vec3 p : x) wantSum += glm::dvec3(p);
  const glm::dvec3 sum = particles::sum(kCount, px.data());
  EXPECT_TRUE(sameBits(sum, wantSum));
  const Vec3 c(sum / double(kCount));
  Mat3 want(0.0f);
  for (std::size_t i = 0; i < kCount; ++i) {
    const Vec3 p = x[i] - c;
    want[0] += p * q[i].x;
    want[1] += p * q[i].y;
    want[2] += p * q[i].z;
  }
  const Mat3 a = particles::covariance(kCount, px.data(), pq.data(), c);
  for (int j = 0; j < 3; ++j) EXPECT_TRUE(sameBits(a[j], want[j])) << "column " << j;
}

TEST(SoftBodyParticles, TheTetrahedraVolumeSumGivesTheBitsOfThePlainSum) {
  SoftBodyKnobs knobs;
  knobs.particles = 200;
  SoftBody body = test::softCube(Vec3(3.0f, 1.0f, -2.0f), 0.5f, knobs);
  std::mt19937 rng(17);
  std::uniform_real_distribution<float> jitter(-0.03f, 0.03f);
  for (Vec3& p : body.state().position) p += Vec3(jitter(rng), jitter(rng), jitter(rng));
  const std::vector<Vec3>& x = body.state().position;
  float want = 0.0f;
  for (std::size_t t = 0; t < body.tetCount(); ++t) {
    const auto& k = body.tet(t);
    want += glm::dot(glm::cross(x[k[1]] - x[k[0]], x[k[2]] - x[k[0]]), x[k[3]] - x[k[0]]) / 6.0f;
  }
  ASSERT_GT(body.tetCount(), 100u);
  EXPECT_TRUE(sameBits(body.tetVolume(), want)) << body.tetVolume() << " vs " << want;
  EXPECT_TRUE(sameBits(body.volume(), body.initialRestVolume() * (want / body.tetRestVolume())));
}

}  // namespace
}  // namespace floptle::matter
