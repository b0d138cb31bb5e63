#pragma once
// Shared fixture for the document tests: a small scene written out in JSON (so the tests do
// not depend on the scene files), and the do -> undo -> redo check every command must pass.
#include <functional>

#include <gtest/gtest.h>

#include "floptle/editor/editor_document.h"

namespace floptle::editor::test {

inline Json smallScene() {
  return Json::parse(R"({
    "format": "floptle.scene",
    "version": 1,
    "materials": [
      {"id": "rock", "color": [0.5, 0.45, 0.4], "density": 2600, "friction": 0.8,
       "restitution": 0.1, "bulk_modulus": 3.7e10, "yield_strength": 1.0e8},
      {"id": "ice", "color": [0.8, 0.9, 1.0], "density": 917, "friction": 0.05,
       "restitution": 0.3, "bulk_modulus": 8.8e9, "yield_strength": 1.0e6},
      {"id": "spare", "color": [1, 0, 0], "density": 1000, "friction": 0.5,
       "restitution": 0.5, "bulk_modulus": 1.0e9, "yield_strength": 1.0e7}
    ],
    "interactions": [{"a": "rock", "b": "ice", "rule": "hard", "k": 0}],
    "nodes": [
      {"name": "ground", "shape": {"type": "plane", "normal": [0, 1, 0]}, "material": "rock",
       "collider": {"body": "static", "collidable": true}},
      {"name": "ball", "transform": {"position": [0, 2, 0]},
       "shape": {"type": "sphere", "radius": 1}, "material": "ice",
       "children": [
         {"name": "moon", "transform": {"position": [3, 0, 0]},
          "shape": {"type": "sphere", "radius": 0.25}}
       ]},
      {"name": "crate", "transform": {"position": [4, 0.5, 0]},
       "shape": {"type": "box", "half_extents": [0.5, 0.5, 0.5]}}
    ]
  })");
}

/// Loads smallScene() into `document` and checks it was accepted.
inline void openSmallScene(EditorDocument& document) {
  ASSERT_TRUE(document.openJson(smallScene(), {}).ok());
}

/// Runs `edit`, which must change the JSON through one undo step, then checks undo restores
/// the JSON exactly and redo reproduces the edited JSON exactly. Returns the edited JSON.
inline Json expectDoUndoRedo(EditorDocument& document, const std::function<void()>& edit) {
  const Json before = document.json();
  const int steps = document.undoStack()->count();
  edit();
  const Json after = document.json();
  EXPECT_NE(after, before) << "the edit changed nothing";
  EXPECT_EQ(document.undoStack()->count(), steps + 1) << "the edit is not exactly one undo step";
  document.undoStack()->undo();
  EXPECT_EQ(document.json(), before) << "undo did not restore the document";
  document.undoStack()->redo();
  EXPECT_EQ(document.json(), after) << "redo did not reproduce the edit";
  return after;
}

}  // namespace floptle::editor::test
