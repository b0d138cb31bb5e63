// glTF files whose declared data layout Assimp 5.2.5 would read past (an accessor's last
// element beyond its view, sparse data beyond its views, unpaired joint and weight sets, a skin
// without matrices, a cubic spline with one value per key) are refused by importMesh before
// Assimp reads them, naming the object by its JSON pointer; files that keep to the glTF 2.0
// rules import as before, with each boundary (the last byte of a view) taken exactly. Under
// the sanitized suite, the accessor and sparse cases are heap-buffer-overflows without the check.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "../mesh_test_files.h"
#include "floptle/core/asset/mesh_import.h"

namespace floptle::asset {
namespace {

using nlohmann::json;

std::string floats(std::initializer_list<float> values) {
  std::string out(values.size() * sizeof(float), '\0');
  std::memcpy(out.data(), values.begin(), out.size());
  return out;
}
std::string u16s(std::initializer_list<std::uint16_t> values) {
  std::string out(values.size() * 2, '\0');
  std::memcpy(out.data(), values.begin(), out.size());
  return out;
}
std::string u32(std::uint32_t v) {
  return std::string(reinterpret_cast<const char*>(&v), 4);
}

/// A .glb of `document` and `bin` (each padded to 4 bytes, JSON with spaces).
std::string glb(const json& document, std::string bin) {
  std::string text = document.dump();
  text.append((4 - text.size() % 4) % 4, ' ');
  bin.append((4 - bin.size() % 4) % 4, '\0');
  std::string body = u32(static_cast<std::uint32_t>(text.size())) + u32(0x4E4F534A) + text;
  if (!bin.empty()) body += u32(static_cast<std::uint32_t>(bin.size())) + u32(0x004E4942) + bin;
  return "glTF" + u32(2) + u32(static_cast<std::uint32_t>(12 + body.size())) + body;
}

/// The triangle (0,0,0), (1,0,0), (0,1,0): positions in bytes 0..35 of buffer 0.
const std::string kTriangle = floats({0, 0, 0, 1, 0, 0, 0, 1, 0});

json triangleDocument() {
  return json::parse(R"({
    "asset": {"version": "2.0"}, "scene": 0, "scenes": [{"nodes": [0]}], "nodes": [{"mesh": 0}],
    "buffers": [{"byteLength": 36}], "bufferViews": [{"buffer": 0, "byteLength": 36}],
    "accessors": [{"bufferView": 0, "componentType": 5126, "count": 3, "type": "VEC3"}],
    "meshes": [{"primitives": [{"attributes": {"POSITION": 0}}]}]})");
}

class GltfStructure : public ::testing::Test {
 protected:
  void SetUp() override { dir_ = floptle::testing::makeTempDir("gltf_structure"); }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  Expected<TriangleMesh> import(const std::string& bytes, const std::string& name = "mesh.glb") {
    const auto path = dir_ / name;
    floptle::testing::writeText(path, bytes);
    return importMesh(path);
  }
  /// importMesh's refusal of the file, which must name it; "(imported)" when it is none.
  std::string refusal(const std::string& bytes, const std::string& name = "mesh.glb") {
    auto mesh = import(bytes, name);
    if (mesh.ok()) return "(imported)";
    EXPECT_EQ(mesh.error().where, (dir_ / name).string());
    return mesh.error().what;
  }
  /// The triangle's corners as importMesh gives them.
  static std::vector<Vec3> corners(const Expected<TriangleMesh>& mesh) {
    if (!mesh.ok() || mesh->triangleCount() != 1) return {};
    const auto c = mesh->corners(0);
    return {c[0], c[1], c[2]};
  }

