// render::Camera: closed-form checks of rays, projection and the GL matrices the viewport's
// overlays use (they must put a point on the same pixel as the raymarch).
#include <gtest/gtest.h>

#include <cmath>

#include "floptle/core/render/camera.h"
#include "floptle/core/render/shading_model.h"

using namespace floptle;
using floptle::render::Camera;

namespace {
constexpr float kPi = 3.14159265358979f;

Camera testCamera() {
  Camera c;
  c.position = {3.0f, 2.0f, 5.0f};
  c.lookAt = {0.5f, 0.25f, -1.0f};
  c.fovYDegrees = 50.0f;
  return c;
}
}  // namespace

TEST(RenderCamera, CentreOfImageLooksAtTarget) {
  const Camera c = testCamera();
  const Vec3 expected = glm::normalize(c.lookAt - c.position);
  for (auto [w, h] : {std::pair{640, 360}, std::pair{160, 90}, std::pair{33, 17}}) {
    const Ray ray = c.rayThroughPixel({w * 0.5f, h * 0.5f}, w, h);
    EXPECT_NEAR(glm::length(ray.direction - expected), 0.0f, 1e-6f) << w << "x" << h;
    EXPECT_EQ(ray.origin, c.position);
  }
}

TEST(RenderCamera, TopEdgeIsHalfTheVerticalFov) {
  const Camera c = testCamera();
  const Ray top = c.rayThroughPixel({320.0f, 0.0f}, 640, 360);
  const float angle = std::acos(glm::dot(top.direction, c.basis().forward));
  EXPECT_NEAR(angle, 0.5f * c.fovYDegrees * kPi / 180.0f, 1e-5f);
  // +Y is up on screen: the top edge ray leans towards the camera's up vector.
  EXPECT_GT(glm::dot(top.direction, c.basis().up), 0.0f);
  // Horizontal half angle follows the aspect ratio: tan(h) = aspect * tan(v).
  const Ray right = c.rayThroughPixel({640.0f, 180.0f}, 640, 360);
  const float horizontal = std::acos(glm::dot(right.direction, c.basis().forward));
  EXPECT_NEAR(std::tan(horizontal), (640.0f / 360.0f) * c.tanHalfFovY(), 1e-5f);
  EXPECT_GT(glm::dot(right.direction, c.basis().right), 0.0f);
}

TEST(RenderCamera, BasisIsOrthonormalWithWorldUpAbove) {
  const render::CameraBasis b = testCamera().basis();
  EXPECT_NEAR(glm::dot(b.right, b.up), 0.0f, 1e-6f);
  EXPECT_NEAR(glm::dot(b.right, b.forward), 0.0f, 1e-6f);
  EXPECT_NEAR(glm::dot(b.up, b.forward), 0.0f, 1e-6f);
  EXPECT_NEAR(b.right.y, 0.0f, 1e-6f);  // no roll
  EXPECT_GT(b.up.y, 0.0f);
  // Looking straight down still has a basis.
  Camera down;
  down.position = {0, 10, 0};
  down.lookAt = {0, 0, 0};
  const render::CameraBasis d = down.basis();
  EXPECT_NEAR(glm::length(d.right), 1.0f, 1e-6f);
  EXPECT_NEAR(glm::dot(d.right, d.forward), 0.0f, 1e-6f);
}

TEST(RenderCamera, ProjectInvertsRayThroughPixel) {
  const Camera c = testCamera();
  for (Vec2 pixel : {Vec2(0.5f, 0.5f), Vec2(100.25f, 300.5f), Vec2(639.5f, 12.0f)}) {
    const Ray ray = c.rayThroughPixel(pixel, 640, 360);
    Vec2 back;
    ASSERT_TRUE(c.project(ray.at(7.0f), 640, 360, back));
    EXPECT_NEAR(back.x, pixel.x, 2e-3f);
    EXPECT_NEAR(back.y, pixel.y, 2e-3f);
  }
  Vec2 unused;
  EXPECT_FALSE(c.project(c.position - c.basis().forward, 640, 360, unused));
}

