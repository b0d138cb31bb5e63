// Viewport benchmarks (run under xvfb-run; on this machine that is Mesa llvmpipe):
//   BM_ProcessStartToFirstViewportFrame: spawns this program with --first-frame-child, which
//     loads scenes/showcase.json, builds and compiles its field, opens a 1280x720 RaymarchView
//     and exits as soon as the first frame is drawn; the time is spawn -> child exit.
//   BM_ViewportFrame/...: frame time (GPU work included, glFinish) of a 1280x720 viewport on the
//     showcase, still (full resolution) and while the camera orbits (adaptive resolution).
//   BM_ViewportOrbitRate: frames a second while the camera orbits the showcase as a mouse drag
//     turns it (a camera step every 8 ms, whatever the frame rate): frames drawn over two
//     seconds of the event loop, at the adaptive resolution. The time is wall time a frame.
//   BM_LevelToFirstFrame/N: the generated level of N spheres (tests/large_scene) from its file
//     to the first frame of a 1280x720 viewport at the adaptive resolution, as the editor opens
//     it: read and build the scene, compose its parts, pack the scene data, compile the fixed
//     program, draw. The counters give the first frame's own time and resolution scale.
//   BM_PlayStart/N: Play pressed on that level until the session plays (the simulation built).
//   BM_LevelEditToFrame/N: that level open in the editor's main window (1280x720 viewport at
//     the adaptive resolution); one edit of a sphere's x position, as the inspector makes it,
//     until the viewport has drawn a frame of the edited scene (the edit checked, the typed
//     scene derived, the panels told, the parts composed and their data uploaded).
#include <benchmark/benchmark.h>

#include <QtCore/qtestsupport_core.h>  // QTest::qWaitFor (QtCore)
#include <QApplication>
#include <QEventLoop>
#include <QTimer>

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <memory>
#include <optional>
#include <string>

#include "floptle/core/field/field_program.h"
#include "floptle/core/render/scene_render.h"
#include "floptle/core/scene/scene.h"
#include "floptle/core/scene/scene_composition.h"
#include "floptle/core/scene/scene_io.h"
#include "floptle/editor/editor_document.h"
#include "floptle/editor/main_window.h"
#include "floptle/editor/play_session.h"
#include "floptle/editor/raymarch_view.h"
#include "scale_support.h"

extern char** environ;

using namespace floptle;

namespace {

constexpr int kWidth = 1280;
constexpr int kHeight = 720;

struct LoadedScene {
  field::FieldProgram program;
  render::MaterialColors materials;
  render::Camera camera;
};

std::optional<LoadedScene> loadShowcase() {
  auto document = scene::loadSceneFile(std::string(FLOPTLE_SOURCE_DIR) + "/scenes/showcase.json");
  if (!document) {
    std::fprintf(stderr, "showcase: %s\n", document.error().message().c_str());
    return std::nullopt;
  }
  auto built = scene::buildScene(*document);
  if (!built) return std::nullopt;
  auto program = field::FieldProgram::compile(scene::sceneField(*built));
  if (!program) return std::nullopt;
  return LoadedScene{*program, render::materialColors(*built), render::defaultCamera(*built, 0.0)};
}

void ensureApplication() {
  if (QApplication::instance()) return;
  static int argc = 1;
  static char arg0[] = "bench_editor_viewport";
  static char* argv[] = {arg0, nullptr};
  new QApplication(argc, argv);
}

std::unique_ptr<editor::RaymarchView> openView(const LoadedScene& loaded, bool adaptive) {
  auto view = std::make_unique<editor::RaymarchView>();
  view->setAdaptiveResolution(adaptive);
  view->setFixedSize(kWidth, kHeight);
  view->setMaterialColors(loaded.materials);
  view->setCamera(loaded.camera);
  view->setField(loaded.program);
  view->show();
  return view;
}

/// The showcase in a 1280x720 view that has drawn its first frame, `camera` its camera; null,
/// with the benchmark skipped, when it cannot be shown.
std::unique_ptr<editor::RaymarchView> showcaseView(benchmark::State& state, bool adaptive,
                                                   render::Camera& camera) {
  ensureApplication();
  static std::optional<LoadedScene> loaded = loadShowcase();
  if (!loaded) {
    state.SkipWithError("cannot load scenes/showcase.json");
    return nullptr;
  }
  auto view = openView(*loaded, adaptive);
  if (!QTest::qWaitFor([&] { return view->frameCount() > 0; }, 120000) || !view->hasShader()) {
    state.SkipWithError("no first frame");
    return nullptr;
  }
  camera = loaded->camera;
  return view;
}

/// `camera` turned by `angle` (rad) about the vertical through the point it looks at.
render::Camera orbited(render::Camera camera, float angle) {
  const Vec3 offset = camera.position - camera.lookAt;
  camera.position =
      camera.lookAt + Vec3(offset.x * std::cos(angle) - offset.z * std::sin(angle), offset.y,
                           offset.x * std::sin(angle) + offset.z * std::cos(angle));
  return camera;
}

/// The child: everything an editor start does for the viewport, up to its first frame.
int firstFrameChild() {
  ensureApplication();
  auto loaded = loadShowcase();
  if (!loaded) return 3;
  auto view = openView(*loaded, true);
  if (!QTest::qWaitFor([&] { return view->frameCount() > 0; }, 120000)) return 4;
  std::printf("first frame: %.1f ms at scale %.2f, shader ok %d\n", view->lastFrameTimeMs(),
              double(view->lastResolutionScale()), int(view->hasShader()));
  return view->hasShader() ? 0 : 5;
}

void BM_ProcessStartToFirstViewportFrame(benchmark::State& state) {
  char self[4096] = {};
  const ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
  if (n <= 0) {
    state.SkipWithError("cannot find /proc/self/exe");
    return;
  }
  char flag[] = "--first-frame-child";
  char* argv[] = {self, flag, nullptr};
  for (auto _ : state) {
    const auto start = std::chrono::steady_clock::now();
    pid_t pid = 0;
    if (posix_spawn(&pid, self, nullptr, nullptr, argv, environ) != 0) {
      state.SkipWithError("posix_spawn failed");
      return;
    }
    int status = 0;
    waitpid(pid, &status, 0);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
      state.SkipWithError("child failed (no first frame)");
      return;
    }
    state.SetIterationTime(seconds);
  }
}
BENCHMARK(BM_ProcessStartToFirstViewportFrame)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond)
    ->Iterations(3);

