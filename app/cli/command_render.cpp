// floptle render SCENE --out FILE.png [--width W --height H]
//                [--camera NAME | --look-from x,y,z --look-at x,y,z] [--fov DEGREES] [--t SECONDS]
//                [--threads N] [--shader-out FILE.frag]
// The CPU reference render of a scene (render::renderImage), written as PNG. Baked-field
// nodes (.vdb level sets) are drawn from their bricks through a BrickAtlas, as the viewport
// draws them (what is drawn is what collides).
//   exit 0: the PNG is written ("wrote FILE (WxH, camera ...)" on stdout)
//   exit 1: the scene is invalid, the camera does not exist, or a file cannot be written
//   exit 2: usage error (unknown option, missing or malformed value)
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <string>

#include "commands.h"
#include "floptle/core/field/field_program.h"
#include "floptle/core/render/brick_atlas.h"
#include "floptle/core/render/cpu_renderer.h"
#include "floptle/core/render/image.h"
#include "floptle/core/render/raymarch_glsl.h"
#include "floptle/core/render/scene_buffers.h"
#include "floptle/core/render/scene_render.h"
#include "floptle/core/scene/scene.h"
#include "floptle/core/scene/scene_composition.h"
#include "floptle/core/scene/scene_io.h"
#include "floptle/physics/baked_field_file.h"

