// gravityRows: a gravity table's rows, read from core's component table.
#include "inspector/gravity_rows.h"

namespace floptle::editor {

std::span<const scene::ValueSpec> gravityRows(std::string_view table) {
  if (const scene::ComponentSpec* spec = scene::componentSpec(table)) return spec->values;
  return {};
}

}  // namespace floptle::editor
