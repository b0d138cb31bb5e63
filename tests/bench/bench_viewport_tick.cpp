// The viewport's CPU cost of one play tick, and the CPU reference render, for the showcase and
// a generated level of N spheres on a plane (400 x 400 m):
//   ComposeCompileEmit  what a tick cost with the emitted whole-scene shader: compose the
//                       scene, compile one program, emit its GLSL to compare structures
//   ComposePartsPack    what a tick costs with the scene program: compile the composition's
//                       parts (UnionField) and pack the scene texture (the GPU program stays)
//   CpuRender           the CPU reference render of 160 x 90 pixels through the hierarchy
//   build/tests/bench_viewport_tick --benchmark_min_time=0.5
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <random>
#include <string>

#include "floptle/core/field/field_glsl.h"
#include "floptle/core/field/field_program.h"
#include "floptle/core/render/cpu_renderer.h"
#include "floptle/core/render/scene_buffers.h"
#include "floptle/core/render/scene_render.h"
#include "floptle/core/scene/scene.h"
#include "floptle/core/scene/scene_composition.h"
#include "floptle/core/scene/scene_io.h"

using namespace floptle;

namespace {

using Json = nlohmann::ordered_json;

scene::Scene showcase() {
  auto loaded = scene::loadSceneFile(std::string(FLOPTLE_SOURCE_DIR) + "/scenes/showcase.json");
  if (!loaded) std::abort();
  auto built = scene::buildScene(*loaded);
  if (!built) std::abort();
  return std::move(*built);
}

/// A ground plane and `count` static spheres over 400 x 400 m (deterministic).
scene::Scene level(int count) {
  Json doc = Json::parse(R"({"format": "floptle.scene", "version": 1,
    "materials": [{"id": "rock", "color": [0.5, 0.5, 0.5], "density": 2600, "friction": 0.8,
                   "restitution": 0.1, "bulk_modulus": 5e10, "yield_strength": 1e8}],
    "interactions": [], "nodes": [
      {"name": "ground", "shape": {"type": "plane", "normal": [0, 1, 0], "offset": 0},
       "material": "rock"}]})");
  std::mt19937 rng(17);
  std::uniform_real_distribution<float> xz(-200.0f, 200.0f), r(0.3f, 1.5f);
  for (int i = 0; i < count; ++i)
    doc["nodes"].push_back(Json{{"name", "s" + std::to_string(i)},
                                {"transform", {{"position", {xz(rng), 1.0, xz(rng)}}}},
                                {"shape", {{"type", "sphere"}, {"radius", r(rng)}}},
                                {"material", "rock"}});
  auto built = scene::buildScene(doc);
  if (!built) std::abort();
  return std::move(*built);
}

const scene::Scene& sceneFor(int which) {
  static const scene::Scene show = showcase();
  static const scene::Scene big = level(10000);
  return which == 0 ? show : big;
}

void ComposeCompileEmit(benchmark::State& state) {
  const scene::Scene& scene = sceneFor(int(state.range(0)));
  for (auto _ : state) {
    auto program = field::FieldProgram::compile(scene::sceneField(scene));
    if (!program) std::abort();
    benchmark::DoNotOptimize(field::structureHash(*program));
  }
}

void ComposePartsPack(benchmark::State& state) {
  const scene::Scene& scene = sceneFor(int(state.range(0)));
  for (auto _ : state) {
    auto composed = scene::compileSceneUnion(scene, 0.0);
    if (!composed) std::abort();
    auto buffers = render::packSceneBuffers(composed->field, 0.0);
    if (!buffers) std::abort();
    benchmark::DoNotOptimize(buffers->texels.data());
  }
}

void CpuRender(benchmark::State& state) {
  const scene::Scene& scene = sceneFor(int(state.range(0)));
  auto composed = scene::compileSceneUnion(scene, 0.0);
  if (!composed) std::abort();
  const render::Camera camera = render::defaultCamera(scene, 0.0);
  const render::MaterialColors colors = render::materialColors(scene);
  render::RenderSettings settings;
  settings.width = 160;
  settings.height = 90;
  settings.threads = 1;
  for (auto _ : state) {
    auto image = render::renderImage(composed->field, camera, colors, settings);
    benchmark::DoNotOptimize(image);
  }
}

}  // namespace

// Argument 0: the showcase; 1: 10,000 spheres.
BENCHMARK(ComposeCompileEmit)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);
BENCHMARK(ComposePartsPack)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);
BENCHMARK(CpuRender)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);
BENCHMARK_MAIN();
