#pragma once
// Step 1 of loading hands the schema step (3) its own RapidJSON copy of the document, built in
// the same pass over the text, so the schema check needs no conversion of the nlohmann tree.
#include <string_view>
#include <vector>

#include <rapidjson/document.h>
#include <nlohmann/json.hpp>

#include "floptle/core/expected.h"

namespace floptle::scene {

/// One parsed text: the document, and the same values as RapidJSON holds them (objects in
/// the text's key order, integers without a minus as unsigned, as nlohmann reads them).
struct ParsedJson {
  nlohmann::ordered_json document;
  rapidjson::Document mirror;
};

/// Step 1 (scene_text.cpp): size, depth, duplicate keys, syntax, finite numbers.
Expected<ParsedJson> parseJsonText(std::string_view text);

/// Step 3 (scene_schema.cpp) on a RapidJSON document already known to be no deeper than
/// kMaxSceneDepth: every problem found.
std::vector<Error> schemaProblems(const rapidjson::Value& document);

}  // namespace floptle::scene
