// Field evaluation speed: each compiled program per point and batched, beside a hand-written
// C++ function of the same expression (the limit). Goal: compiled per point within 1.5x of
// hand-written, batched at least as fast as hand-written per point. Compare items_per_second
// (or cpu_time) of one run; on a shared machine interleave the repetitions:
//   build-<dir>/tests/bench_field --benchmark_min_time=0.2 --benchmark_repetitions=5
//     --benchmark_enable_random_interleaving=true --benchmark_report_aggregates_only=true
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <vector>

#include "floptle/core/field/field_program.h"
#include "floptle/core/field/node_spec.h"

using namespace floptle;
using namespace floptle::field;

namespace {

constexpr int kPoints = 4096;

const std::vector<Vec3>& points() {
  static const std::vector<Vec3> pts = [] {
    std::mt19937 rng(1);
    std::uniform_real_distribution<float> u(-2.0f, 2.0f);
    std::vector<Vec3> v(kPoints);
    for (Vec3& p : v) p = {u(rng), u(rng), u(rng)};
    return v;
  }();
  return pts;
}

FieldNode node(NodeType t, std::initializer_list<float> params,
               std::vector<FieldNode> children = {}) {
  FieldNode n = makeDefaultNode(t);
  int i = 0;
  for (float v : params) n.params[i++] = v;
  n.children = std::move(children);
  return n;
}
FieldNode xform(Vec3 pos, Quat q, FieldNode child) {
  return node(NodeType::Transform, {pos.x, pos.y, pos.z, q.x, q.y, q.z, q.w, 1.0f},
              {std::move(child)});
}

// ---- hand-written equivalents ------------------------------------------------------------

__attribute__((noinline)) float handSphere(Vec3 p) {
  return std::sqrt(p.x * p.x + p.y * p.y + p.z * p.z) - 0.8f;
}

inline float boxDistance(Vec3 p, Vec3 b) {
  const float qx = std::abs(p.x) - b.x, qy = std::abs(p.y) - b.y, qz = std::abs(p.z) - b.z;
  const float mx = std::max(qx, 0.0f), my = std::max(qy, 0.0f), mz = std::max(qz, 0.0f);
  return std::sqrt(mx * mx + my * my + mz * mz) + std::min(std::max(qx, std::max(qy, qz)), 0.0f);
}
__attribute__((noinline)) float handBox(Vec3 p) {
  return boxDistance(p, {0.5f, 0.7f, 0.9f});
}

inline float smin(float a, float b, float k) {
  const float h = std::max(k - std::abs(a - b), 0.0f) / k;
  return std::min(a, b) - h * h * k * 0.25f;
}

// The 20-node scene: smooth_union(k = 0.2) of a sphere at the origin, 5 translated spheres and
// 4 rotated, translated boxes (1 + 1 + 5*2 + 4*2 = 20 nodes).
struct Scene20 {
  Vec3 sphereAt[5];
  float sphereR[5];
  Vec3 boxAt[4];
  Mat3 boxInvRot[4];
  Quat boxRot[4];
  Vec3 boxHalf[4];
  Scene20() {
    for (int i = 0; i < 5; ++i) {
      sphereAt[i] = {std::cos(i * 1.3f) * 1.2f, std::sin(i * 0.7f) * 0.8f,
                     std::sin(i * 1.9f) * 1.1f};
      sphereR[i] = 0.3f + 0.05f * i;
    }
    for (int i = 0; i < 4; ++i) {
      boxAt[i] = {std::sin(i * 2.1f) * 1.3f, std::cos(i * 1.1f) * 0.9f, std::cos(i * 0.5f) * 1.2f};
      boxRot[i] = glm::angleAxis(0.4f + i * 0.3f, glm::normalize(Vec3(1, i, 2)));
      boxInvRot[i] = glm::transpose(glm::mat3_cast(boxRot[i]));
      boxHalf[i] = {0.3f + 0.05f * i, 0.2f, 0.4f};
    }
  }
  FieldNode graph() const {
    std::vector<FieldNode> ch;
    ch.push_back(node(NodeType::Sphere, {0.5f}));
    for (int i = 0; i < 5; ++i)
      ch.push_back(xform(sphereAt[i], Quat(1, 0, 0, 0), node(NodeType::Sphere, {sphereR[i]})));
    for (int i = 0; i < 4; ++i)
      ch.push_back(xform(boxAt[i], boxRot[i],
                         node(NodeType::Box, {boxHalf[i].x, boxHalf[i].y, boxHalf[i].z})));
    return node(NodeType::SmoothUnion, {0.2f}, std::move(ch));
  }
};
const Scene20& scene20() {
  static const Scene20 s;
  return s;
}
__attribute__((noinline)) float handScene20(Vec3 p) {
  const Scene20& s = scene20();
  float d = std::sqrt(p.x * p.x + p.y * p.y + p.z * p.z) - 0.5f;
  for (int i = 0; i < 5; ++i) {
    const Vec3 q = p - s.sphereAt[i];
    d = smin(d, std::sqrt(q.x * q.x + q.y * q.y + q.z * q.z) - s.sphereR[i], 0.2f);
  }
  for (int i = 0; i < 4; ++i)
    d = smin(d, boxDistance(s.boxInvRot[i] * (p - s.boxAt[i]), s.boxHalf[i]), 0.2f);
  return d;
}

// The same power-8 estimate as a careful engineer writes it for one point without
// trigonometry, the algebra the compiled program uses for integer powers: with
// r = |z| and rho = |(z.x, z.z)|, (cos 8 theta, sin 8 theta) is (y/r + i rho/r)^8 and
// (cos 8 phi, sin 8 phi) is (x/rho + i z/rho)^8, each three complex squarings, and r^7 a
// product of r, r^2 and r^4. Same bailout, same z = 0 restart, same estimate
// 0.25*log(r)*r/dr (kMandelbulbSafety 0.5 times 0.5*log(r)*r/dr); checked against the
// compiled program at start (checkAlgebraicTwin). This is the limit for power 8; the
// trigonometric handMandelbulb (below) is kept as the textbook form.
inline void squareComplex(float& re, float& im) {
  const float nre = re * re - im * im, nim = (re + re) * im;
  re = nre, im = nim;
}
__attribute__((noinline)) float handMandelbulbAlgebraic(Vec3 p) {
  const float bailout = 2.0f;
  const float r0 = std::sqrt(p.x * p.x + p.y * p.y + p.z * p.z);
  if (r0 > 2.0f * bailout) return r0 - bailout;
  float zx = p.x, zy = p.y, zz = p.z, dr = 1.0f, r = r0;
  for (int i = 0; i < 8; ++i) {
    r = std::sqrt(zx * zx + zy * zy + zz * zz);
    if (r > bailout) break;
    if (r < 1e-12f) {  // z = 0: z^8 = 0, the next z is p and dr restarts at 1
      dr = 1.0f;
      zx = p.x, zy = p.y, zz = p.z;
      continue;
    }
    const float rho = std::sqrt(zx * zx + zz * zz);
    float cosT = zy / r, sinT = rho / r;
    float cosP = 1.0f, sinP = 0.0f;  // on the y axis phi = atan2(0, 0) = 0
    if (rho > 0.0f) cosP = zx / rho, sinP = zz / rho;
    for (int k = 0; k < 3; ++k) squareComplex(cosT, sinT);
    for (int k = 0; k < 3; ++k) squareComplex(cosP, sinP);
    const float r2 = r * r, r4 = r2 * r2;
    const float rp1 = (r * r2) * r4;  // r^7
    dr = rp1 * 8.0f * dr + 1.0f;
    const float zr = rp1 * r;  // r^8
    zx = zr * sinT * cosP + p.x;
    zy = zr * cosT + p.y;
    zz = zr * sinT * sinP + p.z;
    r = std::sqrt(zx * zx + zy * zy + zz * zz);
  }
  r = std::max(r, 1e-20f);
  return 0.25f * std::log(r) * r / dr;
}

// A power between integers, as while a Mandelbulb morphs its power: the compiled program
// evaluates integer powers without trigonometry (powers of unit complex numbers), so this pair
// measures the trigonometric form it keeps for the other powers.
inline float mandelbulbByHand(Vec3 p, float power) {
  const float bailout = 2.0f;
  const float r0 = std::sqrt(p.x * p.x + p.y * p.y + p.z * p.z);
  if (r0 > 2.0f * bailout) return r0 - bailout;
  Vec3 z = p;
  float dr = 1.0f, r = r0;
  for (int i = 0; i < 8; ++i) {
    r = std::sqrt(z.x * z.x + z.y * z.y + z.z * z.z);
    if (r > bailout) break;
    if (r < 1e-12f) {
      dr = 1.0f;
      z = p;
      continue;
    }
    const float theta = std::acos(std::clamp(z.y / r, -1.0f, 1.0f)) * power;
    const float phi = std::atan2(z.z, z.x) * power;
    const float rp1 = std::pow(r, power - 1.0f);
    dr = rp1 * power * dr + 1.0f;
    const float zr = rp1 * r, st = std::sin(theta);
    z = Vec3(zr * st * std::cos(phi), zr * std::cos(theta), zr * st * std::sin(phi)) + p;
    r = std::sqrt(z.x * z.x + z.y * z.y + z.z * z.z);
  }
  r = std::max(r, 1e-20f);
  return 0.25f * std::log(r) * r / dr;
}
// The textbook trigonometric power-8 form, kept for reference beside the algebraic twin.
__attribute__((noinline)) float handMandelbulb(Vec3 p) {
  return mandelbulbByHand(p, 8.0f);
}
__attribute__((noinline)) float handMandelbulbMorph(Vec3 p) {
  return mandelbulbByHand(p, 7.5f);
}

// ---- runners --------------------------------------------------------------------------------

template <float (*F)(Vec3)>
void BM_Hand(benchmark::State& state) {
  const auto& pts = points();
  for (auto _ : state) {
    float sum = 0.0f;
    for (const Vec3& p : pts) sum += F(p);
    benchmark::DoNotOptimize(sum);
  }
  state.SetItemsProcessed(state.iterations() * kPoints);
}

FieldProgram compileGraph(const FieldNode& n) {
  auto p = FieldProgram::compile(n);
  if (!p) std::abort();
  return std::move(*p);
}

void perPoint(benchmark::State& state, const FieldProgram& prog) {
  const auto& pts = points();
  for (auto _ : state) {
    float sum = 0.0f;
    for (const Vec3& p : pts) sum += prog.distance(p, 0.0);
    benchmark::DoNotOptimize(sum);
  }
  state.SetItemsProcessed(state.iterations() * kPoints);
}

void batched(benchmark::State& state, const FieldProgram& prog) {
  const auto& pts = points();
  std::vector<float> out(pts.size());
  for (auto _ : state) {
    prog.distanceBatch(pts, 0.0, out);
    benchmark::DoNotOptimize(out.data());
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations() * kPoints);
}

const FieldProgram& sphereProg() {
  static const FieldProgram p = compileGraph(node(NodeType::Sphere, {0.8f}));
  return p;
}
const FieldProgram& boxProg() {
  static const FieldProgram p = compileGraph(node(NodeType::Box, {0.5f, 0.7f, 0.9f}));
  return p;
}
const FieldProgram& scene20Prog() {
  static const FieldProgram p = compileGraph(scene20().graph());
  return p;
}
const FieldProgram& bulbProg() {
  static const FieldProgram p = compileGraph(node(NodeType::Mandelbulb, {8, 8, 2}));
  return p;
}

const FieldProgram& bulbMorphProg() {
  static const FieldProgram p = compileGraph(node(NodeType::Mandelbulb, {7.5f, 8, 2}));
  return p;
}

void BM_Sphere_Compiled(benchmark::State& s) {
  perPoint(s, sphereProg());
}
void BM_Sphere_Batched(benchmark::State& s) {
  batched(s, sphereProg());
}
void BM_Box_Compiled(benchmark::State& s) {
  perPoint(s, boxProg());
}
void BM_Box_Batched(benchmark::State& s) {
  batched(s, boxProg());
}
void BM_Scene20_Compiled(benchmark::State& s) {
  perPoint(s, scene20Prog());
}
void BM_Scene20_Batched(benchmark::State& s) {
  batched(s, scene20Prog());
}
void BM_Mandelbulb_Compiled(benchmark::State& s) {
  perPoint(s, bulbProg());
}
void BM_Mandelbulb_Batched(benchmark::State& s) {
  batched(s, bulbProg());
}
void BM_MandelbulbMorph_Compiled(benchmark::State& s) {
  perPoint(s, bulbMorphProg());
}
void BM_MandelbulbMorph_Batched(benchmark::State& s) {
  batched(s, bulbMorphProg());
}

// The algebraic twin must be the compiled program's expression: equal within 1e-5 relative
// (plus 1e-7 absolute for values near zero) on every benchmark point and on 512 points in the
// bailout ball, per point and batched; the benchmark refuses to run otherwise.
bool checkAlgebraicTwin() {
  std::vector<Vec3> pts = points();
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> u(-1.3f, 1.3f);
  for (int i = 0; i < 512; ++i) pts.push_back({u(rng), u(rng), u(rng)});
  std::vector<float> batch(pts.size());
  bulbProg().distanceBatch(pts, 0.0, batch);
  int bad = 0;
  for (std::size_t i = 0; i < pts.size(); ++i) {
    const float hand = handMandelbulbAlgebraic(pts[i]);
    for (const float compiled : {bulbProg().distance(pts[i], 0.0), batch[i]}) {
      if (!(std::abs(compiled - hand) <= 1e-5f * std::abs(hand) + 1e-7f)) {
        if (++bad <= 5)
          std::fprintf(stderr, "algebraic twin differs at (%g, %g, %g): hand %.9g compiled %.9g\n",
                       pts[i].x, pts[i].y, pts[i].z, hand, compiled);
      }
    }
  }
  if (bad > 0)
    std::fprintf(stderr, "algebraic power-8 twin: %d mismatches of %zu points\n", bad, pts.size());
  return bad == 0;
}

}  // namespace

