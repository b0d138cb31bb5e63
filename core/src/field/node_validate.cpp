// validateNode: refuses a graph before anything evaluates it, naming the parameter (JSON
// pointer) and what is wrong. Drivers are checked by the smallest and largest value they take.
#include <algorithm>
#include <cmath>
#include <string>

#include "floptle/core/field/node_spec.h"

namespace floptle::field {
namespace {

std::string num(float v) {
  std::string s = std::to_string(v);
  while (s.size() > 1 && s.back() == '0') s.pop_back();
  if (!s.empty() && s.back() == '.') s.pop_back();
  return s;
}

/// `where()` spells the value's pointer, asked for only when there is an error to report.
template <typename Pointer>
Expected<void> checkScalar(const AnimatedScalar& a, const ParamSpec& spec, const Pointer& where) {
  auto finite = [](float v) { return std::isfinite(v); };
  if (!finite(a.base) || !finite(a.amplitude) || !finite(a.frequency) || !finite(a.phase))
    return Error{where(), "value is not a finite number"};
  if (a.driver == AnimatedScalar::Driver::Keys) {
    if (a.keys.empty()) return Error{where(), "a keyframed driver needs at least one key"};
    for (std::size_t i = 0; i < a.keys.size(); ++i) {
      if (!std::isfinite(a.keys[i].time) || !finite(a.keys[i].value))
        return Error{where() + "/keys/" + std::to_string(i), "key is not finite"};
      if (i > 0 && a.keys[i].time < a.keys[i - 1].time)
        return Error{where() + "/keys/" + std::to_string(i), "key times must not decrease"};
    }
  }
  const float lo = a.minValue(), hi = a.maxValue();
  if (!finite(lo) || !finite(hi)) return Error{where(), "value is not a finite number"};
  if (lo < spec.min || hi > spec.max) {
    std::string what =
        std::string(spec.key) + " must lie in [" + num(spec.min) + ", " + num(spec.max) + "]";
    if (a.animated())
      what += " over the whole animation (driver spans " + num(lo) + " .. " + num(hi) + ")";
    else
      what += " (got " + num(lo) + ")";
    if (spec.min == 0.0f && lo < 0.0f) what = "negative " + std::string(spec.key) + ": " + what;
    return Error{where(), what};
  }
  return {};
}

}  // namespace

Expected<void> validateNode(const FieldNode& node, const std::string& where) {
  if (static_cast<std::size_t>(node.type) >= allNodeSpecs().size())
    return Error{where + "/type", "unknown node type"};
  const NodeSpec& spec = nodeSpec(node.type);
  if (static_cast<int>(node.params.size()) != spec.scalarCount())
    return Error{where, std::string(spec.name) + " needs " + std::to_string(spec.scalarCount()) +
                            " scalar parameters, has " + std::to_string(node.params.size())};
  // Parameter pointer of a slot: "/key" or "/key/component", spelled only for an error (a
  // level validates hundreds of thousands of graphs).
  auto slotWhere = [&](int wanted) {
    int first = 0;
    for (const ParamSpec& p : spec.params) {
      if (wanted < first + p.components) {
        std::string w = where + "/" + std::string(p.key);
        if (p.components > 1) w += "/" + std::to_string(wanted - first);
        return w;
      }
      first += p.components;
    }
    return where;
  };
  int slot = 0;
  for (const ParamSpec& p : spec.params) {
    for (int c = 0; c < p.components; ++c, ++slot) {
      if (auto r = checkScalar(node.params[slot], p, [&] { return slotWhere(slot); }); !r) return r;
    }
  }
  const int n = static_cast<int>(node.children.size());
  if (n < spec.minChildren || (spec.maxChildren >= 0 && n > spec.maxChildren)) {
    std::string want =
        spec.maxChildren < 0 ? "at least " + std::to_string(spec.minChildren)
        : spec.minChildren == spec.maxChildren
            ? "exactly " + std::to_string(spec.minChildren)
            : std::to_string(spec.minChildren) + ".." + std::to_string(spec.maxChildren);
    return Error{where + "/children",
                 std::string(spec.name) + " takes " + want + " children, has " + std::to_string(n)};
  }
  const auto& P = node.params;
  switch (node.type) {
    case NodeType::RoundBox: {
      float smallest = std::min({P[0].minValue(), P[1].minValue(), P[2].minValue()});
      if (P[3].maxValue() > smallest)
        return Error{slotWhere(3), "rounding radius must not exceed the smallest half extent (" +
                                       num(smallest) + ")"};
      break;
    }
    case NodeType::Plane:
      if (!P[0].animated() && !P[1].animated() && !P[2].animated() && P[0].base == 0.0f &&
          P[1].base == 0.0f && P[2].base == 0.0f)
        return Error{where + "/normal", "plane normal must not be zero"};
      break;
    case NodeType::Transform:
      if (!P[3].animated() && !P[4].animated() && !P[5].animated() && !P[6].animated() &&
          P[3].base == 0.0f && P[4].base == 0.0f && P[5].base == 0.0f && P[6].base == 0.0f)
        return Error{where + "/rotation", "rotation quaternion must not be zero"};
      break;
    case NodeType::Mandelbox:
      if (P[0].minValue() < 1.05f && P[0].maxValue() > -1.05f)
        return Error{slotWhere(0),
                     "mandelbox |scale| must stay >= 1.05 (the fold diverges otherwise)"};
      if (P[2].maxValue() >= P[3].minValue())
        return Error{slotWhere(2), "min_radius must stay below fixed_radius"};
      break;
    default:
      break;
  }
  for (int i = 0; i < n; ++i)
    if (auto r = validateNode(node.children[i], where + "/children/" + std::to_string(i)); !r)
      return r;
  return {};
}

}  // namespace floptle::field
