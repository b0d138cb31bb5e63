#pragma once
// Step 1 of loading also runs step 3's whole-document check: RapidJSON's schema validator is
// itself a handler of the reader's events, so a valid text needs no copy of the document for
// the schema. Only a document it refuses is converted and walked for every problem
// (schemaProblems).
#include <memory>
#include <string_view>

#include <rapidjson/schema.h>
#include <nlohmann/json.hpp>

#include "floptle/core/expected.h"

namespace floptle::scene {

/// One parsed text: the document, and whether it meets the whole schema.
struct ParsedJson {
  nlohmann::ordered_json document;
  bool schemaValid = false;
};

/// Step 1 (scene_text.cpp): size, depth, duplicate keys, syntax, finite numbers; and the
/// whole-document schema check on the way.
Expected<ParsedJson> parseJsonText(std::string_view text);

/// A validator of the whole scene schema (scene_schema.cpp), to be fed one document's events.
std::unique_ptr<rapidjson::SchemaValidator> wholeSchemaValidator();

}  // namespace floptle::scene
