// Shape JSON <-> FieldNode. Parsing starts from makeDefaultNode (so missing keys take the
// table's defaults), reads every key of the spec, refuses unknown keys' neighbours only by
// type, then runs validateNode so parse and compile apply the same rules.
#include "floptle/core/field/field_json.h"

#include <cmath>

#include "floptle/core/field/node_spec.h"

namespace floptle::field {
namespace {

using Json = nlohmann::ordered_json;

/// Whether a JSON number is a parameter value: finite, and finite as a float.
bool isParameterNumber(double v) {
  return std::isfinite(v) && std::abs(v) <= 3.0e38;
}

Expected<float> parseNumber(const Json& j, const std::string& where) {
  if (!j.is_number()) return Error{where, "expected a number"};
  double v = j.get<double>();
  if (!isParameterNumber(v)) return Error{where, "number is not finite"};
  return static_cast<float>(v);
}

Expected<AnimatedScalar> parseScalar(const Json& j, const std::string& where) {
  if (j.is_number()) {
    auto v = parseNumber(j, where);
    if (!v) return v.error();
    return AnimatedScalar(*v);
  }
  if (!j.is_object()) return Error{where, "expected a number or a driver object"};
  AnimatedScalar a;
  if (j.contains("keys")) {
    a.driver = AnimatedScalar::Driver::Keys;
    const Json& keys = j["keys"];
    if (!keys.is_array() || keys.empty())
      return Error{where + "/keys", "expected a non-empty array of [time, value] pairs"};
    for (std::size_t i = 0; i < keys.size(); ++i) {
      const std::string kw = where + "/keys/" + std::to_string(i);
      if (!keys[i].is_array() || keys[i].size() != 2) return Error{kw, "expected [time, value]"};
      auto t = parseNumber(keys[i][0], kw + "/0");
      if (!t) return t.error();
      auto v = parseNumber(keys[i][1], kw + "/1");
      if (!v) return v.error();
      Key k;
      k.time = keys[i][0].get<double>();
      k.value = *v;
      if (!a.keys.empty() && k.time < a.keys.back().time)
        return Error{kw, "key times must not decrease"};
      a.keys.push_back(k);
    }
    a.base = a.keys.front().value;
    if (j.contains("interpolation")) {
      const Json& in = j["interpolation"];
      if (in == "linear")
        a.interpolation = AnimatedScalar::Interpolation::Linear;
      else if (in == "smoothstep")
        a.interpolation = AnimatedScalar::Interpolation::Smoothstep;
      else
        return Error{where + "/interpolation", "expected \"linear\" or \"smoothstep\""};
    }
    if (j.contains("loop")) {
      if (!j["loop"].is_boolean()) return Error{where + "/loop", "expected true or false"};
      a.loop = j["loop"].get<bool>();
    }
    return a;
  }
  if (!j.contains("base"))
    return Error{where, "a driver object needs \"base\" (with \"sine\") or \"keys\""};
  auto base = parseNumber(j["base"], where + "/base");
  if (!base) return base.error();
  a.base = *base;
  if (j.contains("sine")) {
    const Json& s = j["sine"];
    if (!s.is_object()) return Error{where + "/sine", "expected {amplitude, frequency, phase}"};
    a.driver = AnimatedScalar::Driver::Sine;
    const std::pair<const char*, float*> fields[] = {
        {"amplitude", &a.amplitude}, {"frequency", &a.frequency}, {"phase", &a.phase}};
    for (auto [key, dst] : fields) {
      if (!s.contains(key)) continue;
      auto v = parseNumber(s[key], where + "/sine/" + key);
      if (!v) return v.error();
      *dst = *v;
    }
  }
  return a;
}

Json scalarToJson(const AnimatedScalar& a) {
  switch (a.driver) {
    case AnimatedScalar::Driver::Constant:
      return a.base;
    case AnimatedScalar::Driver::Sine: {
      Json j = Json::object();
      j["base"] = a.base;
      j["sine"] = {{"amplitude", a.amplitude}, {"frequency", a.frequency}, {"phase", a.phase}};
      return j;
    }
    case AnimatedScalar::Driver::Keys: {
      Json j = Json::object();
      Json keys = Json::array();
      for (const Key& k : a.keys) keys.push_back(Json::array({k.time, k.value}));
      j["keys"] = keys;
      j["interpolation"] =
          a.interpolation == AnimatedScalar::Interpolation::Smoothstep ? "smoothstep" : "linear";
      j["loop"] = a.loop;
      return j;
    }
  }
  return a.base;
}

/// A parameter's value: a plain number is taken here without spelling its pointer (a level
/// reads a few in each of hundreds of thousands of nodes); a driver, or anything parseScalar
/// refuses, goes to parseScalar with `pointer()`.
template <typename Pointer>
Expected<AnimatedScalar> paramValue(const Json& value, const Pointer& pointer) {
  if (value.is_number()) {
    const double v = value.get<double>();
    if (isParameterNumber(v)) return AnimatedScalar(static_cast<float>(v));
  }
  return parseScalar(value, pointer());
}

// Reads the parameters of `spec` from object `j` into node.params (defaults already there).
Expected<void> parseParams(const Json& j, const std::string& where, FieldNode& node) {
  int slot = 0;
  for (const ParamSpec& p : nodeSpec(node.type).params) {
    const auto found = j.find(p.key);
    if (found != j.end()) {
      const Json& v = *found;
      auto pointer = [&] { return where + "/" + std::string(p.key); };
      if (p.components == 1) {
        auto s = paramValue(v, pointer);
        if (!s) return s.error();
        node.params[slot] = *s;
      } else {
        if (!v.is_array() || static_cast<int>(v.size()) != p.components)
          return Error{pointer(),
                       "expected an array of " + std::to_string(p.components) + " numbers"};
        for (int c = 0; c < p.components; ++c) {
          auto s = paramValue(v[c], [&] { return pointer() + "/" + std::to_string(c); });
          if (!s) return s.error();
          node.params[slot + c] = *s;
        }
      }
    }
    slot += p.components;
  }
  return {};
}

Expected<FieldNode> parseNode(const Json& shape, const std::string& where,
                              const MaterialResolver& resolve) {
  if (!shape.is_object()) return Error{where, "expected a shape object"};
  if (!shape.contains("type") || !shape["type"].is_string())
    return Error{where + "/type", "missing shape \"type\""};
  const std::string typeName = shape["type"].get<std::string>();
  auto type = nodeTypeFromName(typeName);
  if (!type) return Error{where + "/type", "unknown shape type \"" + typeName + "\""};
  FieldNode node = makeDefaultNode(*type);
  if (auto r = parseParams(shape, where, node); !r) return r.error();
  const NodeSpec& spec = nodeSpec(*type);
  if (shape.contains("children")) {
    const Json& ch = shape["children"];
    if (!ch.is_array()) return Error{where + "/children", "expected an array of shapes"};
    for (std::size_t i = 0; i < ch.size(); ++i) {
      auto c = parseNode(ch[i], where + "/children/" + std::to_string(i), resolve);
      if (!c) return c.error();
      node.children.push_back(std::move(*c));
    }
  } else if (spec.minChildren > 0) {
    return Error{where + "/children", typeName + " needs \"children\""};
  }
  if (shape.contains("material")) {
    if (!resolve) return Error{where + "/material", "materials cannot be resolved here"};
    auto m = resolve(shape["material"]);
    if (!m)
      return Error{m.error().where.empty() ? where + "/material" : m.error().where, m.error().what};
    node.material = *m;
    node.hasOwnMaterial = true;
  }
  // Validated here, before any wrapping, so errors point at the shape's own keys.
  if (auto r = validateNode(node, where); !r) return r.error();
  if (shape.contains("transform")) {
    const Json& t = shape["transform"];
    const std::string tw = where + "/transform";
    if (!t.is_object()) return Error{tw, "expected {position, rotation, scale}"};
    FieldNode wrap = makeDefaultNode(NodeType::Transform);
    if (auto r = parseParams(t, tw, wrap); !r) return r.error();
    wrap.children.push_back(std::move(node));
    if (auto r = validateNode(wrap, tw); !r) return r.error();
    return wrap;
  }
  return node;
}

}  // namespace

Expected<AnimatedScalar> parseAnimatedScalar(const Json& scalar, const std::string& where) {
  return parseScalar(scalar, where);
}

Expected<FieldNode> parseShape(const nlohmann::ordered_json& shape, const std::string& where,
                               const MaterialResolver& resolveMaterial) {
  try {
    return parseNode(shape, where, resolveMaterial);
  } catch (const std::exception& e) {
    return Error{where, std::string("malformed shape: ") + e.what()};
  }
}

nlohmann::ordered_json shapeToJson(
    const FieldNode& node, const std::function<nlohmann::ordered_json(MaterialIndex)>& materialId) {
  // A transform without its own material around a non-transform child is written the short
  // way: the child's object with a "transform" key (the way parseShape reads it back).
  if (node.type == NodeType::Transform && !node.hasOwnMaterial && node.children.size() == 1 &&
      node.children[0].type != NodeType::Transform) {
    Json j = shapeToJson(node.children[0], materialId);
    Json t = Json::object();
    t["position"] = Json::array(
        {scalarToJson(node.params[0]), scalarToJson(node.params[1]), scalarToJson(node.params[2])});
    t["rotation"] = Json::array({scalarToJson(node.params[3]), scalarToJson(node.params[4]),
                                 scalarToJson(node.params[5]), scalarToJson(node.params[6])});
    t["scale"] = scalarToJson(node.params[7]);
    j["transform"] = t;
    return j;
  }
  const NodeSpec& spec = nodeSpec(node.type);
  Json j = Json::object();
  j["type"] = std::string(spec.name);
  int slot = 0;
  for (const ParamSpec& p : spec.params) {
    if (slot + p.components > static_cast<int>(node.params.size())) break;
    if (p.components == 1) {
      j[std::string(p.key)] = scalarToJson(node.params[slot]);
    } else {
      Json arr = Json::array();
      for (int c = 0; c < p.components; ++c) arr.push_back(scalarToJson(node.params[slot + c]));
      j[std::string(p.key)] = arr;
    }
    slot += p.components;
  }
  if (!node.children.empty() || spec.maxChildren != 0) {
    Json ch = Json::array();
    for (const FieldNode& c : node.children) ch.push_back(shapeToJson(c, materialId));
    j["children"] = ch;
  }
  if (node.hasOwnMaterial && materialId) j["material"] = materialId(node.material);
  return j;
}

}  // namespace floptle::field
