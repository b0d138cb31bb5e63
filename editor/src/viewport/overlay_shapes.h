#pragma once
// Line shapes for overlay layers (world space (m), colours RGBA): circles, arrows, wire
// spheres and boxes. Shared by the gravity tools and play mode's overlays.
#include <vector>

#include "floptle/core/math.h"
#include "floptle/editor/raymarch_view.h"

namespace floptle::editor {

/// A circle of `segments` lines about `centre` in the plane spanned by unit vectors u, v, from
/// `fromAngle` to `toAngle` (rad).
void addCircle(std::vector<OverlayLine>& out, Vec3 centre, Vec3 u, Vec3 v, float radius, Vec4 color,
               int segments = 48, float fromAngle = 0.0f, float toAngle = 6.28318530718f);
/// A line from `from` to `to` with a two-stroke head in the plane of `up` and the shaft.
void addArrow(std::vector<OverlayLine>& out, Vec3 from, Vec3 to, Vec3 up, Vec4 color);
/// Three great circles (XY, YZ, ZX) of a sphere.
void addWireSphere(std::vector<OverlayLine>& out, Vec3 centre, float radius, Vec4 color);
/// The twelve edges of a box of `halfExtents` rotated by `rotation` about `centre`.
void addWireBox(std::vector<OverlayLine>& out, Vec3 centre, Vec3 halfExtents, Quat rotation,
                Vec4 color);
/// A small three-axis cross (a point's marker) of half size `size`.
void addCross(std::vector<OverlayLine>& out, Vec3 centre, float size, Vec4 color);

}  // namespace floptle::editor
