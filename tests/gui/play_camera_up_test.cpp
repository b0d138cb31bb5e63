// The follow camera's up vector follows the gravity's up and the viewport's image rolls with
// it: with gravity along -X (a wall to walk on), the screen's up points along +X. (Play starts
// with the gravity's up; the exponential easing, rate 3 /s, shows where gravity turns along
// the way, which needs the gravity-field issue's curved fields.)
#include <cmath>

#include "play_test_support.h"

namespace floptle::editor::test {
namespace {

// Gravity points along -X; the "floor" is a plane facing +X; the character stands on it.
const char* kSidewaysScene = R"({
  "format": "floptle.scene", "version": 1,
  "settings": {"gravity": [-9.81, 0, 0]},
  "materials": [{"id": "rock", "color": [0.5, 0.5, 0.5], "friction": 0.8, "restitution": 0.1,
                 "density": 2600, "bulk_modulus": 5e10, "yield_strength": 1e8}],
  "interactions": [],
  "nodes": [
    {"name": "wall", "shape": {"type": "plane", "normal": [1, 0, 0]},
     "material": "rock", "collider": {"body": "static"}},
    {"name": "player", "transform": {"position": [0.9, 0, 0]},
     "character": {"radius": 0.3, "height": 1.8, "speed": 4, "jump_speed": 5, "step_height": 0.3}}
  ]
})";

TEST_F(PlayWindowTest, FollowCameraUpFollowsGravityUpAndRollsTheView) {
  openText(kSidewaysScene);
  playPaused();
  for (int i = 0; i < 60; ++i) play().step();
  const Vec3 up = play().cameraUp();
  EXPECT_NEAR(glm::length(up), 1.0f, 1e-5f);
  EXPECT_GT(up.x, 0.9f);  // mostly +X, the gravity's up
  const render::Camera camera = window().viewport()->camera();
  EXPECT_NEAR(glm::distance(camera.up, up), 0.0f, 1e-5f);
  // The image rolls: the screen's up axis leans toward +X as well.
  EXPECT_GT(camera.basis().up.x, 0.8f);
  // Stop gives the edit camera back, world +Y up.
  window().action("actionStop")->trigger();
  EXPECT_EQ(window().viewport()->camera().up, Vec3(0.0f, 1.0f, 0.0f));
}

}  // namespace
}  // namespace floptle::editor::test
