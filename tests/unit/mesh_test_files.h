#pragma once
// Test helpers for mesh tests: write small OBJ/MTL and glTF files, build icospheres and boxes.
#include <array>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <string>
#include <utility>

#include "floptle/core/asset/triangle_mesh.h"

namespace floptle::testing {

/// A fresh empty folder under the system temp dir.
inline std::filesystem::path makeTempDir(const std::string& name) {
  const auto dir = std::filesystem::temp_directory_path() /
                   ("floptle_" + name + "_" + std::to_string(std::random_device{}()));
  std::filesystem::create_directories(dir);
  return dir;
}

inline void writeText(const std::filesystem::path& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

/// Unit cube centred on the origin: the top face (+Y) in material "grass" (green), the other
/// five faces in "rock" (grey). 12 triangles, outward winding, +Y up.
inline std::filesystem::path writeTwoMaterialCubeObj(const std::filesystem::path& dir) {
  writeText(dir / "cube.mtl", "newmtl grass\nKd 0.1 0.8 0.2\n\nnewmtl rock\nKd 0.5 0.5 0.5\n");
  std::string obj = "mtllib cube.mtl\n";
  for (int i = 0; i < 8; ++i)
    obj += "v " + std::to_string((i & 1) ? 0.5 : -0.5) + " " +
           std::to_string((i & 2) ? 0.5 : -0.5) + " " + std::to_string((i & 4) ? 0.5 : -0.5) + "\n";
  // Vertex numbers (1-based): bit0 x, bit1 y, bit2 z.
  obj += "usemtl rock\n";
  obj += "f 1 5 7 3\n";  // -x
  obj += "f 2 4 8 6\n";  // +x
  obj += "f 1 2 6 5\n";  // -y
  obj += "f 1 3 4 2\n";  // -z
  obj += "f 5 6 8 7\n";  // +z
  obj += "usemtl grass\n";
  obj += "f 3 7 8 4\n";  // +y
  writeText(dir / "cube.obj", obj);
  return dir / "cube.obj";
}

inline std::string base64(const std::string& bytes) {
  static const char* table = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  std::size_t i = 0;
  for (; i + 2 < bytes.size(); i += 3) {
    const unsigned v = (unsigned char)bytes[i] << 16 | (unsigned char)bytes[i + 1] << 8 |
                       (unsigned char)bytes[i + 2];
    out += table[v >> 18 & 63], out += table[v >> 12 & 63], out += table[v >> 6 & 63],
        out += table[v & 63];
  }
  if (bytes.size() - i == 1) {
    const unsigned v = (unsigned char)bytes[i] << 16;
    out += table[v >> 18 & 63], out += table[v >> 12 & 63], out += "==";
  } else if (bytes.size() - i == 2) {
    const unsigned v = (unsigned char)bytes[i] << 16 | (unsigned char)bytes[i + 1] << 8;
    out += table[v >> 18 & 63], out += table[v >> 12 & 63], out += table[v >> 6 & 63], out += "=";
  }
  return out;
}

/// glTF 2.0 with an embedded base64 buffer (or, with `bufferFile`, that file beside it, as
/// Blender's "glTF Separate" writes): one mesh of two primitives, one triangle each.
/// Primitive 0 (x in [0,1]) uses material 1 "rock" (grey), primitive 1 (x in [3,4]) material 0
/// "grass" (green). The node is translated by (0, 0, 5).
inline std::filesystem::path writeTwoMaterialGltf(const std::filesystem::path& dir,
                                                  const std::string& bufferFile = {}) {
  const float positions[18] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 3, 0, 0, 4, 0, 0, 3, 1, 0};
  const std::string bytes(reinterpret_cast<const char*>(positions), sizeof(positions));
  if (!bufferFile.empty()) writeText(dir / bufferFile, bytes);
  const std::string uri =
      bufferFile.empty() ? "data:application/octet-stream;base64," + base64(bytes) : bufferFile;
  const std::string json = R"({
  "asset": {"version": "2.0"},
  "scene": 0,
  "scenes": [{"nodes": [0]}],
  "nodes": [{"mesh": 0, "translation": [0, 0, 5]}],
  "materials": [
    {"name": "grass", "pbrMetallicRoughness": {"baseColorFactor": [0.1, 0.8, 0.2, 1.0]}},
    {"name": "rock", "pbrMetallicRoughness": {"baseColorFactor": [0.5, 0.5, 0.5, 1.0]}}
  ],
  "meshes": [{"primitives": [
    {"attributes": {"POSITION": 0}, "material": 1},
    {"attributes": {"POSITION": 1}, "material": 0}
  ]}],
  "buffers": [{"byteLength": 72, "uri": ")" +
                           uri + R"("}],
  "bufferViews": [{"buffer": 0, "byteOffset": 0, "byteLength": 72}],
  "accessors": [
    {"bufferView": 0, "byteOffset": 0, "componentType": 5126, "count": 3, "type": "VEC3", "min": [0, 0, 0], "max": [1, 1, 0]},
    {"bufferView": 0, "byteOffset": 36, "componentType": 5126, "count": 3, "type": "VEC3", "min": [3, 0, 0], "max": [4, 1, 0]}
  ]
})";
  writeText(dir / "two.gltf", json);
  return dir / "two.gltf";
}

