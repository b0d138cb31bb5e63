#pragma once
// An RGBA8 image with a per-pixel depth, and PNG I/O (libpng).
#include <cstdint>
#include <string>
#include <vector>

#include "floptle/core/expected.h"

namespace floptle::render {

struct Image {
  int width = 0;
  int height = 0;
  /// Row-major from the top row, 4 bytes per pixel (R, G, B, A).
  std::vector<std::uint8_t> rgba;
  /// Distance along each pixel's ray to the surface (m); +infinity where the ray sees sky.
  /// Empty for images read from PNG.
  std::vector<float> depth;

  const std::uint8_t* pixel(int x, int y) const { return &rgba[(std::size_t(y) * width + x) * 4]; }
};

/// Writes `image` as an 8-bit RGBA PNG; the error names the path and what failed.
Expected<void> writePng(const std::string& path, const Image& image);
/// Reads any PNG, converted to 8-bit RGBA.
Expected<Image> readPng(const std::string& path);

/// Mean absolute difference over the R, G, B channels of two equally sized images (0..255);
/// an error when the sizes differ.
Expected<double> meanAbsoluteDifference(const Image& a, const Image& b);

}  // namespace floptle::render
