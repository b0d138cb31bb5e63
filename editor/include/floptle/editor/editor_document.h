#pragma once
// EditorDocument: the scene being edited. Its JSON (nlohmann::ordered_json) is the single
// source of truth; every change goes through an undo command on its QUndoStack, is validated
// before it is pushed (an invalid edit is refused with an Error naming what and where, and the
// document stays unchanged), and re-derives the typed scene afterwards. Panels and the
// viewport observe the signals; widgets never write the JSON themselves.
//
// The API is split by topic: Document.cpp (files, patches, signals), Document_Values.cpp,
// Document_Nodes.cpp, Document_Materials.cpp, Document_Interactions.cpp, Document_Selection.cpp,
// Document_Imports.cpp.
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <QObject>
#include <QString>
#include <QStringList>
#include <QUndoStack>

#include <nlohmann/json.hpp>

#include "floptle/core/asset/mesh_objects.h"
#include "floptle/core/asset/mesh_subtree_resync.h"
#include "floptle/core/expected.h"
#include "floptle/core/field/field_node.h"
#include "floptle/core/scene/scene_io.h"

namespace floptle::editor {

using Json = nlohmann::ordered_json;
struct JsonPatch;
class DerivedScene;

/// What an applied change touched: parameters only (numbers changed, same structure: the
/// viewport updates uniforms) or structure (nodes, types, keys: the viewport recompiles).
enum class ChangeKind { Parameters, Structure };

/// Merge ids for commands that collapse while dragging. A command merges with the previous
/// one when both carry the same id and write the same single pointer.
inline constexpr int kNoMerge = -1;
inline constexpr int kMergeValueDrag = 1;
inline constexpr int kMergeGizmoDrag = 2;

class EditorDocument : public QObject {
  Q_OBJECT

 public:
  explicit EditorDocument(QObject* parent = nullptr);
  ~EditorDocument() override;

  // ---- files (Document.cpp) ----
  /// An empty valid scene, no path, clean.
  void newDocument();
  /// Loads and validates a scene file; on error the current document is unchanged.
  Expected<void> open(const QString& path);
  /// Replaces the document with already parsed JSON (validated first).
  Expected<void> openJson(const Json& scene, const QString& path);
  /// Replaces the document with JSON whose typed scene is already built from it
  /// (scene::loadScene's pair, or another document's json() and derived()): nothing is checked
  /// or built again. `derived` must be what deriveScene(scene) gives.
  void openDerived(Json scene, DerivedScene derived, const QString& path);
  /// openDerived with scene::loadScene's pair (what File > Open reads on its worker).
  void openDerived(scene::LoadedScene loaded, const QString& path);
  /// Saves atomically to the current path / to `path` (which becomes the current path). The
  /// file it replaces is first kept as a rotating backup (scene_backups.h). On failure the
  /// document stays dirty and the file on disk is byte-identical.
  Expected<void> save();
  Expected<void> saveAs(const QString& path);
  /// Writes the JSON without touching path or clean state (autosave / recovery).
  Expected<void> writeCopy(const QString& path) const;

  /// After loading a recovery file: the document takes `originalPath` (may be empty) and
  /// counts as unsaved.
  void markRecovered(const QString& originalPath);

  /// How many rotating backups a save keeps beside the scene (0..kMaxBackups).
  void setBackupCount(int count);
  int backupCount() const { return backupCount_; }

  const Json& json() const { return json_; }
  QString filePath() const { return filePath_; }
  bool isDirty() const;
  QUndoStack* undoStack() { return &undoStack_; }
  /// The typed scene derived from the JSON after the last change (never null).
  const DerivedScene& derived() const { return *derived_; }

  // ---- values (Document_Values.cpp) ----
  /// The value at a JSON pointer, or nullopt when there is none.
  std::optional<Json> valueAt(const std::string& pointer) const;
  /// Sets (or inserts) the value at `pointer`. `mergeId` >= 0 lets consecutive sets of the
  /// same pointer collapse into one undo step.
  Expected<void> setValue(const std::string& pointer, const Json& value, int mergeId = kNoMerge);
  /// Sets several values as one undo step (a gizmo drag over several nodes). Consecutive
  /// calls with the same mergeId and the same pointers in the same order merge.
  Expected<void> setValues(const std::vector<std::pair<std::string, Json>>& values,
                           const QString& text, int mergeId = kNoMerge);
  /// Removes an object key (a parameter reset to default, an optional component).
  Expected<void> removeValue(const std::string& pointer);
  /// Removes several object keys as one undo step (a component off on several nodes);
  /// pointers with no value are skipped.
  Expected<void> removeValues(const std::vector<std::string>& pointers, const QString& text);

