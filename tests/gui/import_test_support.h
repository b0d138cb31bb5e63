#pragma once
// Shared set-up of the import and wireframe window tests: a small window on a small scene
// written to a temp dir (the showcase's fractals are too slow on a software GL for these).
#include <QDir>
#include <QSignalSpy>
#include <QTemporaryDir>

#include <fstream>
#include <string>

#include "floptle/editor/import_mesh.h"
#include "floptle/editor/import_mesh_view.h"
#include "floptle/editor/log_panel.h"
#include "floptle/editor/wireframe_overlay.h"
#include "gui_fixture.h"

namespace floptle::editor::test {

inline void writeText(const QString& path, const std::string& text) {
  std::ofstream file(path.toStdString(), std::ios::binary | std::ios::trunc);
  file << text;
}

/// A window 640 x 420 on `sceneJson`, saved as scene.json in a temp dir.
class SmallWindowTest : public ::testing::Test {
 protected:
  void openScene(const std::string& sceneJson) {
    application();
    ASSERT_TRUE(dir_.isValid());
    scenePath_ = dir_.filePath("scene.json");
    writeText(scenePath_, sceneJson);
    window_ = std::make_unique<MainWindow>();
    window_->resize(640, 420);
    ASSERT_TRUE(window_->openFile(scenePath_)) << scenePath_.toStdString() << "\n"
                                               << window_->log()->toPlainText().toStdString();
    window_->show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(window_.get()));
    window_->viewport()->setAdaptiveResolution(false);
    QTest::qWait(50);
  }
  void TearDown() override {
    if (window_) window_->document().undoStack()->setClean();
    window_.reset();
  }
  MainWindow& window() { return *window_; }
  EditorDocument& document() { return window_->document(); }
  RaymarchView& view() { return *window_->viewport(); }
  QString path(const QString& name) const { return dir_.filePath(name); }

  QTemporaryDir dir_;
  QString scenePath_;
  std::unique_ptr<MainWindow> window_;
};

}  // namespace floptle::editor::test
