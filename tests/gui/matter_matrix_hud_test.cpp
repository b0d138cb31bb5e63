// The interaction-matrix grid and the play HUD's matter counts.
// The grid: a rule picked in a cell (in editing and in Play), its k and a k driver change what
// the viewport draws (the scene's composition) and what physics collides with (the collision
// world built from the document, or the running one in Play), checked against the closed form smin
// of two spheres; k is animated with the inspector's driver editor, and changing the rule keeps the
// driver. The HUD: while playing it counts the soft bodies' particles, bonds and sleeping bodies,
// as the simulation's results report them.
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QToolButton>

#include <algorithm>
#include <cmath>

#include "floptle/core/field/union_field.h"
#include "floptle/core/scene/scene_composition.h"
#include "floptle/editor/derived_scene.h"
#include "floptle/editor/interaction_matrix_panel.h"
#include "floptle/physics/scene_collision.h"
#include "floptle/physics/simulation.h"
#include "play_test_support.h"

namespace floptle::editor::test {
namespace {

/// Two unit-half spheres 0.9 m apart (a gap of -0.1: they touch), goo and rock.
const char* kTwoSpheres = R"({
  "format": "floptle.scene", "version": 1,
  "materials": [{"id": "goo", "color": [0.2, 0.8, 0.3], "friction": 0.5, "restitution": 0.1,
                 "density": 1000, "bulk_modulus": 2e9, "yield_strength": 1e6},
                {"id": "rock", "color": [0.5, 0.5, 0.5], "friction": 0.8, "restitution": 0.1,
                 "density": 2600, "bulk_modulus": 5e10, "yield_strength": 1e8}],
  "interactions": [],
  "nodes": [
    {"name": "a", "transform": {"position": [-0.3, 0, 0]},
     "shape": {"type": "sphere", "radius": 0.5}, "material": "goo"},
    {"name": "b", "transform": {"position": [0.6, 0, 0]},
     "shape": {"type": "sphere", "radius": 0.5}, "material": "rock"}
  ]
})";

/// A point where the two spheres' fields are equal (on the plane between the centres).
const Vec3 kSeam(0.15f, 0.3f, 0.0f);

float sphereA(Vec3 p) {
  return glm::length(p - Vec3(-0.3f, 0, 0)) - 0.5f;
}
float sphereB(Vec3 p) {
  return glm::length(p - Vec3(0.6f, 0, 0)) - 0.5f;
}
float smin(float a, float b, float k) {
  if (k <= 0.0f) return std::min(a, b);
  const float h = std::max(k - std::abs(a - b), 0.0f) / k;
  return std::min(a, b) - h * h * k * 0.25f;
}

using MatrixTest = PlayWindowTest;

/// What the viewport draws at p, t: the composition it is given (compileSceneUnion).
float drawn(const EditorDocument& document, Vec3 p, double t) {
  auto composed = scene::compileSceneUnion(document.derived().scene(), t);
  EXPECT_TRUE(composed.ok());
  return composed.ok() ? composed->field.distance(p, t) : NAN;
}

/// What physics collides with at p, t: the world built from the document's scene.
float collided(const EditorDocument& document, Vec3 p, double t) {
  auto world = physics::buildCollisionWorld(document.derived().scene(), ".");
  EXPECT_TRUE(world.ok()) << world.error().message();
  return world.ok() ? world->distance(p, t) : NAN;
}

/// The child `name` of the grid's current cell (row a, column b), once the grid has rebuilt
/// after a structural change (the cell then holding that child); null after 2 s.
template <class T>
T* inCell(MainWindow& window, int row, int column, const QString& name) {
  InteractionMatrixPanel* grid = window.interactionMatrix();
  auto current = [&]() -> T* {
    QWidget* cell = grid->cellWidget(row, column);
    return cell ? cell->findChild<T*>(name) : nullptr;
  };
  waitFor([&] { return current() != nullptr; }, 2000);
  return current();
}