  // ---- nodes (Document_Nodes.cpp) ----
  /// JSON pointer of the node called `name` ("/nodes/3/children/0"), or empty.
  std::string nodePointer(const QString& name) const;
  /// Every node name in document order.
  QStringList nodeNames() const;
  /// Adds a node with a default shape of `shapeType` under `parentName` (empty = top level);
  /// returns the new unique name.
  Expected<QString> addNode(field::NodeType shapeType, const QString& parentName = {});
  Expected<void> renameNode(const QString& name, const QString& newName);
  /// Copies the nodes (with their descendants) next to the originals; returns the new names.
  Expected<QStringList> duplicateNodes(const QStringList& names);
  /// Removes the nodes and their descendants in one undo step.
  Expected<void> removeNodes(const QStringList& names);
  /// Moves `name` under `newParent` (empty = top level) at child position `index` (-1 = last).
  /// Refuses cycles. The node keeps its local transform.
  Expected<void> reparentNode(const QString& name, const QString& newParent, int index = -1);
  /// Name of the node's parent, empty at top level.
  QString parentOf(const QString& name) const;

  // ---- materials (Document_Materials.cpp) ----
  QStringList materialIds() const;
  std::string materialPointer(const QString& id) const;
  Expected<QString> addMaterial();
  /// Refused while a node uses it; the message names the users.
  Expected<void> removeMaterial(const QString& id);
  /// Names of nodes (and shape pointers) whose material is `id`.
  QStringList materialUsers(const QString& id) const;

  // ---- interactions (Document_Interactions.cpp) ----
  /// Pointer of the interaction of the ordered pair (a, b), or empty.
  std::string interactionPointer(const QString& a, const QString& b) const;
  /// Sets the rule ("ignore", "merge", "carve", "hard") and k (m) of a pair, creating it.
  Expected<void> setInteraction(const QString& a, const QString& b, const QString& rule, double k,
                                int mergeId = kNoMerge);

  /// Ends the current drag: the next merging edit starts a new undo step even on the same
  /// pointer (spin boxes call this on editingFinished, the gizmo on release).
  void closeMergeWindow() { ++mergeWindow_; }
  int mergeWindow() const { return mergeWindow_; }

  // ---- imported files (Document_Imports.cpp) ----
  /// The folder the document's relative file paths start from: the saved file's folder, or
  /// empty while it has no path (then imports write absolute paths).
  std::filesystem::path sceneFolder() const;
  /// How the subtree of `meshFile` was imported (what to read it again with), or nullopt when
  /// no subtree of the document holds that file.
  std::optional<asset::SubtreeSource> meshSubtreeSource(
      const std::filesystem::path& meshFile) const;
  /// Brings the subtree of `meshFile` up to date with `tree` (the file read again with
  /// meshSubtreeSource's options) as one undo step, the user's edits kept
  /// (asset::resyncMeshSubtree); nothing is pushed when nothing changes. Error when no subtree
  /// holds the file or the result is refused.
  Expected<asset::ResyncReport> reloadMeshSubtree(const std::filesystem::path& meshFile,
                                                  const asset::MeshObjectTree& tree);

  // ---- selection (Document_Selection.cpp; not undoable) ----
  QStringList selection() const { return selection_; }
  void setSelection(const QStringList& names);

  /// Applies a patch forward or backward, re-derives and notifies. Called by EditCommand.
  void applyPatch(const JsonPatch& patch, bool forward);

 signals:
  /// Numbers changed, structure the same: update uniforms.
  void parametersChanged();
  /// Nodes, shape types or keys changed (or a new file): recompile.
  void structureChanged();
  /// After either of the above.
  void documentChanged(ChangeKind kind);
  void selectionChanged(const QStringList& names);
  void filePathChanged(const QString& path);
  void dirtyChanged(bool dirty);
  /// A refused edit or a failed file operation, for the log.
  void message(const QString& text);

 private:
  /// Validates the patched candidate and pushes it as one undo step.
  Expected<void> push(JsonPatch patch, const QString& text, int mergeId = kNoMerge);
  Error refuse(Error error);
  void dropMissingFromSelection();

  Json json_;
  QString filePath_;
  QUndoStack undoStack_;
  std::unique_ptr<DerivedScene> derived_;
  /// The document push() checked and derived, for the pushed command's first redo; empty
  /// outside push().
  struct PushedState;
  std::unique_ptr<PushedState> pushed_;
  QStringList selection_;
  int mergeWindow_ = 0;
  int backupCount_;
};

}  // namespace floptle::editor
