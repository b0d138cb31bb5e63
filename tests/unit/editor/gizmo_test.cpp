// The transform gizmo's drag arithmetic against closed forms (no GL): a rotate drag turns the
// start point of the drag onto the end point about the handle's axis; a scale drag of one handle
// length doubles the size; snapping rounds to the configured steps. Rays are built by hand so
// each expectation is exact geometry, not a rendered picture.
#include <gtest/gtest.h>

#include <cmath>

#include "viewport/gizmo.h"

using namespace floptle;
using floptle::editor::Gizmo;
using floptle::editor::GizmoDelta;
using floptle::editor::GizmoMode;
using floptle::editor::GizmoSnap;

namespace {

constexpr float kPi = 3.14159265358979f;

/// A camera high above the origin looking straight down (-Y), so a vertical ray through
/// (x, z) hits the Y = 0 plane at (x, 0, z).
render::Camera topCamera() {
  render::Camera camera;
  camera.position = {0.0f, 10.0f, 0.001f};
  camera.lookAt = {0.0f, 0.0f, 0.0f};
  return camera;
}

Ray downAt(float x, float z) {
  return Ray{{x, 10.0f, z}, {0.0f, -1.0f, 0.0f}};
}

/// A ray along -Z through (x, y) (for handles along X seen from the front).
Ray forwardAt(float x, float y) {
  return Ray{{x, y, 10.0f}, {0.0f, 0.0f, -1.0f}};
}

GizmoSnap noSnap() {
  GizmoSnap snap;
  snap.enabled = false;
  return snap;
}

}  // namespace

TEST(GizmoRotate, DragTurnsTheStartPointOntoTheEndPointAboutTheAxis) {
  Gizmo gizmo;
  gizmo.setMode(GizmoMode::Rotate);
  const Vec3 pivot{0.5f, 0.0f, -0.25f};
  gizmo.setPivot(pivot);
  gizmo.setSnap(noSnap());
  const render::Camera camera = topCamera();
  // Angles from 10 to 170 degrees and back the other way, both signs.
  for (const float degrees : {10.0f, 47.0f, 90.0f, 135.0f, -60.0f, -170.0f}) {
    const float start = 0.3f, end = start + degrees * kPi / 180.0f;
    const Vec3 a = pivot + Vec3(std::cos(start), 0.0f, std::sin(start)) * 1.5f;
    const Vec3 b = pivot + Vec3(std::cos(end), 0.0f, std::sin(end)) * 0.7f;  // radius irrelevant
    ASSERT_TRUE(gizmo.beginDrag(1, downAt(a.x, a.z), camera));
    const GizmoDelta delta = gizmo.drag(downAt(b.x, b.z));
    gizmo.endDrag();
    EXPECT_EQ(delta.mode, GizmoMode::Rotate);
    EXPECT_EQ(delta.axis, 1);
    EXPECT_EQ(delta.pivot, pivot);
    const Vec3 turned = delta.rotation * glm::normalize(a - pivot);
    const Vec3 expected = glm::normalize(b - pivot);
    EXPECT_NEAR(turned.x, expected.x, 1e-5f) << degrees;
    EXPECT_NEAR(turned.y, 0.0f, 1e-5f) << degrees;
    EXPECT_NEAR(turned.z, expected.z, 1e-5f) << degrees;
    EXPECT_NEAR(std::abs(glm::angle(delta.rotation)), std::abs(degrees) * kPi / 180.0f, 1e-4f);
    EXPECT_EQ(delta.translation, Vec3(0.0f));
    EXPECT_EQ(delta.scale, 1.0f);
  }
}

TEST(GizmoRotate, SnapRoundsTheAngleTo15Degrees) {
  Gizmo gizmo;
  gizmo.setMode(GizmoMode::Rotate);
  gizmo.setPivot(Vec3(0.0f));
  gizmo.setSnap(GizmoSnap{});                  // default: 15 degree steps
  const float dragged = 52.0f * kPi / 180.0f;  // nearest step: 45 degrees
  ASSERT_TRUE(gizmo.beginDrag(1, downAt(1.0f, 0.0f), topCamera()));
  const GizmoDelta delta = gizmo.drag(downAt(std::cos(-dragged), std::sin(-dragged)));
  EXPECT_NEAR(glm::angle(delta.rotation), 45.0f * kPi / 180.0f, 1e-5f);
  const Vec3 axis = glm::axis(delta.rotation);
  EXPECT_NEAR(std::abs(axis.y), 1.0f, 1e-5f);
}

