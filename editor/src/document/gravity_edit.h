#pragma once
// Edits of the scene's gravity field ("settings": {"gravity": ...}) through the document, each
// one undo step. The field has two forms: the vector form [x, y, z] (and no key at all, which
// means [0, -9.81, 0]) and the object form. An edit that needs the object form converts first,
// keeping the meaning: [x, y, z] becomes {"global": [x, y, z]}.
#include <string>
#include <string_view>
#include <vector>

#include "floptle/core/expected.h"
#include "floptle/core/math.h"
#include "floptle/editor/editor_document.h"

namespace floptle::editor {

/// JSON pointer of the scene's gravity.
inline constexpr std::string_view kGravityPointer = "/settings/gravity";

/// Keys under the gravity object ("sdf", "smoothing", "epsilon"; array indices as numbers).
using GravityPath = std::vector<std::string>;

/// The scene's gravity in the object form, with the same meaning as what the document holds.
Json gravityObject(const EditorDocument& document);
/// Whether the document holds the object form.
bool gravityIsObject(const EditorDocument& document);
/// The JSON pointer of `path` under the gravity object.
std::string gravityPointer(const GravityPath& path);

/// Sets `value` at `path` (missing parents become objects), converting to the object form
/// first when needed. `mergeId` as EditorDocument::setValue.
Expected<void> setGravityValue(EditorDocument& document, const GravityPath& path, const Json& value,
                               int mergeId = kNoMerge);
/// Removes the key at `path` (a tier, a smoothing); nothing when absent.
Expected<void> removeGravityValue(EditorDocument& document, const GravityPath& path);

/// Appends `item` to "regions" or "sources" (created when absent); returns the new item's
/// pointer ("/settings/gravity/sources/2").
Expected<std::string> addGravityItem(EditorDocument& document, std::string_view list,
                                     const Json& item);
/// Removes a region or source by its pointer.
Expected<void> removeGravityItem(EditorDocument& document, const std::string& pointer);

/// A new source of `type` ("point", "sphere", "line", "planet") centred at `at` (m), with the
/// component table's defaults and sizes that read well at editor scale.
Json defaultGravitySource(std::string_view type, Vec3 at);
/// A new region of `shape` ("box", "sphere") centred at `at` (m).
Json defaultGravityRegion(std::string_view shape, Vec3 at);
/// The default of each tier the Gravity section switches on ("global", "regions", "sources",
/// "sdf", "density").
Json defaultGravityTier(std::string_view tier);

/// [x, y, z] as JSON.
Json vec3Json(Vec3 v);

}  // namespace floptle::editor
