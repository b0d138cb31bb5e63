#pragma once
// Shared set-up for the window tests (run under xvfb-run): one QApplication for the program,
// settings and recovery files kept away from the user's (QStandardPaths test mode), and a
// helper that waits for the viewport to draw.
#include <QApplication>
#include <QElapsedTimer>
#include <QStandardPaths>
#include <QTest>

#include <gtest/gtest.h>

#include "floptle/editor/main_window.h"
#include "floptle/editor/raymarch_view.h"

namespace floptle::editor::test {

inline QApplication& application() {
  static int argc = 1;
  static char name[] = "floptle_gui_tests";
  static char* argv[] = {name, nullptr};
  static QApplication* app = [] {
    QStandardPaths::setTestModeEnabled(true);
    QApplication::setOrganizationName("FloptleTests");
    QApplication::setApplicationName("Floptle Editor Tests");
    return new QApplication(argc, argv);
  }();
  return *app;
}

inline QString showcasePath() {
  return QStringLiteral(FLOPTLE_SOURCE_DIR "/scenes/showcase.json");
}

/// Processes events until `done` or `timeoutMs`; returns done().
template <class Done>
bool waitFor(Done done, int timeoutMs) {
  QElapsedTimer clock;
  clock.start();
  while (!done() && clock.elapsed() < timeoutMs) QTest::qWait(20);
  return done();
}

/// Waits (up to 2 s) for a child of `root` called `name`; null when none came.
template <class T>
T* waitForChild(QObject* root, const QString& name) {
  waitFor([&] { return root->findChild<T*>(name) != nullptr; }, 2000);
  return root->findChild<T*>(name);
}

/// A shown main window with the showcase open, at a small size (software GL is slow).
class WindowTest : public ::testing::Test {
 protected:
  void SetUp() override {
    application();
    window_ = std::make_unique<MainWindow>();
    window_->resize(1000, 650);
    ASSERT_TRUE(window_->openFile(showcasePath()))
        << "cannot open " << showcasePath().toStdString();
    window_->show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(window_.get()));
    QTest::qWait(50);  // queued panel rebuilds
  }
  void TearDown() override {
    if (window_) window_->document().undoStack()->setClean();  // close without asking
    window_.reset();
  }
  MainWindow& window() { return *window_; }
  EditorDocument& document() { return window_->document(); }

 private:
  std::unique_ptr<MainWindow> window_;
};

}  // namespace floptle::editor::test
