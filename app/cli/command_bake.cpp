// floptle bake MESH_OR_SCENE --out FILE.vdb [--cell 0.25] [--band 3] [--node NAME] [--threads N]
// Bakes a mesh file (glTF/OBJ/FBX), or one node's collider of a scene (.json), into a sparse
// signed-distance BrickMap and writes it as an OpenVDB level set (brick_map_vdb.h). Progress
// on stderr; one summary line on stdout.
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <string>

#include "commands.h"
#include "floptle/core/asset/mesh_import.h"
#include "floptle/core/brickmap/brick_map_vdb.h"
#include "floptle/core/scene/scene.h"
#include "floptle/core/scene/scene_io.h"
#include "floptle/physics/baked_field_file.h"
#include "floptle/physics/mesh_collider_cache.h"
#include "floptle/physics/scene_collision.h"
#include "floptle/physics/tri_mesh_collider.h"
#include "progress_lines.h"

namespace floptle::cli {
namespace {

constexpr const char* kUsage =
    "usage: floptle bake MESH_OR_SCENE --out FILE.vdb [--cell METERS] [--band CELLS] [--node NAME] "
    "[--threads N]\n"
    "  MESH_OR_SCENE  a .glb/.gltf/.obj/.fbx mesh, or a .json scene (then --node picks the node;\n"
    "                 optional when the scene has one collider)\n"
    "  --cell         voxel edge (m, default 0.25)\n"
    "  --band         narrow band half width in voxels (default 3)\n";

int fail(const std::string& message) {
  std::fprintf(stderr, "floptle bake: %s\n", message.c_str());
  return 1;
}

bool parsePositive(std::string_view text, double& out) {
  try {
    std::size_t used = 0;
    out = std::stod(std::string(text), &used);
    return used == text.size() && std::isfinite(out) && out > 0.0;
  } catch (...) {
    return false;
  }
}

/// Bakes the mesh file's triangles, or the scene node's collider (kept in its world, so a
/// mesh node still takes the mesh bake).
Expected<BrickMap> bakeInput(const std::filesystem::path& input, const std::string& nodeName,
                             const physics::ColliderBakeSettings& settings,
                             const BakeProgress& progress) {
  if (input.extension() != ".json") {
    if (!nodeName.empty()) return Error{"--node", "only applies to a scene (.json)"};
    // One bar for the whole job: the import its first fifth, the bake the rest.
    constexpr float kImportShare = 0.2f;
    auto mesh = asset::importMesh(
        input, {}, [&](float f, std::string_view stage) { progress(f * kImportShare, stage); });
    if (!mesh) return mesh.error();
    auto collider = physics::TriMeshCollider::create(*mesh);
    if (!collider) return Error{input.string(), collider.error().message()};
    return physics::bakeColliderField(**collider, settings, [&](float f, std::string_view stage) {
      progress(kImportShare + f * (1.0f - kImportShare), stage);
    });
  }
  auto loaded = scene::loadScene(input);
  if (!loaded) return loaded.error();
  physics::MeshColliderCache meshCache;  // this run's
  physics::ColliderBuildOptions colliders;
  colliders.meshCache = &meshCache;
  auto world = physics::buildCollisionWorld(loaded->scene, input.parent_path(), colliders);
  if (!world) return world.error();
  std::optional<physics::ColliderId> id;
  if (!nodeName.empty()) {
    id = world->find(nodeName);
    if (!id) return Error{"--node", "the scene has no collider named '" + nodeName + "'"};
  } else if (world->size() == 1) {
    id = *world->ids().begin();
  } else {
    std::string names;
    for (physics::ColliderId each : world->ids())
      names += (names.empty() ? "" : ", ") + world->nodeName(each);
    return Error{"--node", "the scene has " + std::to_string(world->size()) +
                               " colliders; name one (" +
                               (names.empty() ? std::string("none") : names) + ")"};
  }
  auto map = physics::bakeColliderField(world->shape(*id), settings, progress);
  if (!map) return Error{"node '" + world->nodeName(*id) + "'", map.error().message()};
  return map;
}

}  // namespace

int runBake(Args args) {
  std::string inputArg, outArg, nodeName;
  double cell = 0.25, band = 3.0, threads = 2.0;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string_view a = args[i];
    const bool hasValue = i + 1 < args.size();
    if (a == "--out" && hasValue) {
      outArg = std::string(args[++i]);
    } else if (a == "--node" && hasValue) {
      nodeName = std::string(args[++i]);
    } else if (a == "--cell" && hasValue) {
      if (!parsePositive(args[++i], cell)) return fail("--cell must be a number of meters > 0");
    } else if (a == "--band" && hasValue) {
      if (!parsePositive(args[++i], band)) return fail("--band must be a number of cells > 0");
    } else if (a == "--threads" && hasValue) {
      if (!parsePositive(args[++i], threads) || threads != std::floor(threads) || threads > 256)
        return fail("--threads must be a whole number from 1 to 256");
    } else if (a == "--help" || a == "-h") {
      std::fputs(kUsage, stdout);
      return 0;
    } else if (inputArg.empty() && !a.starts_with("--")) {
      inputArg = std::string(a);
    } else {
      std::fprintf(stderr, "floptle bake: unexpected argument '%.*s'\n%s",
                   static_cast<int>(a.size()), a.data(), kUsage);
      return 2;
    }
  }
  if (inputArg.empty() || outArg.empty()) return std::fputs(kUsage, stderr), 2;

  ProgressLines lines("bake");
  auto progress = [&](float fraction, std::string_view stage) { lines(fraction, stage); };
  physics::ColliderBakeSettings settings;
  settings.cellSize = static_cast<float>(cell);
  settings.bandCells = static_cast<float>(band);
  settings.threads = static_cast<int>(threads);
  auto map = bakeInput(std::filesystem::path(inputArg), nodeName, settings, progress);
  if (!map) return fail(map.error().message());
  const std::filesystem::path out(outArg);
  auto written = writeBrickMapVdb(*map, out);
  if (!written) return fail(written.error().message());
  const glm::ivec3 d = map->dims();
  std::printf("%s: %d bricks of %d x %d x %d, cell %g m, band %g m\n", out.string().c_str(),
              map->brickCount(), d.x, d.y, d.z, static_cast<double>(map->cellSize()),
              static_cast<double>(map->bandWidth()));
  return 0;
}

}  // namespace floptle::cli
