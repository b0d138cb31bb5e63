#pragma once
// ProblemsPanel: the Problems dock. Lists what runtime::findSceneProblems finds in the
// document (the same list `floptle validate --warnings` prints), each with its node and its
// quick fix, and keeps it live: a document change restarts a short timer, and when it fires the
// check runs on a worker thread over a copy of the typed scene (its spawn and volume tests
// sample fields); the list shows the newest finished check. Selecting a problem selects its
// node. Fix applies the selected problem's quick fix as one undo step (document/problem_fixes.h):
// "locate..." asks for the file; "add a bake" first bakes the shape on a worker thread
// (shape_bake.h) into a .vdb beside the saved scene.
#include <atomic>
#include <filesystem>
#include <functional>
#include <memory>
#include <vector>

#include <QFutureWatcher>
#include <QWidget>

#include "floptle/core/expected.h"
#include "floptle/runtime/scene_problems.h"

class QLabel;
class QPushButton;
class QTimer;
class QTreeWidget;

namespace floptle::editor {

class EditorDocument;

class ProblemsPanel : public QWidget {
  Q_OBJECT

 public:
  /// How long the list waits after a change before checking again (ms): a drag checks once.
  static constexpr int kDebounceMs = 150;

  /// Does not own `document`; the document must outlive the panel.
  explicit ProblemsPanel(EditorDocument& document, QWidget* parent = nullptr);
  /// Waits for a check or a bake under way (a bake is cancelled first).
  ~ProblemsPanel() override;

  QTreeWidget* list() const { return list_; }
  /// The problems listed, in list order (row i is problems()[i]).
  const std::vector<runtime::SceneProblem>& problems() const { return problems_; }
  /// False while a check is due or running, or a bake is under way: the list may be stale.
  bool upToDate() const;
  /// Applies the quick fix of row `row` (the Fix button on the current row). Returns false
  /// when it is refused, has no fix, or the file dialog is cancelled; a bake returns true when
  /// it starts, and fixApplied / fixFailed tell how it ended.
  bool applyFix(int row);
  /// Replaces the "locate..." file dialog (tests): returns the chosen file, empty to cancel.
  void setFilePicker(std::function<QString(const runtime::SceneProblem&)> picker) {
    filePicker_ = std::move(picker);
  }

 signals:
  /// After a finished check's problems are listed.
  void problemsUpdated();
  void fixApplied();
  void fixFailed(const QString& message);

 private:
  void scheduleCheck();
  void startCheck();
  void showProblems(std::vector<runtime::SceneProblem> problems);
  void updateButtons();
  void selectNodeOf(int row);
  void startBake(const runtime::SceneProblem& problem);
  void fail(const QString& message);

  EditorDocument& document_;
  QTreeWidget* list_ = nullptr;
  QPushButton* fixButton_ = nullptr;
  QLabel* status_ = nullptr;
  QTimer* debounce_ = nullptr;
  std::vector<runtime::SceneProblem> problems_;
  /// Counts document changes; a check shows its result only for the change it started at.
  std::uint64_t generation_ = 0;
  std::uint64_t checkedGeneration_ = ~std::uint64_t(0);
  QFutureWatcher<std::vector<runtime::SceneProblem>> check_;
  std::uint64_t checkGeneration_ = 0;
  QFutureWatcher<Expected<void>> bake_;
  /// The problem the bake under way fixes, and the file it writes.
  runtime::SceneProblem bakeProblem_;
  std::filesystem::path bakeFile_;
  std::atomic<bool> cancelBake_{false};
  std::function<QString(const runtime::SceneProblem&)> filePicker_;
};

}  // namespace floptle::editor
