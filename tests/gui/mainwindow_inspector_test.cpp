// The inspector on the showcase: the animated Mandelbulb power shows its sine driver and edits
// it; a parameter's reset button restores the spec default; the collider section edits the
// component; Euler rotation fields write a unit quaternion.
#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QGroupBox>
#include <QToolButton>

#include <cmath>

#include "floptle/core/field/node_spec.h"
#include "gui_fixture.h"

namespace floptle::editor::test {
namespace {

TEST_F(WindowTest, AnimatedParameterShowsAndEditsItsDriver) {
  const std::string power = document().nodePointer("mandelbulb_island") + "/shape/power";
  ASSERT_TRUE(document().valueAt(power)->is_object());
  document().setSelection({"mandelbulb_island"});
  QWidget* driver = waitForChild<QWidget>(&window(), QString::fromStdString("driver:" + power));
  ASSERT_NE(driver, nullptr);
  auto* amplitude = driver->findChild<QDoubleSpinBox*>("/sine/amplitude");
  ASSERT_NE(amplitude, nullptr);
  EXPECT_DOUBLE_EQ(amplitude->value(), 1.5);
  amplitude->setValue(0.5);  // as a drag step would
  amplitude->setValue(0.75);
  EXPECT_EQ(document().valueAt(power + "/sine/amplitude")->get<double>(), 0.75);
  EXPECT_EQ(document().undoStack()->count(), 1);  // the drag is one step
  document().undoStack()->undo();
  EXPECT_EQ(document().valueAt(power + "/sine/amplitude")->get<double>(), 1.5);
}

TEST_F(WindowTest, ResetButtonRestoresTheDefault) {
  const std::string node = document().nodePointer("rubber_ball");
  document().setSelection({"rubber_ball"});
  QWidget* row =
      waitForChild<QWidget>(&window(), QString::fromStdString("param:" + node + "/shape/radius"));
  ASSERT_NE(row, nullptr);
  ASSERT_TRUE(document().setValue(node + "/shape/radius", 0.9).ok());
  row->findChild<QToolButton*>("reset")->click();
  const double specDefault = field::nodeSpec(field::NodeType::Sphere).params[0].defaultValue;
  EXPECT_EQ(document().valueAt(node + "/shape/radius")->get<double>(), specDefault);
  EXPECT_EQ(document().undoStack()->count(), 2);  // the edit, then the reset
}

TEST_F(WindowTest, ColliderSectionEditsTheComponent) {
  const std::string node = document().nodePointer("rubber_ball");
  document().setSelection({"rubber_ball"});
  auto* body = waitForChild<QComboBox>(&window(), "colliderBody");
  ASSERT_NE(body, nullptr);
  body->setCurrentText("kinematic");
  emit body->textActivated("kinematic");
  EXPECT_EQ(document().valueAt(node + "/collider/body")->get<std::string>(), "kinematic");
  auto* section = waitForChild<QGroupBox>(&window(), "colliderSection");
  ASSERT_NE(section, nullptr);
  emit section->clicked(false);  // untick: the component goes
  EXPECT_FALSE(document().valueAt(node + "/collider").has_value());
}

TEST_F(WindowTest, EulerRotationFieldWritesAUnitQuaternion) {
  const std::string node = document().nodePointer("ice_slab");
  document().setSelection({"ice_slab"});
  auto* rotationY = waitForChild<QDoubleSpinBox>(&window(), "rotationy");
  ASSERT_NE(rotationY, nullptr);
  rotationY->setValue(90.0);
  const Json q = *document().valueAt(node + "/transform/rotation");
  ASSERT_EQ(q.size(), 4u);
  // 90 degrees about +Y: (x, y, z, w) = (0, sin 45, 0, cos 45).
  EXPECT_NEAR(q[0].get<double>(), 0.0, 1e-5);
  EXPECT_NEAR(q[1].get<double>(), std::sqrt(0.5), 1e-5);
  EXPECT_NEAR(q[2].get<double>(), 0.0, 1e-5);
  EXPECT_NEAR(q[3].get<double>(), std::sqrt(0.5), 1e-5);
}

}  // namespace
}  // namespace floptle::editor::test

namespace floptle::editor::test {
namespace {

TEST_F(WindowTest, ControllerFieldsRefuseWhatTheComponentTableRefuses) {
  // The character's radius is (0, 1000] m in core's component table, the schema and the
  // runtime: the inspector refuses 0 (the bound is exclusive) and takes 1e-4.
  const std::string radius = document().nodePointer("player_spawn") + "/character/radius";
  document().setSelection({"player_spawn"});
  auto* field = waitForChild<QDoubleSpinBox>(&window(), QString::fromStdString(radius));
  ASSERT_NE(field, nullptr);
  EXPECT_EQ(field->minimum(), 0.0);
  EXPECT_EQ(field->maximum(), 1000.0);
  EXPECT_TRUE(field->toolTip().contains("(0, 1000]")) << field->toolTip().toStdString();
  const Json before = *document().valueAt(radius);
  field->setValue(0.0);
  EXPECT_EQ(*document().valueAt(radius), before) << "0 is refused";
  field->setValue(1e-4);
  EXPECT_DOUBLE_EQ(document().valueAt(radius)->get<double>(), 1e-4);
}

}  // namespace
}  // namespace floptle::editor::test
