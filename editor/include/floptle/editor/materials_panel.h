#pragma once
// MaterialsPanel: the material table. A list of ids with add and delete, and a form for the
// current material (colour, density (kg/m^3), friction (-), restitution (-), bulk modulus (Pa),
// yield strength (Pa)). Deleting a material in use is refused by the document; the panel
// shows its message, which names the users.
#include <functional>
#include <vector>

#include <QWidget>

class QListWidget;
class QFormLayout;
class QPushButton;
class QLabel;

namespace floptle::editor {

class EditorDocument;

class MaterialsPanel : public QWidget {
  Q_OBJECT

 public:
  /// Does not own `document`; the document must outlive the panel.
  explicit MaterialsPanel(EditorDocument& document, QWidget* parent = nullptr);

  QListWidget* list() const { return list_; }
  /// Deletes the current material (what the Delete button does); false when refused.
  bool deleteCurrent();
  /// The text of the last refusal (shown under the list), empty when none.
  QString lastRefusal() const;

 signals:
  void refused(const QString& message);

 private:
  void rebuildList();
  void rebuildForm();
  void refreshValues();

  EditorDocument& document_;
  QListWidget* list_ = nullptr;
  QWidget* form_ = nullptr;
  QLabel* refusal_ = nullptr;
  std::vector<std::function<void()>> refreshers_;
};

}  // namespace floptle::editor
