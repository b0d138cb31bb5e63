// Inspector sections for the controller components, "character" and "vehicle" (issue 6): the
// values designers tune while paused in play and see on resume (speed, jump speed, slope
// limit, step height; the vehicle's anti-roll rate and each wheel's spring, damper, grip,
// drive and steering). Ranges, units, help and defaults are the rows of core's component
// table (component_values.h), the one the runtime reads the components with.
#include <QFormLayout>
#include <QGroupBox>
#include <QLabel>

#include "floptle/core/scene/component_values.h"
#include "floptle/editor/editor_document.h"
#include "inspector/inspector_sections.h"
#include "inspector/number_field.h"

namespace floptle::editor {
namespace {

struct KeySpec {
  const char* key;
  const char* label;
  double step;  ///< spin box step, in the row's unit
};

void addRow(InspectorContext& context, QFormLayout* form, const std::string& pointer,
            std::string_view table, const KeySpec& spec) {
  EditorDocument& document = context.document;
  const NumberFieldSpec number = numberFieldSpec(table, spec.key, spec.step);
  const std::string at = pointer + "/" + spec.key;
  const double fallback = scene::componentSpec(table)->find(spec.key)->defaultValue[0];
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
      {"radius", "Radius", 0.05},
      {"height", "Height", 0.05},
      {"speed", "Speed", 0.1},
      {"jump_speed", "Jump speed", 0.1},
      {"slope_limit", "Slope limit", 1.0},
      {"step_height", "Step height", 0.05},
  };
  auto* box = new QGroupBox(QObject::tr("Character"));
  box->setObjectName("characterSection");
  auto* form = new QFormLayout(box);
  for (const KeySpec& spec : keys)
    addRow(context, form, nodePointer + "/character", "character", spec);
  return box;
}

QWidget* makeVehicleSection(InspectorContext& context, const std::string& nodePointer) {
  static const KeySpec chassis[] = {{"mass", "Mass", 10}, {"anti_roll", "Anti-roll", 100}};
  static const KeySpec wheel[] = {
      {"stiffness", "Stiffness", 500}, {"damping", "Damping", 50}, {"grip", "Grip", 0.05},
      {"drive", "Drive", 50},          {"steer", "Steer", 1},
  };
  auto* box = new QGroupBox(QObject::tr("Vehicle"));
  box->setObjectName("vehicleSection");
  auto* form = new QFormLayout(box);
  const std::string pointer = nodePointer + "/vehicle";
  for (const KeySpec& spec : chassis) addRow(context, form, pointer, "vehicle", spec);
  const Json wheels = context.document.valueAt(pointer + "/wheels").value_or(Json::array());
  for (std::size_t i = 0; wheels.is_array() && i < wheels.size(); ++i) {
    form->addRow(new QLabel(QObject::tr("Wheel %1").arg(i)));
    for (const KeySpec& spec : wheel)
      addRow(context, form, pointer + "/wheels/" + std::to_string(i), "wheel", spec);
  }
  return box;
}

}  // namespace floptle::editor