namespace floptle::cli {

namespace {

constexpr const char* kRenderUsage =
    "usage: floptle render SCENE --out FILE.png [--width W --height H]\n"
    "         [--camera NAME | --look-from x,y,z --look-at x,y,z] [--fov DEGREES] [--t SECONDS]\n"
    "         [--threads N] [--shader-out FILE.frag|FILE.comp [--shader-data FILE.bin]]\n"
    "  CPU raymarch of the scene's field graph. Defaults: 640x360, the scene's first camera\n"
    "  (or a view framing the scene), vertical fov 60 degrees (or the camera's), t = 0 s.\n"
    "  --shader-out also writes the viewport's raymarch shader with this camera and the\n"
    "  parameters at t baked in (for gpu-shader-bench). With --shader-data it writes the\n"
    "  viewport's scene program reading the scene texture instead, and the texture's texels\n"
    "  (float32 RGBA, 1024 a row) to FILE.bin (for tests/bench/gpu/gpu_scene_bench).\n"
    "  A FILE.comp gets the shader's GL 4.3 compute twin, as the viewport runs it.\n";

struct RenderArgs {
  std::string scene;
  std::string out;
  std::string shaderOut;
  std::string shaderData;
  int width = 640;
  int height = 360;
  int threads = 0;
  std::optional<std::string> camera;
  std::optional<Vec3> lookFrom;
  std::optional<Vec3> lookAt;
  std::optional<float> fov;
  double time = 0.0;
};

int usageError(const std::string& what) {
  std::fprintf(stderr, "floptle render: %s\n%s", what.c_str(), kRenderUsage);
  return 2;
}

bool parseDouble(const std::string& text, double& out) {
  if (text.empty()) return false;
  char* end = nullptr;
  out = std::strtod(text.c_str(), &end);
  return end == text.c_str() + text.size() && std::isfinite(out);
}

bool parseInt(const std::string& text, int& out) {
  double v = 0.0;
  if (!parseDouble(text, v) || v != std::floor(v) || v < -2e9 || v > 2e9) return false;
  out = int(v);
  return true;
}

bool parseVec3(const std::string& text, Vec3& out) {
  std::size_t first = text.find(','),
              second = first == std::string::npos ? first : text.find(',', first + 1);
  if (second == std::string::npos || text.find(',', second + 1) != std::string::npos) return false;
  double x, y, z;
  if (!parseDouble(text.substr(0, first), x) ||
      !parseDouble(text.substr(first + 1, second - first - 1), y) ||
      !parseDouble(text.substr(second + 1), z))
    return false;
  out = Vec3(float(x), float(y), float(z));
  return isFinite(out);
}

/// Parses the arguments; returns an exit code when it should stop (help or usage error).
std::optional<int> parseArgs(Args args, RenderArgs& r) {
  for (std::size_t i = 0; i < args.size(); ++i) {
    std::string arg(args[i]);
    if (arg == "--help" || arg == "-h") {
      std::fputs(kRenderUsage, stdout);
      return 0;
    }
    if (arg.rfind("--", 0) != 0) {
      if (!r.scene.empty())
        return usageError("more than one scene given ('" + r.scene + "', '" + arg + "')");
      r.scene = arg;
      continue;
    }
    std::string value;
    bool inlineValue = false;
    if (auto eq = arg.find('='); eq != std::string::npos) {
      value = arg.substr(eq + 1);
      arg = arg.substr(0, eq);
      inlineValue = true;
    }
    static const char* known[] = {"--out",       "--width",      "--height",     "--camera",
                                  "--look-from", "--look-at",    "--fov",        "--t",
                                  "--threads",   "--shader-out", "--shader-data"};
    bool isKnown = false;
    for (const char* k : known) isKnown = isKnown || arg == k;
    if (!isKnown) return usageError("unknown option '" + arg + "'");
    if (!inlineValue) {
      if (i + 1 >= args.size()) return usageError(arg + " needs a value");
      value = std::string(args[++i]);
    }
    if (arg == "--out") {
      if (value.empty()) return usageError("--out needs a file name");
      r.out = value;
    } else if (arg == "--shader-data") {
      if (value.empty()) return usageError("--shader-data needs a file name");
      r.shaderData = value;
    } else if (arg == "--shader-out") {
      if (value.empty()) return usageError("--shader-out needs a file name");
      r.shaderOut = value;
    } else if (arg == "--width" || arg == "--height") {
      int v = 0;
      if (!parseInt(value, v) || v < 1 || v > 16384)
        return usageError(arg + " must be a whole number of pixels in [1, 16384], got '" + value +
                          "'");
      (arg == "--width" ? r.width : r.height) = v;
    } else if (arg == "--threads") {
      if (!parseInt(value, r.threads) || r.threads < 0 || r.threads > 1024)
        return usageError("--threads must be a whole number in [0, 1024], got '" + value + "'");
    } else if (arg == "--camera") {
      r.camera = value;
    } else if (arg == "--look-from" || arg == "--look-at") {
      Vec3 v;
      if (!parseVec3(value, v))
        return usageError(arg + " must be three finite numbers x,y,z, got '" + value + "'");
      (arg == "--look-from" ? r.lookFrom : r.lookAt) = v;
    } else if (arg == "--fov") {
      double v = 0.0;
      if (!parseDouble(value, v) || v <= 0.0 || v >= 180.0)
        return usageError("--fov must be a vertical field of view in (0, 180) degrees, got '" +
                          value + "'");
      r.fov = float(v);
    } else if (arg == "--t") {
      if (!parseDouble(value, r.time))
        return usageError("--t must be a finite time in seconds, got '" + value + "'");
    }
  }
  if (r.scene.empty()) return usageError("no scene given");
  if (r.out.empty()) return usageError("--out FILE.png is required");
  if (r.camera && (r.lookFrom || r.lookAt))
    return usageError("--camera and --look-from/--look-at exclude each other");
  if (r.lookFrom.has_value() != r.lookAt.has_value())
    return usageError("--look-from and --look-at go together");
  return std::nullopt;
}

/// The atlas of the scene's baked-field nodes (null when it has none): each node's level set
/// under its world transform, in its material. Errors name the node's member.
Expected<std::unique_ptr<render::BrickAtlas>> bakedFieldAtlas(const scene::Scene& scene,
                                                              const std::filesystem::path& dir) {
  std::unique_ptr<render::BrickAtlas> atlas;
  for (const scene::SceneNode& node : scene.nodes) {
    if (!node.hasComponent("baked_field")) continue;
    auto map = physics::readBakedFieldMap(node.components["baked_field"], dir);
    if (!map) return Error{node.pointer + "/" + map.error().where, map.error().what};
    if (!atlas)
      atlas =
          std::make_unique<render::BrickAtlas>(glm::ivec3(render::BrickAtlas::kMaxSlotsPerAxis));
    render::BrickMapPlacement placement;
    placement.transform = node.world;
    placement.material = int(node.material);
    if (auto id = atlas->addMap(*map, placement, node.pointer + "/baked_field"); !id)
      return id.error();
  }
  return atlas;
}

}  // namespace

int runRender(Args args) {
  RenderArgs r;
  if (auto code = parseArgs(args, r)) return *code;

  auto loaded = scene::loadScene(r.scene);
  if (!loaded) {
    std::fprintf(stderr, "%s: invalid scene\n%s\n", r.scene.c_str(),
                 loaded.error().message().c_str());
    return 1;
  }
  const scene::Scene& built = loaded->scene;
  // The scene's parts under their hierarchy (a scene without shapes: sky, and its baked
  // fields).
  Expected<field::UnionField> field = Error{"", ""};
  if (scene::shapedNodes(built).empty()) {
    field = scene::emptySceneField(r.time);
  } else if (auto composed = scene::compileSceneUnion(built, r.time)) {
    field = std::move(composed->field);
  } else {
    field = composed.error();
  }
  if (!field) {
    std::fprintf(stderr, "%s: cannot compile the scene's field\n%s\n", r.scene.c_str(),
                 field.error().message().c_str());
    return 1;
  }

  render::Camera camera;
  std::string cameraName;
  if (r.camera) {
    auto named = render::namedCamera(built, *r.camera);
    if (!named) {
      std::fprintf(stderr, "floptle render: %s\n", named.error().message().c_str());
      return 1;
    }
    camera = *named;
    cameraName = "'" + *r.camera + "'";
  } else if (r.lookFrom) {
    camera.position = *r.lookFrom;
    camera.lookAt = *r.lookAt;
    cameraName = "look-from/look-at";
  } else {
    camera = render::defaultCamera(built, r.time);
    cameraName =
        built.cameras.empty() ? "framing the scene" : "'" + built.cameras.front().name + "'";
  }
  if (r.fov) camera.fovYDegrees = *r.fov;
  if (auto valid = camera.validate(); !valid) {
    std::fprintf(stderr, "floptle render: %s\n", valid.error().message().c_str());
    return r.lookFrom ? 2 : 1;
  }

  const render::MaterialColors colors = render::materialColors(built);
  if (!r.shaderOut.empty()) {
    // FILE.comp: the compute twin (render::computeShaderOf), as the viewport runs it.
    const bool compute = std::filesystem::path(r.shaderOut).extension() == ".comp";
    auto stage = [compute](const std::string& fragment) {
      return compute ? render::computeShaderOf(fragment) : fragment;
    };
    std::ofstream shader(r.shaderOut, std::ios::binary | std::ios::trunc);
    if (r.shaderData.empty()) {
      shader << stage(render::standaloneFragmentShader(*field, camera, colors, r.time));
    } else {
      // The scene program reading its texels from a texture, as the viewport runs it.
      auto buffers = render::packSceneBuffers(*field, r.time);
      if (!buffers) {
        std::fprintf(stderr, "floptle render: %s\n", buffers.error().message().c_str());
        return 1;
      }
      shader << stage(render::standaloneSceneShader(*buffers, camera, colors, false));
      std::ofstream data(r.shaderData, std::ios::binary | std::ios::trunc);
      data.write(reinterpret_cast<const char*>(buffers->texels.data()),
                 std::streamsize(buffers->texels.size() * sizeof(float)));
      if (!data) {
        std::fprintf(stderr, "%s: cannot write the shader data file\n", r.shaderData.c_str());
        return 1;
      }
    }
    shader.close();
    if (!shader) {
      std::fprintf(stderr, "%s: cannot write the shader file\n", r.shaderOut.c_str());
      return 1;
    }
  }

  auto atlas = bakedFieldAtlas(built, std::filesystem::absolute(r.scene).parent_path());
  if (!atlas) {
    std::fprintf(stderr, "%s: %s\n", r.scene.c_str(), atlas.error().message().c_str());
    return 1;
  }
  render::RenderSettings settings;
  settings.brickMaps = atlas->get();
  settings.width = r.width;
  settings.height = r.height;
  settings.time = r.time;
  settings.threads = r.threads;
  const auto start = std::chrono::steady_clock::now();
  auto image = render::renderImage(*field, camera, colors, settings);
  if (!image) {
    std::fprintf(stderr, "floptle render: %s\n", image.error().message().c_str());
    return 1;
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (auto written = render::writePng(r.out, *image); !written) {
    std::fprintf(stderr, "floptle render: %s\n", written.error().message().c_str());
    return 1;
  }
  std::printf("wrote %s (%dx%d, camera %s, t = %g s) in %.2f s\n", r.out.c_str(), r.width, r.height,
              cameraName.c_str(), r.time, seconds);
  return 0;
}

}  // namespace floptle::cli
