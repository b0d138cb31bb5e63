#pragma once
// asset::TriangleMesh for Qt code. Its member `slots` collides with Qt's `slots` keyword
// macro (qobjectdefs.h defines it empty), so the header is read with the macro suspended, and
// Qt code reads the member through materialSlots() (defined here, where `slots` is a name).
// Include this instead of floptle/core/asset/triangle_mesh.h in any file that sees Qt.
#pragma push_macro("slots")
#undef slots
#include "floptle/core/asset/mesh_import.h"
#include "floptle/core/asset/triangle_mesh.h"

namespace floptle::editor {

inline const std::vector<asset::MaterialSlot>& materialSlots(const asset::TriangleMesh& mesh) {
  return mesh.slots;
}

}  // namespace floptle::editor
#pragma pop_macro("slots")
