#pragma once
// ScenePicker: which node is under a viewport click. Each node's shape is compiled in world
// space (its world transform around its local field) into a FieldProgram; a pick
// sphere-marches the ray against every node whose bounds it meets and keeps the nearest hit.
// The same field graph the viewport draws, so what you click is what you see.
//
// Edits are frequent and picks rare, so the programs compile at the first pick after the scene
// is set, once for all the picks that follow. A node's bounds compile that node alone.
#include <optional>
#include <string>
#include <vector>

#include "floptle/core/field/field_program.h"
#include "floptle/core/math.h"
#include "floptle/editor/derived_scene.h"

namespace floptle::editor {

struct PickHit {
  std::string node;
  /// Distance along the ray (m).
  float distance = 0.0f;
  Vec3 point{0.0f};
};

class ScenePicker {
 public:
  /// The scene picks and bounds read; the programs compile at the next pick. `scene` must
  /// outlive the picker or the next setScene; after `scene` changes, call setScene again.
  void setScene(const DerivedScene& scene);
  /// Nearest node hit by `ray` at field time `time` (s), up to maxDistance (m). Nodes whose
  /// shape fails to compile are skipped.
  std::optional<PickHit> pick(const Ray& ray, double time, float maxDistance = 250.0f) const;
  /// World bounds of a node's shape at `time` (s); empty when it has none.
  Aabb nodeBounds(const std::string& node, double time) const;

 private:
  struct Entry {
    std::string node;
    field::FieldProgram program;
  };
  /// Every shaped node's program, compiled on the first pick after setScene.
  const std::vector<Entry>& entries() const;

  const DerivedScene* scene_ = nullptr;
  mutable std::optional<std::vector<Entry>> entries_;
};

}  // namespace floptle::editor
