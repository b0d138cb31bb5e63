#pragma once
// Reading a JSON file that is not a scene (an inputs file, a query): the whole file parsed,
// or an error naming the file and the byte where the parse failed. Scenes go through
// scene::loadSceneFile, which also checks them.
#include <string>

#include <nlohmann/json.hpp>

#include "floptle/core/expected.h"

namespace floptle {

Expected<nlohmann::json> readJsonFile(const std::string& path);

}  // namespace floptle