TEST_F(MatrixTest, AGridRuleAndItsKDriverChangeWhatIsDrawnAndCollided) {
  openText(kTwoSpheres);
  const float a = sphereA(kSeam), b = sphereB(kSeam);
  ASSERT_NEAR(a, b, 1e-6f);
  EXPECT_NEAR(drawn(document(), kSeam, 0.0), std::min(a, b), 1e-5f);
  EXPECT_NEAR(collided(document(), kSeam, 0.0), std::min(a, b), 1e-5f);

  // Pick merge in the (goo, rock) cell, then k = 0.4: one undo step each.
  RaymarchView* view = window().viewport();
  const std::uint64_t before = view->shaderCompiles() + view->sceneDataUploads();
  // Materials in document order: goo is row / column 0, rock 1.
  auto* rule = inCell<QComboBox>(window(), 0, 1, "rule");
  ASSERT_NE(rule, nullptr);
  rule->setCurrentText("merge");
  emit rule->activated(rule->currentIndex());
  QTest::qWait(20);
  ASSERT_FALSE(document().interactionPointer("goo", "rock").empty());
  QDoubleSpinBox* k = nullptr;
  waitFor(
      [&] {
        k = inCell<QDoubleSpinBox>(window(), 0, 1, "k");
        return k && k->isEnabled();
      },
      2000);
  ASSERT_NE(k, nullptr);
  ASSERT_TRUE(k->isEnabled());
  k->setValue(0.4);
  emit k->editingFinished();
  EXPECT_EQ(document().undoStack()->count(), 2);
  EXPECT_TRUE(
      waitFor([&] { return view->shaderCompiles() + view->sceneDataUploads() > before; }, 2000));
  EXPECT_NEAR(drawn(document(), kSeam, 0.0), smin(a, b, 0.4f), 1e-4f);
  EXPECT_NEAR(collided(document(), kSeam, 0.0), smin(a, b, 0.4f), 1e-4f);

  // Animate k: a sine driver around 0.4, edited like any animated parameter.
  auto* animate = inCell<QToolButton>(window(), 0, 1, "animate");
  ASSERT_NE(animate, nullptr);
  animate->click();
  QTest::qWait(20);
  const std::string kPointer = document().interactionPointer("goo", "rock") + "/k";
  std::optional<Json> driver = document().valueAt(kPointer);
  ASSERT_TRUE(driver && driver->is_object());
  EXPECT_EQ((*driver)["base"], Json(0.4));
  auto* amplitude = inCell<QDoubleSpinBox>(window(), 0, 1, "/sine/amplitude");
  ASSERT_NE(amplitude, nullptr);
  amplitude->setValue(0.2);
  emit amplitude->editingFinished();
  auto* frequency = inCell<QDoubleSpinBox>(window(), 0, 1, "/sine/frequency");
  ASSERT_NE(frequency, nullptr);
  frequency->setValue(0.25);
  emit frequency->editingFinished();
  // k(t) = 0.4 + 0.2 sin(2 pi 0.25 t): 0.6 at t = 1, 0.2 at t = 3.
  for (const auto& [t, kt] : {std::pair{1.0, 0.6f}, std::pair{3.0, 0.2f}}) {
    EXPECT_NEAR(drawn(document(), kSeam, t), smin(a, b, kt), 1e-4f) << t;
    EXPECT_NEAR(collided(document(), kSeam, t), smin(a, b, kt), 1e-4f) << t;
  }

  // Another rule keeps the driver.
  rule = inCell<QComboBox>(window(), 0, 1, "rule");
  ASSERT_NE(rule, nullptr);
  rule->setCurrentText("hard");
  emit rule->activated(rule->currentIndex());
  QTest::qWait(20);
  EXPECT_EQ(document().valueAt(document().interactionPointer("goo", "rock") + "/rule"),
            Json("hard"));
  ASSERT_TRUE(document().valueAt(kPointer)->is_object());
  EXPECT_EQ((*document().valueAt(kPointer))["sine"]["amplitude"], Json(0.2));
  EXPECT_NEAR(collided(document(), kSeam, 1.0), std::min(a, b), 1e-5f);
}

