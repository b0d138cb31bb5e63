#pragma once
// Closed-form signed distances (m) of the field primitives and the fractal distance
// estimates, written on plain floats so the per-point and the 64-wide batch evaluators share
// one definition. Every function is exact inside and outside (the fractals excepted, which
// are estimates) and never divides by zero for degenerate (zero-size) parameters.
#include <algorithm>
#include <cmath>

#include "lane_math.h"

namespace floptle::field::sdf {

inline float len2(float x, float y) {
  return std::sqrt(x * x + y * y);
}
inline float len3(float x, float y, float z) {
  return std::sqrt(x * x + y * y + z * z);
}
inline float clampf(float v, float lo, float hi) {
  return std::min(std::max(v, lo), hi);
}

inline float sphere(float x, float y, float z, float r) {
  return len3(x, y, z) - r;
}

/// max(v, 0) and min(v, 0) without a branch: (v +- |v|) / 2 is exact for every finite v, and
/// GCC otherwise turns std::max(q, 0) * std::max(q, 0) into a data-dependent jump.
inline float positivePart(float v) {
  return (v + std::abs(v)) * 0.5f;
}
inline float negativePart(float v) {
  return (v - std::abs(v)) * 0.5f;
}

/// Box of half extents (bx, by, bz).
inline float box(float x, float y, float z, float bx, float by, float bz) {
  const float qx = std::abs(x) - bx, qy = std::abs(y) - by, qz = std::abs(z) - bz;
  const float outside = len3(positivePart(qx), positivePart(qy), positivePart(qz));
  return outside + negativePart(std::max(qx, std::max(qy, qz)));
}

/// Segment from a to a+ba, invLen2 = 1/|ba|^2 (0 for a degenerate segment).
inline float capsule(float x, float y, float z, float ax, float ay, float az, float bax, float bay,
                     float baz, float invLen2, float r) {
  const float px = x - ax, py = y - ay, pz = z - az;
  const float h = clampf((px * bax + py * bay + pz * baz) * invLen2, 0.0f, 1.0f);
  return len3(px - bax * h, py - bay * h, pz - baz * h) - r;
}

/// Capped cylinder around Y: radius r, half height h.
inline float cylinder(float x, float y, float z, float r, float h) {
  const float dx = len2(x, z) - r, dy = std::abs(y) - h;
  return std::min(std::max(dx, dy), 0.0f) + len2(std::max(dx, 0.0f), std::max(dy, 0.0f));
}

/// Torus in XZ around Y: ring radius R, tube radius r.
inline float torus(float x, float y, float z, float R, float r) {
  return len2(len2(x, z) - R, y) - r;
}

/// Extrudes a 2D signed distance d2 along z with half depth hz.
inline float extrude(float d2, float z, float hz) {
  const float wx = d2, wy = std::abs(z) - hz;
  return std::min(std::max(wx, wy), 0.0f) + len2(std::max(wx, 0.0f), std::max(wy, 0.0f));
}

/// Right triangle (-hx,-hy), (hx,-hy), (hx,hy): the ramp rising toward +x. Exact 2D SDF.
inline float wedge2d(float x, float y, float hx, float hy) {
  // Edges: bottom (y = -hy), right (x = hx), hypotenuse from (-hx,-hy) to (hx,hy).
  const float bx = clampf(x, -hx, hx), dBottom2 = (x - bx) * (x - bx) + (y + hy) * (y + hy);
  const float ry = clampf(y, -hy, hy), dRight2 = (x - hx) * (x - hx) + (y - ry) * (y - ry);
  const float ex = 2.0f * hx, ey = 2.0f * hy, e2 = ex * ex + ey * ey;
  const float vx = x + hx, vy = y + hy;
  const float s = e2 > 0.0f ? clampf((vx * ex + vy * ey) / e2, 0.0f, 1.0f) : 0.0f;
  const float dHyp2 = (vx - ex * s) * (vx - ex * s) + (vy - ey * s) * (vy - ey * s);
  const float d = std::sqrt(std::min(dBottom2, std::min(dRight2, dHyp2)));
  // Inside: above the bottom, left of the right side, below the hypotenuse (cross >= 0).
  const bool inside = y > -hy && x < hx && (ex * vy - ey * vx) < 0.0f;
  return inside ? -d : d;
}

inline float wedge(float x, float y, float z, float hx, float hy, float hz) {
  return extrude(wedge2d(x, y, hx, hy), z, hz);
}

/// Squared distance from (x, y) to the axis-aligned segment x = cx, y in [y0, y1].
inline float distVert2(float x, float y, float cx, float y0, float y1) {
  const float dy = y - clampf(y, y0, y1), dx = x - cx;
  return dx * dx + dy * dy;
}
/// Squared distance from (x, y) to the segment y = cy, x in [x0, x1].
inline float distHorz2(float x, float y, float cy, float x0, float x1) {
  const float dx = x - clampf(x, x0, x1), dy = y - cy;
  return dx * dx + dy * dy;
}

/// 2D staircase profile: step i covers x in [i*run, (i+1)*run], y in [0, (i+1)*rise].
/// The boundary is the bottom, the back (x = n*run) and a monotone zigzag of risers (riser i:
/// x = i*run, y in [i*rise, (i+1)*rise]) and treads (tread i: y = (i+1)*rise, x in
/// [i*run, (i+1)*run]). The nearest zigzag point lies between the zigzag points with the
/// same x and the same y as p, on the segment holding one of those two or next to the corner
/// nearest p's projection onto the stair diagonal (distance to a line of corners is convex in
/// the index), so only a handful of steps are measured whatever n is.
inline float stairs2d(float x, float y, float n, float rise, float run) {
  const float w = n * run, hgt = n * rise;
  float d2 = distHorz2(x, y, 0.0f, 0.0f, w);         // bottom
  d2 = std::min(d2, distVert2(x, y, w, 0.0f, hgt));  // back
  const float last = n - 1.0f;
  // Step indices worth measuring.
  const float ix = run > 0.0f ? clampf(std::floor(x / run), 0.0f, last) : (x > 0.0f ? last : 0.0f);
  const float iy =
      rise > 0.0f ? clampf(std::floor(y / rise), 0.0f, last) : (y > 0.0f ? last : 0.0f);
  const float dl2 = run * run + rise * rise;
  const float proj = dl2 > 0.0f ? (x * run + y * rise) / dl2 : 0.0f;
  const float ip = clampf(std::floor(proj), std::min(ix, iy), std::max(ix, iy));
  const float cand[5] = {ix, iy, ip - 1.0f, ip, ip + 1.0f};
  for (float i : cand) {
    if (i < 0.0f || i > last) continue;
    d2 = std::min(d2, distVert2(x, y, i * run, i * rise, (i + 1.0f) * rise));          // riser i
    d2 = std::min(d2, distHorz2(x, y, (i + 1.0f) * rise, i * run, (i + 1.0f) * run));  // tread i
  }
  const float d = std::sqrt(d2);
  bool inside = false;
  if (x > 0.0f && x < w && y > 0.0f) {
    const float col = run > 0.0f ? std::min(std::floor(x / run), last) : last;
    inside = y < (col + 1.0f) * rise;
  }
  return inside ? -d : d;
}

inline float stairs(float x, float y, float z, float n, float rise, float run, float hw) {
  return extrude(stairs2d(x, y, n, rise, run), z, hw);
}

/// Polynomial smooth minimum of the seed: h = max(k - |a-b|, 0)/k; min(a,b) - h*h*k/4.
/// Where |a - b| >= k the blend term is exactly 0 and the result exactly min(a, b): that case
/// returns early (the common one, a point far from one of the two shapes), which lets the
/// CPU skip the division instead of computing a zero through it.
inline float smin(float a, float b, float k) {
  if (k <= 0.0f) return std::min(a, b);
  const float m = k - std::abs(a - b);
  if (m <= 0.0f) return std::min(a, b);
  const float h = m / k;
  return std::min(a, b) - h * h * k * 0.25f;
}
inline float smax(float a, float b, float k) {
  return -smin(-a, -b, k);
}

/// Safety factor on the Mandelbulb's estimate 0.5*log(r)*r/dr: the bare estimate overshoots
/// thin filaments (sphere tracing passed the first inside sample on 3 of 1000 test rays at
/// factor 1, 2 at 0.9 and 0.7, none of 5000 at 0.6 or 0.5), so the marching stays conservative.
inline constexpr float kMandelbulbSafety = 0.5f;

/// Mandelbulb distance estimate kMandelbulbSafety * 0.5*log(r)*r/dr with the running
/// derivative dr, z -> z^power + p in spherical form (theta = acos(y/r), phi = atan2(z, x)).
/// Points farther than twice the bailout use |p| - bailout (the set lies inside the bailout
/// ball), where the log estimate would overshoot. Any real power; see mandelbulb() for the
/// integer ones.
inline float mandelbulbTrig(float px, float py, float pz, float power, int iterations,
                            float bailout) {
  const float r0 = len3(px, py, pz);
  if (r0 > 2.0f * bailout) return r0 - bailout;
  float zx = px, zy = py, zz = pz, dr = 1.0f, r = r0;
  for (int i = 0; i < iterations; ++i) {
    r = len3(zx, zy, zz);
    if (r > bailout) break;
    if (r < 1e-12f) {  // z = 0: z^power = 0, the next z is p and dr restarts at 1
      dr = 1.0f;
      zx = px, zy = py, zz = pz;
      continue;
    }
    const float theta = std::acos(clampf(zy / r, -1.0f, 1.0f)) * power;
    const float phi = std::atan2(zz, zx) * power;
    const float rp1 = std::pow(r, power - 1.0f);
    dr = rp1 * power * dr + 1.0f;
    const float zr = rp1 * r, st = std::sin(theta);
    zx = zr * st * std::cos(phi) + px;
    zy = zr * std::cos(theta) + py;
    zz = zr * st * std::sin(phi) + pz;
    r = len3(zx, zy, zz);
  }
  r = std::max(r, 1e-20f);
  return kMandelbulbSafety * 0.5f * std::log(r) * r / dr;
}

/// Integer powers the trigonometry-free form serves (the node's power range is [2, 16]).
inline bool mandelbulbIntegerPower(float power) {
  return power >= 2.0f && power <= 32.0f && power == std::floor(power);
}

/// (a + ib)^n for n >= 1 by binary powering from the lowest bit; T is float or a four-lane
/// simd4::F4, with the same operations in the same order for both (the scalar and lane kernels
/// agree bit for bit). No loop-carried flag, so a literal n unrolls completely (the pragma:
/// -O2 alone keeps the loops; n <= 32 has at most 6 bits).
template <class T>
inline void complexPower(T& a, T& b, int n) {
  if (n < 1) return;  // not served (and would never leave the first loop)
  T ba = a, bb = b;   // base^(2^k)
#pragma GCC unroll 6
  for (; (n & 1) == 0; n >>= 1) {
    const T na = ba * ba - bb * bb, nb = (ba + ba) * bb;
    ba = na, bb = nb;
  }
  T ra = ba, rb = bb;  // the lowest set bit
#pragma GCC unroll 6
  for (n >>= 1; n > 0; n >>= 1) {
    const T na = ba * ba - bb * bb, nb = (ba + ba) * bb;
    ba = na, bb = nb;
    if (n & 1) {
      const T ma = ra * ba - rb * bb, mb = ra * bb + rb * ba;
      ra = ma, rb = mb;
    }
  }
  a = ra, b = rb;
}

/// x^n for n >= 1 (n = 0 is not served) by binary powering from the lowest bit (float or
/// simd4::F4, same order for both).
template <class T>
inline T realPower(T x, int n) {
  if (n < 1) return x;  // not served (and would never leave the first loop)
#pragma GCC unroll 6
  for (; (n & 1) == 0; n >>= 1) x = x * x;
  T result = x;
#pragma GCC unroll 6
  for (n >>= 1; n > 0; n >>= 1) {
    x = x * x;
    if (n & 1) result = result * x;
  }
  return result;
}

/// The estimate for an integer power n >= 2 without trigonometry, one point:
/// (cos(n theta), sin(n theta)) and (cos(n phi), sin(n phi)) are the n-th powers of the unit
/// complex numbers (y/r, rho/r) and (x/rho, z/rho), rho = |(x, z)|, and r^(n-1) a product.
/// Equal to the trigonometric form up to rounding. Every operation matches mandelbulbLanes
/// one for one (IEEE single, no contraction: -ffp-contract=off), so a point gives the same
/// bits here as in any lane there; always_inline lets a call with a literal n unroll.
__attribute__((always_inline)) inline float mandelbulbPowerN(float px, float py, float pz, int n,
                                                             int iterations, float bailout) {
  const float r0 = std::sqrt(px * px + py * py + pz * pz);
  if (r0 > 2.0f * bailout) return r0 - bailout;
  const float power = static_cast<float>(n);
  float zx = px, zy = py, zz = pz, dr = 1.0f, r = r0;
  for (int i = 0; i < iterations; ++i) {
    r = std::sqrt(zx * zx + zy * zy + zz * zz);
    if (r > bailout) break;
    if (r < 1e-12f) {  // z = 0: the next z is p, dr restarts at 1
      dr = 1.0f;
      zx = px, zy = py, zz = pz;
      continue;
    }
    const float rho = std::sqrt(zx * zx + zz * zz);
    float cosT = zy / r, sinT = rho / r;
    float cosP = 1.0f, sinP = 0.0f;  // on the y axis, where phi = atan2(0, 0) = 0
    if (rho > 0.0f) cosP = zx / rho, sinP = zz / rho;
    complexPower(cosT, sinT, n);
    complexPower(cosP, sinP, n);
    const float rp1 = realPower(r, n - 1);
    const float zr = rp1 * r;
    zx = zr * sinT * cosP + px, zy = zr * cosT + py, zz = zr * sinT * sinP + pz;
    dr = rp1 * power * dr + 1.0f;
    r = std::sqrt(zx * zx + zy * zy + zz * zz);
  }
  r = std::max(r, 1e-20f);
  return kMandelbulbSafety * 0.5f * std::log(r) * r / dr;
}

#if defined(__SSE2__)
/// mandelbulbPowerN for four points at once (the batch path). A lane stops iterating when it
/// escapes; lanes never mix, so each lane's result is what mandelbulbPowerN gives for that
/// point.
__attribute__((always_inline)) inline simd4::F4 mandelbulbLanes(simd4::F4 px, simd4::F4 py,
                                                                simd4::F4 pz, int n, int iterations,
                                                                float bailout) {
  using namespace simd4;
  const F4 r0 = sqrt(px * px + py * py + pz * pz);
  const M4 far = r0 > splat(2.0f * bailout);
  const F4 vPower = splat(static_cast<float>(n)), vBailout = splat(bailout), one = splat(1.0f),
           zero = splat(0.0f);
  F4 zx = px, zy = py, zz = pz, dr = one, r = r0;
  M4 active = andNot(M4{_mm_castsi128_ps(_mm_set1_epi32(-1))}, far);
  for (int i = 0; i < iterations && any(active); ++i) {
    const F4 rt = sqrt(zx * zx + zy * zy + zz * zz);
    r = select(active, rt, r);
    active = andNot(active, rt > vBailout);
    const M4 tiny = active & (rt < splat(1e-12f));  // z = 0: the next z is p, dr restarts at 1
    const F4 rho = sqrt(zx * zx + zz * zz);
    const M4 onAxis = rho > zero;  // false on the y axis, where phi = atan2(0, 0) = 0
    F4 cosT = zy / rt, sinT = rho / rt;
    F4 cosP = select(onAxis, zx / rho, one), sinP = select(onAxis, zz / rho, zero);
    complexPower(cosT, sinT, n);
    complexPower(cosP, sinP, n);
    const F4 rp1 = realPower(rt, n - 1);
    const F4 zr = rp1 * rt;
    const F4 nx = zr * sinT * cosP + px, ny = zr * cosT + py, nz = zr * sinT * sinP + pz;
    const M4 step = andNot(active, tiny);
    dr = select(step, rp1 * vPower * dr + one, select(tiny, one, dr));
    zx = select(step, nx, select(tiny, px, zx));
    zy = select(step, ny, select(tiny, py, zy));
    zz = select(step, nz, select(tiny, pz, zz));
    r = select(step, sqrt(nx * nx + ny * ny + nz * nz), r);
  }
  r = max(r, splat(1e-20f));
  // The logarithm per lane through the C library: the same call the one-point path makes.
  alignas(16) float rs[4], ls[4];
  _mm_store_ps(rs, r.v);
  for (int k = 0; k < 4; ++k) ls[k] = std::log(rs[k]);
  const F4 estimate = splat(kMandelbulbSafety * 0.5f) * F4{_mm_load_ps(ls)} * r / dr;
  return select(far, r0 - vBailout, estimate);
}

/// mandelbulbLanes with the common power 8 unrolled (a literal n); same bits as any n.
inline simd4::F4 mandelbulbLanesAnyPower(simd4::F4 px, simd4::F4 py, simd4::F4 pz, int n,
                                         int iterations, float bailout) {
  if (n == 8) return mandelbulbLanes(px, py, pz, 8, iterations, bailout);
  return mandelbulbLanes(px, py, pz, n, iterations, bailout);
}
#endif

/// Mandelbulb estimate: integer powers through the trigonometry-free form (power 8, the
/// default, unrolled), other powers (a power morphing between integers) through mandelbulbTrig.
inline float mandelbulb(float px, float py, float pz, float power, int iterations, float bailout) {
  if (mandelbulbIntegerPower(power)) {
    const int n = static_cast<int>(power);
    if (n == 8) return mandelbulbPowerN(px, py, pz, 8, iterations, bailout);
    return mandelbulbPowerN(px, py, pz, n, iterations, bailout);
  }
  return mandelbulbTrig(px, py, pz, power, iterations, bailout);
}

/// Menger sponge of half extent 1 (Inigo Quilez's iterated cross subtraction): exact outside
/// the cube, a lower bound inside the holes (the cross is measured in the max norm).
inline float menger(float x, float y, float z, int iterations) {
  float d = box(x, y, z, 1.0f, 1.0f, 1.0f);
  float s = 1.0f;
  for (int m = 0; m < iterations; ++m) {
    auto modc = [](float v) { return v - 2.0f * std::floor(v * 0.5f) - 1.0f; };  // mod(v,2)-1
    const float ax = modc(x * s), ay = modc(y * s), az = modc(z * s);
    s *= 3.0f;
    const float rx = std::abs(1.0f - 3.0f * std::abs(ax)),
                ry = std::abs(1.0f - 3.0f * std::abs(ay)),
                rz = std::abs(1.0f - 3.0f * std::abs(az));
    const float da = std::max(rx, ry), db = std::max(ry, rz), dc = std::max(rz, rx);
    const float c = (std::min(da, std::min(db, dc)) - 1.0f) / s;
    d = std::max(d, c);
  }
  return d;
}

/// Mandelbox: box fold at 1, sphere fold (minR2, fixedR2), z = scale*z + p. Estimate
/// (|z| - |scale-1|)/|dr| - |scale|^(1-iterations) (Hvidtfeldt), negative inside.
inline float mandelbox(float px, float py, float pz, float scale, int iterations, float minR2,
                       float fixedR2) {
  float zx = px, zy = py, zz = pz, dr = 1.0f;
  for (int i = 0; i < iterations; ++i) {
    zx = clampf(zx, -1.0f, 1.0f) * 2.0f - zx;
    zy = clampf(zy, -1.0f, 1.0f) * 2.0f - zy;
    zz = clampf(zz, -1.0f, 1.0f) * 2.0f - zz;
    const float r2 = zx * zx + zy * zy + zz * zz;
    float f = 1.0f;
    if (r2 < minR2)
      f = fixedR2 / minR2;
    else if (r2 < fixedR2)
      f = fixedR2 / r2;
    zx *= f, zy *= f, zz *= f, dr *= f;
    zx = scale * zx + px, zy = scale * zy + py, zz = scale * zz + pz;
    dr = dr * std::abs(scale) + 1.0f;
    if (zx * zx + zy * zy + zz * zz > 1e12f) break;  // escaped: keeps the floats finite
  }
  return (len3(zx, zy, zz) - std::abs(scale - 1.0f)) / std::abs(dr) -
         std::pow(std::abs(scale), 1.0f - static_cast<float>(iterations));
}

}  // namespace floptle::field::sdf
