#pragma once
// The table that describes every field node type: its JSON name, its parameters (JSON key,
// component count, default, valid range, unit, tooltip) and how many children it takes.
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "floptle/core/expected.h"

#include "floptle/core/field/field_node.h"

namespace floptle::field {

struct ParamSpec {
  /// JSON key, e.g. "radius", "half_extents".
  std::string_view key;
  /// 1 for a scalar, 3 for a vector, 4 for a quaternion [x, y, z, w].
  int components = 1;
  /// Default of every component (a quaternion defaults to identity whatever this says).
  float defaultValue = 0.0f;
  /// Valid range of each component, inclusive.
  float min = -1e6f;
  float max = 1e6f;
  /// Unit in the project's spelling: "m", "rad", "rad/m", "-" ...
  std::string_view unit = "-";
  /// True when only whole numbers make sense (iterations, step counts).
  bool integer = false;
  /// One line for the inspector's tooltip.
  std::string_view help;
};

struct NodeSpec {
  NodeType type;
  /// JSON "type" string, e.g. "smooth_union".
  std::string_view name;
  std::span<const ParamSpec> params;
  int minChildren = 0;
  /// -1 = any number.
  int maxChildren = 0;
  /// Total scalar slots (sum of components).
  int scalarCount() const;
};

const NodeSpec& nodeSpec(NodeType type);
std::optional<NodeType> nodeTypeFromName(std::string_view name);
/// Every node type, in enum order: kNodeTypeCount rows.
std::span<const NodeSpec> allNodeSpecs();

/// A node of `type` with every parameter at its default and no children.
FieldNode makeDefaultNode(NodeType type);

/// First scalar slot of parameter `key` within a node of `type`, or -1 when it has none.
int paramSlotOffset(NodeType type, std::string_view key);

/// Checks a whole graph: parameter counts, finite values, every driver's min/max inside the
/// spec range, child counts and per-type rules (round_box radius <= smallest half extent,
/// plane normal not zero, mandelbox |scale| >= 1.05 and min_radius < fixed_radius, keys
/// sorted). `where` is the JSON pointer of `node`; errors name the offending parameter.
Expected<void> validateNode(const FieldNode& node, const std::string& where);

}  // namespace floptle::field
