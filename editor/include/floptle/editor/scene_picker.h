#pragma once
// ScenePicker: which node is under a viewport click. Each node's shape is compiled once, in
// world space (its world transform around its local field), into a FieldProgram; a pick
// sphere-marches the ray against every node whose bounds it meets and keeps the nearest hit.
// The same field graph the viewport draws, so what you click is what you see.
#include <optional>
#include <string>
#include <vector>

#include "floptle/core/field/field_program.h"
#include "floptle/core/math.h"
#include "floptle/core/scene/scene.h"

namespace floptle::editor {

struct PickHit {
  std::string node;
  /// Distance along the ray (m).
  float distance = 0.0f;
  Vec3 point{0.0f};
};

class ScenePicker {
 public:
  /// Compiles every node that has a shape; nodes whose shape fails to compile are skipped.
  void rebuild(const scene::Scene& scene);
  /// Nearest node hit by `ray` at field time `time` (s), up to maxDistance (m).
  std::optional<PickHit> pick(const Ray& ray, double time, float maxDistance = 250.0f) const;
  /// World bounds of a node's shape at `time` (s); empty when it has none.
  Aabb nodeBounds(const std::string& node, double time) const;

 private:
  struct Entry {
    std::string node;
    field::FieldProgram program;
  };
  std::vector<Entry> entries_;
};

}  // namespace floptle::editor
