#pragma once
// Form rows generated from rows of a value table (core's component table, or rows the editor
// holds until the table has them): a number field per number, three per vector, four per
// quaternion [x, y, z, w], a combo per choice, a check box per flag. Each row reads and writes
// one key of a JSON object through a binding, so the same rows serve a node's component and
// an object inside the scene's settings. Units, ranges and tooltips come from the rows.
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <QString>

#include "floptle/core/expected.h"
#include "floptle/core/scene/component_values.h"
#include "floptle/editor/editor_document.h"

class QFormLayout;

namespace floptle::editor {

struct InspectorContext;

/// Reads and writes the keys of one JSON object (absent keys read as nullopt).
struct JsonBinding {
  std::function<std::optional<Json>(const std::string& key)> read;
  std::function<Expected<void>(const std::string& key, const Json& value, int mergeId)> write;
};

/// Adds a row per value of `rows` except the keys in `skip`. Widgets are named
/// `namePrefix + key` (vectors: `+ ".x"`, `".y"`, `".z"`, `".w"`).
void addTableRows(InspectorContext& context, QFormLayout* form,
                  std::span<const scene::ValueSpec> rows, const JsonBinding& binding,
                  const QString& namePrefix, std::vector<std::string_view> skip = {});

/// The rows of core's table `table` (empty when the table has none of that name).
std::span<const scene::ValueSpec> tableRows(std::string_view table);

}  // namespace floptle::editor
