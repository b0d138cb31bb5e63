#pragma once
// Vec2d: a double-precision vector on the horizontal water plane (world X and Z, Y is up).
// A plain value with constexpr arithmetic: the Drift kernels and sandbox use it so that their
// headers need neither glm nor the STL.

namespace floptle::drift {

struct Vec2d {
  /// World X component (m, or m/s for velocities).
  double x = 0.0;
  /// World Z component (m, or m/s for velocities).
  double z = 0.0;
};

constexpr Vec2d operator+(Vec2d a, Vec2d b) noexcept {
  return {a.x + b.x, a.z + b.z};
}
constexpr Vec2d operator-(Vec2d a, Vec2d b) noexcept {
  return {a.x - b.x, a.z - b.z};
}
constexpr Vec2d operator*(Vec2d a, double s) noexcept {
  return {a.x * s, a.z * s};
}
constexpr Vec2d operator*(double s, Vec2d a) noexcept {
  return {a.x * s, a.z * s};
}
constexpr bool operator==(Vec2d a, Vec2d b) noexcept {
  return a.x == b.x && a.z == b.z;
}
constexpr double dot(Vec2d a, Vec2d b) noexcept {
  return a.x * b.x + a.z * b.z;
}

/// Euclidean length without intermediate overflow (std::hypot) (same unit as the vector).
double length(Vec2d v) noexcept;
/// True when both components are finite (no NaN, no infinity).
bool isFinite(Vec2d v) noexcept;

}  // namespace floptle::drift