BENCHMARK(BM_Hand<handSphere>)->Name("BM_Sphere_Hand");
BENCHMARK(BM_Sphere_Compiled);
BENCHMARK(BM_Sphere_Batched);
BENCHMARK(BM_Hand<handBox>)->Name("BM_Box_Hand");
BENCHMARK(BM_Box_Compiled);
BENCHMARK(BM_Box_Batched);
BENCHMARK(BM_Hand<handScene20>)->Name("BM_Scene20_Hand");
BENCHMARK(BM_Scene20_Compiled);
BENCHMARK(BM_Scene20_Batched);
BENCHMARK(BM_Hand<handMandelbulb>)->Name("BM_Mandelbulb_Hand");
BENCHMARK(BM_Hand<handMandelbulbAlgebraic>)->Name("BM_Mandelbulb_HandAlgebraic");
BENCHMARK(BM_Mandelbulb_Compiled);
BENCHMARK(BM_Mandelbulb_Batched);
BENCHMARK(BM_Hand<handMandelbulbMorph>)->Name("BM_MandelbulbMorph_Hand");
BENCHMARK(BM_MandelbulbMorph_Compiled);
BENCHMARK(BM_MandelbulbMorph_Batched);

int main(int argc, char** argv) {
  if (!checkAlgebraicTwin()) return 1;
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
