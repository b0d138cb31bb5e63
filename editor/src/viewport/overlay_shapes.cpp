#include "viewport/overlay_shapes.h"

#include <algorithm>
#include <cmath>

namespace floptle::editor {

void addCircle(std::vector<OverlayLine>& out, Vec3 centre, Vec3 u, Vec3 v, float radius, Vec4 color,
               int segments, float fromAngle, float toAngle) {
  if (!(radius > 0.0f)) return;
  Vec3 previous{};
  for (int i = 0; i <= segments; ++i) {
    const float a = fromAngle + (toAngle - fromAngle) * float(i) / float(segments);
    const Vec3 p = centre + radius * (std::cos(a) * u + std::sin(a) * v);
    if (i > 0) out.push_back({previous, p, color});
    previous = p;
  }
}

void addArrow(std::vector<OverlayLine>& out, Vec3 from, Vec3 to, Vec3 up, Vec4 color) {
  out.push_back({from, to, color});
  const Vec3 d = to - from;
  const float len = glm::length(d);
  if (len < 1e-4f) return;
  const Vec3 dir = d / len;
  Vec3 side = glm::cross(dir, up);
  if (glm::length(side) < 1e-4f) side = glm::cross(dir, Vec3(1, 0, 0));
  if (glm::length(side) < 1e-4f) side = glm::cross(dir, Vec3(0, 0, 1));
  side = glm::normalize(side);
  const float head = std::min(0.3f * len, 0.35f * len);
  out.push_back({to, to - dir * head + side * head * 0.5f, color});
  out.push_back({to, to - dir * head - side * head * 0.5f, color});
}

void addWireSphere(std::vector<OverlayLine>& out, Vec3 centre, float radius, Vec4 color) {
  const Vec3 x(1, 0, 0), y(0, 1, 0), z(0, 0, 1);
  addCircle(out, centre, x, y, radius, color, 64);
  addCircle(out, centre, y, z, radius, color, 64);
  addCircle(out, centre, z, x, radius, color, 64);
}

void addWireBox(std::vector<OverlayLine>& out, Vec3 centre, Vec3 halfExtents, Quat rotation,
                Vec4 color) {
  auto corner = [&](int i) {
    const Vec3 local((i & 1) ? halfExtents.x : -halfExtents.x,
                     (i & 2) ? halfExtents.y : -halfExtents.y,
                     (i & 4) ? halfExtents.z : -halfExtents.z);
    return centre + rotation * local;
  };
  for (int i = 0; i < 8; ++i)
    for (int bit : {1, 2, 4})
      if (!(i & bit)) out.push_back({corner(i), corner(i | bit), color});
}

void addCross(std::vector<OverlayLine>& out, Vec3 centre, float size, Vec4 color) {
  for (int axis = 0; axis < 3; ++axis) {
    Vec3 d(0.0f);
    d[axis] = size;
    out.push_back({centre - d, centre + d, color});
  }
}

}  // namespace floptle::editor
