#pragma once
// The inspector's sections, each built for one node (by JSON pointer) or, where it makes sense
// for a multi-selection, for several at once (one edit = one undo step over all of them). A
// section registers a refresher per bound widget so number changes show without a rebuild.
#include <functional>
#include <string>
#include <vector>

#include <QWidget>

#include "floptle/core/field/node_spec.h"
#include "floptle/editor/inspector_panel.h"

class QFormLayout;

namespace floptle::editor {

class EditorDocument;

/// JSON pointers of the nodes a section edits ("/nodes/3", ...); never empty.
using NodePointers = std::vector<std::string>;

struct InspectorContext {
  EditorDocument& document;
  std::vector<std::function<void()>>& refreshers;
  /// The viewport's side of the Gravity section (placement of new items, item selection).
  const GravityHooks& gravity;
};

QWidget* makeNameSection(InspectorContext& context, const std::string& nodePointer);
/// Position, rotation and scale of each node; a value the nodes disagree on reads "mixed".
QWidget* makeTransformSection(InspectorContext& context, const NodePointers& nodes);
/// The shape at `shapePointer` and, recursively, its children.
QWidget* makeShapeSection(InspectorContext& context, const std::string& shapePointer);
QWidget* makeMaterialSection(InspectorContext& context, const NodePointers& nodes);
QWidget* makeColliderSection(InspectorContext& context, const NodePointers& nodes);
/// The "drift" component's tuning (drift_section.cpp).
QWidget* makeDriftSection(InspectorContext& context, const std::string& nodePointer);
/// The "character" and "vehicle" controller components (controller_section.cpp).
QWidget* makeCharacterSection(InspectorContext& context, const std::string& nodePointer);
QWidget* makeVehicleSection(InspectorContext& context, const std::string& nodePointer);
/// The scene's gravity field (settings.gravity): tier toggles, each tier's values, the
/// regions and sources listed, added and removed (gravity_section.cpp).
QWidget* makeGravitySection(InspectorContext& context);
/// A receiver's "gravity" {response, align_rate} on a character, vehicle or dynamic body, and
/// an emitter's "gravity_source" {type, strength, r_outer} (gravity_node_sections.cpp); each
/// checkable: checking adds the component, unchecking removes it.
QWidget* makeGravityReceiverSection(InspectorContext& context, const std::string& nodePointer);
QWidget* makeGravityEmitterSection(InspectorContext& context, const std::string& nodePointer);
/// Whether the node can obey gravity as a receiver (a character, a vehicle, a dynamic body).
bool canReceiveGravity(const EditorDocument& document, const std::string& nodePointer);

/// The node's MatterModel ("matter"): a tier drop-down and that tier's knobs only
/// (matter_section.cpp); rigid when the node has none.
QWidget* makeMatterSection(InspectorContext& context, const std::string& nodePointer);

/// The node's "script" component: its file and an Open button (script_section.cpp).
QWidget* makeScriptSection(InspectorContext& context, const std::string& nodePointer);

/// Components without an inspector yet (character, vehicle, ...), shown as JSON.
QWidget* makeOtherComponentsSection(InspectorContext& context, const std::string& nodePointer);

/// One shape parameter row: a number, a vector, a quaternion (as Euler degrees) or an
/// animated driver, plus animate and reset buttons. Added to `form`.
void addParameterRow(InspectorContext& context, QFormLayout* form, const std::string& shapePointer,
                     const field::ParamSpec& spec);

}  // namespace floptle::editor
