#pragma once
// Pure helpers over the node tree: top-level nodes in scene["nodes"], each node's children in
// its own "children" array. Names are unique across the whole tree.
#include <set>
#include <string>
#include <vector>

#include "document/json_patch.h"

namespace floptle::editor {

struct NodeLocation {
  std::string name;
  /// JSON pointer of the node object ("/nodes/2/children/0").
  std::string pointer;
  /// Name of the parent node, empty at top level.
  std::string parent;
};

/// Every node in document (pre-)order.
std::vector<NodeLocation> listNodes(const Json& scene);
/// Location of `name`, or an empty pointer when there is none.
NodeLocation findNode(const Json& scene, const std::string& name);
/// True when `name` is `ancestor` or lies below it.
bool isInSubtree(const Json& scene, const std::string& name, const std::string& ancestor);
/// Every node name in the scene.
std::set<std::string> allNodeNames(const Json& scene);
/// `stem` if free, else stem_2, stem_3, ... (a trailing _N of stem is replaced).
std::string uniqueName(const std::string& stem, const std::set<std::string>& taken);
/// Renames `node` and every node below it to fresh names (added to `taken`).
void renameSubtreeUniquely(Json& node, std::set<std::string>& taken);

}  // namespace floptle::editor
