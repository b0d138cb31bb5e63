// readJsonFile: a JSON file, parsed whole.
#include "floptle/core/json_file.h"

#include <fstream>
#include <sstream>

namespace floptle {

Expected<nlohmann::json> readJsonFile(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) return Error{path, "cannot open file"};
  std::stringstream text;
  text << file.rdbuf();
  try {
    return nlohmann::json::parse(text.str());
  } catch (const nlohmann::json::parse_error& e) {
    return Error{path + ": byte " + std::to_string(e.byte),
                 "invalid JSON: " + std::string(e.what())};
  }
}

}  // namespace floptle
