// Inspector section for a node's "script" component: the Lua file (relative to the scene's
// folder, runtime/README.md#scripts) and an Open button that hands it to the desktop's editor
// for .lua files (QDesktopServices). Saving the file while playing reloads it on the next
// tick (play mode's script reload).
#include <QDesktopServices>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QUrl>

#include "floptle/editor/editor_document.h"
#include "inspector/inspector_sections.h"

namespace floptle::editor {

QWidget* makeScriptSection(InspectorContext& context, const std::string& nodePointer) {
  EditorDocument& document = context.document;
  const auto component = document.valueAt(nodePointer + "/script");
  auto* box = new QGroupBox(QObject::tr("Script"));
  box->setObjectName("scriptSection");
  box->setToolTip(
      QObject::tr("A Lua script run in play mode and by floptle simulate (on_start, on_tick, "
                  "on_contact)"));
  auto* form = new QFormLayout(box);
  const std::string file = component && component->is_object() && component->contains("file") &&
                                   (*component)["file"].is_string()
                               ? (*component)["file"].get<std::string>()
                               : std::string();
  const QString path =
      QString::fromStdString((document.sceneFolder() / std::filesystem::path(file)).string());
  auto* row = new QWidget;
  auto* layout = new QHBoxLayout(row);
  layout->setContentsMargins(0, 0, 0, 0);
  auto* name = new QLabel(QString::fromStdString(file));
  name->setObjectName("scriptFile");
  name->setToolTip(path);
  name->setTextInteractionFlags(Qt::TextSelectableByMouse);
  auto* open = new QPushButton(QObject::tr("Open"));
  open->setObjectName("scriptOpen");
  open->setToolTip(QObject::tr("Open the script in the desktop's editor"));
  open->setEnabled(!file.empty() && QFileInfo::exists(path));
  QObject::connect(open, &QPushButton::clicked, open, [&document, path] {
    if (!QDesktopServices::openUrl(QUrl::fromLocalFile(path)))
      emit document.message(QObject::tr("Cannot open %1: no application for it").arg(path));
  });
  layout->addWidget(name, 1);
  layout->addWidget(open);
  form->addRow(QObject::tr("File"), row);
  if (!file.empty() && !QFileInfo::exists(path)) {
    auto* missing = new QLabel(QObject::tr("File not found: %1").arg(path));
    missing->setObjectName("scriptMissing");
    missing->setWordWrap(true);
    missing->setStyleSheet("color: #c0392b;");
    form->addRow(QString(), missing);
  }
  return box;
}

}  // namespace floptle::editor
