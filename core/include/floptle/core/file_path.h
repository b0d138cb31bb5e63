#pragma once
// Paths as the project compares and shows them.
#include <filesystem>
#include <system_error>

namespace floptle {

/// `path` made absolute (against the current folder) and lexically normal ("a/../b" -> "b"),
/// without touching the file system beyond reading the current folder; when even that cannot
/// be read, the path as given, normalized. Two spellings of one file compare equal after it
/// (unless a symbolic link is involved: std::filesystem::canonical resolves those).
inline std::filesystem::path absoluteNormal(const std::filesystem::path& path) {
  std::error_code ec;
  const std::filesystem::path absolute = std::filesystem::absolute(path, ec);
  return (ec ? path : absolute).lexically_normal();
}

}  // namespace floptle