  std::filesystem::path dir_;
};

#define EXPECT_REFUSED(bytes, words)                                               \
  do {                                                                             \
    const std::string what_ = refusal(bytes);                                      \
    EXPECT_NE(what_.find("not a readable glTF file"), std::string::npos) << what_; \
    EXPECT_NE(what_.find(words), std::string::npos) << what_;                      \
  } while (false)

TEST_F(GltfStructure, TheTriangleImportsFromAGlbAndFromAGltfWithItsBufferInline) {
  auto fromGlb = import(glb(triangleDocument(), kTriangle));
  ASSERT_TRUE(fromGlb.ok()) << fromGlb.error().message();
  EXPECT_EQ(corners(fromGlb), (std::vector<Vec3>{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}}));
  json text = triangleDocument();
  text["buffers"][0]["uri"] =
      "data:application/octet-stream;base64," + floptle::testing::base64(kTriangle);
  auto fromGltf = import(text.dump(), "mesh.gltf");
  ASSERT_TRUE(fromGltf.ok()) << fromGltf.error().message();
  EXPECT_EQ(corners(fromGltf), corners(fromGlb));
  // A .gltf is held to the same rules: its accessor here ends 4 bytes past its view.
  text["accessors"][0]["byteOffset"] = 4;
  EXPECT_NE(refusal(text.dump(), "mesh.gltf").find("/accessors/0"), std::string::npos);
}

TEST_F(GltfStructure, AnAccessorEndsAtItsViewsLastByteAndNotOnePast) {
  // The triangle after 4 bytes of something else: a 40-byte view, the positions from byte 4
  // ending on its last byte. Assimp checks byteOffset + count * 4 (one float): 8 + 12 passes.
  const std::string bin = floats({7}) + kTriangle;
  json doc = triangleDocument();
  doc["buffers"][0]["byteLength"] = 40;
  doc["bufferViews"][0]["byteLength"] = 40;
  doc["accessors"][0]["byteOffset"] = 4;
  auto mesh = import(glb(doc, bin));
  ASSERT_TRUE(mesh.ok()) << mesh.error().message();
  EXPECT_EQ(corners(mesh), (std::vector<Vec3>{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}}));
  doc["accessors"][0]["byteOffset"] = 8;
  EXPECT_REFUSED(glb(doc, bin),
                 "/accessors/0: 3 element(s) of 12 bytes from byte 8 (stride 12) "
                 "run past bufferView 0's 40 bytes");
}

TEST_F(GltfStructure, OffsetsNear2To64DoNotWrapPastTheChecks) {
  json view = triangleDocument();
  view["bufferViews"][0]["byteOffset"] = 18446744073709551608ull;
  EXPECT_REFUSED(glb(view, kTriangle), "/bufferViews/0: bytes 18446744073709551608 + 36");
  json accessor = triangleDocument();
  accessor["accessors"][0]["byteOffset"] = 18446744073709551608ull;
  EXPECT_REFUSED(glb(accessor, kTriangle), "/accessors/0");
  json negative = triangleDocument();
  negative["accessors"][0]["byteOffset"] = -4;
  EXPECT_REFUSED(glb(negative, kTriangle), "/accessors/0/byteOffset: is not a non-negative");
}

TEST_F(GltfStructure, AStrideIsHonouredAndHeldToTheElementAndTheView) {
  // Positions interleaved with 12 bytes of something else: stride 24, a 72-byte view (Assimp
  // reads count * stride bytes, though the last element ends on byte 2 * 24 + 12 = 60).
  const std::string junk = floats({9, 9, 9});
  json doc = triangleDocument();
  doc["buffers"][0]["byteLength"] = 72;
  doc["bufferViews"][0] = {{"buffer", 0}, {"byteLength", 72}, {"byteStride", 24}};
  const std::string interleaved =
      floats({0, 0, 0}) + junk + floats({1, 0, 0}) + junk + floats({0, 1, 0}) + junk;
  auto mesh = import(glb(doc, interleaved));
  ASSERT_TRUE(mesh.ok()) << mesh.error().message();
  EXPECT_EQ(corners(mesh), (std::vector<Vec3>{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}}));
  doc["bufferViews"][0]["byteLength"] = 56;
  EXPECT_REFUSED(glb(doc, interleaved), "run past bufferView 0's 56 bytes");
  json narrow = triangleDocument();
  narrow["bufferViews"][0]["byteStride"] = 4;
  EXPECT_REFUSED(glb(narrow, kTriangle), "byteStride 4 is less than its element of 12 bytes");
  narrow["bufferViews"][0]["byteStride"] = 14;
  EXPECT_REFUSED(glb(narrow, kTriangle), "/bufferViews/0/byteStride: is 14");
}

