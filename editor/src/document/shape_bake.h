#pragma once
// The Problems dock's "add bake" fix: a node's shape baked, in its own frame, into an OpenVDB
// level set beside the scene, which the node then names as its "baked_field" (the field sits
// under the node's world transform, so the bake is taken at the identity). The same bake as
// `floptle bake` (physics::bakeColliderField, core's writeBrickMapVdb); slow work, run off the
// UI thread.
#include <atomic>
#include <filesystem>
#include <string>

#include "floptle/core/brickmap/brick_map.h"
#include "floptle/core/expected.h"
#include "floptle/core/field/field_node.h"

namespace floptle::editor {

/// Bakes `shape` at t = 0 with voxel edge `cell` (m) into the level set file `file` (grid
/// "surface"). Errors name the file; an unbounded shape (a plane) cannot be baked.
Expected<void> bakeShapeFile(const field::FieldNode& shape, float cell,
                             const std::filesystem::path& file, const BakeProgress& progress = {},
                             const std::atomic<bool>* cancel = nullptr);

/// A file in `folder` for the bake of node `node` that does not exist yet: NODE.vdb, or
/// NODE_2.vdb, NODE_3.vdb, ... (characters a file name cannot hold become '_').
std::filesystem::path freeBakePath(const std::filesystem::path& folder, const std::string& node);

}  // namespace floptle::editor
