#include "document/shape_bake.h"

#include "floptle/core/brickmap/brick_map_vdb.h"
#include "floptle/physics/baked_field_file.h"
#include "floptle/physics/field_collider.h"

namespace floptle::editor {

Expected<void> bakeShapeFile(const field::FieldNode& shape, float cell,
                             const std::filesystem::path& file, const BakeProgress& progress,
                             const std::atomic<bool>* cancel) {
  const std::string where = file.string();
  auto collider = physics::FieldCollider::make(shape, Transform::identity());
  if (!collider) return Error{where, collider.error().message()};
  physics::ColliderBakeSettings settings;
  settings.cellSize = cell;
  auto map = physics::bakeColliderField(*collider, settings, progress, cancel);
  if (!map) return Error{where, map.error().message()};
  return writeBrickMapVdb(*map, file);
}

std::filesystem::path freeBakePath(const std::filesystem::path& folder, const std::string& node) {
  std::string stem = node.empty() ? std::string("bake") : node;
  for (char& c : stem) {
    if (c == '/' || c == '\\' || c == ':' || c == '*' || c == '?' || c == '"' || c == '<' ||
        c == '>' || c == '|')
      c = '_';
  }
  std::filesystem::path path = folder / (stem + ".vdb");
  for (int n = 2; std::filesystem::exists(path); ++n)
    path = folder / (stem + "_" + std::to_string(n) + ".vdb");
  return path;
}

}  // namespace floptle::editor
