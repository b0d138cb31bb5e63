#pragma once
// The files a scene refers to: each node's `mesh` and `baked_field` component names one,
// relative to the scene file's folder (resources/scene-format.md). `floptle validate` checks
// they are there, so a scene that names a mesh no longer on disk is reported before a world
// is built from it (until now it passed validation and failed only in query, simulate or Play).
#include <filesystem>
#include <string>
#include <vector>

#include "floptle/core/expected.h"
#include "floptle/core/scene/scene.h"

namespace floptle::scene {

struct FileReference {
  /// JSON pointer of the member naming the file ("/nodes/3/mesh/file").
  std::string pointer;
  /// The path as written (relative to the scene's folder unless absolute).
  std::filesystem::path path;
};

/// Every file the scene's components name, in node order. A component whose `file` is missing
/// or not a string is left out: the component's own reader reports that.
std::vector<FileReference> referencedFiles(const Scene& scene);

/// One error per referenced file that is not a readable regular file, resolved against
/// sceneFolder: where = the member's pointer, what = the path as written and why
/// ("rock.vdb: file not found", "models: not a regular file", "...: cannot be read").
std::vector<Error> missingReferencedFiles(const Scene& scene,
                                          const std::filesystem::path& sceneFolder);

}  // namespace floptle::scene
