#include "viewport/scene_data_texture.h"

#include <Qt3DRender/QTexture>
#include <Qt3DRender/QTextureImageData>
#include <Qt3DRender/QTextureImageDataGenerator>

namespace floptle::editor {

namespace {

/// One upload's bytes; equal generators (same generation) let Qt 3D skip a re-upload.
class SceneDataGenerator : public Qt3DRender::QTextureImageDataGenerator {
 public:
  SceneDataGenerator(QByteArray bytes, int width, int height, std::uint64_t generation)
      : bytes_(std::move(bytes)), width_(width), height_(height), generation_(generation) {}

  Qt3DRender::QTextureImageDataPtr operator()() override {
    auto data = Qt3DRender::QTextureImageDataPtr::create();
    data->setTarget(QOpenGLTexture::Target2D);
    data->setFormat(QOpenGLTexture::RGBA32F);
    data->setPixelFormat(QOpenGLTexture::RGBA);
    data->setPixelType(QOpenGLTexture::Float32);
    data->setWidth(width_);
    data->setHeight(height_);
    data->setDepth(1);
    data->setLayers(1);
    data->setFaces(1);
    data->setMipLevels(1);
    data->setData(bytes_, 16, false);
    return data;
  }
  bool operator==(const Qt3DRender::QTextureImageDataGenerator& other) const override {
    const auto* same = Qt3DCore::functor_cast<SceneDataGenerator>(&other);
    return same && same->generation_ == generation_;
  }
  QT3D_FUNCTOR(SceneDataGenerator)

 private:
  QByteArray bytes_;
  int width_, height_;
  std::uint64_t generation_;
};

}  // namespace

SceneDataTexture::SceneDataTexture(Qt3DCore::QNode* parent, int width, int height)
    : QAbstractTextureImage(nullptr),
      texture_(new Qt3DRender::QTexture2D(parent)),
      width_(width),
      height_(height) {
  texture_->setSize(width, height);
  texture_->setFormat(Qt3DRender::QAbstractTexture::RGBA32F);
  texture_->setMinificationFilter(Qt3DRender::QAbstractTexture::Nearest);
  texture_->setMagnificationFilter(Qt3DRender::QAbstractTexture::Nearest);
  texture_->setGenerateMipMaps(false);
  texture_->wrapMode()->setX(Qt3DRender::QTextureWrapMode::ClampToEdge);
  texture_->wrapMode()->setY(Qt3DRender::QTextureWrapMode::ClampToEdge);
  texture_->addTextureImage(this);
  bytes_ = QByteArray(qsizetype(width) * height * 16, '\0');
}

void SceneDataTexture::upload(const std::vector<float>& texels) {
  bytes_ = QByteArray(reinterpret_cast<const char*>(texels.data()),
                      qsizetype(texels.size() * sizeof(float)));
  ++generation_;
  notifyDataGeneratorChanged();
}

Qt3DRender::QTextureImageDataGeneratorPtr SceneDataTexture::dataGenerator() const {
  return Qt3DRender::QTextureImageDataGeneratorPtr(
      new SceneDataGenerator(bytes_, width_, height_, generation_));
}

}  // namespace floptle::editor
