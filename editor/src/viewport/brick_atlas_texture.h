#pragma once
// The viewport's brick maps (render::BrickAtlas) as Qt 3D textures: the raymarch shader's
// `u_brickAtlas` (3D, R16_SNORM, linear filtering: a slot's trilinear sample is its brick's
// interpolation) and `u_brickIndex` (2D RGBA32F, nearest). Only the slots the atlas marks
// dirty are sent, each as one QTextureDataUpdate of 9^3 texels; the index, a few texels a top
// cell, is sent whole when it changed.
#include <cstdint>

#include "floptle/core/render/brick_atlas.h"

namespace Qt3DRender {
class QTexture3D;
class QTexture2D;
}  // namespace Qt3DRender

namespace floptle::editor {

class SceneDataTexture;

class BrickAtlasTextures {
 public:
  /// Textures for `atlas`'s slot grid (fixed for the atlas's life). Unparented: the raymarch
  /// material's parameters adopt them when bound.
  explicit BrickAtlasTextures(const render::BrickAtlas& atlas);

  Qt3DRender::QTexture3D* atlasTexture() const { return atlas_; }
  /// The index texture; a new one after an upload that changed the index's height.
  Qt3DRender::QTexture2D* indexTexture() const;

  /// Sends what changed since the last call and marks it sent (atlas.markUploaded()).
  /// Returns true when the index texture was replaced (rebind it).
  bool upload(render::BrickAtlas& atlas);
  /// Bricks sent so far (a test counts them).
  std::uint64_t bricksUploaded() const { return bricksUploaded_; }
  std::uint64_t indexUploads() const { return indexUploads_; }

 private:
  Qt3DRender::QTexture3D* atlas_ = nullptr;
  SceneDataTexture* index_ = nullptr;
  std::uint64_t bricksUploaded_ = 0;
  std::uint64_t indexUploads_ = 0;
};

}  // namespace floptle::editor
