// floptle-editor: the GUI. Opens the scene named on the command line, or scenes/showcase.json
// found next to the working directory or above the executable (the source tree when run from
// a build folder). `--screenshot FILE` opens the scene, waits for the viewport's first
// full-resolution frame, saves a grab of the whole window and exits (used for README).
#include <QAction>
#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QScreen>
#include <QSurfaceFormat>
#include <QTimer>

#include <cstdio>

#include "floptle/build_version.h"
#include "floptle/editor/main_window.h"
#include "floptle/editor/raymarch_view.h"

namespace {

// scenes/showcase.json in the working directory, above the executable, or installed.
QString defaultScene() {
  const QString relative = QStringLiteral("scenes/showcase.json");
  if (QFileInfo::exists(relative)) return QFileInfo(relative).absoluteFilePath();
  for (QDir dir(QCoreApplication::applicationDirPath());;) {
    if (QFileInfo::exists(dir.filePath(relative))) return dir.filePath(relative);
    if (!dir.cdUp()) break;
  }
  const QString installed = QStringLiteral("/usr/share/floptle/") + relative;
  return QFileInfo::exists(installed) ? installed : QString();
}

// Waits for a refined viewport frame (or the timeout), then grabs the window and quits.
void scheduleScreenshot(floptle::editor::MainWindow& window, const QString& path, int timeoutMs) {
  auto* poll = new QTimer(&window);
  auto* clock = new QElapsedTimer;
  clock->start();
  QObject::connect(poll, &QTimer::timeout, &window, [&window, path, timeoutMs, poll, clock] {
    const floptle::editor::RaymarchView* view = window.viewport();
    const bool refined =
        view->frameCount() >= 2 && view->lastResolutionScale() >= 1.0f;  // coarse, then refined
    if (!refined && clock->elapsed() < timeoutMs) return;
    poll->stop();
    const QPixmap shot = window.screen()->grabWindow(window.winId());
    const bool saved = shot.save(path);
    std::fprintf(saved ? stdout : stderr, "%s %s (%dx%d, %llu frames, %.1f ms last frame)\n",
                 saved ? "wrote" : "could not write", qPrintable(path), shot.width(), shot.height(),
                 static_cast<unsigned long long>(view->frameCount()), view->lastFrameTimeMs());
    delete clock;
    window.document().undoStack()->setClean();  // nothing to ask about when closing
    QCoreApplication::exit(saved ? 0 : 1);
  });
  poll->start(100);
}

}  // namespace

int main(int argc, char** argv) {
  QApplication::setOrganizationName("Floptle");
  QApplication::setOrganizationDomain("floptle.org");
  QApplication::setApplicationName("Floptle Editor");
  QApplication app(argc, argv);
  QApplication::setApplicationVersion(
      QStringLiteral("%1 (commit %2)").arg(floptle::kVersion, floptle::kGitCommit));

  QCommandLineParser parser;
  parser.setApplicationDescription("Floptle Editor: a level editor around an SDF physics core");
  parser.addHelpOption();
  parser.addVersionOption();
  parser.addPositionalArgument("scene", "Scene file to open (default: scenes/showcase.json)");
  QCommandLineOption screenshot("screenshot",
                                "Open, wait for the first frames, save a screenshot "
                                "of the whole window to FILE and exit.",
                                "FILE");
  QCommandLineOption size("size", "Window size for --screenshot (default 1280x800).", "WxH",
                          "1280x800");
  QCommandLineOption timeout("timeout", "Longest wait for a refined frame (s, default 120).",
                             "SECONDS", "120");
  QCommandLineOption gravityArrows("gravity-arrows",
                                   "Start with View > Gravity Arrows on (g over a slice plane).");
  parser.addOptions({screenshot, size, timeout, gravityArrows});
  parser.process(app);

  floptle::editor::MainWindow window;
  const QStringList positional = parser.positionalArguments();
  const QString scene = positional.isEmpty() ? defaultScene() : positional.front();
  if (!scene.isEmpty() && !window.openFile(scene) && !positional.isEmpty()) {
    std::fprintf(stderr, "floptle-editor: could not open %s\n", qPrintable(scene));
  }

  if (parser.isSet(gravityArrows))
    if (QAction* arrows = window.action(QStringLiteral("actionGravityArrows")))
      arrows->setChecked(true);

  if (parser.isSet(screenshot)) {
    const QStringList wh = parser.value(size).split('x');
    if (wh.size() == 2) window.resize(wh[0].toInt(), wh[1].toInt());
    window.show();
    scheduleScreenshot(window, parser.value(screenshot), parser.value(timeout).toInt() * 1000);
    return app.exec();
  }
  window.show();
  QTimer::singleShot(0, &window, [&window] { window.offerRecovery(); });
  return app.exec();
}
