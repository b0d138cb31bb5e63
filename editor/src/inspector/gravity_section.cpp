// The scene's Gravity section (settings.gravity): the form it is in, G, and a checkable box per
// tier (global, regions, sources, sdf surface, density): checking writes the tier's default,
// unchecking removes its key. Regions and sources are listed, each with its values, a Select
// button (the viewport's gizmo then moves it) and a Remove button; new ones are placed at the
// viewport's focus. Every edit is one undo step; a refused value names its key under the
// fields and in the log, and the document keeps what it had.
#include <algorithm>
#include <cctype>

#include <QComboBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

#include "document/gravity_edit.h"
#include "floptle/editor/editor_document.h"
#include "inspector/gravity_rows.h"
#include "inspector/inspector_sections.h"
#include "inspector/number_field.h"
#include "inspector/table_rows.h"

namespace floptle::editor {
namespace {

/// The value under the gravity object at `path`, or nullopt.
std::optional<Json> gravityValue(const EditorDocument& document, const GravityPath& path) {
  Json at = gravityObject(document);
  for (const std::string& key : path) {
    if (at.is_object() && at.contains(key)) {
      at = Json(at[key]);
    } else if (at.is_array() && !key.empty() && std::all_of(key.begin(), key.end(), ::isdigit) &&
               std::stoul(key) < at.size()) {
      at = Json(at[std::stoul(key)]);
    } else {
      return std::nullopt;
    }
  }
  return at;
}

/// A label that shows the last refusal of the section's fields (hidden while there is none).
QLabel* makeRefusalLabel() {
  auto* refusal = new QLabel;
  refusal->setObjectName("gravityRefusal");
  refusal->setWordWrap(true);
  refusal->setStyleSheet("color: #c0392b;");
  refusal->hide();
  return refusal;
}

/// Binds the keys of the object at `path` under the gravity; refusals go to `refusal`.
JsonBinding gravityBinding(EditorDocument& document, GravityPath path, QLabel* refusal) {
  return {
      [&document, path](const std::string& key) {
        GravityPath at = path;
        at.push_back(key);
        return gravityValue(document, at);
      },
      [&document, path, refusal](const std::string& key, const Json& value,
                                 int mergeId) -> Expected<void> {
        GravityPath at = path;
        at.push_back(key);
        Expected<void> written = setGravityValue(document, at, value, mergeId);
        if (!written) {
          refusal->setText(
              QObject::tr("Refused: %1").arg(QString::fromStdString(written.error().message())));
          refusal->show();
        } else {
          refusal->hide();
        }
        return written;
      }};
}

/// The component table of a source's "type" / a region's "shape".
std::string itemTable(std::string_view list, const std::string& kind) {
  if (list == "regions") return kind == "sphere" ? "gravity_sphere_region" : "gravity_box_region";
  return "gravity_" + kind;
}

/// A checkable box for tier `tier`: checked when its key is there.
QGroupBox* makeTierBox(EditorDocument& document, const QString& title, const char* tier,
                       const QString& help) {
  auto* box = new QGroupBox(title);
  box->setObjectName(QStringLiteral("gravityTier:%1").arg(tier));
  box->setToolTip(help);
  box->setCheckable(true);
  box->setChecked(gravityValue(document, {tier}).has_value());
  const std::string key = tier;
  QObject::connect(box, &QGroupBox::clicked, box, [&document, key, box](bool on) {
    const Expected<void> written = on ? setGravityValue(document, {key}, defaultGravityTier(key))
                                      : removeGravityValue(document, {key});
    if (!written) box->setChecked(!on);  // refused (the log says why): show what the scene has
  });
  return box;
}

void addItemList(InspectorContext& context, QVBoxLayout* into, const char* list, QLabel* refusal) {
  EditorDocument& document = context.document;
  const std::optional<Json> items = gravityValue(document, {list});
  const bool regions = std::string_view(list) == "regions";
  const std::string selected =
      context.gravity.selected ? context.gravity.selected() : std::string();
  if (items && items->is_array()) {
    for (std::size_t i = 0; i < items->size(); ++i) {
      const Json& item = (*items)[i];
      const std::string kind = item.value(regions ? "shape" : "type", std::string("?"));
      const std::string pointer = gravityPointer({list, std::to_string(i)});
      auto* box = new QGroupBox(QObject::tr("%1 %2: %3")
                                    .arg(regions ? QObject::tr("Region") : QObject::tr("Source"))
                                    .arg(i)
                                    .arg(QString::fromStdString(kind)));
      box->setObjectName(QString::fromStdString("gravityItem:" + pointer));
      if (pointer == selected) box->setStyleSheet("QGroupBox { font-weight: bold; }");
      auto* form = new QFormLayout(box);
      addTableRows(
          context, form, gravityRows(itemTable(list, kind)),
          gravityBinding(document, {list, std::to_string(i)}, refusal),
          QString::fromStdString("gravity:" + std::string(list) + "/" + std::to_string(i) + "."),
          {"type", "shape"});
      auto* buttons = new QWidget;
      auto* row = new QHBoxLayout(buttons);
      row->setContentsMargins(0, 0, 0, 0);
      if (context.gravity.select) {
        auto* select = new QPushButton(QObject::tr("Select"));
        select->setObjectName(QString::fromStdString("gravitySelect:" + pointer));
        select->setToolTip(QObject::tr("Select it in the viewport to move it with the gizmo"));
        const auto selectItem = context.gravity.select;
        QObject::connect(select, &QPushButton::clicked, select,
                         [selectItem, pointer] { selectItem(pointer); });
        row->addWidget(select);
      }
      auto* remove = new QPushButton(QObject::tr("Remove"));
      remove->setObjectName(QString::fromStdString("gravityRemove:" + pointer));
      QObject::connect(remove, &QPushButton::clicked, remove,
                       [&document, pointer] { removeGravityItem(document, pointer); });
      row->addWidget(remove);
      form->addRow(buttons);
      into->addWidget(box);
    }
  }
  // Add: a kind, placed at the viewport's focus.
  auto* adder = new QWidget;
  auto* row = new QHBoxLayout(adder);
  row->setContentsMargins(0, 0, 0, 0);
  auto* kinds = new QComboBox;
  kinds->setObjectName(QStringLiteral("gravityAddKind:%1").arg(list));
  if (regions) {
    kinds->addItems({"box", "sphere"});
  } else {
    kinds->addItems({"planet", "point", "sphere", "line"});
  }
  auto* add = new QPushButton(regions ? QObject::tr("Add region") : QObject::tr("Add source"));
  add->setObjectName(QStringLiteral("gravityAdd:%1").arg(list));
  add->setToolTip(QObject::tr("Placed at the viewport's focus"));
  const auto placement = context.gravity.placement;
  const auto selectItem = context.gravity.select;
  const std::string listName = list;
  QObject::connect(add, &QPushButton::clicked, add,
                   [&document, kinds, placement, selectItem, listName, regions] {
                     const Vec3 at = placement ? placement() : Vec3(0.0f);
                     const std::string kind = kinds->currentText().toStdString();
                     const Json item =
                         regions ? defaultGravityRegion(kind, at) : defaultGravitySource(kind, at);
                     Expected<std::string> added = addGravityItem(document, listName, item);
                     if (added && selectItem) selectItem(*added);
                   });
  row->addWidget(kinds);
  row->addWidget(add);
  into->addWidget(adder);
}

void addSdfRows(InspectorContext& context, QGroupBox* box, QLabel* refusal) {
  EditorDocument& document = context.document;
  auto* form = new QFormLayout(box);
  if (!gravityValue(document, {"sdf"})) return;  // unchecked: nothing to edit
  addTableRows(context, form, gravityRows("gravity_sdf"),
               gravityBinding(document, {"sdf"}, refusal), "gravity:sdf.");
  // Smoothing: a widened tetrahedron difference (epsilon) or the blurred baked field.
  const std::optional<Json> smoothing = gravityValue(document, {"sdf", "smoothing"});
  const bool baked = smoothing && smoothing->is_object() && smoothing->contains("baked");
  auto* mode = new QComboBox;
  mode->setObjectName("gravity:sdf.smoothing");
  mode->addItems({"epsilon", "baked"});
  mode->setCurrentIndex(baked ? 1 : 0);
  mode->setToolTip(
      QObject::tr("The gradient of a widened tetrahedron difference (epsilon) or "
                  "of the blurred baked distance field (baked)"));
  QObject::connect(mode, &QComboBox::activated, mode, [&document, mode, refusal, baked](int index) {
    const Json value =
        index == 1 ? Json{{"baked", {{"cell", 0.5}, {"blur", 1}}}} : Json{{"epsilon", 0.05}};
    const Expected<void> written = setGravityValue(document, {"sdf", "smoothing"}, value);
    if (!written) {
      mode->setCurrentIndex(baked ? 1 : 0);
      refusal->setText(
          QObject::tr("Refused: %1").arg(QString::fromStdString(written.error().message())));
      refusal->show();
    }
  });
  form->addRow(QObject::tr("smoothing"), mode);
  if (baked) {
    addTableRows(context, form, gravityRows("gravity_sdf_baked"),
                 gravityBinding(document, {"sdf", "smoothing", "baked"}, refusal),
                 "gravity:sdf.baked.");
  } else {
    addTableRows(context, form, gravityRows("gravity_sdf_epsilon"),
                 gravityBinding(document, {"sdf", "smoothing"}, refusal), "gravity:sdf.");
  }
}

void addDensityRows(InspectorContext& context, QGroupBox* box, QLabel* refusal) {
  EditorDocument& document = context.document;
  auto* form = new QFormLayout(box);
  const std::optional<Json> density = gravityValue(document, {"density"});
  if (!density) return;
  addTableRows(context, form, gravityRows("gravity_density"),
               gravityBinding(document, {"density"}, refusal), "gravity:density.");
  // Bounds [[min], [max]] (m): absent = the collidable field's bounds, padded.
  const bool hasBounds = density->contains("bounds");
  auto* bounded = new QGroupBox(QObject::tr("bounds"));
  bounded->setObjectName("gravity:density.bounds");
  bounded->setToolTip(
      QObject::tr("The grid's box [min, max] (m); unchecked: the collidable "
                  "field's bounds, padded"));
  bounded->setCheckable(true);
  bounded->setChecked(hasBounds);
  QObject::connect(bounded, &QGroupBox::clicked, bounded, [&document](bool on) {
    if (on) {
      setGravityValue(
          document, {"density", "bounds"},
          Json::array({Json::array({-50.0, -50.0, -50.0}), Json::array({50.0, 50.0, 50.0})}));
    } else {
      removeGravityValue(document, {"density", "bounds"});
    }
  });
  auto* corners = new QFormLayout(bounded);
  if (hasBounds) {
    static constexpr scene::ValueSpec kCorner{.key = "corner",
                                              .kind = scene::ValueKind::Vec3,
                                              .min = -1e6,
                                              .max = 1e6,
                                              .unit = "m",
                                              .help = "A corner of the density grid's box"};
    for (int corner = 0; corner < 2; ++corner) {
      JsonBinding binding{
          [&document, corner](const std::string&) -> std::optional<Json> {
            auto bounds = gravityValue(document, {"density", "bounds"});
            if (!bounds || !bounds->is_array() || bounds->size() != 2) return std::nullopt;
            return (*bounds)[std::size_t(corner)];
          },
          [&document, corner, refusal](const std::string&, const Json& value,
                                       int mergeId) -> Expected<void> {
            Expected<void> written = setGravityValue(
                document, {"density", "bounds", std::to_string(corner)}, value, mergeId);
            if (!written) {
              refusal->setText(QObject::tr("Refused: %1")
                                   .arg(QString::fromStdString(written.error().message())));
              refusal->show();
            }
            return written;
          }};
      auto* row = new QFormLayout;
      addTableRows(context, row, std::span<const scene::ValueSpec>(&kCorner, 1), binding,
                   corner == 0 ? "gravity:density.bounds.min." : "gravity:density.bounds.max.");
      corners->addRow(corner == 0 ? QObject::tr("min") : QObject::tr("max"), new QWidget);
      corners->addRow(row);
    }
  }
  form->addRow(bounded);
}

}  // namespace

QWidget* makeGravitySection(InspectorContext& context) {
  EditorDocument& document = context.document;
  auto* box = new QGroupBox(QObject::tr("Gravity"));
  box->setObjectName("sceneGravitySection");
  box->setToolTip(QObject::tr("The scene's gravity field: the sum of the tiers switched on"));
  auto* layout = new QVBoxLayout(box);
  QLabel* refusal = makeRefusalLabel();
  if (!gravityIsObject(document)) {
    auto* note =
        new QLabel(QObject::tr("Uniform gravity (the vector form). Any edit here turns "
                               "it into a field with the same global vector."));
    note->setObjectName("gravityVectorFormNote");
    note->setWordWrap(true);
    layout->addWidget(note);
  }
  auto* constants = new QFormLayout;
  addTableRows(context, constants, gravityRows("gravity_field"),
               gravityBinding(document, {}, refusal), "gravity:", {"global"});
  layout->addLayout(constants);

  QGroupBox* global = makeTierBox(document, QObject::tr("Global"), "global",
                                  QObject::tr("Constant gravity everywhere (m/s^2)"));
  if (gravityValue(document, {"global"})) {
    auto* form = new QFormLayout(global);
    const scene::ValueSpec* row = scene::componentSpec("gravity_field")->find("global");
    addTableRows(context, form, std::span<const scene::ValueSpec>(row, 1),
                 gravityBinding(document, {}, refusal), "gravity:");
  }
  layout->addWidget(global);

  QGroupBox* regions = makeTierBox(document, QObject::tr("Regions"), "regions",
                                   QObject::tr("Boxes and spheres: inside, their vector applies"));
  auto* regionList = new QVBoxLayout(regions);
  if (gravityValue(document, {"regions"})) addItemList(context, regionList, "regions", refusal);
  layout->addWidget(regions);

  QGroupBox* sources = makeTierBox(document, QObject::tr("Sources"), "sources",
                                   QObject::tr("Point, sphere, line and planet sources"));
  auto* sourceList = new QVBoxLayout(sources);
  if (gravityValue(document, {"sources"})) addItemList(context, sourceList, "sources", refusal);
  layout->addWidget(sources);

  QGroupBox* sdf = makeTierBox(document, QObject::tr("SDF surface"), "sdf",
                               QObject::tr("Pull into the nearest collidable surface, fading "
                                           "with distance (run up walls)"));
  addSdfRows(context, sdf, refusal);
  layout->addWidget(sdf);

  QGroupBox* density = makeTierBox(document, QObject::tr("Density"), "density",
                                   QObject::tr("Gravity of the matter's density, solved on a grid "
                                               "(tier 3)"));
  addDensityRows(context, density, refusal);
  layout->addWidget(density);
  layout->addWidget(refusal);
  return box;
}

}  // namespace floptle::editor
