// The interaction grid in Play edits the play copy, and the running simulation takes it on the
// next tick: two touching static spheres of two materials, changed from a hard union to merge
// k = 0.4 in the grid, are collided with as the closed form smin of the two sphere fields at
// their seam (and drawn so); undo restores the hard union, in physics and in the viewport, and
// the document itself never changes.
#include <QComboBox>
#include <QDoubleSpinBox>

#include <algorithm>
#include <cmath>

#include "floptle/core/field/union_field.h"
#include "floptle/editor/interaction_matrix_panel.h"
#include "floptle/physics/simulation.h"
#include "play_test_support.h"

namespace floptle::editor::test {
namespace {

/// Two static spheres of radius 0.5 m, 0.9 m apart (they overlap by 0.1 m), goo and rock.
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
     "shape": {"type": "sphere", "radius": 0.5}, "material": "rock"},
    {"name": "ball", "transform": {"position": [0.15, 1.2, 0]},
     "shape": {"type": "sphere", "radius": 0.1}, "material": "rock",
     "collider": {"body": "dynamic"}}
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
/// The seed's polynomial smooth minimum.
float smin(float a, float b, float k) {
  const float h = std::max(k - std::abs(a - b), 0.0f) / k;
  return std::min(a, b) - h * h * k * 0.25f;
}

using PlayGridTest = PlayWindowTest;

TEST_F(PlayGridTest, AMergeRuleChangedInPlayIsCollidedWithOnTheNextTickAndUndoneByUndo) {
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
  // The ball kept falling through the changes (the bodies were not reset).
  EXPECT_EQ(session().tick(), 2u);
  EXPECT_EQ(document().json(), before);
}

}  // namespace
}  // namespace floptle::editor::test
