// Saving that loses nothing: a full disk during a save keeps the document dirty and the file on
// disk byte-identical; each save keeps the replaced file as a rotating backup; 10,000 random
// edits undo back to the opened bytes and redo to the edited ones.
#include <csignal>
#include <fstream>
#include <random>
#include <sstream>

#include <sys/resource.h>

#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>

#include "document/scene_backups.h"
#include "document_fixture.h"
#include "floptle/core/scene/scene_io.h"

namespace floptle::editor::test {
namespace {

QByteArray bytesOf(const QString& path) {
  QFile file(path);
  return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

std::string canonical(const Json& json) {
  auto text = scene::sceneToText(json);
  return text ? *text : std::string("<not writable: ") + text.error().message() + ">";
}

/// Lowers the file-size limit for its lifetime: writes past `bytes` fail with EFBIG, as they
/// would on a full disk, for root too.
class FileSizeLimit {
 public:
  explicit FileSizeLimit(rlim_t bytes) {
    ::getrlimit(RLIMIT_FSIZE, &saved_);
    handler_ = std::signal(SIGXFSZ, SIG_IGN);
    rlimit limited = saved_;
    limited.rlim_cur = bytes;
    ok_ = ::setrlimit(RLIMIT_FSIZE, &limited) == 0;
  }
  ~FileSizeLimit() {
    ::setrlimit(RLIMIT_FSIZE, &saved_);
    std::signal(SIGXFSZ, handler_);
  }
  bool ok() const { return ok_; }

 private:
  rlimit saved_{};
  void (*handler_)(int) = nullptr;
  bool ok_ = false;
};

TEST(DocumentSaveSafety, AFullDiskKeepsTheDocumentDirtyAndTheFileByteIdentical) {
  QTemporaryDir dir;
  const QString path = dir.filePath("level.json");
  EditorDocument document;
  document.setBackupCount(0);
  openSmallScene(document);
  ASSERT_TRUE(document.saveAs(path).ok());
  const QByteArray onDisk = bytesOf(path);
  ASSERT_TRUE(document.setValue("/description", std::string(64 * 1024, 'x')).ok());
  const Json edited = document.json();
  QSignalSpy messages(&document, &EditorDocument::message);
  Expected<void> saved;
  {
    FileSizeLimit full(4096);
    ASSERT_TRUE(full.ok());
    saved = document.save();
  }
  ASSERT_FALSE(saved.ok());
  const std::string message = saved.error().message();
  EXPECT_NE(message.find(path.toStdString()), std::string::npos) << message;
  EXPECT_NE(message.find("File too large"), std::string::npos) << message;
  EXPECT_EQ(messages.count(), 1) << "the failure reaches the log";
  EXPECT_TRUE(document.isDirty());
  EXPECT_EQ(document.json(), edited);
  EXPECT_EQ(bytesOf(path), onDisk);
  EXPECT_EQ(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden).size(), 1)
      << "a temporary file was left beside the scene";
  // Space again: the same document saves.
  ASSERT_TRUE(document.save().ok());
  EXPECT_FALSE(document.isDirty());
  EXPECT_NE(bytesOf(path), onDisk);
}

TEST(DocumentSaveSafety, EachSaveKeepsTheReplacedFileAsARotatingBackup) {
  QTemporaryDir dir;
  const QString path = dir.filePath("level.json");
  EditorDocument document;
  document.setBackupCount(4);
  openSmallScene(document);
  ASSERT_TRUE(document.saveAs(path).ok());  // nothing to replace: no backup
  EXPECT_TRUE(backupsOf(path).isEmpty());
  std::vector<QByteArray> versions{bytesOf(path)};
  for (int i = 1; i <= 6; ++i) {
    ASSERT_TRUE(document.setValue("/nodes/1/shape/radius", 1.0 + i * 0.125).ok());
    ASSERT_TRUE(document.save().ok());
    versions.push_back(bytesOf(path));
  }
  // Six replaced versions, the newest four kept, oldest first, numbered on.
  const QStringList backups = backupsOf(path);
  ASSERT_EQ(backups.size(), 4);
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(bytesOf(backups[i]), versions[std::size_t(i + 2)]) << backups[i].toStdString();
    EXPECT_TRUE(backups[i].endsWith(QStringLiteral("backups/level.%1.json").arg(i + 3)))
        << backups[i].toStdString();
  }
  // The next save keeps the last version as number 7; saving the same bytes again adds none.
  ASSERT_TRUE(document.save().ok());
  ASSERT_TRUE(document.save().ok());
  ASSERT_EQ(backupsOf(path).size(), 4);
  EXPECT_TRUE(backupsOf(path).back().endsWith("backups/level.7.json"));
  EXPECT_EQ(bytesOf(backupsOf(path).back()), versions.back());
  // Zero keeps none, and writes no folder for a new scene.
  const QString other = dir.filePath("other.json");
  document.setBackupCount(0);
  ASSERT_TRUE(document.saveAs(other).ok());
  ASSERT_TRUE(document.setValue("/nodes/1/shape/radius", 3.0).ok());
  ASSERT_TRUE(document.save().ok());
  EXPECT_TRUE(backupsOf(other).isEmpty());
}

/// One random edit through the document's public API; false when the document refused it (a
/// cycle, a name taken). An accepted edit that changes nothing (a value set to what it is)
/// pushes no undo step either.
bool randomEdit(EditorDocument& document, std::mt19937& rng, int serial) {
  const QStringList nodes = document.nodeNames();
  const QStringList materials = document.materialIds();
  auto pick = [&rng](const QStringList& list) { return list[int(rng() % unsigned(list.size()))]; };
  auto number = [&rng](double lo, double hi) {
    return lo + (hi - lo) * double(rng() % 100'000) / 100'000.0;
  };
  const unsigned kind = nodes.size() > 12 ? 3 : rng() % 10;  // keep the scene small
  switch (nodes.isEmpty() ? 0 : kind) {
    case 0:
      return document
          .addNode(rng() % 2 ? field::NodeType::Sphere : field::NodeType::Box,
                   nodes.isEmpty() || rng() % 2 ? QString() : pick(nodes))
          .ok();
    case 1:
      return document.renameNode(pick(nodes), QStringLiteral("n%1").arg(serial)).ok();
    case 2:
      return document.duplicateNodes({pick(nodes)}).ok();
    case 3:
      return nodes.size() > 2 && document.removeNodes({pick(nodes)}).ok();
    case 4:
      return document.reparentNode(pick(nodes), rng() % 3 ? pick(nodes) : QString()).ok();
    case 5:
      return document
          .setValue(document.nodePointer(pick(nodes)) + "/material", pick(materials).toStdString())
          .ok();
    case 6:  // a few materials: each one more makes every later check of the scene dearer
      return materials.size() < 6 && document.addMaterial().ok();
    case 7: {
      static const char* rules[] = {"ignore", "merge", "carve", "hard"};
      return document
          .setInteraction(pick(materials), pick(materials), rules[rng() % 4], number(0.0, 1.0))
          .ok();
    }
    default:
      return document
          .setValue(document.nodePointer(pick(nodes)) + "/transform/position",
                    Json{number(-50, 50), number(-50, 50), number(-50, 50)})
          .ok();
  }
}

TEST(DocumentSaveSafety, TenThousandRandomEditsUndoToTheOpenedBytesAndRedoToTheEdited) {
  EditorDocument document;
  openSmallScene(document);
  const std::string opened = canonical(document.json());
  std::mt19937 rng(20261202);
  constexpr int kEdits = 10'000;
  for (int attempt = 0; document.undoStack()->count() < kEdits; ++attempt) {
    ASSERT_LT(attempt, 4 * kEdits) << "too many refused edits";
    const int before = document.undoStack()->count();
    const Json json = document.json();
    const bool accepted = randomEdit(document, rng, attempt);
    const int steps = document.undoStack()->count() - before;
    // An accepted edit is one step, or none when it left the JSON as it was; a refused one
    // changes nothing.
    ASSERT_EQ(steps, accepted && document.json() != json ? 1 : 0) << "attempt " << attempt;
  }
  const int edits = document.undoStack()->count();
  const std::string edited = canonical(document.json());
  ASSERT_NE(edited, opened);
  document.undoStack()->setIndex(0);
  EXPECT_EQ(canonical(document.json()), opened);
  EXPECT_FALSE(document.isDirty());
  document.undoStack()->setIndex(edits);
  EXPECT_EQ(canonical(document.json()), edited);
}

}  // namespace
}  // namespace floptle::editor::test
