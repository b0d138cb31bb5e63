#include "viewport/brick_atlas_texture.h"

#include <Qt3DRender/QTexture>
#include <Qt3DRender/QTextureDataUpdate>
#include <Qt3DRender/QTextureImageData>

#include "viewport/scene_data_texture.h"

namespace floptle::editor {

using render::BrickAtlas;

BrickAtlasTextures::BrickAtlasTextures(const BrickAtlas& atlas)
    : atlas_(new Qt3DRender::QTexture3D()) {
  const glm::ivec3 n = atlas.atlasTexels();
  atlas_->setSize(n.x, n.y, n.z);
  atlas_->setFormat(Qt3DRender::QAbstractTexture::R16_SNorm);
  atlas_->setMinificationFilter(Qt3DRender::QAbstractTexture::Linear);
  atlas_->setMagnificationFilter(Qt3DRender::QAbstractTexture::Linear);
  atlas_->setGenerateMipMaps(false);
  atlas_->wrapMode()->setX(Qt3DRender::QTextureWrapMode::ClampToEdge);
  atlas_->wrapMode()->setY(Qt3DRender::QTextureWrapMode::ClampToEdge);
  atlas_->wrapMode()->setZ(Qt3DRender::QTextureWrapMode::ClampToEdge);
}

Qt3DRender::QTexture2D* BrickAtlasTextures::indexTexture() const {
  return index_ ? index_->texture() : nullptr;
}

bool BrickAtlasTextures::upload(BrickAtlas& atlas) {
  constexpr int kS = BrickAtlas::kSamples;
  for (int slot : atlas.dirtySlots()) {
    const auto samples = atlas.slotSamples(slot);
    auto data = Qt3DRender::QTextureImageDataPtr::create();
    data->setTarget(QOpenGLTexture::Target3D);
    data->setFormat(QOpenGLTexture::R16_SNorm);
    data->setPixelFormat(QOpenGLTexture::Red);
    data->setPixelType(QOpenGLTexture::Int16);
    data->setWidth(kS);
    data->setHeight(kS);
    data->setDepth(kS);
    data->setLayers(1);
    data->setFaces(1);
    data->setMipLevels(1);
    // A row is 9 samples (18 bytes): not 4-byte aligned.
    data->setAlignment(2);
    data->setData(
        QByteArray(reinterpret_cast<const char*>(samples.data()), qsizetype(samples.size_bytes())),
        2, false);
    const glm::ivec3 o = atlas.slotOrigin(slot);
    Qt3DRender::QTextureDataUpdate update;
    update.setX(o.x);
    update.setY(o.y);
    update.setZ(o.z);
    update.setLayer(0);
    update.setMipLevel(0);
    update.setData(data);
    atlas_->updateData(update);
    ++bricksUploaded_;
  }
  bool replaced = false;
  if (atlas.indexDirty()) {
    // A new height is a new texture (as SceneDataTexture requires).
    if (!index_ || index_->height() != atlas.indexRows()) {
      Qt3DRender::QTexture2D* old = index_ ? index_->texture() : nullptr;
      index_ = new SceneDataTexture(nullptr, BrickAtlas::kIndexWidth, atlas.indexRows());
      delete old;
      replaced = true;
    }
    index_->upload(atlas.indexTexels());
    ++indexUploads_;
  }
  atlas.markUploaded();
  return replaced;
}

}  // namespace floptle::editor
