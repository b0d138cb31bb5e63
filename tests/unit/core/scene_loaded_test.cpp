// scene::loadScene / parseScene: one pass over the text gives the document nlohmann's own
// parser gives (value for value, integer signedness included), and the Scene handed back is
// the one buildScene builds from that document.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <string>

#include "../../large_scene/large_scene.h"
#include "floptle/core/scene/scene.h"
#include "floptle/core/scene/scene_io.h"
#include "scene_test_util.h"

namespace floptle::scene {
namespace {

using Json = nlohmann::ordered_json;

/// Equal values of equal JSON types all the way down (nlohmann's == counts the integer 0 and
/// the unsigned 0 as equal; this does not), objects in the same key order.
void expectSameTree(const Json& got, const Json& want, const std::string& at = "") {
  ASSERT_EQ(got.type(), want.type()) << "at " << at;
  if (got.is_object()) {
    ASSERT_EQ(got.size(), want.size()) << "at " << at;
    auto wantItem = want.begin();
    for (auto item = got.begin(); item != got.end(); ++item, ++wantItem) {
      ASSERT_EQ(item.key(), wantItem.key()) << "at " << at;
      expectSameTree(item.value(), wantItem.value(), at + "/" + item.key());
    }
  } else if (got.is_array()) {
    ASSERT_EQ(got.size(), want.size()) << "at " << at;
    for (std::size_t i = 0; i < got.size(); ++i) {
      expectSameTree(got[i], want[i], at + "/" + std::to_string(i));
    }
  } else if (got.is_number_float()) {
    // Bit for bit: both parsers round the decimal text to the nearest double.
    EXPECT_EQ(got.get<double>(), want.get<double>()) << "at " << at;
    EXPECT_EQ(std::signbit(got.get<double>()), std::signbit(want.get<double>())) << "at " << at;
  } else {
    EXPECT_EQ(got, want) << "at " << at;
  }
}

void expectSameTransform(const Transform& got, const Transform& want, const std::string& at) {
  EXPECT_EQ(got.position, want.position) << at;
  EXPECT_EQ(got.rotation, want.rotation) << at;
  EXPECT_EQ(got.scale, want.scale) << at;
}

/// Every field of the typed model.
void expectSameScene(const Scene& got, const Scene& want) {
  EXPECT_EQ(got.version, want.version);
  ASSERT_EQ(got.materials.size(), want.materials.size());
  for (std::size_t i = 0; i < got.materials.size(); ++i) {
    const Material& a = got.materials[i];
    const Material& b = want.materials[i];
    EXPECT_EQ(a.id, b.id);
    EXPECT_EQ(a.displayId, b.displayId);
    EXPECT_EQ(a.name, b.name);
    EXPECT_EQ(a.color, b.color);
    EXPECT_EQ(a.density, b.density);
    EXPECT_EQ(a.friction, b.friction);
    EXPECT_EQ(a.restitution, b.restitution);
    EXPECT_EQ(a.bulkModulus, b.bulkModulus);
    EXPECT_EQ(a.yieldStrength, b.yieldStrength);
    EXPECT_EQ(a.pointer, b.pointer);
  }
  ASSERT_EQ(got.interactions.size(), want.interactions.size());
  for (std::size_t i = 0; i < got.interactions.size(); ++i) {
    EXPECT_EQ(got.interactions[i].a, want.interactions[i].a);
    EXPECT_EQ(got.interactions[i].b, want.interactions[i].b);
    EXPECT_EQ(got.interactions[i].rule, want.interactions[i].rule);
    EXPECT_EQ(got.interactions[i].k, want.interactions[i].k);
    EXPECT_EQ(got.interactions[i].pointer, want.interactions[i].pointer);
  }
  EXPECT_EQ(got.settings.fixedDt, want.settings.fixedDt);
  EXPECT_EQ(got.settings.gravity, want.settings.gravity);
  EXPECT_EQ(got.settings.gravityField.has_value(), want.settings.gravityField.has_value());
  EXPECT_EQ(got.settings.slopeLimitDegrees, want.settings.slopeLimitDegrees);
  ASSERT_EQ(got.cameras.size(), want.cameras.size());
  for (std::size_t i = 0; i < got.cameras.size(); ++i) {
    EXPECT_EQ(got.cameras[i].name, want.cameras[i].name);
    EXPECT_EQ(got.cameras[i].position, want.cameras[i].position);
    EXPECT_EQ(got.cameras[i].lookAt, want.cameras[i].lookAt);
    EXPECT_EQ(got.cameras[i].fovDegrees, want.cameras[i].fovDegrees);
  }
  ASSERT_EQ(got.nodes.size(), want.nodes.size());
  for (std::size_t i = 0; i < got.nodes.size(); ++i) {
    const SceneNode& a = got.nodes[i];
    const SceneNode& b = want.nodes[i];
    const std::string at = "node " + b.pointer;
    EXPECT_EQ(a.name, b.name) << at;
    EXPECT_EQ(a.pointer, b.pointer) << at;
    EXPECT_EQ(a.parent, b.parent) << at;
    EXPECT_EQ(a.children, b.children) << at;
    expectSameTransform(a.local, b.local, at);
    expectSameTransform(a.world, b.world, at);
    EXPECT_EQ(a.shape, b.shape) << at;
    EXPECT_EQ(a.material, b.material) << at;
    ASSERT_EQ(a.collider.has_value(), b.collider.has_value()) << at;
    if (a.collider) {
      EXPECT_EQ(a.collider->body, b.collider->body) << at;
      EXPECT_EQ(a.collider->collidable, b.collider->collidable) << at;
    }
    expectSameTree(a.components, b.components, at + " components");
  }
}

/// The reference: nlohmann's own parser, then buildScene.
void expectLoadsAsNlohmannAndBuildScene(const std::string& text, const std::string& name) {
  SCOPED_TRACE(name);
  const Json reference = Json::parse(text);
  auto loaded = parseScene(text);
  ASSERT_TRUE(loaded.ok()) << loaded.error().message();
  expectSameTree(loaded->document, reference);
  auto built = buildScene(reference);
  ASSERT_TRUE(built.ok()) << built.error().message();
  expectSameScene(loaded->scene, *built);
}

TEST(SceneLoaded, EverySampleSceneLoadsAsNlohmannParsesItAndBuildSceneBuildsIt) {
  int scenes = 0;
  for (const auto& entry :
       std::filesystem::directory_iterator(std::filesystem::path(FLOPTLE_SOURCE_DIR) / "scenes")) {
    if (entry.path().extension() != ".json") continue;
    // A sample scene that is not a scene document (an inputs file) is no case here.
    const std::string text = test::readBytes(entry.path());
    const Json parsed = Json::parse(text);
    if (!parsed.is_object() || parsed.value("format", "") != kSceneFormatName) continue;
    expectLoadsAsNlohmannAndBuildScene(text, entry.path().filename().string());
    ++scenes;
  }
  EXPECT_GE(scenes, 6);
}

TEST(SceneLoaded, TheGeneratedLargeLevelLoadsAsNlohmannParsesItAndBuildSceneBuildsIt) {
  floptle::test::LargeSceneSpec spec;
  spec.spheres = 500;
  spec.dynamicBalls = 4;
  expectLoadsAsNlohmannAndBuildScene(floptle::test::largeScene(spec).dump(), "large level");
}

TEST(SceneLoaded, LoadSceneReadsTheFileAsLoadSceneFileDoes) {
  const auto path = std::filesystem::path(FLOPTLE_SOURCE_DIR) / "scenes" / "showcase.json";
  auto loaded = loadScene(path);
  ASSERT_TRUE(loaded.ok()) << loaded.error().message();
  auto document = loadSceneFile(path);
  ASSERT_TRUE(document.ok()) << document.error().message();
  expectSameTree(loaded->document, *document);
  auto built = buildScene(*document);
  ASSERT_TRUE(built.ok()) << built.error().message();
  expectSameScene(loaded->scene, *built);
  EXPECT_FALSE(loadScene(path.parent_path() / "no-such-scene.json").ok());
}

TEST(SceneLoaded, NumbersAndStringsComeOutAsNlohmannReadsThem) {
  // Integers with and without a minus (signed and unsigned in nlohmann; "-0" is signed), the
  // largest unsigned 64-bit integer, exponents, long decimals, a subnormal, and escapes.
  const std::string text = R"({
    "format": "floptle.scene", "version": 1,
    "materials": [
      {"id": 18446744073709551615, "color": [0, 0.5, 1.0], "density": 1e3, "friction": 0.1,
       "restitution": 0, "bulk_modulus": 5E+10, "yield_strength": 1e6},
      {"id": -0, "color": [1, 1, 1], "density": 2.5e+3, "friction": 0.30000000000000004441,
       "restitution": 0.1, "bulk_modulus": 2e9,
       "yield_strength": 123456789012345678901234567890e-22}
    ],
    "interactions": [],
    "nodes": [
      {"name": "a\u00e9\ud83d\ude00\"\\\/\b\f\n\r\t\u0000z", "description": "x",
       "transform": {"position": [-0, -0.0, 4e-320], "scale": 1},
       "shape": {"type": "sphere", "radius": 0.5}, "material": 0},
      {"name": "b", "transform": {"position": [-5, 7, -1000000]},
       "shape": {"type": "sphere", "radius": 1.0}, "material": 18446744073709551615}
    ]
  })";
  expectLoadsAsNlohmannAndBuildScene(text, "edge values");
  const Json document = *parseSceneText(text);
  const Json& minusZero = document["nodes"][0]["transform"]["position"][0];
  EXPECT_TRUE(minusZero.is_number_integer());
  EXPECT_FALSE(minusZero.is_number_unsigned());
  EXPECT_TRUE(document["materials"][0]["id"].is_number_unsigned());
  EXPECT_TRUE(document["nodes"][1]["transform"]["position"][1].is_number_unsigned());
  EXPECT_FALSE(document["nodes"][1]["transform"]["position"][0].is_number_unsigned());
  EXPECT_EQ(document["nodes"][0]["name"].get<std::string>(),
            std::string("a\xC3\xA9\xF0\x9F\x98\x80\"\\/\b\f\n\r\t") + std::string(1, '\0') + "z");
}