// In Play the grid edits the play copy, and the running simulation takes it on the next tick
// (SceneRuntime::applyTuning re-composes the blended static colliders): the closed form smin
// at the seam in the collision world and in the drawn field; undo restores the hard union, and
// the document itself never changes.
TEST_F(MatrixTest, AMergeRuleChangedInPlayIsCollidedWithOnTheNextTickAndUndoneByUndo) {
  openText(kTwoSpheres);
  const Json before = document().json();
  playPaused();
  auto* grid = window().findChild<InteractionMatrixPanel*>("playInteractionMatrix");
  ASSERT_NE(grid, nullptr) << "Play shows no interaction grid of the play copy";
  ASSERT_TRUE(grid->isVisible());
  ASSERT_TRUE(grid->isEnabled());
  const physics::Simulation* sim = session().simulation();
  ASSERT_NE(sim, nullptr);
  const float a = sphereA(kSeam), b = sphereB(kSeam);
  const float hard = std::min(a, b), merged = smin(a, b, 0.4f);
  ASSERT_GT(hard - merged, 0.05f);  // the two rules differ well beyond the tolerance
  auto collided = [&] { return sim->world().distance(kSeam, sim->time()); };
  auto drawn = [&] {
    const field::UnionField* field = window().viewport()->sceneField();
    return field ? field->distance(kSeam, window().viewport()->time()) : NAN;
  };
  EXPECT_NEAR(collided(), hard, 1e-4f);

  // Materials in document order: goo is row / column 0, rock 1.
  auto cell = [&](const char* name) -> QWidget* {
    QWidget* c = grid->cellWidget(0, 1);
    return c ? c->findChild<QWidget*>(name) : nullptr;
  };
  auto* rule = qobject_cast<QComboBox*>(cell("rule"));
  ASSERT_NE(rule, nullptr);
  rule->setCurrentText("merge");
  emit rule->activated(rule->currentIndex());
  QDoubleSpinBox* k = nullptr;
  ASSERT_TRUE(waitFor(
      [&] {
        k = qobject_cast<QDoubleSpinBox*>(cell("k"));
        return k && k->isEnabled();
      },
      2000));
  k->setValue(0.4);
  emit k->editingFinished();
  EXPECT_EQ(session().copy()->undoStack()->count(), 2);
  window().action("actionStep")->trigger();
  EXPECT_NEAR(collided(), merged, 1e-4f);
  EXPECT_TRUE(waitFor([&] { return std::abs(drawn() - merged) < 1e-4f; }, 2000)) << drawn();

  // Undo both edits: the hard union again, on the next tick.
  session().copy()->undoStack()->undo();
  session().copy()->undoStack()->undo();
  window().action("actionStep")->trigger();
  EXPECT_NEAR(collided(), hard, 1e-4f);
  EXPECT_TRUE(waitFor([&] { return std::abs(drawn() - hard) < 1e-4f; }, 2000)) << drawn();
  EXPECT_EQ(session().tick(), 2u);
  EXPECT_EQ(document().json(), before);
}

/// A ground plane and a soft jelly cube above it.
const char* kSoftCube = R"({
  "format": "floptle.scene", "version": 1,
  "materials": [{"id": "rock", "color": [0.5, 0.5, 0.5], "friction": 0.8, "restitution": 0.1,
                 "density": 2600, "bulk_modulus": 5e10, "yield_strength": 1e8},
                {"id": "jelly", "color": [0.9, 0.3, 0.6], "friction": 0.6, "restitution": 0.1,
                 "density": 1000, "bulk_modulus": 2e6, "yield_strength": 1e5}],
  "interactions": [],
  "nodes": [
    {"name": "ground", "shape": {"type": "plane", "normal": [0, 1, 0], "offset": 0},
     "material": "rock", "collider": {"body": "static"}},
    {"name": "cube", "transform": {"position": [0, 0.6, 0]},
     "shape": {"type": "box", "half_extents": [0.25, 0.25, 0.25]}, "material": "jelly",
     "matter": {"tier": "soft_body", "particles": 64, "stiffness": 0.5, "volume_preserve": 0.9,
                "shape_match": 0.5, "substeps": 4, "damping": 1}}
  ]
})";

TEST_F(PlayWindowTest, TheHudCountsTheMattersParticlesBondsAndSleepingBodies) {
  openText(kSoftCube);
  playPaused();
  window().action("actionStep")->trigger();
  window().action("actionStep")->trigger();
  const physics::Simulation* simulation = session().simulation();
  ASSERT_NE(simulation, nullptr);
  ASSERT_NE(simulation->matterStage(), nullptr);
  nlohmann::ordered_json nodes = nlohmann::ordered_json::object();
  simulation->matterStage()->writeResults(nodes);
  ASSERT_TRUE(nodes.contains("cube"));
  const auto& cube = nodes["cube"];
  ASSERT_GT(cube["particles"].get<std::size_t>(), 0u);
  const QString expected = QStringLiteral("matter: particles %1  bonds %2  sleeping %3 of 1 bodies")
                               .arg(cube["particles"].get<std::size_t>())
                               .arg(cube["bonds"].get<std::size_t>())
                               .arg(cube["asleep"].get<bool>() ? 1 : 0);
  EXPECT_TRUE(play().hudText().contains(expected))
      << play().hudText().toStdString() << "\nexpected " << expected.toStdString();
}

TEST_F(PlayWindowTest, AHudWithoutMatterSaysNothingOfIt) {
  openText(kWalkScene);
  playPaused();
  window().action("actionStep")->trigger();
  EXPECT_FALSE(play().hudText().contains("matter:")) << play().hudText().toStdString();
}

}  // namespace
}  // namespace floptle::editor::test
