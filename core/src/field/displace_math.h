#pragma once
// The Morph displacement terms of seed 002 (d(p, t), summed; f_morph(p, t) = f_rest(p + d)), the
// one C++ definition every evaluator uses. field_glsl.cpp holds the GLSL twin of each function
// (fp_noise3, fp_displace_sine, fp_displace_noise), written operation for operation alike.
//
// The noise is 3D gradient noise (Perlin's improved noise: quintic fade, the 12 cube-edge
// gradients) whose lattice hash is 32-bit integer arithmetic (wrapping multiplies, xor, shifts),
// so the gradient chosen at every lattice point is bit-identical on the CPU and in GLSL; what
// follows is a fixed sequence of float multiplies and adds.
//
// Bounds used by the program (each rigorous, not fitted):
//   |noise| <= 2: a convex combination (the fade weights sum to 1) of g . r with two unit
//   entries in g and |r_i| <= 1.
//   |d noise / d x_i| <= 8.5: fade' <= 15/8 times |L1 - L0| <= 4, plus the lerp of g_i (<= 1).
//   So a noise term a N(f p) has a Jacobian of norm <= a f sqrt(9 * 8.5^2) = 25.5 a f, and a
//   sine term A sin(k . p + phase) one of norm |A| |k| (a rank-one matrix).
#include <cmath>
#include <cstdint>

namespace floptle::field::displace {

/// Norm bound of the noise term's Jacobian per unit amplitude x frequency (-).
inline constexpr float kNoiseLipschitz = 25.5f;
/// Bound of |noise| (-).
inline constexpr float kNoiseBound = 2.0f;

/// The lattice hash of cell (ix, iy, iz) for channel `seed` (wrapping 32-bit arithmetic).
inline std::uint32_t hash(std::int32_t ix, std::int32_t iy, std::int32_t iz, std::uint32_t seed) {
  std::uint32_t h = seed * 0x9E3779B1u;
  h ^= static_cast<std::uint32_t>(ix) * 0x85EBCA77u;
  h ^= static_cast<std::uint32_t>(iy) * 0xC2B2AE3Du;
  h ^= static_cast<std::uint32_t>(iz) * 0x27D4EB2Fu;
  h ^= h >> 15;
  h *= 0x2C1B3C6Du;
  h ^= h >> 12;
  h *= 0x297A2D39u;
  h ^= h >> 15;
  return h;
}

/// g . (x, y, z) for the cube-edge gradient picked by h (one of 12, entries in {-1, 0, 1}).
inline float gradDot(std::uint32_t h, float x, float y, float z) {
  switch (h % 12u) {
    case 0:
      return x + y;
    case 1:
      return -x + y;
    case 2:
      return x - y;
    case 3:
      return -x - y;
    case 4:
      return x + z;
    case 5:
      return -x + z;
    case 6:
      return x - z;
    case 7:
      return -x - z;
    case 8:
      return y + z;
    case 9:
      return -y + z;
    case 10:
      return y - z;
    default:
      return -y - z;
  }
}

inline float fade(float u) {
  return u * u * u * (u * (u * 6.0f - 15.0f) + 10.0f);
}

inline float lerp(float a, float b, float s) {
  return a + s * (b - a);
}

/// Gradient noise at (x, y, z) (lattice units) for channel `seed`; |result| <= kNoiseBound.
inline float noise3(float x, float y, float z, std::uint32_t seed) {
  // Cells beyond +-2^30 are clamped (the int conversion stays defined, the same in GLSL).
  const float cx = std::floor(x), cy = std::floor(y), cz = std::floor(z);
  const float fx = x - cx, fy = y - cy, fz = z - cz;
  const auto cell = [](float c) {
    return static_cast<std::int32_t>(std::fmin(std::fmax(c, -1073741824.0f), 1073741824.0f));
  };
  const std::int32_t ix = cell(cx), iy = cell(cy), iz = cell(cz);
  const float u = fade(fx), v = fade(fy), w = fade(fz);
  const float n000 = gradDot(hash(ix, iy, iz, seed), fx, fy, fz);
  const float n100 = gradDot(hash(ix + 1, iy, iz, seed), fx - 1.0f, fy, fz);
  const float n010 = gradDot(hash(ix, iy + 1, iz, seed), fx, fy - 1.0f, fz);
  const float n110 = gradDot(hash(ix + 1, iy + 1, iz, seed), fx - 1.0f, fy - 1.0f, fz);
  const float n001 = gradDot(hash(ix, iy, iz + 1, seed), fx, fy, fz - 1.0f);
  const float n101 = gradDot(hash(ix + 1, iy, iz + 1, seed), fx - 1.0f, fy, fz - 1.0f);
  const float n011 = gradDot(hash(ix, iy + 1, iz + 1, seed), fx, fy - 1.0f, fz - 1.0f);
  const float n111 = gradDot(hash(ix + 1, iy + 1, iz + 1, seed), fx - 1.0f, fy - 1.0f, fz - 1.0f);
  const float x00 = lerp(n000, n100, u), x10 = lerp(n010, n110, u);
  const float x01 = lerp(n001, n101, u), x11 = lerp(n011, n111, u);
  return lerp(lerp(x00, x10, v), lerp(x01, x11, v), w);
}

/// A sine term's displacement at (x, y, z): D = [A (3, m), k (3, rad/m), w t + phase (rad),
/// |A||k| (-)] (the PushDisplace layout in program_impl.h); adds it to (dx, dy, dz).
inline void addSine(const float* D, float x, float y, float z, float& dx, float& dy, float& dz) {
  const float s = std::sin(D[3] * x + D[4] * y + D[5] * z + D[6]);
  dx += D[0] * s, dy += D[1] * s, dz += D[2] * s;
}

/// A noise term's displacement: D = [a (m), f (1/m), f s t (-), seed, 25.5 a f (-)]; each axis
/// is its own noise channel (seed * 3 + axis), read at q = f p - (0, f s t, 0), so the pattern
/// moves along +y at s (m/s).
inline void addNoise(const float* D, float x, float y, float z, float& dx, float& dy, float& dz) {
  const float a = D[0], f = D[1];
  const float qx = f * x, qy = f * y - D[2], qz = f * z;
  const std::uint32_t seed = static_cast<std::uint32_t>(D[3]) * 3u;
  dx += a * noise3(qx, qy, qz, seed);
  dy += a * noise3(qx, qy, qz, seed + 1u);
  dz += a * noise3(qx, qy, qz, seed + 2u);
}

}  // namespace floptle::field::displace
