#pragma once
// The inspector's sections, each built for one node (by JSON pointer). A section registers a
// refresher per bound widget so number changes can be shown without a rebuild.
#include <functional>
#include <string>
#include <vector>

#include <QWidget>

#include "floptle/core/field/node_spec.h"

class QFormLayout;

namespace floptle::editor {

class EditorDocument;

struct InspectorContext {
  EditorDocument& document;
  std::vector<std::function<void()>>& refreshers;
};

QWidget* makeNameSection(InspectorContext& context, const std::string& nodePointer);
QWidget* makeTransformSection(InspectorContext& context, const std::string& nodePointer);
/// The shape at `shapePointer` and, recursively, its children.
QWidget* makeShapeSection(InspectorContext& context, const std::string& shapePointer);
QWidget* makeMaterialSection(InspectorContext& context, const std::string& nodePointer);
QWidget* makeColliderSection(InspectorContext& context, const std::string& nodePointer);
/// The "drift" component's tuning (drift_section.cpp).
QWidget* makeDriftSection(InspectorContext& context, const std::string& nodePointer);
/// The "character" and "vehicle" controller components (controller_section.cpp).
QWidget* makeCharacterSection(InspectorContext& context, const std::string& nodePointer);
QWidget* makeVehicleSection(InspectorContext& context, const std::string& nodePointer);
/// Components without an inspector yet (character, vehicle, ...), shown as JSON.
QWidget* makeOtherComponentsSection(InspectorContext& context, const std::string& nodePointer);

/// One shape parameter row: a number, a vector, a quaternion (as Euler degrees) or an
/// animated driver, plus animate and reset buttons. Added to `form`.
void addParameterRow(InspectorContext& context, QFormLayout* form, const std::string& shapePointer,
                     const field::ParamSpec& spec);

}  // namespace floptle::editor
