#pragma once
// The values of scene components ("character", "vehicle" and its wheels, "collider", "drift",
// materials, cameras, ...) described once, in one table (component_table.cpp): per value its
// JSON key, kind, range, default, unit and meaning. ComponentReader reads a component's JSON
// against its rows; every refusal is an Error naming the value's JSON pointer and its range:
//   {"/nodes/3/character/radius", "must be in (0, 1000] (m), found 0"}
// resources/scene.schema.json states the same ranges (component_table_schema_test holds the
// two equal).
//
// Reading a character (absent keys keep the caller's defaults):
//   auto in = ComponentReader::open(node.components["character"], "character", node.pointer +
//   "/character"); if (!in) return in.error(); if (auto r = in->number("radius", desc.radius); !r)
//   return r.error(); if (auto r = in->number("slope_limit", slopeDegrees); !r) return r.error();
// and a vehicle's wheels, each read with the "wheel" rows at ".../wheels/<i>":
//   auto wheels = in->objects("wheels");
//   if (!wheels) return wheels.error();
//   for (const ComponentReader& w : *wheels) { if (auto r = w.number("grip", wheel.grip); !r) ... }
#include <array>
#include <cstdint>
#include <initializer_list>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "floptle/core/expected.h"
#include "floptle/core/math.h"

namespace floptle::scene {

enum class ValueKind : std::uint8_t {
  Number,   ///< a finite number in [min, max]
  Integer,  ///< a whole number in [min, max]
  Bool,     ///< true or false
  Vec2,     ///< [x, z], each in [min, max]
  Vec3,     ///< [x, y, z], each in [min, max]
  Quat,     ///< a rotation [x, y, z, w], each in [min, max], not of zero length
  String,   ///< a non-empty string
  Enum,     ///< one of `choices`
  Objects,  ///< a non-empty array of objects, each read with the table named `items`
};

struct ValueSpec {
  /// JSON key, e.g. "radius".
  std::string_view key;
  ValueKind kind = ValueKind::Number;
  /// Range of a number, an integer or each component of a vector.
  double min = -1e6;
  double max = 1e6;
  /// True when the bound itself is refused: (min, max] for minExclusive.
  bool minExclusive = false;
  bool maxExclusive = false;
  /// What an absent key stands for (a vector's components; 0 / 1 for a Bool; an Enum's index
  /// into `choices`). The reader leaves an absent key's output as it is: the runtime
  /// struct's default, which agrees with this.
  std::array<double, 4> defaultValue = {};
  /// Unit in the project's spelling: "m", "m/s", "kg", "deg", "-" ...
  std::string_view unit = "-";
  /// One line for a tooltip or an error.
  std::string_view help;
  /// True when the component is refused without this key.
  bool required = false;
  /// Enum: the accepted strings.
  std::span<const std::string_view> choices = {};
  /// Objects: the name of the table each array item is read with ("wheel").
  std::string_view items = {};
};

struct ComponentSpec {
  /// The component's key on a node ("character") or the table's name ("wheel").
  std::string_view name;
  /// Its entry under "definitions" in resources/scene.schema.json; empty when the scene schema
  /// does not describe it (the inputs file's "input_event").
  std::string_view schemaDefinition;
  std::span<const ValueSpec> values;

  /// The row of `key`, or null.
  const ValueSpec* find(std::string_view key) const;
};

/// Every table (component_table.cpp): character, vehicle, wheel, collider, drift, material,
/// interaction, camera, settings, transform, input_event.
std::span<const ComponentSpec> allComponentSpecs();
/// The table called `name`, or null.
const ComponentSpec* componentSpec(std::string_view name);

/// The first refusal of a list of reads, if any: `firstRefusal({in.number("a", a), ...})`
/// (every read runs; the error is the first in the list).
Expected<void> firstRefusal(std::initializer_list<Expected<void>> reads);

/// "in (0, 1000] (m)": a row's range and unit as the errors spell it.
std::string rangeText(const ValueSpec& row);

/// Reads one JSON object against one table. Does not own the JSON: it must outlive the reader.
/// Asking for a key that has no row in the table is a programmer mistake (asserts).
class ComponentReader {
 public:
  using Json = nlohmann::ordered_json;

  /// A reader of `component` (at JSON pointer `pointer`) with the table `table`; refuses a
  /// component that is not an object or lacks a required key.
  static Expected<ComponentReader> open(const Json& component, std::string_view table,
                                        std::string pointer);

  // Each read leaves `out` as it is when the key is absent (a required key was checked by
  // open), else writes the checked value or returns an Error at "<pointer>/<key>".
  Expected<void> number(std::string_view key, double& out) const;
  Expected<void> number(std::string_view key, float& out) const;
  Expected<void> integer(std::string_view key, std::int64_t& out) const;
  Expected<void> boolean(std::string_view key, bool& out) const;
  /// A Vec2, Vec3 or Quat row into out (2, 3 or 4 values).
  Expected<void> vector(std::string_view key, std::span<double> out) const;
  Expected<void> vec3(std::string_view key, Vec3& out) const;
  /// A String or Enum row.
  Expected<void> string(std::string_view key, std::string& out) const;
  /// The items of an Objects row, each with its own reader at "<pointer>/<key>/<i>"; empty
  /// when the key is absent.
  Expected<std::vector<ComponentReader>> objects(std::string_view key) const;

  /// An Error at the first key of the object that has no row in the table.
  Expected<void> onlyKnownKeys() const;
  bool has(std::string_view key) const { return json_->contains(key); }
  /// The component's JSON pointer.
  const std::string& pointer() const { return pointer_; }

 private:
  ComponentReader(const Json& json, const ComponentSpec& spec, std::string pointer)
      : json_(&json), spec_(&spec), pointer_(std::move(pointer)) {}
  const ValueSpec& row(std::string_view key, ValueKind kind) const;
  std::string at(std::string_view key) const;

  const Json* json_;
  const ComponentSpec* spec_;
  std::string pointer_;
};

}  // namespace floptle::scene
