// Saving: canonical text, written atomically (temporary file in the same folder, fsync,
// rename). rename() within one file system replaces the old file in one step, so a reader
// sees either the old bytes or the new ones, and a failure before it leaves the old file as
// it was.
#include <cerrno>
#include <cmath>
#include <cstring>
#include <vector>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "floptle/core/scene/scene_io.h"
#include "scene/scene_internal.h"

namespace floptle::scene {
namespace {

/// The pointer of the first number that is NaN or infinite, if any (iterative walk).
std::optional<std::string> findNonFinite(const nlohmann::ordered_json& document) {
  std::vector<std::pair<const nlohmann::ordered_json*, std::string>> stack{{&document, ""}};
  while (!stack.empty()) {
    auto [value, pointer] = std::move(stack.back());
    stack.pop_back();
    if (value->is_number_float() && !std::isfinite(value->get<double>())) return pointer;
    if (value->is_array()) {
      for (std::size_t i = value->size(); i-- > 0;) {
        stack.emplace_back(&(*value)[i], pointer + "/" + std::to_string(i));
      }
    } else if (value->is_object()) {
      for (const auto& [key, item] : value->items()) {
        stack.emplace_back(&item, pointer + "/" + escapePointerToken(key));
      }
    }
  }
  return std::nullopt;
}

std::string systemError(int code) {
  return std::strerror(code);
}

/// Writes all of `text` to fd; false with errno set on failure.
bool writeAll(int fd, std::string_view text) {
  while (!text.empty()) {
    const ssize_t written = ::write(fd, text.data(), text.size());
    if (written < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    text.remove_prefix(static_cast<std::size_t>(written));
  }
  return true;
}

}  // namespace

Expected<std::string> sceneToText(const nlohmann::ordered_json& document) {
  if (auto deep = findTooDeep(document, kMaxSceneDepth)) {
    return Error{*deep, "nesting deeper than " + std::to_string(kMaxSceneDepth) +
                            " arrays/objects (the limit of a scene file)"};
  }
  if (auto bad = findNonFinite(document)) {
    return Error{*bad, "is not a finite number (NaN or infinity cannot be written to JSON)"};
  }
  try {
    return document.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::strict) + "\n";
  } catch (const nlohmann::json::exception& e) {
    return Error{"", std::string("cannot write the document as JSON: ") + e.what()};
  }
}

Expected<void> saveSceneFile(const std::filesystem::path& path,
                             const nlohmann::ordered_json& document) {
  auto text = sceneToText(document);
  if (!text) return text.error();
  const std::string target = path.string();
  if (path.filename().empty()) return Error{target, "cannot save: the path names no file"};
  const std::filesystem::path folder = path.parent_path().empty() ? "." : path.parent_path();
  std::string temporary = (folder / ("." + path.filename().string() + ".tmp-XXXXXX")).string();
  const int fd = ::mkstemp(temporary.data());
  if (fd < 0) {
    return Error{target, "cannot save: cannot create a temporary file in " + folder.string() +
                             ": " + systemError(errno)};
  }
  // Keep the permissions of the file being replaced (mkstemp creates 0600).
  struct stat old {};
  const mode_t mode = ::stat(target.c_str(), &old) == 0 ? (old.st_mode & 07777) : 0644;
  auto fail = [&](const std::string& step, int code) {
    ::close(fd);
    ::unlink(temporary.c_str());
    return Error{target, "cannot save: " + step + ": " + systemError(code) +
                             " (the file on disk is unchanged)"};
  };
  if (::fchmod(fd, mode) != 0) return fail("setting permissions", errno);
  if (!writeAll(fd, *text)) return fail("writing " + temporary, errno);
  if (::fsync(fd) != 0) return fail("flushing " + temporary + " to disk", errno);
  if (::close(fd) != 0) {
    const int code = errno;
    ::unlink(temporary.c_str());
    return Error{target, "cannot save: closing " + temporary + ": " + systemError(code) +
                             " (the file on disk is unchanged)"};
  }
  if (::rename(temporary.c_str(), target.c_str()) != 0) {
    const int code = errno;
    ::unlink(temporary.c_str());
    return Error{target, "cannot save: replacing the file: " + systemError(code) +
                             " (the file on disk is unchanged)"};
  }
  // Make the rename itself durable; a failure here no longer affects the file's content.
  const int folderFd = ::open(folder.c_str(), O_RDONLY | O_DIRECTORY);
  if (folderFd >= 0) {
    ::fsync(folderFd);
    ::close(folderFd);
  }
  return {};
}

}  // namespace floptle::scene
