// Tools > Sweep...: the dialog runs `floptle sweep` on this machine, off the UI thread. Its rows
// are the command's rows for the same arguments (the CSV, but for the step time), it plots the
// chosen output against the swept value, and Cancel stops it; so does closing the dialog or
// the editor's window, which also joins the worker (no thread of it left running).
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QThreadPool>

#include "floptle/editor/sweep_dialog.h"
#include "gui_fixture.h"

namespace floptle::editor::test {
namespace {

// A box resting on a 20 degree slope (it slides below friction tan 20 = 0.364, holds above)
// and a ball dropped from 10 m far from it; one material.
const char* kScene = R"({
  "format": "floptle.scene", "version": 1,
  "materials": [{"id": "stuff", "color": [1, 0, 0], "density": 1000, "friction": 0.5,
                 "restitution": 0.2, "bulk_modulus": 1e9, "yield_strength": 1e6}],
  "interactions": [],
  "settings": {"gravity": [0, -9.81, 0]},
  "nodes": [
    {"name": "slope", "shape": {"type": "plane", "normal": [0.34202014, 0.93969262, 0], "offset": 0},
     "material": "stuff", "collider": {"body": "static"}},
    {"name": "box", "transform": {"position": [0.1881, 0.5168, 0], "rotation": [0, 0, -0.17364818, 0.98480775]},
     "shape": {"type": "box", "half_extents": [0.5, 0.5, 0.5]},
     "material": "stuff", "collider": {"body": "dynamic"}},
    {"name": "ball", "transform": {"position": [30, 10, 0]}, "shape": {"type": "sphere", "radius": 0.5},
     "material": "stuff", "collider": {"body": "dynamic"}}
  ]})";

std::string slurp(const std::filesystem::path& path) {
  std::ifstream file(path, std::ios::binary);
  std::ostringstream text;
  text << file.rdbuf();
  return text.str();
}

// Every line without its last field (step_ms, the one column that is not deterministic).
std::string withoutTiming(const std::string& csv) {
  std::string out;
  std::istringstream in(csv);
  for (std::string line; std::getline(in, line);) out += line.substr(0, line.rfind(',')) + "\n";
  return out;
}

class SweepDialogTest : public ::testing::Test {
 protected:
  void SetUp() override {
    application();
    folder_ = std::filesystem::temp_directory_path() /
              ("floptle-sweep-dialog-" +
               std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    std::filesystem::remove_all(folder_);
    std::filesystem::create_directories(folder_);
    scene_ = folder_ / "slope.json";
    std::ofstream(scene_) << kScene;
    window_ = std::make_unique<MainWindow>();
    window_->resize(1000, 650);
    ASSERT_TRUE(window_->openFile(QString::fromStdString(scene_.string())));
    window_->show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(window_.get()));
    ASSERT_TRUE(window_->action("actionSweep"));
    window_->action("actionSweep")->trigger();
    dialog_ = window_->findChild<SweepDialog*>("sweepDialog");
    ASSERT_TRUE(dialog_);
    ASSERT_TRUE(dialog_->isVisible());
  }
  void TearDown() override {
    if (window_) window_->document().undoStack()->setClean();
    window_.reset();
    std::filesystem::remove_all(folder_);
  }
  void setUp(const QString& sets, int ticks, int jobs) {
    dialog_->findChild<QPlainTextEdit*>("sweepSets")->setPlainText(sets);
    dialog_->findChild<QSpinBox*>("sweepTicks")->setValue(ticks);
    dialog_->findChild<QSpinBox*>("sweepJobs")->setValue(jobs);
  }

  std::filesystem::path folder_, scene_;
  std::unique_ptr<MainWindow> window_;
  SweepDialog* dialog_ = nullptr;
};

TEST_F(SweepDialogTest, GivesTheRowsOfFloptleSweep) {
  const std::filesystem::path out = folder_ / "cli.csv";
  const std::string command = std::string(FLOPTLE_BINARY_DIR "/app/floptle") + " sweep '" +
                              scene_.string() +
                              "' --set /materials/0/friction=0.2:0.1:0.5 --ticks 90 --out '" +
                              out.string() + "' 2>/dev/null";
  ASSERT_EQ(std::system(command.c_str()), 0) << command;
  const std::string expected = slurp(out);
  ASSERT_FALSE(expected.empty());

  setUp("/materials/0/friction=0.2:0.1:0.5", 90, 2);
  QSignalSpy finished(dialog_, &SweepDialog::sweepFinished);
  ASSERT_TRUE(dialog_->start()) << dialog_->statusText().toStdString();
  // Four short runs may be over before this line (the worker's own state is a race here); the
  // dialog's is not: until it has taken the result, Run is off, Cancel on, and Run refuses.
  EXPECT_FALSE(dialog_->findChild<QPushButton*>("sweepRun")->isEnabled());
  EXPECT_TRUE(dialog_->findChild<QPushButton*>("sweepCancel")->isEnabled());
  EXPECT_FALSE(dialog_->start()) << "a second sweep started before the first one's result was in";
  ASSERT_TRUE(waitFor([&] { return finished.count() == 1; }, 120000));
  EXPECT_TRUE(dialog_->findChild<QPushButton*>("sweepRun")->isEnabled());
  EXPECT_TRUE(finished.at(0).at(0).toBool()) << dialog_->statusText().toStdString();
  EXPECT_EQ(dialog_->rowCount(), 4);
  EXPECT_EQ(withoutTiming(dialog_->csv().toStdString()), withoutTiming(expected));

  // The plot: one point per run, at the swept friction, of the chosen output (box.x first).
  const QList<QPointF> points = dialog_->plotPoints();
  ASSERT_EQ(points.size(), 4);
  for (int i = 0; i < 4; ++i) EXPECT_NEAR(points[i].x(), 0.2 + 0.1 * i, 1e-6);
}

