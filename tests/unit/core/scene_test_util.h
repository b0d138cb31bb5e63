#pragma once
// Helpers for the scene tests: a minimal valid document and problem-line checks.
#include <unistd.h>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "floptle/core/expected.h"

namespace floptle::scene::test {

/// A small valid scene: two materials, one interaction, a sphere node with a child box.
inline nlohmann::ordered_json minimalScene() {
  return nlohmann::ordered_json::parse(R"({
    "format": "floptle.scene", "version": 1,
    "materials": [
      {"id": "rock", "color": [0.5, 0.5, 0.5], "density": 2600, "friction": 0.8,
       "restitution": 0.1, "bulk_modulus": 5e10, "yield_strength": 1e8},
      {"id": 7, "color": [1, 0, 0], "density": 1100, "friction": 1.2,
       "restitution": 0.8, "bulk_modulus": 2e9, "yield_strength": 1.5e7}
    ],
    "interactions": [{"a": "rock", "b": 7, "rule": "merge", "k": 0.5}],
    "nodes": [
      {"name": "ball", "transform": {"position": [1, 2, 3]},
       "shape": {"type": "sphere", "radius": 1}, "material": 7,
       "collider": {"body": "dynamic", "collidable": true},
       "children": [
         {"name": "crate", "transform": {"position": [0, 0, 2]},
          "shape": {"type": "box", "half_extents": [0.5, 0.5, 0.5]}, "material": "rock"}
       ]}
    ]
  })");
}

/// The lines of an error message (one problem per line).
inline std::vector<std::string> problemLines(const Error& error) {
  std::vector<std::string> lines;
  std::istringstream text(error.message());
  for (std::string line; std::getline(text, line);) lines.push_back(line);
  return lines;
}

/// True when some problem line starts with `pointer + ": "`.
inline bool hasProblemAt(const Error& error, const std::string& pointer) {
  for (const std::string& line : problemLines(error)) {
    if (line.rfind(pointer + ": ", 0) == 0) return true;
  }
  return false;
}

inline std::string readBytes(const std::filesystem::path& path) {
  std::ifstream file(path, std::ios::binary);
  std::ostringstream bytes;
  bytes << file.rdbuf();
  return bytes.str();
}

inline void writeBytes(const std::filesystem::path& path, const std::string& bytes) {
  std::ofstream file(path, std::ios::binary);
  file << bytes;
}

/// A fresh empty folder under the system temp dir, removed at scope exit.
class TempDir {
 public:
  TempDir() {
    std::string pattern =
        (std::filesystem::temp_directory_path() / "floptle-scene-XXXXXX").string();
    path_ = ::mkdtemp(pattern.data()) ? pattern : std::string();
  }
  ~TempDir() {
    std::error_code ignored;
    if (!path_.empty()) std::filesystem::remove_all(path_, ignored);
  }
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

}  // namespace floptle::scene::test
