#pragma once
// A scene with one of each problem runtime::findSceneProblems reports, each on its own node
// (or material, or rule), for the tests of the quick fixes (document) and the Problems dock.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "floptle/runtime/scene_problems.h"

namespace floptle::editor::test {

/// Over a ground plane of rock: a character sunk 0.4 m into the ground ("player"), a dynamic
/// body with no shape ("ghost"), a collider whose two spheres never overlap ("nothing"), a
/// twisted box collider with no bake ("screw"), a node naming a .vdb that is not there
/// ("prop", "/nodes/5/baked_field/file"), a material no node uses ("spare") and one that only
/// a rule names ("moss", rule "/interactions/0").
inline nlohmann::ordered_json problemScene() {
  return nlohmann::ordered_json::parse(R"({
    "format": "floptle.scene", "version": 1,
    "materials": [
      {"id": "rock", "color": [0.5, 0.5, 0.5], "density": 1000, "friction": 0.5, "restitution": 0.1, "bulk_modulus": 1e9, "yield_strength": 1e6},
      {"id": "ice", "color": [0.8, 0.9, 1], "density": 1000, "friction": 0.5, "restitution": 0.1, "bulk_modulus": 1e9, "yield_strength": 1e6},
      {"id": "spare", "color": [1, 0, 0], "density": 1000, "friction": 0.5, "restitution": 0.1, "bulk_modulus": 1e9, "yield_strength": 1e6},
      {"id": "moss", "color": [0, 1, 0], "density": 1000, "friction": 0.5, "restitution": 0.1, "bulk_modulus": 1e9, "yield_strength": 1e6}],
    "interactions": [{"a": "rock", "b": "moss", "rule": "merge", "k": 0.2}],
    "nodes": [
      {"name": "ground", "material": "rock", "collider": {"body": "static"},
       "shape": {"type": "plane", "normal": [0, 1, 0], "offset": 0}},
      {"name": "player", "transform": {"position": [0, 0.5, 0]},
       "character": {"radius": 0.3, "height": 1.8}},
      {"name": "ghost", "transform": {"position": [5, 3, 0]}, "collider": {"body": "dynamic"}},
      {"name": "nothing", "material": "ice", "collider": {"body": "static"},
       "transform": {"position": [-10, 5, 0]},
       "shape": {"type": "intersection", "children": [
         {"type": "transform", "position": [-3, 0, 0], "children": [{"type": "sphere", "radius": 1}]},
         {"type": "transform", "position": [3, 0, 0], "children": [{"type": "sphere", "radius": 1}]}]}},
      {"name": "screw", "material": "ice", "collider": {"body": "static"},
       "transform": {"position": [10, 3, 0]},
       "shape": {"type": "twist", "rate": 1.5, "children": [{"type": "box", "half_extents": [0.5, 1, 0.5]}]}},
      {"name": "prop", "material": "ice", "transform": {"position": [0, 0, 10]},
       "baked_field": {"file": "missing.vdb"}}
    ]})");
}

/// The problems of `all` of kind `kind`.
inline std::vector<runtime::SceneProblem> problemsOfKind(
    const std::vector<runtime::SceneProblem>& all, runtime::ProblemKind kind) {
  std::vector<runtime::SceneProblem> out;
  for (const runtime::SceneProblem& p : all) {
    if (p.kind == kind) out.push_back(p);
  }
  return out;
}

}  // namespace floptle::editor::test
