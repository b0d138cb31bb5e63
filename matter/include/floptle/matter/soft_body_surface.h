#pragma once
// SoftBodySkin: the drawn and sampled surface of a soft body, its node's rest field skinned to
// the cage ("the surface follows the cage", seed 002 / issue 19).
//
// Clusters: the rest particles are grouped by a cubic grid of clusterCells x clusterCells x
// clusterCells lattice cells (spacing h) over the rest cage; a group of fewer than
// kMinClusterParticles particles joins the group whose rest centroid is nearest its own (a body
// smaller than one cluster is one cluster). Each cluster k keeps its rest centroid c0_k and its
// rest radius R_k = max |x0_i - c0_k| over its particles + kCoverCells h, so its ball covers
// every point of the shape within about 2 h of its particles (the lattice is inset at most
// sqrt(3)/2 h from the surface).
//
// Each fit (one per step, from the current positions x_i) takes every cluster's shape-match
// transform: the least-squares affine map (Mueller et al. 2005, "linear" shape matching)
//   M_k = A_pq A_qq^-1,  A_pq = sum (x_i - c_k) q_i^T,  A_qq = sum q_i q_i^T,  q_i = x0_i - c0_k
// and its smallest singular value s_k = sigma_min(M_k). Where A_qq is degenerate (its smallest
// eigenvalue under kFlatness n h^2: a flat or thin cluster) or M_k folds or collapses (s_k <
// kMinScale, det <= 0), M_k is the body's shape-match rotation instead (s_k = 1).
//
// The field at p, with u_k = M_k^-1 (p - c_k) the rest-space point of cluster k:
//   f_k(p) = s_k f_rest(u_k + c0_k)         the rest field carried by cluster k
//   g_k(p) = s_k (|u_k| - R_k)              the cluster's ball, carried the same way
//   f(p)   = min_k max(f_k(p), g_k(p))
// i.e. the point takes the surface of the clusters whose ball it lies in (the nearest clusters
// in rest space, after inverse mapping); where balls overlap (the seams) it is the union of
// their surfaces, so no blend weights are needed and the seams stay continuous.
// Distance bound: if f_rest is L-Lipschitz then so is every f_k and g_k (s_k |M_k^-1| = 1), and
// min / max keep it: f is L-Lipschitz (1 for an exact SDF) and never overstates the distance to
// the carried shape, so it can be sphere-traced and sampled into a brickmap. Error: when the
// whole cage moves by one affine map x = M x0 + t (rigid motion included), every cluster fits M
// exactly and f = s f_rest(M^-1 (p - t)) wherever max(f_k, g_k) = f_k, which holds within
// about h of the surface (tested to 1e-4 m at |f_rest| < h / 2); deeper inside, where a
// cluster's ball is shallower than the shape, f reads the ball's depth instead (still negative:
// the sign is right, the magnitude an underestimate). Far from the body the value is
// min_k g_k, a lower bound of the distance to the balls, so a batch evaluation stops there
// once it passes maxDistance. For a general deformation the error against the cage is the
// affine fits' residual within each cluster plus the union's bulge at the seams.
#include <functional>
#include <span>
#include <vector>

#include "floptle/core/math.h"
#include "floptle/matter/soft_body.h"

namespace floptle::matter {

/// The node's rest field, in the world space the cage was built in (m, negative inside).
using RestField = std::function<float(Vec3)>;

/// A body's best rigid transform, rest -> now: x = rotation (x0 - restCentroid) + centroid,
/// i.e. the node's pose moves by `transform` (position = centroid - R restCentroid). The
/// rotation is the whole body's shape-match rotation of its last substep.
Transform bestRigidTransform(const SoftBody& body);

struct SkinCluster {
  Vec3 restCentroid{0.0f};  ///< c0_k (m)
  Vec3 centroid{0.0f};      ///< c_k now (m)
  Mat3 inverse{1.0f};       ///< M_k^-1 (-)
  float scale = 1.0f;       ///< s_k = sigma_min(M_k) (-)
  float restRadius = 0.0f;  ///< R_k (m)
};

class SoftBodySkin {
 public:
  static constexpr int kDefaultClusterCells = 4;
  static constexpr int kMinClusterParticles = 8;
  static constexpr float kCoverCells = 2.0f;
  static constexpr float kFlatness = 0.05f;
  static constexpr float kMinScale = 0.05f;

  /// The skin of `body` at its current state; clusterCells >= 1 lattice cells a cluster edge.
  static SoftBodySkin fit(const SoftBody& body, int clusterCells = kDefaultClusterCells);

  /// f(p) (m) over `rest`, the field of the body's node at rest.
  float distance(const RestField& rest, Vec3 p, float maxDistance = 1e30f) const;
  /// f at each point; where |f| >= maxDistance the value may be any of the right sign with
  /// magnitude >= maxDistance (DistanceBatchFn's contract).
  void distances(const RestField& rest, std::span<const Vec3> points, float maxDistance,
                 std::span<float> out) const;

  const std::vector<SkinCluster>& clusters() const { return clusters_; }

 private:
  std::vector<SkinCluster> clusters_;
};

/// sigma_min of a 3 x 3 matrix (-): the square root of the smallest eigenvalue of M^T M
/// (closed form for symmetric 3 x 3 matrices).
float smallestSingularValue(const Mat3& m);

}  // namespace floptle::matter
