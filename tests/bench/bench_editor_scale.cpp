// The editor on large levels (issue 25): the generated level of tests/large_scene at 10,000 and
// 100,000 nodes, with the document and its panels but no window and no GL (Qt's offscreen
// platform, set here unless QT_QPA_PLATFORM says otherwise):
//   BM_EditorOpen        EditorDocument::open (read, checks, typed scene) and the scene tree
//                        filled from it (the lazy model's rebuild and the view's layout);
//   BM_EditorSelectNode  a node selected through the tree: the document's selection, the
//                        inspector rebuilt for it (its deferred rebuild run);
//   BM_EditorEditValue   one inspector-style edit (a sphere's x position) pushed as one undo
//                        step: validation of the edited document, the typed scene re-derived,
//                        the observers notified.
// peak_MiB is the process's peak resident memory during that benchmark (VmHWM, reset before).
#include <benchmark/benchmark.h>

#include <QApplication>
#include <QCoreApplication>
#include <QUndoStack>

#include <cstdlib>
#include <memory>
#include <string>

#include "floptle/editor/editor_document.h"
#include "floptle/editor/inspector_panel.h"
#include "floptle/editor/scene_tree_panel.h"
#include "scale_support.h"

namespace {

using namespace floptle;
using namespace floptle::editor;

void ensureApplication() {
  if (QApplication::instance()) return;
  static int argc = 1;
  static char arg0[] = "bench_editor_scale";
  static char* argv[] = {arg0, nullptr};
  new QApplication(argc, argv);
}

/// The document open on the level of `spheres` nodes, with a tree and an inspector on it.
struct OpenEditor {
  EditorDocument document;
  SceneTreePanel tree{document};
  InspectorPanel inspector{document};
  bool open(const std::filesystem::path& path) {
    if (!document.open(QString::fromStdString(path.string()))) return false;
    QCoreApplication::processEvents();  // the tree's and the inspector's deferred rebuilds
    return true;
  }
};

void BM_EditorOpen(benchmark::State& state) {
  ensureApplication();
  const int spheres = static_cast<int>(state.range(0));
  const auto path = bench::largeSceneFile(spheres);
  OpenEditor editor;
  editor.tree.resize(300, 800);
  bench::resetPeakMemory();
  for (auto _ : state) {
    if (!editor.open(path)) {
      state.SkipWithError("the level did not open");
      return;
    }
    if (editor.tree.nodeCount() != spheres + 1) {
      state.SkipWithError("the tree does not show every node");
      return;
    }
    state.PauseTiming();
    editor.document.newDocument();  // the next open starts from an empty document again
    QCoreApplication::processEvents();
    state.ResumeTiming();
  }
  bench::reportPeakMemory(state);
}
BENCHMARK(BM_EditorOpen)->Arg(10000)->Arg(100000)->Unit(benchmark::kMillisecond);

void BM_EditorSelectNode(benchmark::State& state) {
  ensureApplication();
  const int spheres = static_cast<int>(state.range(0));
  OpenEditor editor;
  if (!editor.open(bench::largeSceneFile(spheres))) {
    state.SkipWithError("the level did not open");
    return;
  }
  int i = 0;
  for (auto _ : state) {
    const QString name = QStringLiteral("sphere_%1").arg((i++ * 7919) % spheres);
    editor.tree.selectNames({name});
    QCoreApplication::processEvents();  // the inspector's rebuild
    if (editor.document.selection() != QStringList{name}) {
      state.SkipWithError("the selection did not reach the document");
      return;
    }
  }
}
BENCHMARK(BM_EditorSelectNode)->Arg(10000)->Arg(100000)->Unit(benchmark::kMillisecond);

void BM_EditorEditValue(benchmark::State& state) {
  ensureApplication();
  const int spheres = static_cast<int>(state.range(0));
  OpenEditor editor;
  if (!editor.open(bench::largeSceneFile(spheres))) {
    state.SkipWithError("the level did not open");
    return;
  }
  editor.document.setSelection({"sphere_17"});
  QCoreApplication::processEvents();
  const std::string pointer = editor.document.nodePointer("sphere_17") + "/transform/position/0";
  double x = 0.0;
  for (auto _ : state) {
    x += 0.25;
    if (!editor.document.setValue(pointer, x)) {
      state.SkipWithError("the edit was refused");
      return;
    }
    QCoreApplication::processEvents();
  }
  state.counters["undo_steps"] = double(editor.document.undoStack()->count());
}
BENCHMARK(BM_EditorEditValue)->Arg(10000)->Arg(100000)->Unit(benchmark::kMillisecond);

}  // namespace

int main(int argc, char** argv) {
  // Only widgets without GL: the offscreen platform needs no X server.
  if (!std::getenv("QT_QPA_PLATFORM")) setenv("QT_QPA_PLATFORM", "offscreen", 1);
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
