#include "document/problem_fixes.h"

#include <cmath>

#include <QString>

#include "floptle/editor/derived_scene.h"
#include "floptle/editor/editor_document.h"
#include "floptle/runtime/scene_problems.h"

namespace floptle::editor {
namespace {

/// `file` relative to `folder` when it lies inside it (generic separators), else as given.
std::string storedPath(const std::filesystem::path& file, const std::filesystem::path& folder) {
  if (!folder.empty()) {
    const std::filesystem::path relative =
        file.lexically_normal().lexically_relative(folder.lexically_normal());
    if (!relative.empty() && *relative.begin() != "..") return relative.generic_string();
  }
  return file.generic_string();
}

QString idText(const Json& id) {
  return QString::fromStdString(id.is_string() ? id.get<std::string>() : id.dump());
}

}  // namespace

Expected<void> applyProblemFix(EditorDocument& document, const runtime::SceneProblem& problem,
                               const std::filesystem::path& file) {
  using runtime::FixAction;
  // Refusals go to the document's message signal (the log), as its own edits' do.
  auto refuse = [&document](Error error) {
    emit document.message(QString::fromStdString(error.message()));
    return error;
  };
  const QString title = QStringLiteral("Fix: %1").arg(QString::fromStdString(problem.fix));
  // A problem found before the document changed may name a node that moved or went away.
  if (!problem.node.empty()) {
    const int index = document.derived().findNode(problem.node);
    const std::string nodePointer =
        index < 0 ? std::string() : document.derived().scene().nodes[std::size_t(index)].pointer;
    if (index < 0 ||
        (problem.pointer != nodePointer && !problem.pointer.starts_with(nodePointer + "/")))
      return refuse({problem.pointer, "node '" + problem.node + "' is no longer there"});
  }
  if (!document.valueAt(problem.pointer))
    return refuse({problem.pointer, "is no longer in the scene"});
  switch (problem.action) {
    case FixAction::None:
      return refuse({problem.pointer, "this problem has no quick fix"});
    case FixAction::LocateFile:
    case FixAction::BakeCollider: {
      if (file.empty()) return refuse({problem.pointer, "no file given"});
      const std::string stored = storedPath(file, document.sceneFolder());
      if (problem.action == FixAction::LocateFile)
        return document.setValues({{problem.pointer, stored}}, title);
      return document.setValues({{problem.pointer + "/baked_field", Json{{"file", stored}}}},
                                title);
    }
    case FixAction::DeleteMaterial: {
      const std::optional<Json> id = document.valueAt(problem.pointer + "/id");
      if (!id) return refuse({problem.pointer, "has no id"});
      return document.removeMaterial(idText(*id));
    }
    case FixAction::MoveNode: {
      const scene::Scene& sc = document.derived().scene();
      const scene::SceneNode& node =
          sc.nodes[std::size_t(document.derived().findNode(problem.node))];
      // The world offset in the parent's frame: the node's transform is relative to it.
      const Transform parent =
          node.parent < 0 ? Transform::identity() : sc.nodes[std::size_t(node.parent)].world;
      const Vec3 position = node.local.position + parent.inverseApplyToDirection(problem.move);
      // Written to the micrometre, below a float's resolution at metre scale: 0.95, not
      // 0.949999988079071.
      Json value = Json::array();
      for (int a = 0; a < 3; ++a) value.push_back(std::round(double(position[a]) * 1e6) / 1e6);
      if (document.valueAt(problem.pointer + "/transform"))
        return document.setValues({{problem.pointer + "/transform/position", value}}, title);
      return document.setValues({{problem.pointer + "/transform", Json{{"position", value}}}},
                                title);
    }
    case FixAction::RemoveCollider:
      return document.removeValues({problem.pointer + "/collider"}, title);
    case FixAction::MakeStatic:
      return document.setValues({{problem.pointer + "/collider/body", "static"}}, title);
    case FixAction::DeleteRule:
      return document.removeValues({problem.pointer}, title);
  }
  return refuse({problem.pointer, "unknown fix"});
}

}  // namespace floptle::editor
