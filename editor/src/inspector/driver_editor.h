#pragma once
// DriverEditor: edits an animated scalar stored as a driver object at one JSON pointer:
//   {"base": v, "sine": {"amplitude": a, "frequency": f, "phase": p}}   or
//   {"keys": [[t, v], ...], "interpolation": "linear"|"smoothstep", "loop": bool}
// "Constant" turns it back into a plain number (its base, or its first key's value).
#include <QWidget>

#include "document/json_patch.h"
#include "inspector/inspector_sections.h"
#include "inspector/number_field.h"

namespace floptle::editor {

/// A driver object for a constant `value`: a sine of zero amplitude around it.
Json sineDriverFor(double value);

class DriverEditor : public QWidget {
  Q_OBJECT

 public:
  DriverEditor(InspectorContext& context, const std::string& pointer, const NumberFieldSpec& spec,
               QWidget* parent = nullptr);
};

/// A number field or, when the value at `pointer` is a driver object, a DriverEditor.
/// `fallback` is shown while the key is absent; writing an absent key writes `whole` with
/// this slot replaced (a vector component of an absent vector writes the whole vector).
QWidget* makeScalarEditor(InspectorContext& context, const std::string& pointer,
                          const NumberFieldSpec& spec, double fallback);

}  // namespace floptle::editor
