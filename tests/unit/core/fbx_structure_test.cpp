// FBX files on which Debian's Assimp 5.2.5 would recurse without bound (a model that is its own
// parent or ancestor, models under two parents, records nested thousands deep) are refused by
// importMesh before Assimp reads them, in text and in binary FBX; a deep but sound hierarchy
// still imports. Without the check the first of these overflows the test process's stack.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "floptle/core/asset/mesh_import.h"

namespace floptle::asset {
namespace {

class FbxStructure : public ::testing::Test {
 protected:
  std::filesystem::path write(const std::string& bytes, const std::string& name = "mesh.fbx") {
    const auto path = dir_ / name;
    std::ofstream(path, std::ios::binary) << bytes;
    return path;
  }
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("floptle_fbx_" +
            std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  /// importMesh's error for the file: it must name the file.
  std::string refusal(const std::filesystem::path& file) {
    auto mesh = importMesh(file);
    if (mesh.ok()) return "(imported)";
    EXPECT_EQ(mesh.error().where, file.string());
    return mesh.error().what;
  }

  std::filesystem::path dir_;
};

/// A text FBX: a two-triangle geometry (id 1000) and models 2000, 2001, ... with the given
/// connections ("C: " lines without the key).
std::string textFbx(int models, const std::vector<std::string>& connections) {
  std::string s =
      "; FBX 7.4.0 project file\nFBXHeaderExtension:  {\n\tFBXHeaderVersion: 1003\n"
      "\tFBXVersion: 7400\n}\nObjects:  {\n\tGeometry: 1000, \"Geometry::Tri\", \"Mesh\" {\n"
      "\t\tVertices: *12 {\n\t\t\ta: 0,0,0,1,0,0,0,1,0,1,1,0\n\t\t}\n"
      "\t\tPolygonVertexIndex: *6 {\n\t\t\ta: 0,1,-3,1,3,-3\n\t\t}\n\t\tGeometryVersion: 124\n"
      "\t}\n";
  for (int i = 0; i < models; ++i)
    s += "\tModel: " + std::to_string(2000 + i) + ", \"Model::M" + std::to_string(i) +
         "\", \"Mesh\" {\n\t\tVersion: 232\n\t}\n";
  s += "}\nConnections:  {\n";
  for (const auto& c : connections) s += "\tC: " + c + "\n";
  return s + "}\n";
}

std::string link(int child, int parent) {
  return "\"OO\"," + std::to_string(child) + "," + std::to_string(parent);
}

TEST_F(FbxStructure, TheFuzzFoundModelThatIsItsOwnParentIsRefusedNamingTheModel) {
  const auto file =
      std::filesystem::path(FLOPTLE_TEST_DATA_DIR) / "fuzz" / "assimp_fbx_self_parent.fbx";
  EXPECT_EQ(refusal(file), "not a readable FBX file: model 2000 is connected as its own parent");
}

TEST_F(FbxStructure, AModelUnderTwoParentsIsRefused) {
  const auto file = write(textFbx(2, {link(2001, 0), link(2000, 0), link(2000, 2001)}));
  EXPECT_EQ(refusal(file),
            "not a readable FBX file: model 2000 is connected under two parents (0 and 2001)");
}

TEST_F(FbxStructure, ACycleOfModelsIsRefused) {
  const auto file = write(textFbx(3, {link(2000, 2001), link(2001, 2002), link(2002, 2000)}));
  const std::string why = refusal(file);
  EXPECT_NE(why.find("its own ancestor (a cycle)"), std::string::npos) << why;
}

TEST_F(FbxStructure, AHierarchyDeeperThanTheBoundIsRefusedAndOneAtTheBoundImports) {
  auto chain = [](int depth) {
    std::vector<std::string> links{link(2000, 0), link(1000, 2000 + depth - 1)};
    for (int i = 1; i < depth; ++i) links.push_back(link(2000 + i, 2000 + i - 1));
    return textFbx(depth, links);
  };
  const auto tooDeep = write(chain(1025), "deep.fbx");
  EXPECT_EQ(refusal(tooDeep),
            "not a readable FBX file: the model hierarchy is deeper than 1024 levels (at model "
            "3024)");
  // The geometry hangs under the deepest model: 1024 levels of nodes above two triangles.
  auto mesh = importMesh(write(chain(1024), "bound.fbx"));
  ASSERT_TRUE(mesh.ok()) << mesh.error().message();
  EXPECT_EQ(mesh->triangleCount(), 2u);
}

TEST_F(FbxStructure, ConnectionsNamingAPropertyOrAnotherKindOfObjectAreNoSecondParent) {
  // 2000 and 2001 are under the root. 2000's link to a property of 2001 ("OP" with a name), the
  // geometry under 2000 and a "PP" link add no parent to any model.
  const auto file =
      write(textFbx(2, {link(2000, 0), link(2001, 0), "\"OP\",2000,2001,\"Lcl Translation\"",
                        link(1000, 2000), "\"PP\",2000,\"a\",2001,\"b\""}));
  auto mesh = importMesh(file);
  ASSERT_TRUE(mesh.ok()) << mesh.error().message();
  EXPECT_EQ(mesh->triangleCount(), 2u);
}

TEST_F(FbxStructure, TextNestedDeeperThanTheBoundIsRefusedNamingTheLine) {
  std::string s = textFbx(1, {link(2000, 0), link(1000, 2000)});
  s += "Deep: ";
  for (int i = 0; i < 65; ++i) s += "{\nLevel: ";
  // The 65th brace stands on the line after the 64th.
  const auto lastBrace = s.rfind('{');
  const auto line = 1 + std::count(s.begin(), s.begin() + static_cast<long>(lastBrace), '\n');
  EXPECT_EQ(refusal(write(s)), "not a readable FBX file: malformed FBX text at line " +
                                   std::to_string(line) + ": records nest deeper than 64 levels");
}

/// A binary FBX record: its name, its properties (type code and bytes each), its nested records.
struct Record {
  std::string name;
  std::vector<std::string> properties;
  std::vector<Record> children;
};

std::string longProperty(std::int64_t v) {
  std::string p = "L";
  for (int i = 0; i < 8; ++i)
    p += static_cast<char>((static_cast<std::uint64_t>(v) >> (8 * i)) & 0xff);
  return p;
}

std::string stringProperty(const std::string& s) {
  std::string p = "S";
  for (int i = 0; i < 4; ++i) p += static_cast<char>((s.size() >> (8 * i)) & 0xff);
  return p + s;
}

void putWord(std::string& out, std::size_t at, std::uint64_t v, std::size_t width) {
  for (std::size_t i = 0; i < width; ++i) out[at + i] = static_cast<char>((v >> (8 * i)) & 0xff);
}

void writeRecord(std::string& out, const Record& r, std::size_t width) {
  const std::size_t start = out.size();
  out.append(3 * width, '\0');
  out += static_cast<char>(r.name.size());
  out += r.name;
  std::size_t propertyBytes = 0;
  for (const auto& p : r.properties) {
    out += p;
    propertyBytes += p.size();
  }
  if (!r.children.empty()) {
    for (const auto& c : r.children) writeRecord(out, c, width);
    out.append(3 * width + 1, '\0');
  }
  putWord(out, start, out.size(), width);
  putWord(out, start + width, r.properties.size(), width);
  putWord(out, start + 2 * width, propertyBytes, width);
}

/// A binary FBX of the given version (7400: 32-bit record words; 7500: 64-bit) holding models
/// 2000 and 2001 and the given (child, parent) object links.
std::string binaryFbx(std::uint32_t version, const std::vector<std::pair<int, int>>& links) {
  std::string out = std::string("Kaydara FBX Binary  ") + '\0' + "\x1a" + '\0';
  for (int i = 0; i < 4; ++i) out += static_cast<char>((version >> (8 * i)) & 0xff);
  const std::size_t width = version >= 7500 ? 8 : 4;
  Record objects{"Objects", {}, {}};
  for (int id : {2000, 2001})
    objects.children.push_back(
        {"Model",
         {longProperty(id), stringProperty("M" + std::to_string(id)), stringProperty("Null")},
         {{"Version", {std::string("I\xe8\x00\x00\x00", 5)}, {}}}});
  Record connections{"Connections", {}, {}};
  for (auto [child, parent] : links)
    connections.children.push_back(
        {"C", {stringProperty("OO"), longProperty(child), longProperty(parent)}, {}});
  writeRecord(out, objects, width);
  writeRecord(out, connections, width);
  out.append(3 * width + 1, '\0');  // the footer starts with a null record
  return out;
}

TEST_F(FbxStructure, BinaryFilesOfEitherRecordWidthAreReadLikeText) {
  for (std::uint32_t version : {7400u, 7500u}) {
    SCOPED_TRACE(version);
    EXPECT_EQ(refusal(write(binaryFbx(version, {{2000, 0}, {2001, 2001}}))),
              "not a readable FBX file: model 2001 is connected as its own parent");
    EXPECT_EQ(refusal(write(binaryFbx(version, {{2000, 0}, {2001, 2000}, {2001, 0}}))),
              "not a readable FBX file: model 2001 is connected under two parents (2000 and 0)");
    // Sound links pass the check; Assimp then finds no geometry in the file.
    const std::string sound = refusal(write(binaryFbx(version, {{2000, 0}, {2001, 2000}})));
    EXPECT_EQ(sound.find("not a readable FBX file"), std::string::npos) << sound;
  }
}

TEST_F(FbxStructure, ATruncatedBinaryFileIsRefusedNamingTheByte) {
  const std::string whole = binaryFbx(7400, {{2000, 0}});
  const std::string why = refusal(write(whole.substr(0, 60)));
  EXPECT_EQ(why.rfind("not a readable FBX file: malformed binary FBX at byte ", 0), 0u) << why;
}

TEST_F(FbxStructure, TheSampleBinaryLevelPassesTheCheckAndImports) {
  auto mesh = importMesh(std::filesystem::path(FLOPTLE_TEST_DATA_DIR) / ".." / "fuzz" / "corpus" /
                         "mesh_fbx" / "level.fbx");
  ASSERT_TRUE(mesh.ok()) << mesh.error().message();
  EXPECT_GT(mesh->triangleCount(), 0u);
}

}  // namespace
}  // namespace floptle::asset