TEST_F(GltfStructure, SparseDataIsReadWithinItsViews) {
  // Vertex 2 moved to (0, 2, 0) by a sparse substitution: index 2 (u16, padded), one VEC3.
  const std::string bin = kTriangle + u16s({2, 0}) + floats({0, 2, 0});
  json doc = triangleDocument();
  doc["buffers"][0]["byteLength"] = 52;
  doc["bufferViews"].push_back({{"buffer", 0}, {"byteOffset", 36}, {"byteLength", 4}});
  doc["bufferViews"].push_back({{"buffer", 0}, {"byteOffset", 40}, {"byteLength", 12}});
  doc["accessors"][0]["sparse"] = {{"count", 1},
                                   {"indices", {{"bufferView", 1}, {"componentType", 5123}}},
                                   {"values", {{"bufferView", 2}}}};
  auto mesh = import(glb(doc, bin));
  ASSERT_TRUE(mesh.ok()) << mesh.error().message();
  EXPECT_EQ(corners(mesh), (std::vector<Vec3>{{0, 0, 0}, {1, 0, 0}, {0, 2, 0}}));
  json more = doc;
  more["accessors"][0]["sparse"]["count"] = 100;
  EXPECT_REFUSED(glb(more, bin), "/accessors/0/sparse/count: is 100 (1 to the accessor's 3)");
  json indices = doc;
  indices["accessors"][0]["sparse"]["count"] = 3;
  EXPECT_REFUSED(glb(indices, bin), "/accessors/0/sparse/indices: 3 element(s) of 2 bytes");
  json values = doc;
  values["accessors"][0]["sparse"]["indices"]["byteOffset"] = 0;
  values["accessors"][0]["sparse"]["values"]["byteOffset"] = 4;
  EXPECT_REFUSED(glb(values, bin), "/accessors/0/sparse/values: 1 element(s) of 12 bytes");
  json without = doc;
  without["accessors"][0]["sparse"].erase("indices");
  EXPECT_REFUSED(glb(without, bin), "/accessors/0/sparse: has no indices object");
}

TEST_F(GltfStructure, TheBinChunkHoldsBufferZeroAndTheFileHoldsTheChunks) {
  json doc = triangleDocument();
  doc["buffers"][0]["byteLength"] = 400;
  doc["bufferViews"][0]["byteLength"] = 400;
  EXPECT_REFUSED(glb(doc, kTriangle),
                 "/buffers/0/byteLength: is 400 bytes; the BIN chunk holds 36");
  EXPECT_REFUSED(glb(triangleDocument(), ""),
                 "/buffers/0: is a .glb's BIN chunk, and the file has none");
  const std::string whole = glb(triangleDocument(), kTriangle);
  EXPECT_REFUSED(whole.substr(0, whole.size() - 4), "the header gives");
  std::string shortBin = whole.substr(0, whole.size() - 4);
  shortBin.replace(8, 4, u32(static_cast<std::uint32_t>(shortBin.size())));
  EXPECT_REFUSED(shortBin, "the BIN chunk's 36 bytes run past the end of the file");
  std::string version = whole;
  version.replace(4, 4, u32(1));
  EXPECT_REFUSED(version, "binary glTF version 1");
  // A JSON chunk padded with NUL bytes, as some exporters write it, is read up to the first.
  std::string text = triangleDocument().dump();
  text += std::string((4 - text.size() % 4) % 4 + 4, '\0');
  const std::string body = u32(static_cast<std::uint32_t>(text.size())) + u32(0x4E4F534A) + text +
                           u32(36) + u32(0x004E4942) + kTriangle;
  EXPECT_EQ(refusal("glTF" + u32(2) + u32(static_cast<std::uint32_t>(12 + body.size())) + body),
            "(imported)");
}

