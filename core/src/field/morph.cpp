// Reading the Morph tier's terms (morph.h) through the shape reader of their field nodes.
#include "floptle/core/field/morph.h"

#include "floptle/core/field/field_json.h"
#include "floptle/core/field/node_spec.h"

namespace floptle::field {
namespace {

using Json = nlohmann::ordered_json;

/// One term at `where` as its field node (a unit sphere stands in for the child the reader
/// asks for; the caller drops it).
Expected<FieldNode> readTerm(const Json& term, const std::string& where) {
  if (!term.is_object()) return Error{where, "a displacement term must be an object"};
  const auto type = term.find("type");
  if (type == term.end() || !type->is_string() || (*type != "sine" && *type != "noise"))
    return Error{where + "/type", "must be \"sine\" or \"noise\""};
  const bool sine = *type == "sine";
  Json shape = Json::object();
  shape["type"] = sine ? "displace_sine" : "displace_noise";
  for (const auto& [key, value] : term.items()) {
    if (key == "type") continue;
    if (key == "material" || key == "transform" || key == "children")
      return Error{where + "/" + key, "is not a displacement setting"};
    // The noise node calls its scalar amplitude "magnitude" (the sine's is a vector).
    shape[!sine && key == "amplitude" ? std::string("magnitude") : key] = value;
  }
  shape["children"] = Json::array({Json{{"type", "sphere"}}});
  auto node = parseShape(shape, where, nullptr);
  if (!node) {
    Error e = node.error();
    const std::string magnitude = where + "/magnitude";
    if (e.where.rfind(magnitude, 0) == 0)
      e.where = where + "/amplitude" + e.where.substr(magnitude.size());
    return e;
  }
  node->children.clear();
  return node;
}

}  // namespace

Expected<MorphDesc> readMorph(const Json& matter, const std::string& pointer) {
  MorphDesc morph;
  if (const auto list = matter.find("displacement"); list != matter.end()) {
    if (!list->is_array()) return Error{pointer + "/displacement", "must be a list of terms"};
    for (std::size_t i = 0; i < list->size(); ++i) {
      auto term = readTerm((*list)[i], pointer + "/displacement/" + std::to_string(i));
      if (!term) return term.error();
      morph.terms.push_back(std::move(term.value()));
    }
  }
  if (const auto bake = matter.find("bake"); bake != matter.end()) {
    const std::string where = pointer + "/bake";
    if (!bake->is_object()) return Error{where, "must be an object {\"cell\": h}"};
    for (const auto& [key, value] : bake->items())
      if (key != "cell") return Error{where + "/" + key, "is not a bake setting (only \"cell\")"};
    if (const auto cell = bake->find("cell"); cell != bake->end()) {
      if (!cell->is_number() || !(cell->get<double>() > 0.0) || cell->get<double>() > 100.0)
        return Error{where + "/cell", "must be in (0, 100] (m)"};
      morph.bakeCell = cell->get<float>();
    }
  }
  return morph;
}

FieldNode applyMorph(const MorphDesc& morph, FieldNode shape) {
  for (auto term = morph.terms.rbegin(); term != morph.terms.rend(); ++term) {
    FieldNode outer = *term;
    outer.children.assign(1, std::move(shape));
    shape = std::move(outer);
  }
  return shape;
}

std::optional<MorphDesc> morphOf(const Json& matter) {
  if (!matter.is_object() || matter.value("tier", "") != "morph") return std::nullopt;
  auto morph = readMorph(matter, "");
  if (!morph) return std::nullopt;
  return std::move(morph.value());
}

}  // namespace floptle::field