/// Frame time of the showcase at 1280x720; `moving` orbits the camera every frame.
void BM_ViewportFrame(benchmark::State& state, bool moving) {
  render::Camera camera;
  auto view = showcaseView(state, moving, camera);
  if (!view) return;
  double scaleSum = 0.0;
  for (auto _ : state) {
    const std::uint64_t frames = view->frameCount();
    if (moving) {
      camera = orbited(camera, 0.02f);  // (rad) a frame
      view->setCamera(camera);
    } else {
      view->update();
    }
    if (!QTest::qWaitFor([&] { return view->frameCount() > frames; }, 120000)) {
      state.SkipWithError("frame timed out");
      return;
    }
    state.SetIterationTime(view->lastFrameTimeMs() / 1000.0);
    scaleSum += view->lastResolutionScale();
  }
  state.counters["resolution_scale"] =
      scaleSum / double(std::max<std::int64_t>(state.iterations(), 1));
}
BENCHMARK_CAPTURE(BM_ViewportFrame, showcase_1280x720_still, false)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond)
    ->Iterations(3);
BENCHMARK_CAPTURE(BM_ViewportFrame, showcase_1280x720_moving, true)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond)
    ->Iterations(20);

void BM_ViewportOrbitRate(benchmark::State& state) {
  render::Camera camera;
  auto view = showcaseView(state, true, camera);
  if (!view) return;
  // The still view refines to full resolution first; the drag starts from there.
  if (!QTest::qWaitFor([&] { return view->lastResolutionScale() == 1.0f; }, 120000)) {
    state.SkipWithError("no refined frame");
    return;
  }
  QTimer drag;  // the mouse: one camera step every 8 ms (125 Hz), as pointer events come
  drag.setInterval(8);
  QObject::connect(&drag, &QTimer::timeout, [&] {
    camera = orbited(camera, 0.005f);  // (rad) a step: 0.6 rad a second
    view->setCamera(camera);
  });
  drag.start();
  QTest::qWait(500);  // the resolution settles on its moving scale
  constexpr int kWindowMs = 2000;
  double frames = 0.0, seconds = 0.0, scaleSum = 0.0;
  for (auto _ : state) {
    const std::uint64_t before = view->frameCount();
    const auto start = std::chrono::steady_clock::now();
    QEventLoop loop;
    QTimer::singleShot(kWindowMs, &loop, &QEventLoop::quit);
    loop.exec();
    const double drawn = double(view->frameCount() - before);
    const double elapsed =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    state.SetIterationTime(elapsed / std::max(drawn, 1.0));
    frames += drawn;
    seconds += elapsed;
    scaleSum += view->lastResolutionScale();
  }
  state.counters["fps"] = frames / std::max(seconds, 1e-9);
  state.counters["resolution_scale"] =
      scaleSum / double(std::max<std::int64_t>(state.iterations(), 1));
}
BENCHMARK(BM_ViewportOrbitRate)->UseManualTime()->Unit(benchmark::kMillisecond)->Iterations(3);

