#include "document/node_tree.h"

#include <cctype>

namespace floptle::editor {
namespace {

void walk(const Json& nodes, const std::string& where, const std::string& parent,
          std::vector<NodeLocation>& out) {
  if (!nodes.is_array()) return;
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    const std::string pointer = where + "/" + std::to_string(i);
    const std::string name = nodes[i].value("name", std::string());
    out.push_back({name, pointer, parent});
    if (nodes[i].contains("children")) walk(nodes[i]["children"], pointer + "/children", name, out);
  }
}

/// Depth-first search for `name` that stops at the match and makes a pointer string only for
/// nodes with children and for the match: O(nodes) comparisons, no list of every node.
bool search(const Json& nodes, const std::string& where, const std::string& parent,
            const std::string& name, NodeLocation& out) {
  if (!nodes.is_array()) return false;
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    const Json& node = nodes[i];
    const auto own = node.find("name");
    const bool named = own != node.end() && own->is_string();
    if (named && own->get_ref<const std::string&>() == name) {
      out = {name, where + "/" + std::to_string(i), parent};
      return true;
    }
    const auto children = node.find("children");
    if (children == node.end()) continue;
    const std::string pointer = where + "/" + std::to_string(i);
    if (search(*children, pointer + "/children", named ? own->get<std::string>() : std::string(),
               name, out))
      return true;
  }
  return false;
}

}  // namespace

std::vector<NodeLocation> listNodes(const Json& scene) {
  std::vector<NodeLocation> out;
  if (scene.contains("nodes")) walk(scene["nodes"], "/nodes", "", out);
  return out;
}

NodeLocation findNode(const Json& scene, const std::string& name) {
  NodeLocation found;
  if (const auto nodes = scene.find("nodes"); nodes != scene.end())
    search(*nodes, "/nodes", "", name, found);
  return found;
}

bool isInSubtree(const Json& scene, const std::string& name, const std::string& ancestor) {
  const NodeLocation top = findNode(scene, ancestor);
  const NodeLocation node = findNode(scene, name);
  if (top.pointer.empty() || node.pointer.empty()) return false;
  return node.pointer == top.pointer || node.pointer.rfind(top.pointer + "/", 0) == 0;
}

std::set<std::string> allNodeNames(const Json& scene) {
  std::set<std::string> names;
  for (const NodeLocation& location : listNodes(scene)) names.insert(location.name);
  return names;
}

std::string uniqueName(const std::string& stem, const std::set<std::string>& taken) {
  if (!taken.count(stem)) return stem;
  std::string base = stem;
  const auto underscore = base.rfind('_');
  if (underscore != std::string::npos && underscore + 1 < base.size()) {
    bool digits = true;
    for (std::size_t i = underscore + 1; i < base.size(); ++i)
      digits = digits && std::isdigit(static_cast<unsigned char>(base[i]));
    if (digits) base.resize(underscore);
  }
  for (int n = 2;; ++n) {
    std::string candidate = base + "_" + std::to_string(n);
    if (!taken.count(candidate)) return candidate;
  }
}

void renameSubtreeUniquely(Json& node, std::set<std::string>& taken) {
  const std::string fresh = uniqueName(node.value("name", std::string("node")), taken);
  taken.insert(fresh);
  node["name"] = fresh;
  if (node.contains("children"))
    for (Json& child : node["children"]) renameSubtreeUniquely(child, taken);
}

}  // namespace floptle::editor
