// PNG I/O through libpng's simplified API (png_image), which needs no setjmp handling.
#include <png.h>

#include <cmath>
#include <cstdlib>
#include <cstring>

#include "floptle/core/render/image.h"

namespace floptle::render {

Expected<void> writePng(const std::string& path, const Image& image) {
  if (image.width <= 0 || image.height <= 0 ||
      image.rgba.size() != std::size_t(image.width) * std::size_t(image.height) * 4)
    return Error{path, "image to write is empty or its pixel buffer has the wrong size"};
  png_image png;
  std::memset(&png, 0, sizeof png);
  png.version = PNG_IMAGE_VERSION;
  png.width = static_cast<png_uint_32>(image.width);
  png.height = static_cast<png_uint_32>(image.height);
  png.format = PNG_FORMAT_RGBA;
  if (!png_image_write_to_file(&png, path.c_str(), 0, image.rgba.data(), 0, nullptr)) {
    std::string why = png.message;
    png_image_free(&png);
    return Error{path, "cannot write PNG: " + why};
  }
  return {};
}

Expected<Image> readPng(const std::string& path) {
  png_image png;
  std::memset(&png, 0, sizeof png);
  png.version = PNG_IMAGE_VERSION;
  if (!png_image_begin_read_from_file(&png, path.c_str()))
    return Error{path, std::string("cannot read PNG: ") + png.message};
  png.format = PNG_FORMAT_RGBA;
  Image image;
  image.width = static_cast<int>(png.width);
  image.height = static_cast<int>(png.height);
  image.rgba.resize(PNG_IMAGE_SIZE(png));
  if (!png_image_finish_read(&png, nullptr, image.rgba.data(), 0, nullptr)) {
    std::string why = png.message;
    png_image_free(&png);
    return Error{path, "cannot decode PNG: " + why};
  }
  return image;
}

Expected<double> meanAbsoluteDifference(const Image& a, const Image& b) {
  if (a.width != b.width || a.height != b.height || a.rgba.size() != b.rgba.size())
    return Error{"image", "sizes differ: " + std::to_string(a.width) + "x" +
                              std::to_string(a.height) + " vs " + std::to_string(b.width) + "x" +
                              std::to_string(b.height)};
  if (a.rgba.empty()) return Error{"image", "images are empty"};
  double sum = 0.0;
  for (std::size_t i = 0; i < a.rgba.size(); i += 4)
    for (std::size_t c = 0; c < 3; ++c) sum += std::abs(int(a.rgba[i + c]) - int(b.rgba[i + c]));
  return sum / double(a.rgba.size() / 4 * 3);
}

}  // namespace floptle::render
