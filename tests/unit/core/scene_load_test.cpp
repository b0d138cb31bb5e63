// Scene loader: malformed documents are refused whole, each problem at its JSON pointer,
// and nothing crashes (truncation, wrong types, unknown shapes, duplicates, missing ids,
// NaN / huge numbers, 10,000-deep nesting, a 100 MB file).
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>

#include "floptle/core/scene/scene_io.h"
#include "scene_test_util.h"

namespace floptle::scene {
namespace {

using test::hasProblemAt;
using test::minimalScene;
using Json = nlohmann::ordered_json;

Error refuse(const std::string& text) {
  auto result = parseSceneText(text);
  EXPECT_FALSE(result.ok()) << "accepted:\n" << text;
  return result.ok() ? Error{} : result.error();
}

Error refuse(const Json& document) {
  return refuse(document.dump(2));
}

TEST(SceneLoad, AcceptsTheMinimalScene) {
  auto result = parseSceneText(minimalScene().dump(2));
  ASSERT_TRUE(result.ok()) << result.error().message();
  EXPECT_EQ(*result, minimalScene());
}

TEST(SceneLoad, TruncatedJsonNamesTheOpenValueAndItsLine) {
  const std::string text =
      "{\"format\": \"floptle.scene\", \"version\": 1, \"materials\": [],\n"
      "\"interactions\": [], \"nodes\": [{\"name\": \"a\",\n\"shape\": {\"type\": \"sphere\"";
  const Error error = refuse(text);
  EXPECT_EQ(error.where, "/nodes/0/shape");
  EXPECT_NE(error.what.find("line 3"), std::string::npos) << error.what;
  // Every prefix of a valid document is refused without crashing.
  const std::string full = minimalScene().dump(2);
  for (std::size_t cut = 0; cut + 1 < full.size(); cut += 7) {
    EXPECT_FALSE(parseSceneText(full.substr(0, cut)).ok()) << cut;
  }
}

TEST(SceneLoad, WrongTypesAreReportedAtTheirPointers) {
  Json doc = minimalScene();
  doc["nodes"][0]["shape"]["radius"] = "big";
  doc["materials"][0]["density"] = "heavy";
  doc["nodes"][0]["transform"]["position"] = {1, 2};
  doc["version"] = "1";
  const Error error = refuse(doc);
  EXPECT_TRUE(hasProblemAt(error, "/nodes/0/shape/radius")) << error.message();
  EXPECT_TRUE(hasProblemAt(error, "/materials/0/density")) << error.message();
  EXPECT_TRUE(hasProblemAt(error, "/nodes/0/transform/position")) << error.message();
  EXPECT_TRUE(hasProblemAt(error, "/version")) << error.message();
  // Every problem on its own line, and nothing else.
  EXPECT_EQ(test::problemLines(error).size(), 4u) << error.message();
}

TEST(SceneLoad, UnknownShapeTypeAndUnknownKeys) {
  Json doc = minimalScene();
  doc["nodes"][0]["children"][0]["shape"]["type"] = "hexagon";
  doc["nodes"][0]["colour"] = "red";
  const Error error = refuse(doc);
  EXPECT_TRUE(hasProblemAt(error, "/nodes/0/children/0/shape/type")) << error.message();
  EXPECT_NE(error.message().find("hexagon"), std::string::npos) << error.message();
  EXPECT_TRUE(hasProblemAt(error, "/nodes/0/colour")) << error.message();
}

TEST(SceneLoad, DuplicateNamesIdsAndKeys) {
  Json doc = minimalScene();
  doc["nodes"][0]["children"][0]["name"] = "ball";
  doc["materials"][1]["id"] = "rock";
  const Error error = refuse(doc);
  EXPECT_TRUE(hasProblemAt(error, "/nodes/0/children/0/name")) << error.message();
  EXPECT_TRUE(hasProblemAt(error, "/materials/1/id")) << error.message();
  // The integer 7 and the string "7" are the same id.
  Json sameId = minimalScene();
  sameId["materials"][0]["id"] = "7";
  EXPECT_TRUE(hasProblemAt(refuse(sameId), "/materials/1/id"));
  // A key twice in one object is refused at that key (nlohmann would keep only one).
  const Error key = refuse(std::string(R"({"format": "floptle.scene", "version": 1,
      "materials": [], "interactions": [], "nodes": [{"name": "a", "name": "b"}]})"));
  EXPECT_EQ(key.where, "/nodes/0/name");
  EXPECT_NE(key.what.find("duplicate key"), std::string::npos);
}

TEST(SceneLoad, MaterialIdsThatDoNotExist) {
  Json doc = minimalScene();
  doc["nodes"][0]["material"] = "lava";
  doc["interactions"][0]["b"] = 99;
  doc["nodes"][0]["children"][0]["shape"]["material"] = "obsidian";
  const Error error = refuse(doc);
  EXPECT_TRUE(hasProblemAt(error, "/nodes/0/material")) << error.message();
  EXPECT_TRUE(hasProblemAt(error, "/interactions/0/b")) << error.message();
  EXPECT_TRUE(hasProblemAt(error, "/nodes/0/children/0/shape/material")) << error.message();
  EXPECT_NE(error.message().find("lava"), std::string::npos);
}

TEST(SceneLoad, NanInfinityAndHugeNumbersAreRefusedAtTheirPointer) {
  const std::string head = R"({"format": "floptle.scene", "version": 1, "materials": [],
    "interactions": [], "nodes": [{"name": "a", "shape": {"type": "sphere", "radius": )";
  for (const char* bad : {"NaN", "nan", "Infinity", "-Infinity", "1e400", "-1e400"}) {
    const Error error = refuse(head + bad + "}}]}");
    EXPECT_EQ(error.where, "/nodes/0/shape/radius") << bad << ": " << error.message();
    EXPECT_NE(error.what.find("line 2"), std::string::npos) << error.what;
  }
  // Finite but beyond what a parameter or position may hold.
  Json doc = minimalScene();
  doc["nodes"][0]["transform"]["position"][1] = 1e300;
  doc["nodes"][0]["shape"]["radius"] = 1e39;
  const Error error = refuse(doc);
  EXPECT_TRUE(hasProblemAt(error, "/nodes/0/transform/position/1")) << error.message();
  EXPECT_TRUE(hasProblemAt(error, "/nodes/0/shape/radius")) << error.message();
}

TEST(SceneLoad, NumbersReadAsTheNearestDoubleAndIntegersKeepTheirSign) {
  const std::string text = minimalScene().dump();
  const std::string position = "\"position\":[1,2,3]";
  ASSERT_NE(text.find(position), std::string::npos);
  const auto load = [&](const std::string& numbers) {
    std::string edited = text;
    edited.replace(edited.find(position), position.size(), "\"position\":[" + numbers + "]");
    auto result = parseSceneText(edited);
    EXPECT_TRUE(result.ok()) << numbers << ": " << result.error().message();
    return result.ok() ? (*result)["nodes"][0]["transform"]["position"] : Json();
  };
  // Zeros with large exponents are zero (RapidJSON 1.1 alone reads "0e100" as 1.9e81).
  const Json zeros = load("0e100, -0.0e-100, 0.000e300");
  for (int i = 0; i < 3; ++i) EXPECT_EQ(zeros[i].get<double>(), 0.0) << zeros[i];
  EXPECT_TRUE(std::signbit(zeros[1].get<double>()));
  // Correctly rounded: the smallest normal double, 0.1, and a value below every subnormal.
  const Json exact = load("2.2250738585072014e-308, 0.1, -2.5e-400");
  EXPECT_EQ(exact[0].get<double>(), std::numeric_limits<double>::min());
  EXPECT_EQ(exact[1].get<double>(), 0.1);
  EXPECT_EQ(exact[2].get<double>(), 0.0);
  EXPECT_TRUE(std::signbit(exact[2].get<double>()));
  // Integers stay integers, signed exactly when written with a minus.
  const Json integers = load("-0, 7, -7");
  EXPECT_TRUE(integers[0].is_number_integer() && !integers[0].is_number_unsigned());
  EXPECT_TRUE(integers[1].is_number_unsigned());
  EXPECT_TRUE(integers[2].is_number_integer() && !integers[2].is_number_unsigned());
  // 64-bit integers are read exactly (a double would print 4.294967296e+09 in the error).
  std::string wide = text;
  wide.replace(wide.find(position), position.size(),
               "\"position\":[0, 4294967296, -9223372036854775808]");
  const Error error = refuse(wide);
  EXPECT_NE(error.what.find("found 4294967296\n"), std::string::npos) << error.what;
  EXPECT_NE(error.what.find("found -9223372036854775808"), std::string::npos) << error.what;
  // Past the largest double, however it is written, the number is refused at its pointer.
  const std::string head = R"({"format": "floptle.scene", "version": 1, "materials": [],
    "interactions": [], "nodes": [{"name": "a", "shape": {"type": "sphere", "radius": )";
  for (const char* bad : {"1.8e308", "0.0018e311",
                          "179769313486231580793728971405303415079934132"
                          "710037826936173778980444968292764750946649017"
                          "977587207096330286416692887910946555547851940"
                          "402630657488671505820681908902000708383676273"
                          "854845817711531764475730270069855571366959622"
                          "842914819860834936475292719074168444365510704"
                          "342711559699508093042880177904174497792.0"}) {
    const Error error = refuse(head + bad + "}}]}");
    EXPECT_EQ(error.where, "/nodes/0/shape/radius") << bad << ": " << error.message();
    EXPECT_NE(error.what.find("too big"), std::string::npos) << error.what;
  }
}

TEST(SceneLoad, TenThousandDeepNestingIsRefusedWithoutRecursion) {
  const int depth = 10000;
  const std::string head = R"({"format": "floptle.scene", "version": 1, "materials": [],
    "interactions": [], "nodes": [{"name": "a", "matter": {"x": )";
  const std::string arrays = head + std::string(depth, '[') + std::string(depth, ']') + "}}]}";
  const Error error = refuse(arrays);
  EXPECT_EQ(error.where.rfind("/nodes/0/matter/x/0/0/0", 0), 0u) << error.where;
  // The pointer names the first container past the limit: depth kMaxSceneDepth + 1.
  EXPECT_EQ(std::count(error.where.begin(), error.where.end(), '/'), kMaxSceneDepth);
  std::string objects = head;
  for (int i = 0; i < depth; ++i) objects += "{\"k\": ";
  objects += "1" + std::string(depth, '}') + "}}]}";
  EXPECT_EQ(refuse(objects).where.rfind("/nodes/0/matter/x/k/k", 0), 0u);
  // A deep document built in memory (the editor's path) is refused the same way.
  Json deep = minimalScene();
  Json* inner = &deep["nodes"][0]["matter"];
  for (int i = 0; i < depth; ++i) inner = &((*inner)["k"] = Json::object());
  const std::vector<Error> problems = checkSceneDocument(deep);
  ASSERT_FALSE(problems.empty());
  EXPECT_EQ(problems[0].where.rfind("/nodes/0/matter/k/k", 0), 0u);
  EXPECT_FALSE(sceneToText(deep).ok());
}

TEST(SceneLoad, AHundredMegabyteFileIsRefusedQuickly) {
  test::TempDir dir;
  const auto path = dir.path() / "huge.json";
  {
    std::ofstream file(path, std::ios::binary);
    file << R"({"format": "floptle.scene", "version": 1, "materials": [], "interactions": [],)"
         << "\n\"description\": \"";
    const std::string block(1 << 20, 'x');
    for (int i = 0; i < 100; ++i) file << block;
    file << "\", \"nodes\": []}\n";
  }
  ASSERT_GT(std::filesystem::file_size(path), 100u * 1024u * 1024u);
  const auto start = std::chrono::steady_clock::now();
  auto result = loadSceneFile(path);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.error().where, path.string());
  EXPECT_NE(result.error().what.find("MiB"), std::string::npos) << result.error().what;
  // Refused by its size, before reading: far below any human-noticeable time.
  EXPECT_LT(seconds, 1.0);
  // The same text in memory is refused by length too.
  EXPECT_FALSE(parseSceneText(std::string(kMaxSceneFileBytes + 1, ' ')).ok());
}

TEST(SceneLoad, NewerVersionIsRefusedAsSuch) {
  Json doc = minimalScene();
  doc["version"] = 2;
  doc["nodes"] = "shaped differently in version 2";
  const Error error = refuse(doc);
  EXPECT_EQ(error.where, "/version");
  EXPECT_NE(error.what.find("newer Floptle"), std::string::npos) << error.what;
  EXPECT_EQ(test::problemLines(error).size(), 1u) << error.message();
}

TEST(SceneLoad, MissingKeysWrongFormatAndRanges) {
  Json doc = minimalScene();
  doc.erase("nodes");
  doc["format"] = "other.format";
  doc["materials"][0]["restitution"] = 1.5;
  doc["materials"][1]["color"] = {1, 0};
  doc["interactions"][0]["rule"] = "explode";
  const Error error = refuse(doc);
  EXPECT_TRUE(hasProblemAt(error, "/nodes")) << error.message();
  EXPECT_TRUE(hasProblemAt(error, "/format")) << error.message();
  EXPECT_TRUE(hasProblemAt(error, "/materials/0/restitution")) << error.message();
  EXPECT_TRUE(hasProblemAt(error, "/materials/1/color")) << error.message();
  EXPECT_TRUE(hasProblemAt(error, "/interactions/0/rule")) << error.message();
}

TEST(SceneLoad, SemanticProblemsOnSchemaValidDocuments) {
  Json doc = minimalScene();
  doc["interactions"].push_back(doc["interactions"][0]);
  doc["nodes"][0]["transform"]["rotation"] = {0, 0, 0, 0};
  doc["cameras"] = Json::parse(R"([{"name": "c", "position": [1, 1, 1], "look_at": [1, 1, 1]}])");
  doc["nodes"][0]["shape"] = Json::parse(R"({"type": "round_box", "half_extents": [0.1, 1, 1],
                                             "radius": 0.5})");
  const Error error = refuse(doc);
  EXPECT_TRUE(hasProblemAt(error, "/interactions/1")) << error.message();
  EXPECT_TRUE(hasProblemAt(error, "/nodes/0/transform/rotation")) << error.message();
  EXPECT_TRUE(hasProblemAt(error, "/cameras/0/look_at")) << error.message();
  EXPECT_NE(error.message().find("/nodes/0/shape"), std::string::npos) << error.message();
}

TEST(SceneLoad, NotJsonAtAll) {
  EXPECT_EQ(refuse(std::string("")).where, "");
  EXPECT_FALSE(parseSceneText("[1, 2, 3]").ok());
  EXPECT_FALSE(parseSceneText("{} trailing").ok());
  EXPECT_FALSE(parseSceneText("{\"format\": \"floptle.scene\xff\"}").ok());  // bad UTF-8
  EXPECT_FALSE(parseSceneText("null").ok());
}

TEST(SceneLoad, MissingFileNamesThePath) {
  auto result = loadSceneFile("/nonexistent/scene.json");
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.error().where, "/nonexistent/scene.json");
}

}  // namespace
}  // namespace floptle::scene
