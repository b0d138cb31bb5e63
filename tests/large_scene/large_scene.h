#pragma once
// The generated large level of issue 25: a ground plane and N static spheres spread over a
// 400 x 400 m square, deterministic by seed (the same N and seed give the same bytes on every
// platform: the numbers come from splitmix64 and integer arithmetic, never from <random>'s
// implementation-defined distributions). Used by the scale benchmarks, the GUI scale test and,
// through make_large_scene, by hand: never committed as a file.
//
// Layout of the document:
//   materials "ground" and "stone" (no interaction rules: every sphere is its own part of the
//   composition and its own collider);
//   nodes: "ground" (plane y = 0), then "sphere_0" .. "sphere_{N-1}": radius 0.25..1.5 m, resting
//   on the ground (centre y = radius), centre x and z uniform in [-200, 200] m on a 1 cm grid,
//   each with a static collider; then `dynamicBalls` dynamic balls "ball_0".. of radius 0.5 m
//   dropped from 5 m over the centre, so that simulating does work.
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

namespace floptle::test {

struct LargeSceneSpec {
  /// Static spheres (-).
  int spheres = 10000;
  /// Dynamic balls dropped over the middle (-).
  int dynamicBalls = 0;
  std::uint64_t seed = 25;
  /// Side of the square the spheres are spread over (m).
  double side = 400.0;
};

/// splitmix64: a tiny deterministic generator of well-mixed 64-bit values.
class SplitMix64 {
 public:
  explicit SplitMix64(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next() {
    std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  /// An integer in [0, n) (n > 0); the tiny modulo bias does not matter here.
  std::int64_t below(std::int64_t n) {
    return static_cast<std::int64_t>(next() % std::uint64_t(n));
  }

 private:
  std::uint64_t state_;
};

/// The scene document (resources/scene-format.md) of `spec`.
inline nlohmann::ordered_json largeScene(const LargeSceneSpec& spec) {
  using Json = nlohmann::ordered_json;
  Json scene = Json::object();
  scene["format"] = "floptle.scene";
  scene["version"] = 1;
  scene["description"] = "Generated large level: a ground plane and " +
                         std::to_string(spec.spheres) + " static spheres (seed " +
                         std::to_string(spec.seed) + ").";
  auto material = [](const char* id, double r, double g, double b, double density) {
    return Json{
        {"id", id},           {"color", {r, g, b}},   {"density", density},   {"friction", 0.6},
        {"restitution", 0.1}, {"bulk_modulus", 2e10}, {"yield_strength", 3e7}};
  };
  scene["materials"] = {material("ground", 0.5, 0.5, 0.45, 2400.0),
                        material("stone", 0.6, 0.55, 0.5, 2600.0)};
  scene["interactions"] = Json::array();
  scene["cameras"] = {{{"name", "overview"},
                       {"position", {0.0, 60.0, 120.0}},
                       {"look_at", {0.0, 0.0, 0.0}},
                       {"fov", 60.0}}};
  Json nodes = Json::array();
  nodes.push_back({{"name", "ground"},
                   {"shape", {{"type", "plane"}, {"normal", {0, 1, 0}}, {"offset", 0}}},
                   {"material", "ground"},
                   {"collider", {{"body", "static"}}}});
  SplitMix64 rng(spec.seed);
  const auto halfCm = static_cast<std::int64_t>(spec.side * 50.0);  // half side in cm
  for (int i = 0; i < spec.spheres; ++i) {
    const double x = double(rng.below(2 * halfCm + 1) - halfCm) / 100.0;
    const double z = double(rng.below(2 * halfCm + 1) - halfCm) / 100.0;
    const double radius = double(25 + rng.below(126)) / 100.0;  // 0.25 .. 1.50 m
    nodes.push_back({{"name", "sphere_" + std::to_string(i)},
                     {"transform", {{"position", {x, radius, z}}}},
                     {"shape", {{"type", "sphere"}, {"radius", radius}}},
                     {"material", "stone"},
                     {"collider", {{"body", "static"}}}});
  }
  for (int i = 0; i < spec.dynamicBalls; ++i) {
    const double x = double(i % 8) * 1.5 - 5.25;
    const double z = double(i / 8) * 1.5;
    nodes.push_back({{"name", "ball_" + std::to_string(i)},
                     {"transform", {{"position", {x, 5.0, z}}}},
                     {"shape", {{"type", "sphere"}, {"radius", 0.5}}},
                     {"material", "stone"},
                     {"collider", {{"body", "dynamic"}}}});
  }
  scene["nodes"] = std::move(nodes);
  return scene;
}

/// Writes largeScene(spec) to `path` (one node per line); false when the file cannot be
/// written.
inline bool writeLargeScene(const std::filesystem::path& path, const LargeSceneSpec& spec) {
  const nlohmann::ordered_json scene = largeScene(spec);
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << "{\n";
  bool firstKey = true;
  for (const auto& [key, value] : scene.items()) {
    out << (firstKey ? "" : ",\n") << "  " << nlohmann::ordered_json(key).dump() << ": ";
    firstKey = false;
    if (key == "nodes") {
      out << "[\n";
      for (std::size_t i = 0; i < value.size(); ++i)
        out << (i ? ",\n" : "") << "    " << value[i].dump();
      out << "\n  ]";
    } else {
      out << value.dump();
    }
  }
  out << "\n}\n";
  return static_cast<bool>(out);
}

}  // namespace floptle::test
