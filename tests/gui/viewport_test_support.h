#pragma once
// Shared set-up of the viewport GUI tests: one QApplication for the whole test program
// (created on first use, whichever test file runs first), and small field builders.
#include <QApplication>

#include <nlohmann/json.hpp>

#include "floptle/core/field/field_json.h"
#include "floptle/core/field/field_program.h"

namespace floptle::viewport_testing {

/// The program's QApplication (GL needs a real platform: run under xvfb-run).
inline void ensureApplication() {
  if (QApplication::instance()) return;
  static int argc = 1;
  static char arg0[] = "floptle_gui_tests";
  static char* argv[] = {arg0, nullptr};
  new QApplication(argc, argv);  // lives until the process ends
}

/// Compiles a shape JSON whose material ids are integers (used as the MaterialIndex).
inline Expected<field::FieldProgram> compileShapeJson(const std::string& json) {
  auto shape =
      field::parseShape(nlohmann::ordered_json::parse(json), "/shape",
                        [](const nlohmann::ordered_json& id) -> Expected<field::MaterialIndex> {
                          if (!id.is_number_unsigned())
                            return Error{"/shape", "test material ids are integers"};
                          return field::MaterialIndex(id.get<unsigned>());
                        });
  if (!shape) return shape.error();
  return field::FieldProgram::compile(*shape);
}

}  // namespace floptle::viewport_testing
