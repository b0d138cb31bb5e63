#pragma once
// Shape JSON <-> FieldNode (the "shape" object of a scene node; see resources/scene-format.md).
// A number parameter may instead be an animated driver object:
//   {"base": v, "sine": {"amplitude": a, "frequency": f, "phase": p}}
//   {"keys": [[t0, v0], [t1, v1], ...], "interpolation": "linear"|"smoothstep", "loop": bool}
// Any shape may carry "transform" ({"position", "rotation", "scale"}, it wraps the shape in a
// Transform node) and "material" (a material id, resolved through `resolveMaterial`).
#include <functional>
#include <string>

#include <nlohmann/json.hpp>

#include "floptle/core/expected.h"
#include "floptle/core/field/field_node.h"

namespace floptle::field {

/// Maps a material id (JSON string or integer) to its index; an error names what is wrong.
using MaterialResolver = std::function<Expected<MaterialIndex>(const nlohmann::ordered_json& id)>;

/// Parses a shape at JSON pointer `where` (used in every error message). Validates types,
/// ranges, child counts and finiteness: an invalid graph is refused, never built.
Expected<FieldNode> parseShape(const nlohmann::ordered_json& shape, const std::string& where,
                               const MaterialResolver& resolveMaterial);

/// Parses one scalar at `where`: a number, or an animated driver object as above. Used by
/// every animated parameter of the scene format (shape parameters, interaction k).
Expected<AnimatedScalar> parseAnimatedScalar(const nlohmann::ordered_json& scalar,
                                             const std::string& where);

/// Writes a FieldNode back in canonical form. `materialId` maps an index to its JSON id.
nlohmann::ordered_json shapeToJson(
    const FieldNode& node, const std::function<nlohmann::ordered_json(MaterialIndex)>& materialId);

}  // namespace floptle::field
