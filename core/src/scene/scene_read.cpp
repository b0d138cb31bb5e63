// readTransform: a node's transform through the component table's "transform" rows.
#include "scene/scene_read.h"

#include <cmath>

#include "floptle/core/scene/component_values.h"

namespace floptle::scene {

Transform readTransform(const nlohmann::ordered_json& object, const std::string& where,
                        Problems& problems) {
  Transform result;
  const auto found = object.find("transform");
  if (found == object.end()) return result;
  const auto in = ComponentReader::open(*found, "transform", where + "/transform");
  if (!in) {
    problems.add(in.error().where, in.error().what);
    return result;
  }
  note(problems, in->vec3("position", result.position));
  double xyzw[4] = {0, 0, 0, 1};
  if (note(problems, in->vector("rotation", xyzw))) {
    // Stored as written; the model holds it normalized.
    const double length =
        std::sqrt(xyzw[0] * xyzw[0] + xyzw[1] * xyzw[1] + xyzw[2] * xyzw[2] + xyzw[3] * xyzw[3]);
    result.rotation = glm::normalize(
        Quat(static_cast<float>(xyzw[3] / length), static_cast<float>(xyzw[0] / length),
             static_cast<float>(xyzw[1] / length), static_cast<float>(xyzw[2] / length)));
  }
  note(problems, in->number("scale", result.scale));
  note(problems, in->onlyKnownKeys());
  return result;
}

}  // namespace floptle::scene
