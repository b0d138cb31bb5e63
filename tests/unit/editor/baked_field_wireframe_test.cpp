// The collider wireframe of a node whose collider is a .vdb level set ("baked_field"): the
// drawn wires lie on the baked sphere, through the node's transform.
#include <gtest/gtest.h>

#include <filesystem>

#include "floptle/core/brickmap/brick_map_vdb.h"
#include "floptle/core/field/field_json.h"
#include "floptle/core/scene/scene.h"
#include "floptle/editor/wireframe_overlay.h"
#include "floptle/physics/baked_field_file.h"
#include "floptle/physics/field_collider.h"

namespace floptle::editor {
namespace {

namespace fs = std::filesystem;

TEST(BakedFieldWireframe, WiresLieOnTheBakedSphereWhereTheNodeIsPlaced) {
  const fs::path dir = fs::temp_directory_path() / "floptle_baked_field_wireframe_test";
  fs::create_directories(dir);
  // A sphere of radius 0.5 at the origin, baked at 0.05 m cells and written as a level set.
  auto sphere = field::parseShape(
      nlohmann::ordered_json{{"type", "sphere"}, {"radius", 0.5}}, "/shape",
      [](const nlohmann::ordered_json&) { return Expected<field::MaterialIndex>(0); });
  ASSERT_TRUE(sphere.ok()) << sphere.error().message();
  auto collider = physics::FieldCollider::make(sphere.value(), Transform{});
  ASSERT_TRUE(collider.ok()) << collider.error().message();
  physics::ColliderBakeSettings bake;
  bake.cellSize = 0.05f;
  auto map = physics::bakeColliderField(collider.value(), bake);
  ASSERT_TRUE(map.ok()) << map.error().message();
  ASSERT_TRUE(writeBrickMapVdb(map.value(), dir / "ball.vdb").ok());

  const nlohmann::ordered_json document = {
      {"format", "floptle.scene"},
      {"version", 1},
      {"materials", nlohmann::ordered_json::array()},
      {"interactions", nlohmann::ordered_json::array()},
      {"nodes",
       {{{"name", "rock"},
         {"transform", {{"position", {2.0, 1.0, 0.0}}}},
         {"baked_field", {{"file", "ball.vdb"}}},
         {"collider", {{"body", "static"}, {"collidable", true}}}}}}};
  auto scene = scene::buildScene(document);
  ASSERT_TRUE(scene.ok()) << scene.error().message();
  const int rock = scene->findNode("rock");
  ASSERT_GE(rock, 0);
  auto lines = extractColliderWireframe(scene->nodes[std::size_t(rock)], {}, dir, 0.0);
  ASSERT_TRUE(lines.ok()) << lines.error().message();
  ASSERT_GT(lines->size(), 20u);
  // Wires lie on the baked surface: the trilinear sphere is within a small fraction of a bake
  // cell of the true one, and the drawn vertices within a tenth of a wire cell of the field.
  // (The collider's box is the baked grid's, moved with the node; the wire cell follows it.)
  const Aabb grid = map->gridBounds();
  const float wireCell =
      wireframeCellSize(Aabb{grid.min + Vec3(2, 1, 0), grid.max + Vec3(2, 1, 0)});
  ASSERT_LT(wireCell, 0.2f);
  for (const OverlayLine& line : *lines)
    for (Vec3 p : {line.a, line.b})
      ASSERT_NEAR(glm::length(p - Vec3(2, 1, 0)), 0.5f, 0.1f * wireCell + 0.25f * bake.cellSize);
}

}  // namespace
}  // namespace floptle::editor