TEST_F(GltfStructure, APrimitiveDrawsEnoughForItsModeFromPairedSetsOfOneCount) {
  const std::string bin = kTriangle + u16s({0, 0});
  json strip = triangleDocument();
  strip["buffers"][0]["byteLength"] = 40;
  strip["bufferViews"].push_back({{"buffer", 0}, {"byteOffset", 36}, {"byteLength", 2}});
  strip["accessors"].push_back(
      {{"bufferView", 1}, {"componentType", 5123}, {"count", 1}, {"type", "SCALAR"}});
  strip["meshes"][0]["primitives"][0]["indices"] = 1;
  strip["meshes"][0]["primitives"][0]["mode"] = 5;
  EXPECT_REFUSED(glb(strip, bin), "/meshes/0/primitives/0: draws 1 index; mode 5 needs at least 3");
  strip["meshes"][0]["primitives"][0]["mode"] = 7;
  EXPECT_REFUSED(glb(strip, bin), "/meshes/0/primitives/0/mode: is 7");
  strip["meshes"][0]["primitives"][0]["mode"] = 0;  // one point: drawn, though no triangle
  EXPECT_EQ(refusal(glb(strip, bin)).find("not a readable glTF"), std::string::npos);
  strip["accessors"][1]["componentType"] = 5126;
  strip["bufferViews"][1]["byteLength"] = 4;
  EXPECT_REFUSED(glb(strip, bin), "no SCALAR of 5121, 5123 or 5125");
  // A strip of the three vertices, without indices: one triangle.
  json threeVertices = triangleDocument();
  threeVertices["meshes"][0]["primitives"][0]["mode"] = 5;
  auto mesh = import(glb(threeVertices, kTriangle));
  ASSERT_TRUE(mesh.ok()) << mesh.error().message();
  EXPECT_EQ(mesh->triangleCount(), 1u);
  // A NORMAL set of two where POSITION has three.
  json normals = triangleDocument();
  normals["accessors"].push_back(
      {{"bufferView", 0}, {"componentType", 5126}, {"count", 2}, {"type", "VEC3"}});
  normals["meshes"][0]["primitives"][0]["attributes"]["NORMAL"] = 1;
  EXPECT_REFUSED(glb(normals, kTriangle),
                 "/attributes/NORMAL: has 2 elements; the primitive has 3 vertices");
  // Two weight sets and one joint set: Assimp reads the second weights with joints it has not.
  json unpaired = triangleDocument();
  unpaired["buffers"][0]["byteLength"] = 96;
  unpaired["bufferViews"].push_back({{"buffer", 0}, {"byteOffset", 36}, {"byteLength", 12}});
  unpaired["bufferViews"].push_back({{"buffer", 0}, {"byteOffset", 48}, {"byteLength", 48}});
  unpaired["accessors"].push_back(
      {{"bufferView", 1}, {"componentType", 5121}, {"count", 3}, {"type", "VEC4"}});
  unpaired["accessors"].push_back(
      {{"bufferView", 2}, {"componentType", 5126}, {"count", 3}, {"type", "VEC4"}});
  auto& attributes = unpaired["meshes"][0]["primitives"][0]["attributes"];
  attributes["JOINTS_0"] = 1;
  attributes["WEIGHTS_0"] = 2;
  attributes["WEIGHTS_1"] = 2;
  EXPECT_REFUSED(glb(unpaired, kTriangle + std::string(60, '\0')),
                 "1 JOINTS_n and 2 WEIGHTS_n sets");
}

