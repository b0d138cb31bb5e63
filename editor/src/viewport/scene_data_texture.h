#pragma once
// The viewport's scene texture (render::SceneBuffers) as a Qt 3D RGBA32F texture: the raymarch
// shader's `u_sceneData`. Each upload hands Qt 3D a new data generator; the texture object and
// the shader stay, so a moved node or a play tick costs one texture upload, never a compile.
#include <Qt3DRender/QAbstractTextureImage>

#include <cstdint>
#include <vector>

namespace Qt3DRender {
class QTexture2D;
}

namespace floptle::editor {

class SceneDataTexture : public Qt3DRender::QAbstractTextureImage {
 public:
  /// A width x height texture (fixed: a new size is a new SceneDataTexture, since Qt 3D 6.4
  /// does not reallocate a resized texture reliably). The texture is parent's child and owns
  /// this image.
  SceneDataTexture(Qt3DCore::QNode* parent, int width, int height);

  /// The texture to bind (owned by this image's parent).
  Qt3DRender::QTexture2D* texture() const { return texture_; }
  int width() const { return width_; }
  int height() const { return height_; }
  /// Replaces the contents: `texels` holds 4 floats per texel, width() * height() texels.
  void upload(const std::vector<float>& texels);
  std::uint64_t uploads() const { return generation_; }

 protected:
  Qt3DRender::QTextureImageDataGeneratorPtr dataGenerator() const override;

 private:
  Qt3DRender::QTexture2D* texture_ = nullptr;
  QByteArray bytes_;
  int width_ = 1, height_ = 1;
  std::uint64_t generation_ = 0;
};

}  // namespace floptle::editor
