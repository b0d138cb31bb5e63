#include "floptle/editor/problems_panel.h"

#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMenu>
#include <QPushButton>
#include <QStyle>
#include <QTimer>
#include <QTreeWidget>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include "document/problem_fixes.h"
#include "document/shape_bake.h"
#include "floptle/core/scene/scene.h"
#include "floptle/editor/derived_scene.h"
#include "floptle/editor/editor_document.h"

namespace floptle::editor {
namespace {

enum Column { kProblemColumn, kNodeColumn, kFixColumn };

QString text(const std::string& s) {
  return QString::fromStdString(s);
}

}  // namespace

ProblemsPanel::ProblemsPanel(EditorDocument& document, QWidget* parent)
    : QWidget(parent), document_(document) {
  setObjectName("problemsPanel");
  list_ = new QTreeWidget;
  list_->setObjectName("problemsList");
  list_->setRootIsDecorated(false);
  list_->setHeaderLabels({tr("Problem"), tr("Node"), tr("Quick fix")});
  list_->header()->setSectionResizeMode(kProblemColumn, QHeaderView::Stretch);
  list_->header()->setStretchLastSection(false);
  list_->header()->setSectionResizeMode(kNodeColumn, QHeaderView::ResizeToContents);
  list_->header()->setSectionResizeMode(kFixColumn, QHeaderView::ResizeToContents);
  list_->setContextMenuPolicy(Qt::CustomContextMenu);
  fixButton_ = new QPushButton(tr("Fix"));
  fixButton_->setObjectName("problemsFix");
  status_ = new QLabel;
  status_->setObjectName("problemsStatus");
  auto* bar = new QHBoxLayout;
  bar->addWidget(status_, 1);
  bar->addWidget(fixButton_);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(list_, 1);
  layout->addLayout(bar);

  debounce_ = new QTimer(this);
  debounce_->setSingleShot(true);
  debounce_->setInterval(kDebounceMs);
  connect(debounce_, &QTimer::timeout, this, &ProblemsPanel::startCheck);
  connect(&document_, &EditorDocument::documentChanged, this, &ProblemsPanel::scheduleCheck);
  // The folder relative file names start from moves with the file.
  connect(&document_, &EditorDocument::filePathChanged, this, &ProblemsPanel::scheduleCheck);
  connect(&check_, &QFutureWatcherBase::finished, this, [this] {
    checkedGeneration_ = checkGeneration_;
    showProblems(check_.result());
    if (checkedGeneration_ != generation_) startCheck();  // changed while checking
  });
  // When a bake ends, its edit is made (or refused) against the document as it is then.
  connect(&bake_, &QFutureWatcherBase::finished, this, [this] {
    const Expected<void> baked = bake_.result();
    updateButtons();
    if (!baked) {
      fail(text(baked.error().message()));
      return;
    }
    if (auto fixed = applyProblemFix(document_, bakeProblem_, bakeFile_); !fixed) {
      fail(text(fixed.error().message()));
      return;
    }
    emit fixApplied();
  });
  connect(list_, &QTreeWidget::currentItemChanged, this, [this] {
    selectNodeOf(list_->indexOfTopLevelItem(list_->currentItem()));
    updateButtons();
  });
  connect(fixButton_, &QPushButton::clicked, this,
          [this] { applyFix(list_->indexOfTopLevelItem(list_->currentItem())); });
  connect(list_, &QWidget::customContextMenuRequested, this, [this](const QPoint& at) {
    const int row = list_->indexOfTopLevelItem(list_->itemAt(at));
    if (row < 0 || problems_[std::size_t(row)].action == runtime::FixAction::None) return;
    QMenu menu(this);
    QAction* fix = menu.addAction(tr("Fix: %1").arg(text(problems_[std::size_t(row)].fix)));
    if (menu.exec(list_->viewport()->mapToGlobal(at)) == fix) applyFix(row);
  });
  updateButtons();
  scheduleCheck();
}

ProblemsPanel::~ProblemsPanel() {
  cancelBake_ = true;
  bake_.waitForFinished();
  check_.waitForFinished();
}

bool ProblemsPanel::upToDate() const {
  return !debounce_->isActive() && !check_.isRunning() && !bake_.isRunning() &&
         checkedGeneration_ == generation_;
}

void ProblemsPanel::scheduleCheck() {
  ++generation_;
  debounce_->start();
}

void ProblemsPanel::startCheck() {
  if (check_.isRunning()) return;  // its finish starts the next one
  checkGeneration_ = generation_;
  // The worker gets copies: the document may change while it runs.
  check_.setFuture(
      QtConcurrent::run([scene = document_.derived().scene(), folder = document_.sceneFolder()] {
        return runtime::findSceneProblems(
            scene, folder.empty() ? std::filesystem::current_path() : folder);
      }));
}

void ProblemsPanel::showProblems(std::vector<runtime::SceneProblem> problems) {
  // Keep the current problem current across a refresh when it is still there.
  std::string currentPointer;
  runtime::ProblemKind currentKind{};
  const int current = list_->indexOfTopLevelItem(list_->currentItem());
  if (current >= 0) {
    currentPointer = problems_[std::size_t(current)].pointer;
    currentKind = problems_[std::size_t(current)].kind;
  }
  problems_ = std::move(problems);
  const QSignalBlocker quiet(list_);  // a refresh is no new selection
  list_->clear();
  const QIcon warning = style()->standardIcon(QStyle::SP_MessageBoxWarning);
  for (const runtime::SceneProblem& p : problems_) {
    auto* item =
        new QTreeWidgetItem({text(p.what), text(p.node),
                             p.action == runtime::FixAction::None ? QString() : text(p.fix)});
    item->setIcon(kProblemColumn, warning);
    item->setToolTip(
        kProblemColumn,
        QStringLiteral("%1 (%2)").arg(text(p.pointer), text(std::string(problemKindName(p.kind)))));
    item->setToolTip(kFixColumn, text(p.fix));
    list_->addTopLevelItem(item);
    if (!currentPointer.empty() && p.pointer == currentPointer && p.kind == currentKind)
      list_->setCurrentItem(item);
  }
  status_->setText(problems_.empty() ? tr("No problems")
                                     : tr("%n problem(s)", "", int(problems_.size())));
  updateButtons();
  emit problemsUpdated();
}

void ProblemsPanel::updateButtons() {
  const int row = list_->indexOfTopLevelItem(list_->currentItem());
  const bool fixable = row >= 0 && problems_[std::size_t(row)].action != runtime::FixAction::None;
  fixButton_->setEnabled(fixable && !bake_.isRunning());
  fixButton_->setToolTip(fixable ? text(problems_[std::size_t(row)].fix) : QString());
}

void ProblemsPanel::selectNodeOf(int row) {
  if (row < 0) return;
  const std::string& node = problems_[std::size_t(row)].node;
  if (!node.empty()) document_.setSelection({text(node)});
}

void ProblemsPanel::fail(const QString& message) {
  status_->setText(message);
  emit fixFailed(message);
}

bool ProblemsPanel::applyFix(int row) {
  if (row < 0 || std::size_t(row) >= problems_.size()) return false;
  const runtime::SceneProblem problem = problems_[std::size_t(row)];
  switch (problem.action) {
    case runtime::FixAction::None:
      return false;
    case runtime::FixAction::LocateFile: {
      const QString file = filePicker_ ? filePicker_(problem)
                                       : QFileDialog::getOpenFileName(
                                             this, tr("Locate %1").arg(text(problem.pointer)),
                                             text(document_.sceneFolder().string()));
      if (file.isEmpty()) return false;
      if (auto fixed = applyProblemFix(document_, problem, file.toStdString()); !fixed) {
        fail(text(fixed.error().message()));
        return false;
      }
      emit fixApplied();
      return true;
    }
    case runtime::FixAction::BakeCollider:
      startBake(problem);
      return bake_.isRunning();
    default:
      if (auto fixed = applyProblemFix(document_, problem); !fixed) {
        fail(text(fixed.error().message()));
        return false;
      }
      emit fixApplied();
      return true;
  }
}

void ProblemsPanel::startBake(const runtime::SceneProblem& problem) {
  if (bake_.isRunning()) return;
  const std::filesystem::path folder = document_.sceneFolder();
  if (folder.empty()) {
    fail(tr("Save the scene first: the bake is written beside it"));
    return;
  }
  const scene::Scene& sc = document_.derived().scene();
  const int index = document_.derived().findNode(problem.node);
  if (index < 0 || !sc.nodes[std::size_t(index)].shape) {
    fail(tr("'%1' has no shape to bake").arg(text(problem.node)));
    return;
  }
  const std::filesystem::path file = freeBakePath(folder, problem.node);
  status_->setText(
      tr("Baking '%1' into %2...").arg(text(problem.node), text(file.filename().string())));
  cancelBake_ = false;
  bakeProblem_ = problem;
  bakeFile_ = file;
  bake_.setFuture(
      QtConcurrent::run([shape = *sc.nodes[std::size_t(index)].shape, cell = problem.bakeCell, file,
                         this] { return bakeShapeFile(shape, cell, file, {}, &cancelBake_); }));
  updateButtons();
}

}  // namespace floptle::editor
