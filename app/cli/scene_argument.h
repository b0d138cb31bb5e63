#pragma once
// The SCENE argument of a command, loaded and checked, its errors naming the file: file-level
// errors already name the path; content errors name a JSON pointer, prefixed with the path.
#include <string>

#include <nlohmann/json.hpp>

#include "floptle/core/expected.h"
#include "floptle/core/scene/scene_io.h"

namespace floptle::cli {

/// The document and the Scene its checks built (scene::loadScene).
inline Expected<scene::LoadedScene> loadSceneArgument(const std::string& path) {
  auto loaded = scene::loadScene(path);
  if (loaded) return loaded;
  const Error& e = loaded.error();
  if (e.where == path) return e;
  return Error{path + (e.where.empty() ? "" : ": " + e.where), e.what};
}

}  // namespace floptle::cli
