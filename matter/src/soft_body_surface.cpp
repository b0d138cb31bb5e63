// SoftBodySkin: a soft body's rest field skinned to its clusters' shape-match transforms
// (soft_body_surface.h).
#include "floptle/matter/soft_body_surface.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <tuple>

namespace floptle::matter {
namespace {

Vec3 meanOf(const std::vector<Vec3>& points) {
  glm::dvec3 sum(0.0);
  for (Vec3 p : points) sum += glm::dvec3(p);
  return points.empty() ? Vec3(0.0f) : Vec3(sum / double(points.size()));
}

/// The smallest eigenvalue of a symmetric 3 x 3 matrix (closed form: the trigonometric
/// solution of the characteristic cubic).
float smallestEigenvalue(const Mat3& a) {
  const double a00 = a[0][0], a11 = a[1][1], a22 = a[2][2];
  const double a01 = a[1][0], a02 = a[2][0], a12 = a[2][1];
  const double p1 = a01 * a01 + a02 * a02 + a12 * a12;
  const double q = (a00 + a11 + a22) / 3.0;
  const double p2 =
      (a00 - q) * (a00 - q) + (a11 - q) * (a11 - q) + (a22 - q) * (a22 - q) + 2.0 * p1;
  const double p = std::sqrt(p2 / 6.0);
  if (p <= 1e-12 * std::max(1.0, std::abs(q))) return float(q);  // a multiple of I
  const double b00 = (a00 - q) / p, b11 = (a11 - q) / p, b22 = (a22 - q) / p;
  const double b01 = a01 / p, b02 = a02 / p, b12 = a12 / p;
  const double det =
      b00 * (b11 * b22 - b12 * b12) - b01 * (b01 * b22 - b12 * b02) + b02 * (b01 * b12 - b11 * b02);
  const double r = std::clamp(det / 2.0, -1.0, 1.0);
  const double phi = std::acos(r) / 3.0;
  return float(q + 2.0 * p * std::cos(phi + 2.0943951023931957));
}

struct Group {
  std::vector<std::uint32_t> particles;
  Vec3 restCentroid{0.0f};
};

Vec3 groupCentroid(const std::vector<std::uint32_t>& particles, const std::vector<Vec3>& x) {
  glm::dvec3 sum(0.0);
  for (std::uint32_t i : particles) sum += glm::dvec3(x[i]);
  return particles.empty() ? Vec3(0.0f) : Vec3(sum / double(particles.size()));
}

/// The rest particles by cluster cell (cells in lexicographic order), small groups merged
/// into the group whose rest centroid is nearest theirs.
std::vector<Group> groupParticles(const std::vector<Vec3>& rest, float h, int clusterCells) {
  Vec3 lo(std::numeric_limits<float>::max());
  for (Vec3 p : rest) lo = glm::min(lo, p);
  const float edge = h * float(std::max(1, clusterCells));
  std::map<std::tuple<int, int, int>, std::vector<std::uint32_t>> cells;
  for (std::uint32_t i = 0; i < rest.size(); ++i) {
    // Lattice points sit on multiples of h from lo: the half cell keeps a point off a border.
    const glm::ivec3 c(glm::floor((rest[i] - lo + Vec3(0.5f * h)) / edge));
    cells[{c.x, c.y, c.z}].push_back(i);
  }
  std::vector<Group> big, small;
  for (auto& [key, particles] : cells) {
    Group g{std::move(particles), Vec3(0.0f)};
    g.restCentroid = groupCentroid(g.particles, rest);
    (g.particles.size() >= std::size_t(SoftBodySkin::kMinClusterParticles) ? big : small)
        .push_back(std::move(g));
  }
  if (big.empty()) {
    Group all;
    for (std::uint32_t i = 0; i < rest.size(); ++i) all.particles.push_back(i);
    all.restCentroid = groupCentroid(all.particles, rest);
    return {all};
  }
  for (const Group& s : small) {
    std::size_t best = 0;
    float bestD = std::numeric_limits<float>::max();
    for (std::size_t k = 0; k < big.size(); ++k) {
      const float d = glm::length(big[k].restCentroid - s.restCentroid);
      if (d < bestD) bestD = d, best = k;
    }
    big[best].particles.insert(big[best].particles.end(), s.particles.begin(), s.particles.end());
  }
  for (Group& g : big) g.restCentroid = groupCentroid(g.particles, rest);
  return big;
}

}  // namespace

float smallestSingularValue(const Mat3& m) {
  return std::sqrt(std::max(0.0f, smallestEigenvalue(glm::transpose(m) * m)));
}

Transform bestRigidTransform(const SoftBody& body) {
  Transform t;
  t.rotation = body.state().rotation;
  t.position = body.centroid() - t.rotation * meanOf(body.restPositions());
  return t;
}

SoftBodySkin SoftBodySkin::fit(const SoftBody& body, int clusterCells) {
  SoftBodySkin skin;
  const std::vector<Vec3>& rest = body.restPositions();
  const std::vector<Vec3>& x = body.state().position;
  if (rest.empty()) return skin;
  const float h = body.spacing();
  const Mat3 bodyRotation = glm::mat3_cast(body.state().rotation);
  for (const Group& g : groupParticles(rest, h, clusterCells)) {
    SkinCluster c;
    c.restCentroid = g.restCentroid;
    c.centroid = groupCentroid(g.particles, x);
    Mat3 apq(0.0f), aqq(0.0f);
    float radius = 0.0f;
    for (std::uint32_t i : g.particles) {
      const Vec3 q = rest[i] - c.restCentroid;
      apq += glm::outerProduct(x[i] - c.centroid, q);
      aqq += glm::outerProduct(q, q);
      radius = std::max(radius, glm::length(q));
    }
    c.restRadius = radius + kCoverCells * h;
    const float n = float(g.particles.size());
    bool affine = smallestEigenvalue(aqq) > kFlatness * n * h * h;
    if (affine) {
      const Mat3 m = apq * glm::inverse(aqq);
      c.scale = smallestSingularValue(m);
      affine = glm::determinant(m) > 0.0f && c.scale >= kMinScale;
      if (affine) c.inverse = glm::inverse(m);
    }
    if (!affine) {
      c.inverse = glm::transpose(bodyRotation);
      c.scale = 1.0f;
    }
    skin.clusters_.push_back(c);
  }
  return skin;
}

float SoftBodySkin::distance(const RestField& rest, Vec3 p, float maxDistance) const {
  // Every f_k >= g_k, so clusters are visited by increasing g_k and the walk stops once g_k
  // passes the best value so far (or maxDistance: everything farther is a valid answer).
  constexpr int kStack = 64;
  float ballStack[kStack];
  std::vector<float> ballHeap;
  float* ball = ballStack;
  if (clusters_.size() > std::size_t(kStack)) {
    ballHeap.resize(clusters_.size());
    ball = ballHeap.data();
  }
  float nearest = std::numeric_limits<float>::infinity();
  for (std::size_t k = 0; k < clusters_.size(); ++k) {
    const SkinCluster& c = clusters_[k];
    ball[k] = c.scale * (glm::length(c.inverse * (p - c.centroid)) - c.restRadius);
    nearest = std::min(nearest, ball[k]);
  }
  if (nearest >= maxDistance) return nearest;
  float best = std::numeric_limits<float>::infinity();
  for (;;) {
    std::size_t k = clusters_.size();
    float g = best;
    for (std::size_t j = 0; j < clusters_.size(); ++j)
      if (ball[j] < g) g = ball[j], k = j;
    if (k == clusters_.size()) break;
    ball[k] = std::numeric_limits<float>::infinity();  // visited
    const SkinCluster& c = clusters_[k];
    const Vec3 u = c.inverse * (p - c.centroid);
    best = std::min(best, std::max(c.scale * rest(u + c.restCentroid), g));
  }
  return best;
}

void SoftBodySkin::distances(const RestField& rest, std::span<const Vec3> points, float maxDistance,
                             std::span<float> out) const {
  for (std::size_t i = 0; i < points.size(); ++i) out[i] = distance(rest, points[i], maxDistance);
}

}  // namespace floptle::matter
