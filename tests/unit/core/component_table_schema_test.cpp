// The component table (component_values.h) and resources/scene.schema.json state each
// component value's range once each; this holds them equal, row by row and property by property.
#include <filesystem>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "floptle/core/scene/component_values.h"
#include "scene_test_util.h"

namespace floptle::scene {
namespace {

using nlohmann::json;

json loadSchema() {
  return json::parse(
      test::readBytes(std::filesystem::path(FLOPTLE_SOURCE_DIR) / "resources/scene.schema.json"));
}

/// `property` with its "$ref"s followed into the schema's definitions.
const json& resolve(const json& schema, const json& property) {
  const json* at = &property;
  while (at->contains("$ref")) {
    const std::string ref = (*at)["$ref"];
    at = &schema["definitions"][ref.substr(std::string("#/definitions/").size())];
  }
  return *at;
}

/// The alternative of a "oneOf" property that holds the row's kind of value (settings.gravity
/// is a vector or the gravity field object): an array for vectors, else the first.
const json& resolveFor(const json& schema, const json& property, ValueKind kind) {
  const json& p = resolve(schema, property);
  if (!p.contains("oneOf")) return p;
  const bool array = kind == ValueKind::Vec2 || kind == ValueKind::Vec3 ||
                     kind == ValueKind::Quat || kind == ValueKind::Objects;
  for (const json& alternative : p["oneOf"]) {
    const json& a = resolve(schema, alternative);
    if ((a.value("type", "") == "array") == array) return a;
  }
  return p;
}

int componentsOf(ValueKind kind) {
  return kind == ValueKind::Vec2 ? 2 : kind == ValueKind::Vec3 ? 3 : 4;
}

/// The schema's number (or array item) against the row's range.
void expectRange(const json& number, const ValueSpec& row, const std::string& name) {
  EXPECT_EQ(number.value("type", ""), row.kind == ValueKind::Integer ? "integer" : "number")
      << name;
  EXPECT_EQ(number.value("minimum", -1e300), row.min) << name << " minimum";
  EXPECT_EQ(number.value("maximum", 1e300), row.max) << name << " maximum";
  EXPECT_EQ(number.value("exclusiveMinimum", false), row.minExclusive)
      << name << " exclusiveMinimum";
  EXPECT_EQ(number.value("exclusiveMaximum", false), row.maxExclusive)
      << name << " exclusiveMaximum";
}

TEST(ComponentTableSchema, EveryRowIsASchemaPropertyWithTheSameRange) {
  const json schema = loadSchema();
  for (const ComponentSpec& table : allComponentSpecs()) {
    if (table.schemaDefinition.empty()) continue;
    const std::string def(table.schemaDefinition);
    ASSERT_TRUE(schema["definitions"].contains(def)) << def << " is not a schema definition";
    const json& properties = schema["definitions"][def]["properties"];
    for (const ValueSpec& row : table.values) {
      const std::string name = def + "." + std::string(row.key);
      ASSERT_TRUE(properties.contains(row.key)) << name << " is not in the schema";
      const json& p = resolveFor(schema, properties[std::string(row.key)], row.kind);
      switch (row.kind) {
        case ValueKind::Number:
        case ValueKind::Integer:
          expectRange(p, row, name);
          break;
        case ValueKind::Bool:
          EXPECT_EQ(p.value("type", ""), "boolean") << name;
          break;
        case ValueKind::String:
          EXPECT_EQ(p.value("type", ""), "string") << name;
          break;
        case ValueKind::Enum: {
          std::vector<std::string> choices(row.choices.begin(), row.choices.end());
          EXPECT_EQ(p["enum"].get<std::vector<std::string>>(), choices) << name;
          break;
        }
        case ValueKind::Vec2:
        case ValueKind::Vec3:
        case ValueKind::Quat:
          EXPECT_EQ(p.value("type", ""), "array") << name;
          EXPECT_EQ(p.value("minItems", 0), componentsOf(row.kind)) << name;
          EXPECT_EQ(p.value("maxItems", 0), componentsOf(row.kind)) << name;
          expectRange(resolve(schema, p["items"]), row, name + "[]");
          break;
        case ValueKind::Objects: {
          EXPECT_EQ(p.value("type", ""), "array") << name;
          EXPECT_EQ(p.value("minItems", 0), 1) << name;
          const ComponentSpec* items = componentSpec(row.items);
          ASSERT_NE(items, nullptr) << name;
          EXPECT_EQ(p["items"].value("$ref", ""),
                    "#/definitions/" + std::string(items->schemaDefinition))
              << name;
          break;
        }
      }
    }
    // A node's component (or transform) refers to this definition.
    const json& node = schema["definitions"]["node"]["properties"];
    if (node.contains(table.name) &&
        resolve(schema, node[std::string(table.name)]).value("type", "") == "object") {
      EXPECT_EQ(node[std::string(table.name)].value("$ref", ""), "#/definitions/" + def)
          << table.name;
    }
  }
}

TEST(ComponentTableSchema, EveryNumericSchemaPropertyHasARow) {
  const json schema = loadSchema();
  for (const ComponentSpec& table : allComponentSpecs()) {
    if (table.schemaDefinition.empty()) continue;
    const std::string def(table.schemaDefinition);
    for (const auto& [key, property] : schema["definitions"][def]["properties"].items()) {
      const json& p = resolve(schema, property);
      const std::string type = p.value("type", "");
      const bool numeric =
          type == "number" || type == "integer" ||
          (type == "array" && resolve(schema, p["items"]).value("type", "") == "number");
      if (numeric) {
        EXPECT_NE(table.find(key), nullptr) << def << "." << key << " has no row in the table";
      }
    }
  }
}

}  // namespace
}  // namespace floptle::scene
