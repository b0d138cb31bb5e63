#include "floptle/core/scene/scene_files.h"

#include "floptle/core/file_path.h"

#include <fstream>
#include <system_error>

namespace floptle::scene {
namespace {

/// Components whose `file` member names a file (see resources/scene-format.md).
constexpr const char* kFileComponents[] = {"mesh", "baked_field", "script"};

}  // namespace

std::vector<FileReference> referencedFiles(const Scene& scene) {
  std::vector<FileReference> files;
  for (const SceneNode& node : scene.nodes)
    for (const char* component : kFileComponents) {
      const auto it = node.components.find(component);
      if (it == node.components.end() || !it->is_object()) continue;
      const auto file = it->find("file");
      if (file == it->end() || !file->is_string() || file->get<std::string>().empty()) continue;
      files.push_back({node.pointer + "/" + component + "/file",
                       std::filesystem::path(file->get<std::string>())});
    }
  return files;
}

std::vector<Error> missingReferencedFiles(const Scene& scene,
                                          const std::filesystem::path& sceneFolder) {
  std::vector<Error> problems;
  for (const FileReference& reference : referencedFiles(scene)) {
    const std::filesystem::path resolved = absoluteNormal(sceneFolder / reference.path);
    const std::string named = reference.path.string();
    std::error_code ec;
    const auto status = std::filesystem::status(resolved, ec);
    if (!std::filesystem::exists(status))
      problems.push_back(
          {reference.pointer, named + ": file not found (looked for " + resolved.string() + ")"});
    else if (!std::filesystem::is_regular_file(status))
      problems.push_back({reference.pointer, named + ": not a regular file"});
    else if (!std::ifstream(resolved, std::ios::binary))
      problems.push_back({reference.pointer, named + ": cannot be read"});
  }
  return problems;
}

}  // namespace floptle::scene