TEST_F(GltfStructure, SkinsAndAnimationsHoldWhatAssimpReadsOfThem) {
  const std::string identity = floats({1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1});
  const std::string bin = kTriangle + identity + floats({0, 1}) + floats({0, 0, 0, 1, 1, 1});
  json doc = triangleDocument();
  doc["buffers"][0]["byteLength"] = 36 + 64 + 8 + 24;
  doc["bufferViews"].push_back({{"buffer", 0}, {"byteOffset", 36}, {"byteLength", 64}});
  doc["bufferViews"].push_back({{"buffer", 0}, {"byteOffset", 100}, {"byteLength", 8}});
  doc["bufferViews"].push_back({{"buffer", 0}, {"byteOffset", 108}, {"byteLength", 24}});
  doc["accessors"].push_back(
      {{"bufferView", 1}, {"componentType", 5126}, {"count", 1}, {"type", "MAT4"}});
  doc["accessors"].push_back(
      {{"bufferView", 2}, {"componentType", 5126}, {"count", 2}, {"type", "SCALAR"}});
  doc["accessors"].push_back(
      {{"bufferView", 3}, {"componentType", 5126}, {"count", 2}, {"type", "VEC3"}});
  doc["nodes"].push_back({{"name", "bone"}});
  doc["skins"] = json::array({{{"joints", {1}}, {"inverseBindMatrices", 1}}});
  doc["animations"] = json::array(
      {{{"samplers", {{{"input", 2}, {"output", 3}}}},
        {"channels", {{{"sampler", 0}, {"target", {{"node", 0}, {"path", "translation"}}}}}}}});
  ASSERT_EQ(refusal(glb(doc, bin)), "(imported)");

  json twoJoints = doc;
  twoJoints["skins"][0]["joints"] = {1, 0};
  EXPECT_REFUSED(glb(twoJoints, bin), "/skins/0/inverseBindMatrices: names accessor 1");
  json noMatrices = doc;
  noMatrices["skins"][0].erase("inverseBindMatrices");
  EXPECT_REFUSED(glb(noMatrices, bin), "/skins/0: has no inverseBindMatrices");
  json cubic = doc;
  cubic["animations"][0]["samplers"][0]["interpolation"] = "CUBICSPLINE";
  EXPECT_REFUSED(glb(cubic, bin),
                 "/animations/0/samplers/0/output: names accessor 3 of 2 "
                 "elements; 2 keys need at least 6");
  json noNode = doc;
  noNode["animations"][0]["channels"][0]["target"].erase("node");
  EXPECT_REFUSED(glb(noNode, bin), "/animations/0/channels/0/target: has no node");
}

TEST_F(GltfStructure, JsonNestedPastTheLimitIsRefusedBeforeAssimpParsesItByRecursion) {
  constexpr std::size_t kDepthLimit = 512;  // core/src/asset/gltf_structure.h
  // The root object is one level, "extras" the rest.
  const auto nested = [](std::size_t depth) {
    json doc = triangleDocument();
    std::string text = doc.dump();
    text.pop_back();
    return text + ",\"extras\":" + std::string(depth - 1, '[') + std::string(depth - 1, ']') + "}";
  };
  const auto glbOf = [](const std::string& text) {
    std::string padded = text + std::string((4 - text.size() % 4) % 4, ' ');
    const std::string body = u32(static_cast<std::uint32_t>(padded.size())) + u32(0x4E4F534A) +
                             padded + u32(36) + u32(0x004E4942) + kTriangle;
    return "glTF" + u32(2) + u32(static_cast<std::uint32_t>(12 + body.size())) + body;
  };
  EXPECT_EQ(refusal(glbOf(nested(kDepthLimit))), "(imported)");
  EXPECT_REFUSED(glbOf(nested(kDepthLimit + 1)), "nests deeper than 512 levels");
  // Brackets inside a string are text, not nesting.
  json quoted = triangleDocument();
  quoted["extras"] = std::string(4 * kDepthLimit, '[');
  EXPECT_EQ(refusal(glb(quoted, kTriangle)), "(imported)");
}

}  // namespace
}  // namespace floptle::asset