TEST_F(SweepDialogTest, CancelStopsIt) {
  // 101 runs of 100000 ticks on one thread: hours, unless Cancel stops it.
  setUp("/materials/0/friction=0:0.01:1", 100000, 1);
  QSignalSpy finished(dialog_, &SweepDialog::sweepFinished);
  ASSERT_TRUE(dialog_->start()) << dialog_->statusText().toStdString();
  QTest::qWait(300);
  dialog_->cancel();
  ASSERT_TRUE(waitFor([&] { return finished.count() == 1; }, 10000)) << "cancel did not stop it";
  EXPECT_FALSE(finished.at(0).at(0).toBool());
  EXPECT_FALSE(dialog_->running());
  EXPECT_LT(dialog_->rowCount(), 101);
  EXPECT_TRUE(dialog_->statusText().startsWith("Cancelled")) << dialog_->statusText().toStdString();
}

TEST_F(SweepDialogTest, ClosingTheDialogCancelsAndJoinsTheWorker) {
  // Hours of runs on one thread, unless closing stops them.
  setUp("/materials/0/friction=0:0.01:1", 100000, 1);
  QSignalSpy finished(dialog_, &SweepDialog::sweepFinished);
  ASSERT_TRUE(dialog_->start()) << dialog_->statusText().toStdString();
  QTest::qWait(300);
  ASSERT_TRUE(dialog_->running());
  EXPECT_TRUE(dialog_->close());
  EXPECT_FALSE(dialog_->isVisible());
  EXPECT_FALSE(dialog_->running()) << "the worker was not joined when the dialog closed";
  // The sweep's task is the global pool's only one: nothing of it is left running.
  EXPECT_TRUE(QThreadPool::globalInstance()->waitForDone(5000));
  ASSERT_TRUE(waitFor([&] { return finished.count() == 1; }, 5000));
  EXPECT_FALSE(finished.at(0).at(0).toBool());
  EXPECT_LT(dialog_->rowCount(), 101);
  EXPECT_TRUE(dialog_->statusText().startsWith("Cancelled")) << dialog_->statusText().toStdString();
  // Opened again, it runs again.
  window_->action("actionSweep")->trigger();
  EXPECT_TRUE(dialog_->isVisible());
  setUp("/materials/0/friction=0.5", 10, 1);
  ASSERT_TRUE(dialog_->start()) << dialog_->statusText().toStdString();
  ASSERT_TRUE(waitFor([&] { return finished.count() == 2; }, 60000));
  EXPECT_TRUE(finished.at(1).at(0).toBool()) << dialog_->statusText().toStdString();
  EXPECT_EQ(dialog_->rowCount(), 1);
}

TEST_F(SweepDialogTest, ClosingTheEditorCancelsTheSweep) {
  setUp("/materials/0/friction=0:0.01:1", 100000, 1);
  ASSERT_TRUE(dialog_->start()) << dialog_->statusText().toStdString();
  QTest::qWait(300);
  ASSERT_TRUE(dialog_->running());
  EXPECT_TRUE(window_->close());  // the document is clean: nothing asks to save
  EXPECT_FALSE(dialog_->running()) << "the sweep outlived the editor's window";
  EXPECT_TRUE(QThreadPool::globalInstance()->waitForDone(5000));
  window_.reset();  // the dialog goes with the window, its finished signal undelivered
}

TEST_F(SweepDialogTest, ABadPointerIsRefusedByName) {
  setUp("/materials/7/friction=0,1", 10, 1);
  EXPECT_FALSE(dialog_->start());
  EXPECT_FALSE(dialog_->running());
  EXPECT_TRUE(dialog_->statusText().contains("/materials/7/friction"))
      << dialog_->statusText().toStdString();
}

}  // namespace
}  // namespace floptle::editor::test
