// Autosave and crash recovery (per-session files, never overwritten by the next start, a
// full disk reported), and the recent-files list.
#include <csignal>
#include <memory>

#include <sys/resource.h>

#include <QFile>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>

#include "floptle/editor/recent_files.h"
#include "floptle/editor/recovery_file.h"
#include "gui_fixture.h"

namespace floptle::editor::test {
namespace {

TEST(Recovery, AutosaveWritesOnlyWhenDirtyAndRecoversDirtyWithTheOriginalPath) {
  application();
  QTemporaryDir dir;
  EditorDocument document;
  ASSERT_TRUE(document.open(showcasePath()).ok());
  auto recovery = std::make_unique<RecoveryFile>(document, dir.path());
  EXPECT_FALSE(recovery->autosaveNow());  // clean: nothing to protect
  EXPECT_FALSE(QFile::exists(recovery->filePath()));
  ASSERT_TRUE(document.setValue(document.nodePointer("planet") + "/shape/radius", 7.0).ok());
  EXPECT_TRUE(recovery->autosaveNow());
  EXPECT_TRUE(QFile::exists(recovery->filePath()));
  EXPECT_FALSE(recovery->pending()) << "a running session's own file is not offered";
  const QString crashed = recovery->filePath();
  recovery.reset();  // the session ends without discard(): a crash

  // "Next start": a fresh document offered the file.
  EditorDocument next;
  RecoveryFile found(next, dir.path());
  ASSERT_EQ(found.pendingFiles(), QStringList{crashed});
  EXPECT_EQ(RecoveryFile::originalPathOf(crashed), showcasePath());
  ASSERT_TRUE(found.recoverInto(next));
  EXPECT_EQ(next.json(), document.json());
  EXPECT_TRUE(next.isDirty());
  EXPECT_EQ(next.filePath(), showcasePath());
  // The recovered work now lives in this session's own file; the old one is gone.
  EXPECT_FALSE(found.pending());
  EXPECT_FALSE(QFile::exists(crashed));
  EditorDocument check;
  ASSERT_TRUE(check.open(found.filePath()).ok());
  EXPECT_EQ(check.json(), document.json());
  found.discard();
  EXPECT_FALSE(QFile::exists(found.filePath()));
}

TEST(Recovery, AStartNeverOverwritesWhatItOffersAndKeepsItUntilTheUserDecides) {
  application();
  QTemporaryDir dir;
  QString crashed;
  QByteArray crashedBytes;
  {
    EditorDocument untitled;  // never saved: autosave covers it too
    RecoveryFile first(untitled, dir.path());
    ASSERT_TRUE(untitled.addNode(field::NodeType::Sphere).ok());
    ASSERT_TRUE(first.autosaveNow());
    crashed = first.filePath();
    QFile file(crashed);
    ASSERT_TRUE(file.open(QIODevice::ReadOnly));
    crashedBytes = file.readAll();
  }
  EXPECT_TRUE(RecoveryFile::originalPathOf(crashed).isEmpty());
  // A second start edits and autosaves its own document before the user answers, twice over,
  // and a third editor runs beside it: the crashed session's file is untouched throughout.
  EditorDocument second;
  RecoveryFile secondRecovery(second, dir.path());
  ASSERT_TRUE(second.open(showcasePath()).ok());
  ASSERT_TRUE(second.setValue(second.nodePointer("planet") + "/shape/radius", 5.0).ok());
  ASSERT_TRUE(secondRecovery.autosaveNow());
  ASSERT_TRUE(secondRecovery.autosaveNow());
  EditorDocument third;
  RecoveryFile thirdRecovery(third, dir.path());
  EXPECT_NE(secondRecovery.filePath(), crashed);
  EXPECT_EQ(secondRecovery.pendingFiles(), QStringList{crashed});
  EXPECT_EQ(thirdRecovery.pendingFiles(), QStringList{crashed})
      << "a running session's file is offered to no one";
  QFile file(crashed);
  ASSERT_TRUE(file.open(QIODevice::ReadOnly));
  EXPECT_EQ(file.readAll(), crashedBytes);
  // "Keep for later" is doing nothing: it stays pending. Discard removes it.
  thirdRecovery.discardPending(crashed);
  EXPECT_FALSE(QFile::exists(crashed));
  EXPECT_TRUE(secondRecovery.pendingFiles().isEmpty());
}

TEST(Recovery, AnAutosaveOnAFullDiskIsReportedAndKeepsThePreviousRecoveryFile) {
  application();
  QTemporaryDir dir;
  EditorDocument document;
  ASSERT_TRUE(document.open(showcasePath()).ok());
  RecoveryFile recovery(document, dir.path());
  ASSERT_TRUE(document.setValue(document.nodePointer("planet") + "/shape/radius", 7.0).ok());
  ASSERT_TRUE(recovery.autosaveNow());
  QFile file(recovery.filePath());
  ASSERT_TRUE(file.open(QIODevice::ReadOnly));
  const QByteArray before = file.readAll();
  file.close();
  ASSERT_TRUE(document.setValue("/description", std::string(256 * 1024, 'x')).ok());
  QSignalSpy failed(&recovery, &RecoveryFile::autosaveFailed);
  rlimit saved{};
  ASSERT_EQ(::getrlimit(RLIMIT_FSIZE, &saved), 0);
  auto previousHandler = std::signal(SIGXFSZ, SIG_IGN);
  rlimit limited = saved;
  limited.rlim_cur = before.size() + 1024;
  ASSERT_EQ(::setrlimit(RLIMIT_FSIZE, &limited), 0);
  const bool written = recovery.autosaveNow();
  ::setrlimit(RLIMIT_FSIZE, &saved);
  std::signal(SIGXFSZ, previousHandler);
  EXPECT_FALSE(written);
  ASSERT_EQ(failed.count(), 1);
  const QString message = failed.front().front().toString();
  EXPECT_TRUE(message.contains(recovery.filePath())) << message.toStdString();
  EXPECT_TRUE(message.contains("File too large")) << message.toStdString();
  ASSERT_TRUE(file.open(QIODevice::ReadOnly));
  EXPECT_EQ(file.readAll(), before);
  EXPECT_TRUE(document.isDirty());
}

TEST(Recovery, TimerAutosavesOnItsOwn) {
  application();
  QTemporaryDir dir;
  EditorDocument document;
  ASSERT_TRUE(document.open(showcasePath()).ok());
  RecoveryFile recovery(document, dir.path());
  recovery.setIntervalMs(50);
  ASSERT_TRUE(document.setValue(document.nodePointer("planet") + "/shape/radius", 7.0).ok());
  EXPECT_TRUE(waitFor([&] { return QFile::exists(recovery.filePath()); }, 3000));
}

TEST(RecentFilesList, NewestFirstWithoutDuplicatesAndBounded) {
  application();
  RecentFiles recent;
  recent.clear();
  for (int i = 0; i < RecentFiles::kMaxEntries + 3; ++i)
    recent.add(QStringLiteral("/tmp/s%1.json").arg(i));
  recent.add("/tmp/s5.json");
  const QStringList list = recent.load();
  EXPECT_EQ(list.size(), RecentFiles::kMaxEntries);
  EXPECT_EQ(list.front(), "/tmp/s5.json");
  EXPECT_EQ(list.count("/tmp/s5.json"), 1);
  recent.clear();
}

TEST_F(WindowTest, DockLayoutPersistsThroughSettings) {
  window().close();  // saves the layout (the document is clean)
  QSettings settings;
  EXPECT_TRUE(settings.contains("window/state"));
  EXPECT_TRUE(settings.contains("window/geometry"));
}

}  // namespace
}  // namespace floptle::editor::test