TEST(GizmoScale, OneHandleLengthOfTravelDoublesTheSize) {
  Gizmo gizmo;
  gizmo.setMode(GizmoMode::Scale);
  const Vec3 pivot{0.0f, 1.0f, 0.0f};
  gizmo.setPivot(pivot);
  gizmo.setSnap(noSnap());
  render::Camera camera;
  camera.position = {0.0f, 1.0f, 10.0f};
  camera.lookAt = pivot;
  const float length = gizmo.handleLength(camera);
  // Closed form of handleLength: 2 * depth * tan(fov/2) * kScreenFraction.
  EXPECT_NEAR(length, 2.0f * 10.0f * std::tan(30.0f * kPi / 180.0f) * Gizmo::kScreenFraction,
              1e-4f);
  ASSERT_TRUE(gizmo.beginDrag(0, forwardAt(0.4f * length, 1.0f), camera));
  EXPECT_NEAR(gizmo.drag(forwardAt(1.4f * length, 1.0f)).scale, 2.0f, 1e-4f);
  EXPECT_NEAR(gizmo.drag(forwardAt(0.9f * length, 1.0f)).scale, 1.5f, 1e-4f);
  // Dragging far past the pivot never gives a zero or negative size.
  EXPECT_GT(gizmo.drag(forwardAt(-5.0f * length, 1.0f)).scale, 0.0f);
  const GizmoDelta delta = gizmo.drag(forwardAt(1.4f * length, 1.0f));
  EXPECT_EQ(delta.translation, Vec3(0.0f));
  EXPECT_NEAR(glm::angle(delta.rotation), 0.0f, 1e-6f);
}

TEST(GizmoScale, SnapRoundsTheFactorToTenths) {
  Gizmo gizmo;
  gizmo.setMode(GizmoMode::Scale);
  gizmo.setPivot(Vec3(0.0f));
  gizmo.setSnap(GizmoSnap{});  // default: 0.1 steps
  render::Camera camera;
  camera.position = {0.0f, 0.0f, 10.0f};
  camera.lookAt = Vec3(0.0f);
  const float length = gizmo.handleLength(camera);
  ASSERT_TRUE(gizmo.beginDrag(0, forwardAt(0.5f * length, 0.0f), camera));
  const float factor = gizmo.drag(forwardAt(0.5f * length + 0.337f * length, 0.0f)).scale;
  EXPECT_NEAR(factor, 1.3f, 1e-5f);  // 1.337 snapped
}

TEST(GizmoTranslate, DragMovesAlongTheAxisBySnappedSteps) {
  Gizmo gizmo;
  gizmo.setMode(GizmoMode::Translate);
  gizmo.setPivot(Vec3(0.0f));
  gizmo.setSnap(GizmoSnap{});  // 0.25 m steps
  render::Camera camera;
  camera.position = {0.0f, 0.0f, 10.0f};
  camera.lookAt = Vec3(0.0f);
  ASSERT_TRUE(gizmo.beginDrag(0, forwardAt(0.5f, 0.3f), camera));
  const GizmoDelta delta = gizmo.drag(forwardAt(0.5f + 0.8f, -0.2f));  // off-axis motion ignored
  EXPECT_EQ(delta.translation, Vec3(0.75f, 0.0f, 0.0f));
  gizmo.setSnap(noSnap());
  EXPECT_NEAR(gizmo.drag(forwardAt(0.5f + 0.8f, 0.0f)).translation.x, 0.8f, 1e-5f);
}

TEST(GizmoDrag, ARayParallelToTheRotationPlaneCannotStartADrag) {
  Gizmo gizmo;
  gizmo.setMode(GizmoMode::Rotate);
  gizmo.setPivot(Vec3(0.0f));
  // A horizontal ray never meets the Y = 0 plane of the Y ring.
  EXPECT_FALSE(gizmo.beginDrag(1, Ray{{0.0f, 0.0f, 5.0f}, {0.0f, 0.0f, -1.0f}}, topCamera()));
  EXPECT_FALSE(gizmo.dragging());
  gizmo.setMode(GizmoMode::None);
  EXPECT_FALSE(gizmo.beginDrag(0, downAt(1.0f, 0.0f), topCamera()));
}
