#pragma once
// The viewport's named overlay layers, CPU side: what RaymarchView's setOverlay* calls edit.
// Each layer carries a version that grows on every change, so the Qt 3D side
// (qt3d_layers.h) re-uploads a layer only when it changed since the last frame.
//
// Depth: meshes draw first with depth test and depth write against the composited field
// depth, so a mesh hides behind field surfaces and hides the field behind it; tested line
// layers then draw with depth test (no depth write), on-top line layers without it.
#include <QString>

#include <cstdint>
#include <map>
#include <vector>

#include "floptle/editor/raymarch_view.h"

namespace floptle::editor {

/// Half the side of the ground grid, and the clamp of drawn selection boxes (m).
inline constexpr float kGridHalfSize = 50.0f;

struct OverlayLineLayer {
  std::vector<OverlayLine> lines;
  OverlayDepth depth = OverlayDepth::Tested;
  std::uint64_t version = 0;
};

struct OverlayMeshLayer {
  OverlayMesh mesh;
  /// Version of the triangles (the transform is a uniform and never forces an upload).
  std::uint64_t version = 0;
};

struct OverlayLayers {
  std::map<QString, OverlayLineLayer> lines;
  std::map<QString, OverlayMeshLayer> meshes;
  /// Source of the layers' versions; grows on every change.
  std::uint64_t nextVersion = 1;
};

}  // namespace floptle::editor
