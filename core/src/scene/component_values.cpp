// ComponentReader: a component's JSON checked against its rows in the component table.
#include "floptle/core/scene/component_values.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstdio>

#include "floptle/core/scene/scene_io.h"
#include "scene/scene_internal.h"

namespace floptle::scene {
namespace {

std::string numberText(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%.9g", v);
  return text;
}

bool inRange(const ValueSpec& row, double v) {
  const bool aboveMin = row.minExclusive ? v > row.min : v >= row.min;
  const bool belowMax = row.maxExclusive ? v < row.max : v <= row.max;
  return std::isfinite(v) && aboveMin && belowMax;
}

std::string outOfRange(const ValueSpec& row, const nlohmann::ordered_json& found) {
  return "must be " + rangeText(row) + ", found " + found.dump();
}

int componentsOf(ValueKind kind) {
  switch (kind) {
    case ValueKind::Vec2:
      return 2;
    case ValueKind::Vec3:
      return 3;
    case ValueKind::Quat:
      return 4;
    default:
      return 1;
  }
}

}  // namespace

std::string rangeText(const ValueSpec& row) {
  return std::string("in ") + (row.minExclusive ? "(" : "[") + numberText(row.min) + ", " +
         numberText(row.max) + (row.maxExclusive ? ")" : "]") + " (" + std::string(row.unit) + ")";
}

Expected<ComponentReader> ComponentReader::open(const Json& component, std::string_view table,
                                                std::string pointer) {
  const ComponentSpec* spec = componentSpec(table);
  assert(spec && "no component table of this name");
  if (!component.is_object())
    return Error{pointer,
                 "a \"" + std::string(table) + "\" is an object, found " + describeType(component)};
  for (const ValueSpec& row : spec->values)
    if (row.required && !component.contains(row.key))
      return Error{pointer + "/" + escapePointerToken(row.key), "is required but missing"};
  return ComponentReader(component, *spec, std::move(pointer));
}

const ValueSpec& ComponentReader::row(std::string_view key, ValueKind kind) const {
  const ValueSpec* found = spec_->find(key);
  assert(found && "no row for this key in the component's table");
  (void)kind;
  assert((found->kind == kind || (kind == ValueKind::Vec3 && componentsOf(found->kind) > 1) ||
          (kind == ValueKind::String && found->kind == ValueKind::Enum)) &&
         "the row holds another kind of value");
  return *found;
}

std::string ComponentReader::at(std::string_view key) const {
  return pointer_ + "/" + escapePointerToken(key);
}

Expected<void> ComponentReader::number(std::string_view key, double& out) const {
  const ValueSpec& spec = row(key, ValueKind::Number);
  const auto found = json_->find(key);
  if (found == json_->end()) return {};
  if (!found->is_number())
    return Error{at(key), "expected a number, found " + describeType(*found)};
  const double v = found->get<double>();
  if (!inRange(spec, v)) return Error{at(key), outOfRange(spec, *found)};
  out = v;
  return {};
}

Expected<void> ComponentReader::number(std::string_view key, float& out) const {
  double v = out;
  if (auto r = number(key, v); !r) return r;
  out = static_cast<float>(v);
  return {};
}

Expected<void> ComponentReader::integer(std::string_view key, std::int64_t& out) const {
  const ValueSpec& spec = row(key, ValueKind::Integer);
  const auto found = json_->find(key);
  if (found == json_->end()) return {};
  if (!found->is_number_integer())
    return Error{at(key), "expected a whole number, found " + describeType(*found)};
  const double v = found->get<double>();
  if (!inRange(spec, v)) return Error{at(key), outOfRange(spec, *found)};
  out = found->is_number_unsigned() ? static_cast<std::int64_t>(found->get<std::uint64_t>())
                                    : found->get<std::int64_t>();
  return {};
}

Expected<void> ComponentReader::boolean(std::string_view key, bool& out) const {
  row(key, ValueKind::Bool);
  const auto found = json_->find(key);
  if (found == json_->end()) return {};
  if (!found->is_boolean())
    return Error{at(key), "expected true or false, found " + describeType(*found)};
  out = found->get<bool>();
  return {};
}

Expected<void> ComponentReader::vector(std::string_view key, std::span<double> out) const {
  const ValueSpec& spec = row(key, ValueKind::Vec3);
  const int n = componentsOf(spec.kind);
  assert(static_cast<int>(out.size()) == n && "wrong number of components for this row");
  const auto found = json_->find(key);
  if (found == json_->end()) return {};
  // Pointers are spelled only for an error: a level reads hundreds of thousands of vectors.
  if (!found->is_array() || static_cast<int>(found->size()) != n)
    return Error{at(key), "expected an array of " + std::to_string(n) + " numbers, found " +
                              describeType(*found)};
  double values[4] = {};
  double lengthSquared = 0.0;
  for (int i = 0; i < n; ++i) {
    const auto& item = (*found)[static_cast<std::size_t>(i)];
    auto itemAt = [&] { return at(key) + "/" + std::to_string(i); };
    if (!item.is_number()) return Error{itemAt(), "expected a number, found " + describeType(item)};
    values[i] = item.get<double>();
    if (!inRange(spec, values[i])) return Error{itemAt(), outOfRange(spec, item)};
    lengthSquared += values[i] * values[i];
  }
  if (spec.kind == ValueKind::Quat && !(lengthSquared >= 1e-12))
    return Error{at(key), "a rotation quaternion must not have zero length"};
  std::copy(values, values + n, out.begin());
  return {};
}

Expected<void> ComponentReader::vec3(std::string_view key, Vec3& out) const {
  double xyz[3] = {out.x, out.y, out.z};
  if (auto r = vector(key, xyz); !r) return r;
  out = Vec3(static_cast<float>(xyz[0]), static_cast<float>(xyz[1]), static_cast<float>(xyz[2]));
  return {};
}

Expected<void> ComponentReader::string(std::string_view key, std::string& out) const {
  const ValueSpec& spec = row(key, ValueKind::String);
  const auto found = json_->find(key);
  if (found == json_->end()) return {};
  if (!found->is_string() || found->get_ref<const std::string&>().empty())
    return Error{at(key), "expected a non-empty string, found " + describeType(*found)};
  const std::string& text = found->get_ref<const std::string&>();
  if (spec.kind == ValueKind::Enum &&
      std::find(spec.choices.begin(), spec.choices.end(), text) == spec.choices.end()) {
    std::string list;
    for (std::string_view c : spec.choices)
      list += (list.empty() ? "\"" : ", \"") + std::string(c) + "\"";
    return Error{at(key), "must be one of " + list + ", found \"" + text + "\""};
  }
  out = text;
  return {};
}

Expected<std::vector<ComponentReader>> ComponentReader::objects(std::string_view key) const {
  const ValueSpec& spec = row(key, ValueKind::Objects);
  std::vector<ComponentReader> items;
  const auto found = json_->find(key);
  if (found == json_->end()) return items;
  if (!found->is_array() || found->empty())
    return Error{at(key), "expected a non-empty array of objects, found " + describeType(*found)};
  for (std::size_t i = 0; i < found->size(); ++i) {
    auto item = open((*found)[i], spec.items, at(key) + "/" + std::to_string(i));
    if (!item) return item.error();
    items.push_back(std::move(*item));
  }
  return items;
}

Expected<void> ComponentReader::onlyKnownKeys() const {
  for (const auto& [key, value] : json_->items()) {
    if (spec_->find(key)) continue;
    std::string known;
    for (const ValueSpec& r : spec_->values)
      known += (known.empty() ? "" : ", ") + std::string(r.key);
    return Error{at(key), "unknown key (known: " + known + ")"};
  }
  return {};
}

Expected<void> firstRefusal(std::initializer_list<Expected<void>> reads) {
  for (const Expected<void>& r : reads)
    if (!r) return r.error();
  return {};
}

}  // namespace floptle::scene
