// The Morph tier's displacement list and bake cell (morph_terms.h).
#include "inspector/morph_terms.h"

#include <array>
#include <cmath>

#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QPushButton>

#include "floptle/core/field/node_spec.h"
#include "floptle/editor/editor_document.h"
#include "inspector/inspector_sections.h"
#include "inspector/number_field.h"

namespace floptle::editor {
namespace {

/// Edge of the bake's cells when the component names none (field/morph.h's MorphDesc) (m).
constexpr double kDefaultBakeCell = 0.1;
constexpr double kMaxBakeCell = 100.0;

/// The rows of a sine term: displace_sine's parameters, keys as the term spells them.
std::span<const field::ParamSpec> sineRows() {
  return field::nodeSpec(field::NodeType::DisplaceSine).params;
}

/// The rows of a noise term: displace_noise's, with its "magnitude" spelt "amplitude" as the
/// term does (morph.h). Static: the rows keep references to them.
std::span<const field::ParamSpec> noiseRows() {
  static const auto rows = [] {
    const std::span<const field::ParamSpec> node =
        field::nodeSpec(field::NodeType::DisplaceNoise).params;
    std::array<field::ParamSpec, 4> out{};
    for (std::size_t i = 0; i < out.size() && i < node.size(); ++i) {
      out[i] = node[i];
      if (out[i].key == "magnitude") out[i].key = "amplitude";
    }
    return out;
  }();
  return rows;
}

/// A new term with every parameter at its row's default (the sine's amplitude and wave are
/// zero there, which moves nothing; a new sine starts as a visible 0.1 m swell along x).
Json newTerm(bool sine) {
  Json term = Json::object();
  term["type"] = sine ? "sine" : "noise";
  for (const field::ParamSpec& row : sine ? sineRows() : noiseRows()) {
    if (row.components == 1) {
      term[std::string(row.key)] =
          row.integer ? Json(std::llround(row.defaultValue)) : Json(double(row.defaultValue));
    } else {
      term[std::string(row.key)] =
          std::vector<double>(std::size_t(row.components), row.defaultValue);
    }
  }
  if (sine) {
    term["amplitude"] = {0.0, 0.1, 0.0};
    term["wave"] = {2.0, 0.0, 0.0};
  }
  return term;
}

Json termsOf(const EditorDocument& document, const std::string& component) {
  const std::optional<Json> list = document.valueAt(component + "/displacement");
  return list && list->is_array() ? *list : Json::array();
}

}  // namespace

void addMorphRows(InspectorContext& context, QFormLayout* form, const std::string& component) {
  EditorDocument& document = context.document;
  const std::string listPointer = component + "/displacement";
  const Json terms = termsOf(document, component);
  for (std::size_t j = 0; j < terms.size(); ++j) {
    const Json& term = terms[j];
    const bool sine = term.is_object() && term.value("type", "") == "sine";
    const std::string termPointer = listPointer + "/" + std::to_string(j);
    auto* box = new QGroupBox(QObject::tr("Term %1: %2")
                                  .arg(j)
                                  .arg(sine ? QObject::tr("sine, d += amplitude sin(wave . p + "
                                                          "speed t + phase)")
                                            : QObject::tr("noise, d += amplitude noise")));
    box->setObjectName(QStringLiteral("morph:term:%1").arg(j));
    auto* rows = new QFormLayout(box);
    if (term.is_object() && (sine || term.value("type", "") == "noise")) {
      // The node spec rows live in static tables, so the rows may keep references to them.
      for (const field::ParamSpec& row : sine ? sineRows() : noiseRows())
        addParameterRow(context, rows, termPointer, row);
    }
    auto* remove = new QPushButton(QObject::tr("Remove term"));
    remove->setObjectName("morph:remove");
    remove->setToolTip(QObject::tr("Remove this displacement term (one undo step)"));
    QObject::connect(remove, &QPushButton::clicked, remove, [&document, component, j] {
      Json list = termsOf(document, component);
      if (j >= list.size()) return;
      list.erase(list.begin() + std::ptrdiff_t(j));
      document.setValue(component + "/displacement", list);
    });
    rows->addRow(QString(), remove);
    form->addRow(box);
  }

  auto* buttons = new QWidget;
  auto* line = new QHBoxLayout(buttons);
  line->setContentsMargins(0, 0, 0, 0);
  for (const bool sine : {true, false}) {
    auto* add = new QPushButton(sine ? QObject::tr("Add sine") : QObject::tr("Add noise"));
    add->setObjectName(sine ? "morph:add_sine" : "morph:add_noise");
    add->setToolTip(sine ? QObject::tr("Add a travelling sine wave to the displacement d(p, t)")
                         : QObject::tr("Add smooth gradient noise to the displacement d(p, t)"));
    QObject::connect(add, &QPushButton::clicked, add, [&document, component, sine] {
      Json list = termsOf(document, component);
      list.push_back(newTerm(sine));
      document.setValue(component + "/displacement", list);
    });
    line->addWidget(add);
  }
  form->addRow(QObject::tr("Displacement"), buttons);

  // The physics bake: its cell, (0, 100] m as field::readMorph reads it.
  NumberFieldSpec cellSpec{0.0,
                           kMaxBakeCell,
                           "m",
                           QObject::tr("Cell of the bake physics collides with (the warp is "
                                       "never sphere-traced); smaller is finer and costs more"),
                           false,
                           0.01,
                           true,
                           false};
  auto* cell = new NumberField(
      document, cellSpec,
      [&document, component] {
        const std::optional<Json> v = document.valueAt(component + "/bake/cell");
        return v && v->is_number() ? v->get<double>() : kDefaultBakeCell;
      },
      [&document, component](double value) -> Expected<void> {
        if (document.valueAt(component + "/bake"))
          return document.setValue(component + "/bake/cell", value, kMergeValueDrag);
        return document.setValue(component + "/bake", Json{{"cell", value}});
      });
  cell->setObjectName("morph:bake_cell");
  context.refreshers.push_back([cell] { cell->refresh(); });
  form->addRow(QObject::tr("bake cell"), cell);
}

}  // namespace floptle::editor
