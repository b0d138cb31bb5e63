// Inspector sections for the controller components, "character" and "vehicle" (issue 6): the
// values designers tune while paused in play and see on resume (speed, jump speed, slope
// limit, step height; the vehicle's anti-roll rate and each wheel's spring, damper, grip,
// drive and steering). Ranges as physics reads them (runtime/src/controller_descs.cpp).
#include <QFormLayout>
#include <QGroupBox>
#include <QLabel>

#include "floptle/editor/editor_document.h"
#include "inspector/inspector_sections.h"
#include "inspector/number_field.h"

namespace floptle::editor {
namespace {

struct KeySpec {
  const char* key;
  const char* label;
  const char* unit;
  double min, max, fallback, step;
  const char* help;
};

void addRow(InspectorContext& context, QFormLayout* form, const std::string& pointer,
            const KeySpec& spec) {
  EditorDocument& document = context.document;
  NumberFieldSpec number;
  number.min = spec.min;
  number.max = spec.max;
  number.unit = QString::fromUtf8(spec.unit);
  number.help = QString::fromUtf8(spec.help);
  number.step = spec.step;
  const std::string at = pointer + "/" + spec.key;
  const double fallback = spec.fallback;
  auto* field = new NumberField(
      document, number,
      [&document, at, fallback] {
        const std::optional<Json> v = document.valueAt(at);
        return v && v->is_number() ? v->get<double>() : fallback;
      },
      [&document, at](double value) { return document.setValue(at, value, kMergeValueDrag); });
  field->setObjectName(QString::fromStdString(at));
  form->addRow(QObject::tr(spec.label), field);
  context.refreshers.push_back([field] { field->refresh(); });
}

}  // namespace

QWidget* makeCharacterSection(InspectorContext& context, const std::string& nodePointer) {
  static const KeySpec keys[] = {
      {"radius", "Radius", "m", 1e-4, 1000, 0.3, 0.05, "Capsule radius"},
      {"height", "Height", "m", 0, 1000, 1.8, 0.05, "Capsule height end to end (>= 2 radius)"},
      {"speed", "Speed", "m/s", 0, 10000, 5.0, 0.1, "Walking speed at full input"},
      {"jump_speed", "Jump speed", "m/s", 0, 10000, 5.0, 0.1, "Upward speed a jump starts with"},
      {"slope_limit", "Slope limit", "deg", 0, 90, 60.0, 1.0, "Steepest walkable surface"},
      {"step_height", "Step height", "m", 0, 1000, 0.3, 0.05, "Highest ledge climbed by walking"},
  };
  auto* box = new QGroupBox(QObject::tr("Character"));
  box->setObjectName("characterSection");
  auto* form = new QFormLayout(box);
  for (const KeySpec& spec : keys) addRow(context, form, nodePointer + "/character", spec);
  return box;
}

QWidget* makeVehicleSection(InspectorContext& context, const std::string& nodePointer) {
  static const KeySpec chassis[] = {
      {"mass", "Mass", "kg", 1e-3, 1e7, 1200, 10, "Chassis mass"},
      {"anti_roll", "Anti-roll", "N/m", 0, 1e8, 0, 100, "Anti-roll bar rate"},
  };
  static const KeySpec wheel[] = {
      {"stiffness", "Stiffness", "N/m", 0, 1e9, 30000, 500, "Spring rate"},
      {"damping", "Damping", "N s/m", 0, 1e9, 3000, 50, "Damper rate"},
      {"grip", "Grip", "-", 0, 100, 1.0, 0.05, "Tyre friction coefficient"},
      {"drive", "Drive", "N", -1e7, 1e7, 0, 50, "Drive force at full throttle"},
      {"steer", "Steer", "deg", -90, 90, 0, 1, "Steering angle at full lock"},
  };
  auto* box = new QGroupBox(QObject::tr("Vehicle"));
  box->setObjectName("vehicleSection");
  auto* form = new QFormLayout(box);
  const std::string pointer = nodePointer + "/vehicle";
  for (const KeySpec& spec : chassis) addRow(context, form, pointer, spec);
  const Json wheels = context.document.valueAt(pointer + "/wheels").value_or(Json::array());
  for (std::size_t i = 0; wheels.is_array() && i < wheels.size(); ++i) {
    form->addRow(new QLabel(QObject::tr("Wheel %1").arg(i)));
    for (const KeySpec& spec : wheel)
      addRow(context, form, pointer + "/wheels/" + std::to_string(i), spec);
  }
  return box;
}

}  // namespace floptle::editor
