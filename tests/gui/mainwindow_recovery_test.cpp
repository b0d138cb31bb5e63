// Autosave and crash recovery, and the recent-files list.
#include <QSettings>
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
  RecoveryFile recovery(document, dir.path());
  EXPECT_FALSE(recovery.autosaveNow());  // clean: nothing to protect
  EXPECT_FALSE(recovery.pending());
  ASSERT_TRUE(document.setValue(document.nodePointer("planet") + "/shape/radius", 7.0).ok());
  EXPECT_TRUE(recovery.autosaveNow());
  EXPECT_TRUE(recovery.pending());

  // "Next start": a fresh document offered the file.
  EditorDocument next;
  RecoveryFile found(next, dir.path());
  ASSERT_TRUE(found.pending());
  ASSERT_TRUE(found.recoverInto(next));
  EXPECT_EQ(next.json(), document.json());
  EXPECT_TRUE(next.isDirty());
  EXPECT_EQ(next.filePath(), showcasePath());
  found.discard();
  EXPECT_FALSE(found.pending());
}

TEST(Recovery, TimerAutosavesOnItsOwn) {
  application();
  QTemporaryDir dir;
  EditorDocument document;
  ASSERT_TRUE(document.open(showcasePath()).ok());
  RecoveryFile recovery(document, dir.path());
  recovery.setIntervalMs(50);
  ASSERT_TRUE(document.setValue(document.nodePointer("planet") + "/shape/radius", 7.0).ok());
  EXPECT_TRUE(waitFor([&] { return recovery.pending(); }, 3000));
}

TEST(RecentFilesList, NewestFirstWithoutDuplicatesAndBounded) {
  application();
  RecentFiles recent;
  recent.clear();
  for (int i = 0; i < RecentFiles::kMaxEntries + 3; ++i) recent.add(QStringLiteral("/tmp/s%1.json").arg(i));
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
