// MainWindow <-> viewport: the document's field to the view, picking (fields and imported
// meshes), the gizmo, frame selected and the frame-time readout.
#include <QAction>
#include <QLabel>
#include <QStatusBar>
#include <QTimer>

#include <algorithm>
#include <cmath>

#include "floptle/core/field/field_program.h"
#include "floptle/core/scene/scene_composition.h"
#include "floptle/editor/derived_scene.h"
#include "floptle/editor/gravity_tools.h"
#include "floptle/editor/import_mesh_view.h"
#include "floptle/editor/log_panel.h"
#include "floptle/editor/main_window.h"
#include "floptle/editor/raymarch_view.h"
#include "import/mesh_tools.h"

namespace floptle::editor {
namespace {

Json transformJson(const Transform& t) {
  return Json{{"position", {t.position.x, t.position.y, t.position.z}},
              {"rotation", {t.rotation.x, t.rotation.y, t.rotation.z, t.rotation.w}},
              {"scale", t.scale}};
}

bool finiteBox(const Aabb& box) {
  return !box.empty() && isFinite(box.min) && isFinite(box.max) &&
         glm::all(glm::lessThan(glm::abs(box.min), Vec3(1e5f))) &&
         glm::all(glm::lessThan(glm::abs(box.max), Vec3(1e5f)));
}

}  // namespace

void MainWindow::connectViewport() {
  connect(&document_, &EditorDocument::structureChanged, this, [this] { syncViewport(true); });
  connect(&document_, &EditorDocument::parametersChanged, this, [this] { syncViewport(false); });
  connect(&document_, &EditorDocument::selectionChanged, this, [this] { syncSelectionOverlay(); });
  connect(viewport_, &RaymarchView::clicked, this,
          [this](QPointF, floptle::Ray ray, Qt::KeyboardModifiers modifiers) {
            selectByRay(ray, modifiers.testFlag(Qt::ShiftModifier));
          });
  connect(viewport_, &RaymarchView::frameTimeChanged, this, [this](double ms) {
    frameTimeLabel_->setText(tr("frame %1 ms (%2 fps) at %3%")
                                 .arg(ms, 0, 'f', 1)
                                 .arg(ms > 0 ? 1000.0 / ms : 0.0, 0, 'f', 0)
                                 .arg(std::lround(viewport_->lastResolutionScale() * 100)));
  });
  connect(viewport_, &RaymarchView::shaderError, log_,
          [this](const QString& text) { log_->appendMessage(tr("Shader error: %1").arg(text)); });
  connect(viewport_, &RaymarchView::gizmoDragStarted, this, [this] { onGizmoStarted(); });
  connect(viewport_, &RaymarchView::gizmoDragged, this,
          [this](const GizmoDelta& delta) { onGizmoDragged(delta); });
  connect(viewport_, &RaymarchView::gizmoDragFinished, this, [this](const GizmoDelta& delta) {
    onGizmoDragged(delta);
    document_.closeMergeWindow();  // the drag is one undo step
    gizmoStart_.clear();
  });
  connect(viewport_, &RaymarchView::gizmoDragCancelled, this, [this] { onGizmoCancelled(); });
  installMeshTools(*this);
}

void MainWindow::setTimeRunning(bool running) {
  if (!timeTimer_) {
    timeTimer_ = new QTimer(this);
    timeTimer_->setInterval(33);  // ~30 Hz; the viewport drops resolution while it moves
    connect(timeTimer_, &QTimer::timeout, this, [this] { advanceFieldTime(); });
  }
  if (running == timeTimer_->isActive()) return;
  if (running) {
    timeClock_.start();
    timeTimer_->start();
  } else {
    timeTimer_->stop();
  }
  if (QAction* toggle = action(QStringLiteral("actionRunTime"))) toggle->setChecked(running);
  statusBar()->showMessage(running ? tr("Time runs: animated fields move")
                                   : tr("Time stopped at %1 s").arg(fieldTime_, 0, 'f', 2),
                           3000);
}

bool MainWindow::timeRunning() const {
  return timeTimer_ && timeTimer_->isActive();
}

void MainWindow::advanceFieldTime() {
  fieldTime_ += static_cast<double>(timeClock_.restart()) / 1000.0;
  viewport_->setTime(fieldTime_);
}

void MainWindow::syncViewport(bool structural) {
  const scene::Scene& scene = document_.derived().scene();
  picker_.setScene(document_.derived());  // compiled at the next pick
  const bool anyShape =
      std::any_of(scene.nodes.begin(), scene.nodes.end(),
                  [](const scene::SceneNode& node) { return node.shape.has_value(); });
  if (!anyShape) {  // nothing to compile: sky, and the baked fields' brick maps
    viewport_->setSceneField(scene::emptySceneField(fieldTime_));
    syncSelectionOverlay();
    return;
  }
  Expected<scene::SceneUnion> composed = scene::compileSceneUnion(scene, fieldTime_);
  if (!composed) {
    log_->appendMessage(tr("Viewport: %1").arg(QString::fromStdString(composed.error().message())));
    return;
  }
  if (structural) {
    render::MaterialColors colors{Vec3(0.7f)};  // index 0: no material
    for (const scene::Material& material : scene.materials) colors.push_back(material.color);
    viewport_->setMaterialColors(colors);
  }
  viewport_->setSceneField(std::move(composed->field));
  syncSelectionOverlay();
}

void MainWindow::syncSelectionOverlay() {
  std::vector<Aabb> boxes;
  Vec3 pivot(0.0f);
  int count = 0;
  const scene::Scene& scene = document_.derived().scene();
  for (const QString& name : document_.selection()) {
    const Aabb box = picker_.nodeBounds(name.toStdString(), viewport_->time());
    if (finiteBox(box)) boxes.push_back(box);
    const int index = document_.derived().findNode(name.toStdString());
    if (index >= 0) {
      pivot += scene.nodes[std::size_t(index)].world.position;
      ++count;
    }
  }
  viewport_->setSelectionBounds(boxes);
  if (count == 0 && gravityTools_) {
    // A gravity region or source selected instead of nodes: the gizmo moves it.
    if (const std::optional<GravityItem> item = gravityTools_->selectedItem()) {
      viewport_->setGizmo(gizmoTool_ == GizmoMode::Translate ? gizmoTool_ : GizmoMode::Translate,
                          item->centre);
      return;
    }
  }
  viewport_->setGizmo(count > 0 ? gizmoTool_ : GizmoMode::None,
                      count > 0 ? pivot / float(count) : Vec3(0.0f));
}

void MainWindow::setGizmoTool(GizmoMode mode) {
  if (mode == GizmoMode::None) return;
  gizmoTool_ = mode;
  const char* names[] = {"actionToolMove", "actionToolRotate", "actionToolScale"};
  const int index = mode == GizmoMode::Translate ? 0 : mode == GizmoMode::Rotate ? 1 : 2;
  if (QAction* tool = action(QString::fromLatin1(names[index]))) tool->setChecked(true);
  syncSelectionOverlay();
}

QString MainWindow::selectByRay(const Ray& ray, bool extend) {
  // A gravity region's or source's centre under the click wins over what is behind it.
  if (gravityTools_ && !extend) {
    if (const std::optional<std::string> item = gravityTools_->pick(ray)) {
      gravityTools_->select(*item);
      return {};
    }
    gravityTools_->select({});
  }
  // Fields (the field graph) and imported meshes (their triangles): the nearer wins.
  std::optional<PickHit> hit = picker_.pick(ray, viewport_->time());
  if (const auto* meshes = findChild<ImportedMeshView*>(QStringLiteral("importedMeshView"))) {
    const std::optional<PickHit> mesh = meshes->pick(ray);
    if (mesh && (!hit || mesh->distance < hit->distance)) hit = mesh;
  }
  const QString name = hit ? QString::fromStdString(hit->node) : QString();
  if (!extend) {
    document_.setSelection(name.isEmpty() ? QStringList() : QStringList{name});
  } else if (!name.isEmpty()) {
    QStringList selection = document_.selection();
    if (selection.contains(name)) {
      selection.removeAll(name);
    } else {
      selection << name;
    }
    document_.setSelection(selection);
  }
  return name;
}

void MainWindow::frameSelected() {
  Aabb bounds;
  QStringList names = document_.selection();
  if (names.isEmpty()) names = document_.nodeNames();
  for (const QString& name : names) {
    const Aabb box = picker_.nodeBounds(name.toStdString(), viewport_->time());
    if (finiteBox(box)) bounds.expand(box);
  }
  if (bounds.empty()) return;
  viewport_->frameBounds(bounds);
}

void MainWindow::onGizmoStarted() {
  gizmoStart_.clear();
  const QStringList selection = document_.selection();
  for (const QString& name : selection) {
    // A node whose ancestor is also dragged moves with it already.
    bool carried = false;
    for (QString up = document_.parentOf(name); !up.isEmpty(); up = document_.parentOf(up))
      carried = carried || selection.contains(up);
    if (carried) continue;
    gizmoStart_.emplace_back(
        name,
        document_.valueAt(document_.nodePointer(name) + "/transform").value_or(Json::object()));
  }
}

void MainWindow::onGizmoDragged(const GizmoDelta& delta) {
  const scene::Scene& scene = document_.derived().scene();
  std::vector<std::pair<std::string, Json>> values;
  for (const auto& [name, startJson] : gizmoStart_) {
    const int index = document_.derived().findNode(name.toStdString());
    if (index < 0) continue;
    const scene::SceneNode& node = scene.nodes[std::size_t(index)];
    // The start transforms: the node's world is parentWorld * startLocal.
    Transform parentWorld;
    if (node.parent >= 0) parentWorld = scene.nodes[std::size_t(node.parent)].world;
    Transform startLocal;
    if (startJson.contains("position"))
      for (int i = 0; i < 3; ++i) startLocal.position[i] = startJson["position"][i].get<float>();
    if (startJson.contains("rotation")) {
      const Json& q = startJson["rotation"];
      startLocal.rotation = glm::normalize(
          Quat(q[3].get<float>(), q[0].get<float>(), q[1].get<float>(), q[2].get<float>()));
    }
    if (startJson.contains("scale")) startLocal.scale = startJson["scale"].get<float>();
    const Transform startWorld = parentWorld.compose(startLocal);
    // The delta in world space (see GizmoDelta), then back into the parent's frame.
    Transform world;
    world.position = delta.pivot +
                     delta.rotation * (startWorld.position - delta.pivot) * delta.scale +
                     delta.translation;
    world.rotation = glm::normalize(delta.rotation * startWorld.rotation);
    world.scale = startWorld.scale * delta.scale;
    const Transform local = parentWorld.inverse().compose(world);
    values.emplace_back(document_.nodePointer(name) + "/transform", transformJson(local));
  }
  if (!values.empty()) document_.setValues(values, tr("Move with gizmo"), kMergeGizmoDrag);
}

void MainWindow::onGizmoCancelled() {
  std::vector<std::pair<std::string, Json>> values;
  for (const auto& [name, startJson] : gizmoStart_)
    values.emplace_back(document_.nodePointer(name) + "/transform", startJson);
  if (!values.empty()) document_.setValues(values, tr("Move with gizmo"), kMergeGizmoDrag);
  document_.closeMergeWindow();
  gizmoStart_.clear();
}

}  // namespace floptle::editor