/// Orients every triangle so its normal points away from `centre` (convex shapes only).
inline void orientOutward(asset::TriangleMesh& mesh, Vec3 centre) {
  for (auto& t : mesh.triangles) {
    const Vec3 a = mesh.positions[t[0]], b = mesh.positions[t[1]], c = mesh.positions[t[2]];
    if (glm::dot(glm::cross(b - a, c - a), (a + b + c) / 3.0f - centre) < 0.0f)
      std::swap(t[1], t[2]);
  }
}

/// Icosphere of `radius` (m) about the origin, `subdivisions` times split (20 * 4^n triangles).
inline asset::TriangleMesh icosphere(int subdivisions, float radius) {
  asset::TriangleMesh m;
  const float t = (1.0f + std::sqrt(5.0f)) / 2.0f;
  const Vec3 base[12] = {{-1, t, 0},  {1, t, 0},  {-1, -t, 0}, {1, -t, 0}, {0, -1, t},  {0, 1, t},
                         {0, -1, -t}, {0, 1, -t}, {t, 0, -1},  {t, 0, 1},  {-t, 0, -1}, {-t, 0, 1}};
  for (const Vec3& v : base) m.positions.push_back(glm::normalize(v));
  m.triangles = {{0, 11, 5}, {0, 5, 1},  {0, 1, 7},   {0, 7, 10}, {0, 10, 11},
                 {1, 5, 9},  {5, 11, 4}, {11, 10, 2}, {10, 7, 6}, {7, 1, 8},
                 {3, 9, 4},  {3, 4, 2},  {3, 2, 6},   {3, 6, 8},  {3, 8, 9},
                 {4, 9, 5},  {2, 4, 11}, {6, 2, 10},  {8, 6, 7},  {9, 8, 1}};
  for (int s = 0; s < subdivisions; ++s) {
    std::map<std::pair<std::uint32_t, std::uint32_t>, std::uint32_t> midpoint;
    auto mid = [&](std::uint32_t a, std::uint32_t b) {
      const auto key = std::minmax(a, b);
      auto it = midpoint.find(key);
      if (it != midpoint.end()) return it->second;
      m.positions.push_back(glm::normalize(m.positions[a] + m.positions[b]));
      const auto index = static_cast<std::uint32_t>(m.positions.size() - 1);
      midpoint[key] = index;
      return index;
    };
    std::vector<std::array<std::uint32_t, 3>> next;
    for (const auto& tri : m.triangles) {
      const std::uint32_t a = mid(tri[0], tri[1]), b = mid(tri[1], tri[2]), c = mid(tri[2], tri[0]);
      next.push_back({tri[0], a, c});
      next.push_back({tri[1], b, a});
      next.push_back({tri[2], c, b});
      next.push_back({a, b, c});
    }
    m.triangles = std::move(next);
  }
  for (Vec3& p : m.positions) p *= radius;
  orientOutward(m, Vec3(0.0f));
  m.triangleSlots.assign(m.triangles.size(), 0);
  m.materialSlots.push_back({"surface", {}});
  return m;
}

/// Box of half extents `half` (m) about the origin: 12 triangles, outward.
inline asset::TriangleMesh boxMesh(Vec3 half) {
  asset::TriangleMesh m;
  for (int i = 0; i < 8; ++i)
    m.positions.push_back(
        Vec3((i & 1) ? half.x : -half.x, (i & 2) ? half.y : -half.y, (i & 4) ? half.z : -half.z));
  const std::uint32_t quads[6][4] = {{0, 4, 6, 2}, {1, 3, 7, 5}, {0, 1, 5, 4},
                                     {2, 6, 7, 3}, {0, 2, 3, 1}, {4, 5, 7, 6}};
  for (const auto& q : quads) {
    m.triangles.push_back({q[0], q[1], q[2]});
    m.triangles.push_back({q[0], q[2], q[3]});
  }
  orientOutward(m, Vec3(0.0f));
  m.triangleSlots.assign(m.triangles.size(), 0);
  m.materialSlots.push_back({"surface", {}});
  return m;
}

/// Min over triangles of the distance from the origin to the triangle's plane (m): the
/// icosphere lies between this radius and its vertex radius.
inline float inradius(const asset::TriangleMesh& m) {
  float r = 1e30f;
  for (std::size_t i = 0; i < m.triangleCount(); ++i) {
    const auto c = m.corners(i);
    const Vec3 n = glm::normalize(glm::cross(c[1] - c[0], c[2] - c[0]));
    r = std::min(r, std::abs(glm::dot(n, c[0])));
  }
  return r;
}

}  // namespace floptle::testing