TEST(SceneLoaded, ALoneSurrogateEscapeIsRefusedAsNlohmannRefusesIt) {
  Json document = test::minimalScene();
  const std::string text = document.dump();
  const std::string withLone = [&] {
    std::string edited = text;
    edited.replace(edited.find("\"crate\""), 7, "\"cr\\udc00ate\"");
    return edited;
  }();
  auto refused = parseSceneText(withLone);
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.error().message().find("surrogate"), std::string::npos)
      << refused.error().message();
  // A lead surrogate without its trail: the reader's own message, at the string's pointer.
  std::string withLead = text;
  withLead.replace(withLead.find("\"crate\""), 7, "\"cr\\ud800ate\"");
  auto lead = parseSceneText(withLead);
  ASSERT_FALSE(lead.ok());
  EXPECT_EQ(lead.error().where, "/nodes/0/children/0/name");
}

TEST(SceneLoaded, ADuplicateKeyIsFoundInSmallAndLargeObjectsAlike) {
  // Small objects are checked by scanning their keys, large ones through a hash set: the
  // duplicate is named at its pointer either way, first, last or in between.
  for (const int keys : {2, 15, 16, 17, 40}) {
    for (const int repeated : {0, keys / 2, keys - 1}) {
      std::string text = "{";
      for (int i = 0; i < keys; ++i)
        text += "\"k" + std::to_string(i) + "\": " + std::to_string(i) + ", ";
      text += "\"k" + std::to_string(repeated) + "\": 0}";
      auto refused = parseSceneText(text);
      ASSERT_FALSE(refused.ok()) << keys << " keys";
      EXPECT_EQ(refused.error().where, "/k" + std::to_string(repeated)) << keys << " keys";
      EXPECT_NE(refused.error().message().find("duplicate key"), std::string::npos)
          << refused.error().message();
    }
  }
}

}  // namespace
}  // namespace floptle::scene
