#pragma once
// The scene's gravity field as authored ("settings": {"gravity": {...}}, seed 001): the sum of
// opt-in tiers. Tier 0: a constant vector and regions; tier 1: analytic sources; tier 2: the
// surface pull; tier 3: the density field and bodies as masses. gravity/'s
// GravityField turns it into the field bodies sample. The vector form "gravity": [x, y, z]
// means {"global": [x, y, z]}. Values and ranges: core's component table (gravity_* rows).
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "floptle/core/expected.h"
#include "floptle/core/math.h"

namespace floptle::scene {

/// Inside the (rotated) box, g = strength x direction (world frame, normalized).
struct GravityBoxRegion {
  Vec3 center{0.0f};       ///< (m)
  Vec3 halfExtents{1.0f};  ///< (m)
  Quat rotation{1.0f, 0.0f, 0.0f, 0.0f};
  Vec3 direction{0.0f, -1.0f, 0.0f};  ///< unit
  float strength = 9.81f;             ///< (m/s^2)
};

/// Inside the sphere, g = -strength normalize(p - c) ("in") or +strength normalize(p - c) ("out").
struct GravitySphereRegion {
  Vec3 center{0.0f};    ///< (m)
  float radius = 1.0f;  ///< (m)
  bool outward = false;
  float strength = 9.81f;  ///< (m/s^2)
};

/// An analytic source (tier 1). rOuter 0 = no cut-off.
struct GravitySource {
  enum class Type { Point, Sphere, Line, Planet };
  Type type = Type::Point;
  Vec3 center{0.0f};       ///< point, sphere, planet centre (m); a line's end a
  Vec3 end{0.0f};          ///< a line's end b (m)
  float mass = 1.0f;       ///< point, sphere (kg); a line's mass per length lambda (kg/m)
  float radius = 1.0f;     ///< sphere (m)
  float strength = 9.81f;  ///< planet (m/s^2)
  float rOuter = 0.0f;     ///< no pull at or past this distance (m); 0 = none
};

/// Tier 2, SDF-surface gravity: g = -strength normalize(grad f) clamp(1 - f / range, 0, 1) over
/// the scene's collidable field f. The gradient is either a tetrahedron difference of half size
/// epsilon of the live field ("smoothing": {"epsilon": e}) or the analytic gradient of a
/// trilinear grid of the field baked at the start and blurred ("smoothing": {"baked": {"cell":
/// h, "blur": b}}), which low-pass filters folds and is the cheaper sample.
struct GravitySdfDesc {
  float strength = 9.81f;  ///< (m/s^2)
  float range = 5.0f;      ///< (m), > 0
  float epsilon = 0.05f;   ///< (m), > 0: wider smooths the pull over nearby folds
  /// Baked smoothing: the grid's cell edge (m); 0 = not baked (the epsilon difference).
  float bakedCell = 0.0f;
  /// Baked smoothing: the blur's width in cells (the grid averaged over the corners of a cube
  /// of this half size: a standard deviation of blur cells along each axis); 0 = none.
  float blur = 0.0f;
  float ema = 0.0f;  ///< a body's gravity eases towards the sample at this rate (1/s); 0 = at once
};

/// Tier 3, density-field gravity: rho(p) = each collidable node's material density x its
/// occupancy (f < 0) on a grid of nodes spaced `cell` over `bounds`; the isolated (free-space)
/// solution of del^2 Phi = 4 pi G rho; g = -grad Phi, trilinear inside the grid and the
/// multipole expansion of the grid's mass beyond it.
struct GravityDensityDesc {
  float cell = 1.0f;  ///< grid spacing (m), > 0
  /// Re-solved every this many ticks while the matter changes (ticks), >= 1.
  int cadence = 10;
  /// The grid's box (m); absent: the collidable field's bounds, padded.
  std::optional<Aabb> bounds;
};

struct GravityFieldDesc {
  /// Game-feel gravitational constant of the Newtonian sources (m^3/(kg s^2)).
  float G = 1.0f;
  /// Constant part (m/s^2); absent = none.
  std::optional<Vec3> global;
  std::vector<GravityBoxRegion> boxes;
  std::vector<GravitySphereRegion> spheres;
  std::vector<GravitySource> sources;
  std::optional<GravitySdfDesc> sdf;
  std::optional<GravityDensityDesc> density;
  /// Dynamic bodies pull each other as point masses of their m = rho V, through a Barnes-Hut
  /// tree with opening angle theta (-), in (0, 1].
  bool bodiesAttract = false;
  float theta = 0.5f;
};

/// Reads "settings/gravity" in either form; errors name the JSON pointer under `pointer`.
Expected<GravityFieldDesc> readGravityField(const nlohmann::ordered_json& gravity,
                                            const std::string& pointer);

}  // namespace floptle::scene
