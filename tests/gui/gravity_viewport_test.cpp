// Gravity in the viewport and in play on scenes/gravity.json (a planet source of 9.81 m/s^2
// and r_outer 60 m at the origin; the walker stands on top of the 20 m planet): regions and
// sources drawn, picked and moved with the gizmo (one undo step), the slice arrows pointing
// where the field pulls, and play mode's HUD |g|, the player's up and g, and W walking round
// the planet where the camera looks.
#include <QAction>

#include <cmath>

#include "floptle/editor/gravity_tools.h"
#include "floptle/physics/simulation.h"
#include "play_test_support.h"

namespace floptle::editor::test {
namespace {

QString gravityScenePath() {
  return QStringLiteral(FLOPTLE_SOURCE_DIR "/scenes/gravity.json");
}

constexpr float kPlanetStrength = 9.81f;  // (m/s^2)
constexpr float kPlanetReach = 60.0f;     // r_outer (m)

TEST_F(PlayWindowTest, GizmoDragOfASourceMovesItsCentreInOneUndoStep) {
  openScene(gravityScenePath());
  GravityTools& tools = *window().gravityTools();
  ASSERT_TRUE(document().setValue(
      "/settings/gravity/sources",
      Json::array({Json{{"type", "point"}, {"center", {5.0, 30.0, 0.0}}, {"mass", 100.0}}})));
  const Json before = document().json();
  // Drawn, and picked by a ray through its centre.
  EXPECT_GT(window().viewport()->overlayLineCount(GravityTools::itemsLayer()), 0u);
  const Vec3 eye(5.0f, 30.0f, 40.0f);
  const std::optional<std::string> picked = tools.pick(Ray{eye, Vec3(0.0f, 0.0f, -1.0f)});
  ASSERT_TRUE(picked);
  EXPECT_EQ(*picked, "/settings/gravity/sources/0");
  EXPECT_FALSE(tools.pick(Ray{eye, glm::normalize(Vec3(1.0f, 0.0f, -1.0f))}));
  // A click there selects it instead of the nodes, and the move gizmo sits on its centre.
  document().setSelection({"planet"});
  EXPECT_EQ(window().selectByRay(Ray{eye, Vec3(0.0f, 0.0f, -1.0f)}), QString());
  EXPECT_EQ(tools.selected(), *picked);
  EXPECT_TRUE(document().selection().isEmpty());
  RaymarchView& view = *window().viewport();
  EXPECT_EQ(view.gizmoMode(), GizmoMode::Translate);
  // Escape during a drag puts it back.
  GizmoDelta away;
  away.mode = GizmoMode::Translate;
  away.translation = Vec3(0.0f, 4.0f, 0.0f);
  emit view.gizmoDragStarted(GizmoMode::Translate);
  emit view.gizmoDragged(away);
  EXPECT_EQ(*document().valueAt("/settings/gravity/sources/0/center"),
            Json::array({5.0, 34.0, 0.0}));
  emit view.gizmoDragCancelled();
  EXPECT_EQ(document().json(), before);

  GizmoDelta delta;
  delta.mode = GizmoMode::Translate;
  delta.axis = 0;
  emit view.gizmoDragStarted(GizmoMode::Translate);
  for (float x : {1.0f, 2.0f, 3.0f}) {
    delta.translation = Vec3(x, 0.0f, 0.0f);
    emit view.gizmoDragged(delta);
  }
  emit view.gizmoDragFinished(delta);
  EXPECT_EQ(*document().valueAt("/settings/gravity/sources/0/center"),
            Json::array({8.0, 30.0, 0.0}));
  document().undoStack()->undo();  // the whole drag at once
  EXPECT_EQ(*document().valueAt("/settings/gravity/sources/0/center"),
            Json::array({5.0, 30.0, 0.0}));
  document().undoStack()->redo();
  EXPECT_EQ(*document().valueAt("/settings/gravity/sources/0/center"),
            Json::array({8.0, 30.0, 0.0}));
}

TEST_F(PlayWindowTest, SliceArrowsPointWhereThePlanetPulls) {
  openScene(gravityScenePath());
  // The planet's pull alone: without the scene's surface tier, which adds to it near the rock.
  ASSERT_TRUE(window().document().removeValue("/settings/gravity/sdf"));
  GravityTools& tools = *window().gravityTools();
  QAction* arrows = window().action("actionGravityArrows");
  ASSERT_NE(arrows, nullptr);
  EXPECT_TRUE(tools.slice().empty());
  arrows->setChecked(true);
  ASSERT_FALSE(tools.slice().empty());
  EXPECT_EQ(window().viewport()->overlayLineCount(GravityTools::arrowsLayer()),
            3 * tools.slice().size());  // a shaft and two head strokes each
  for (const GravitySample& s : tools.slice()) {
    const float r = glm::length(s.at);
    ASSERT_LT(r, kPlanetReach + 1e-3f) << "no pull past r_outer";
    EXPECT_NEAR(glm::length(s.g), kPlanetStrength, 1e-3f);
    EXPECT_GT(glm::dot(glm::normalize(s.g), -s.at / r), 0.9999f) << "towards the centre";
  }
  arrows->setChecked(false);
  EXPECT_TRUE(tools.slice().empty());
  EXPECT_EQ(window().viewport()->overlayLineCount(GravityTools::arrowsLayer()), 0u);
}

TEST_F(PlayWindowTest, HudShowsTheFieldsMagnitudeAtThePlayerAndDrawsUpAndG) {
  openScene(gravityScenePath());
  // The planet's pull alone (the surface tier would add its own near the rock).
  ASSERT_TRUE(window().document().removeValue("/settings/gravity/sdf"));
  playPaused();
  for (int i = 0; i < 10; ++i) play().step();
  const QString hud = play().hudText();
  const int at = hud.indexOf("|g| ");
  ASSERT_GE(at, 0) << hud.toStdString();
  const double shown = hud.mid(at + 4).section(' ', 0, 0).toDouble();
  const std::optional<Vec3> player = session().playerPosition();
  ASSERT_TRUE(player);
  const Vec3 g = window().gravityTools()->sample(*player);
  EXPECT_NEAR(shown, double(glm::length(g)), 0.005);
  EXPECT_NEAR(shown, double(kPlanetStrength), 0.005);
  EXPECT_NEAR(shown,
              double(glm::length(
                  session().simulation()->gravityAt(*player, session().simulation()->time()))),
              0.005);
  EXPECT_GT(window().viewport()->overlayLineCount("play/player"), 0u);
}

TEST_F(PlayWindowTest, HoldingWWalksRoundThePlanetWhereTheCameraLooks) {
  openScene(gravityScenePath());
  playPaused();
  const Vec3 start = *session().playerPosition();
  QTest::keyPress(window().viewport(), Qt::Key_W);
  for (int i = 0; i < 720; ++i) {
    play().step();
    if (i % 60 != 59) continue;
    // The camera's view, flattened onto the player's ground, is where the player walks.
    const physics::CharacterState& s = session().simulation()->characters()[0].state();
    const Vec3 up = s.up;
    const Vec3 look = window().viewport()->camera().basis().forward;
    const Vec3 view = glm::normalize(look - up * glm::dot(look, up));
    const Vec3 walk = glm::normalize(s.velocity - up * glm::dot(s.velocity, up));
    EXPECT_GT(glm::dot(view, walk), 0.95f) << "tick " << i;
    EXPECT_NEAR(glm::length(s.position), 20.9f, 0.2f) << "on the surface at tick " << i;
  }
  QTest::keyRelease(window().viewport(), Qt::Key_W);
  // 12 s at 4 m/s round a 20.9 m circle: about 130 degrees, past where the view's up leans
  // along the world's Z.
  const Vec3 end = *session().playerPosition();
  const float turned = std::acos(glm::dot(glm::normalize(start), glm::normalize(end)));
  EXPECT_GT(turned, 1.9f);
}

}  // namespace
}  // namespace floptle::editor::test