TEST(RenderCamera, GlMatricesPutPointsOnTheSamePixel) {
  const Camera c = testCamera();
  const int w = 320, h = 180;
  const Mat4 viewProj =
      c.projectionMatrix(float(w) / h, render::shading::kDepthNear, render::shading::kDepthFar) *
      c.viewMatrix();
  for (Vec3 p : {Vec3(0.0f), Vec3(1.0f, 0.5f, -2.0f), Vec3(-1.5f, 2.0f, 0.3f)}) {
    const Vec4 clip = viewProj * Vec4(p, 1.0f);
    const Vec2 ndc{clip.x / clip.w, clip.y / clip.w};
    const Vec2 glPixel{(ndc.x + 1.0f) * 0.5f * w,
                       (1.0f - ndc.y) * 0.5f * h};  // flipped to top-down
    Vec2 pixel;
    ASSERT_TRUE(c.project(p, w, h, pixel));
    EXPECT_NEAR(glPixel.x, pixel.x, 1e-3f);
    EXPECT_NEAR(glPixel.y, pixel.y, 1e-3f);
  }
}

TEST(RenderCamera, DegenerateCamerasAreRefused) {
  Camera c;
  c.lookAt = c.position;
  EXPECT_FALSE(c.validate().ok());
  c = Camera{};
  c.fovYDegrees = 180.0f;
  EXPECT_FALSE(c.validate().ok());
  c.fovYDegrees = std::nanf("");
  EXPECT_FALSE(c.validate().ok());
  c = Camera{};
  c.position.x = INFINITY;
  EXPECT_FALSE(c.validate().ok());
  EXPECT_TRUE(Camera{}.validate().ok());
}

// A rolled camera: with up = +X while looking down -Z, +X is up on screen and -Y is right,
// so the top-centre pixel's ray leans toward +X and the right-centre pixel's toward -Y.
TEST(RenderCamera, UpVectorRollsTheImage) {
  Camera c;
  c.position = {0.0f, 0.0f, 5.0f};
  c.lookAt = {0.0f, 0.0f, 0.0f};
  c.up = {2.0f, 0.0f, 0.5f};  // not unit, not perpendicular: only its part across the view counts
  ASSERT_TRUE(c.validate().ok());
  const render::CameraBasis b = c.basis();
  EXPECT_NEAR(glm::distance(b.up, Vec3(1.0f, 0.0f, 0.0f)), 0.0f, 1e-6f);
  EXPECT_NEAR(glm::distance(b.right, Vec3(0.0f, -1.0f, 0.0f)), 0.0f, 1e-6f);
  const Ray top = c.rayThroughPixel({50.0f, 0.0f}, 100, 100);
  EXPECT_GT(top.direction.x, 0.4f);
  EXPECT_NEAR(top.direction.y, 0.0f, 1e-6f);
  const Ray right = c.rayThroughPixel({100.0f, 50.0f}, 100, 100);
  EXPECT_LT(right.direction.y, -0.4f);
  // Looking along up itself still gives a right-handed orthonormal basis.
  c.up = {0.0f, 0.0f, -1.0f};
  const render::CameraBasis along = c.basis();
  EXPECT_NEAR(glm::dot(along.right, along.up), 0.0f, 1e-6f);
  EXPECT_NEAR(glm::length(along.right), 1.0f, 1e-6f);
  EXPECT_NEAR(glm::dot(glm::cross(along.right, along.up), -along.forward), 1.0f, 1e-5f);
  c.up = Vec3(0.0f);
  EXPECT_FALSE(c.validate().ok());
}

TEST(RenderCamera, FramingCameraSeesTheWholeBox) {
  const Aabb box{{-1.0f, 0.0f, -2.0f}, {3.0f, 1.0f, 2.0f}};
  const Camera c = render::framingCamera(box, 60.0f);
  ASSERT_TRUE(c.validate().ok());
  for (int i = 0; i < 8; ++i) {
    const Vec3 corner{(i & 1) ? box.max.x : box.min.x, (i & 2) ? box.max.y : box.min.y,
                      (i & 4) ? box.max.z : box.min.z};
    Vec2 pixel;
    ASSERT_TRUE(c.project(corner, 640, 360, pixel));
    EXPECT_GE(pixel.x, 0.0f);
    EXPECT_LE(pixel.x, 640.0f);
    EXPECT_GE(pixel.y, 0.0f);
    EXPECT_LE(pixel.y, 360.0f);
  }
}