void BM_LevelToFirstFrame(benchmark::State& state) {
  ensureApplication();
  const auto path = bench::largeSceneFile(int(state.range(0)));
  double frameMs = 0.0, scale = 0.0;
  bench::resetPeakMemory();
  for (auto _ : state) {
    const auto start = std::chrono::steady_clock::now();
    // Read, checked and built once, as the editor's File > Open does (readSceneShowingProgress).
    auto loaded = scene::loadScene(path.string());
    auto composed = loaded ? scene::compileSceneUnion(loaded->scene, 0.0)
                           : Expected<scene::SceneUnion>(loaded.error());
    if (!composed) {
      state.SkipWithError(composed.error().message().c_str());
      return;
    }
    auto view = std::make_unique<editor::RaymarchView>();
    view->setAdaptiveResolution(true);
    view->setFixedSize(kWidth, kHeight);
    view->setMaterialColors(render::materialColors(loaded->scene));
    render::Camera camera;  // the level seen as tests/bench/gpu/run.sh times it
    camera.position = {-30.0f, 8.0f, 25.0f};
    camera.lookAt = {0.0f, 0.0f, 0.0f};
    view->setCamera(camera);
    view->setSceneField(std::move(composed->field));
    view->show();
    if (!QTest::qWaitFor([&] { return view->frameCount() > 0; }, 120000) || !view->hasShader()) {
      state.SkipWithError("no first frame");
      return;
    }
    state.SetIterationTime(
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    frameMs = view->lastFrameTimeMs();
    scale = view->lastResolutionScale();
  }
  state.counters["first_frame_ms"] = frameMs;
  state.counters["resolution_scale"] = scale;
  bench::reportPeakMemory(state);
}
BENCHMARK(BM_LevelToFirstFrame)
    ->Arg(10000)
    ->Arg(100000)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond)
    ->Iterations(2);

}  // namespace

/// Play's start on the generated level: from pressing Play (PlaySession::start on the open
/// document: the play copy of its JSON and typed scene, the simulation built on the worker)
/// to the session playing. The viewport's first frame of it is BM_LevelToFirstFrame's.
void BM_PlayStart(benchmark::State& state) {
  ensureApplication();
  const auto path = bench::largeSceneFile(int(state.range(0)));
  editor::EditorDocument document;
  if (auto opened = document.open(QString::fromStdString(path.string())); !opened) {
    state.SkipWithError(opened.error().message().c_str());
    return;
  }
  bench::resetPeakMemory();
  for (auto _ : state) {
    editor::PlaySession session;
    const auto start = std::chrono::steady_clock::now();
    if (auto started = session.start(document); !started) {
      state.SkipWithError(started.error().message().c_str());
      return;
    }
    if (!QTest::qWaitFor([&] { return !session.building(); }, 120000) ||
        session.state() != editor::PlayState::Playing) {
      state.SkipWithError("Play did not start");
      return;
    }
    state.SetIterationTime(
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    session.stop();
  }
  bench::reportPeakMemory(state);
}
BENCHMARK(BM_PlayStart)
    ->Arg(10000)
    ->Arg(100000)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond)
    ->Iterations(2);

void BM_LevelEditToFrame(benchmark::State& state) {
  ensureApplication();
  const auto path = bench::largeSceneFile(int(state.range(0)));
  editor::MainWindow window;
  window.resize(kWidth + 560, kHeight + 200);
  if (!window.openFile(QString::fromStdString(path.string()))) {
    state.SkipWithError("the level did not open");
    return;
  }
  window.show();
  editor::RaymarchView* view = window.viewport();
  if (!QTest::qWaitFor([&] { return view->frameCount() > 0; }, 120000)) {
    state.SkipWithError("no first frame");
    return;
  }
  const std::string pointer = window.document().nodePointer("sphere_17") + "/transform/position/0";
  double x = 0.0;
  for (auto _ : state) {
    x += 0.25;
    const std::uint64_t uploads = view->sceneDataUploads();
    const auto start = std::chrono::steady_clock::now();
    if (!window.document().setValue(pointer, x)) {
      state.SkipWithError("the edit was refused");
      return;
    }
    std::uint64_t frames = 0;
    const bool drawn = QTest::qWaitFor(
        [&] {
          if (view->sceneDataUploads() == uploads) return false;
          if (frames == 0) frames = view->frameCount();
          return view->frameCount() > frames;
        },
        60000);
    if (!drawn) {
      state.SkipWithError("the edit was not drawn");
      return;
    }
    state.SetIterationTime(
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
  window.document().undoStack()->setClean();  // nothing asks to save
}
BENCHMARK(BM_LevelEditToFrame)
    ->Arg(10000)
    ->Arg(100000)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond)
    ->Iterations(5);

int main(int argc, char** argv) {
  for (int i = 1; i < argc; ++i)
    if (std::strcmp(argv[i], "--first-frame-child") == 0) return firstFrameChild();
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
