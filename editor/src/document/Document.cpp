// EditorDocument: files, pushing validated patches, applying them and notifying observers.
#include "floptle/editor/editor_document.h"

#include <algorithm>
#include <fstream>
#include <sstream>

#include "document/edit_command.h"
#include "document/json_patch.h"
#include "document/scene_backups.h"
#include "document/scene_io.h"
#include "floptle/editor/derived_scene.h"

namespace floptle::editor {

struct EditorDocument::PushedState {
  Json json;
  DerivedScene derived;
};

EditorDocument::EditorDocument(QObject* parent)
    : QObject(parent), derived_(std::make_unique<DerivedScene>()), backupCount_(kDefaultBackups) {
  connect(&undoStack_, &QUndoStack::cleanChanged, this,
          [this](bool clean) { emit dirtyChanged(!clean); });
  newDocument();
}

EditorDocument::~EditorDocument() {
  // Commands refer back to this document: delete them while it is still whole.
  undoStack_.clear();
}

void EditorDocument::newDocument() {
  // The empty scene is valid by construction (DocumentFiles.NewDocumentIsValidEmptyAndClean).
  (void)openJson(emptySceneJson(), {});
}

Expected<void> EditorDocument::open(const QString& path) {
  Expected<scene::LoadedScene> loaded = scene::loadScene(path.toStdString());
  if (!loaded) return refuse(loaded.error());
  openDerived(std::move(*loaded), path);
  return {};
}

Expected<void> EditorDocument::openJson(const Json& scene, const QString& path) {
  Expected<DerivedScene> derived = deriveScene(scene);
  if (!derived) return refuse(derived.error());
  openDerived(scene, std::move(*derived), path);
  return {};
}

Expected<void> EditorDocument::save() {
  if (filePath_.isEmpty()) return refuse({"save", "the document has no file yet; use Save As"});
  return saveAs(filePath_);
}

void EditorDocument::setBackupCount(int count) {
  backupCount_ = std::clamp(count, 0, kMaxBackups);
}

Expected<void> EditorDocument::saveAs(const QString& path) {
  // A backup that cannot be written is reported; the save itself still protects the old file.
  if (Expected<QString> backup = backUpBeforeSave(path, backupCount_); !backup)
    emit message(QString::fromStdString(backup.error().message()));
  Expected<void> written = writeSceneFile(path.toStdString(), json_);
  if (!written) return refuse(written.error());
  if (filePath_ != path) {
    filePath_ = path;
    emit filePathChanged(path);
  }
  undoStack_.setClean();
  return {};
}

Expected<void> EditorDocument::writeCopy(const QString& path) const {
  return writeSceneFile(path.toStdString(), json_);
}

void EditorDocument::markRecovered(const QString& originalPath) {
  filePath_ = originalPath;
  emit filePathChanged(filePath_);
  undoStack_.resetClean();  // no state of the stack equals the file on disk
  emit dirtyChanged(true);
}

bool EditorDocument::isDirty() const {
  return !undoStack_.isClean();
}

Expected<void> EditorDocument::push(JsonPatch patch, const QString& text, int mergeId) {
  Json candidate = json_;
  try {
    patch.applyForward(candidate);
  } catch (const std::exception& e) {  // a pointer that does not exist: a programmer error
    return refuse({patch.ops.empty() ? std::string() : patch.ops.front().pointer, e.what()});
  }
  for (const JsonPatchOp& op : patch.ops) {
    if (op.after) {
      if (auto bad = findNonFinite(*op.after, op.pointer))
        return refuse({*bad, "not a finite number"});
    }
  }
  Expected<DerivedScene> derived = deriveScene(candidate);
  if (!derived) return refuse(derived.error());
  // The command's first redo, run inside QUndoStack::push, takes this checked state instead
  // of patching and deriving again.
  pushed_ = std::make_unique<PushedState>(PushedState{std::move(candidate), std::move(*derived)});
  undoStack_.push(new EditCommand(*this, std::move(patch), text, mergeId));
  pushed_.reset();
  return {};
}

Error EditorDocument::refuse(Error error) {
  emit message(QString::fromStdString(error.message()));
  return error;
}

void EditorDocument::applyPatch(const JsonPatch& patch, bool forward) {
  if (forward && pushed_) {
    json_ = std::move(pushed_->json);
    *derived_ = std::move(pushed_->derived);
    pushed_.reset();
  } else {
    if (forward) {
      patch.applyForward(json_);
    } else {
      patch.applyBackward(json_);
    }
    // push() validated this state (or it is a state we had before): deriving cannot fail.
    Expected<DerivedScene> derived = deriveScene(json_);
    if (derived) *derived_ = std::move(*derived);
  }
  dropMissingFromSelection();
  const ChangeKind kind = patch.parameterOnly() ? ChangeKind::Parameters : ChangeKind::Structure;
  if (kind == ChangeKind::Parameters) {
    emit parametersChanged();
  } else {
    emit structureChanged();
  }
  emit documentChanged(kind);
}

void EditorDocument::openDerived(scene::LoadedScene loaded, const QString& path) {
  openDerived(std::move(loaded.document), DerivedScene{std::move(loaded.scene)}, path);
}

void EditorDocument::openDerived(Json scene, DerivedScene derived, const QString& path) {
  undoStack_.clear();
  json_ = std::move(scene);
  *derived_ = std::move(derived);
  filePath_ = path;
  selection_.clear();
  undoStack_.setClean();
  emit filePathChanged(path);
  emit selectionChanged(selection_);
  emit structureChanged();
  emit documentChanged(ChangeKind::Structure);
  emit dirtyChanged(false);
}

}  // namespace floptle::editor
