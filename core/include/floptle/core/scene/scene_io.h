#pragma once
// Reading, checking and writing scene documents (resources/scene-format.md).
//
// Loading refuses a bad file whole: every problem is reported as `/json/pointer: what`
// (the parser adds the line and column where it can tell), in the Error's `what`, one per
// line; Error::where holds the first problem's pointer. Checks, in order:
//   1. size <= kMaxSceneFileBytes, nesting <= kMaxSceneDepth, no duplicate object key,
//      valid UTF-8 and JSON (no NaN / Infinity literals, no number beyond double range);
//   2. "version" not newer than kSceneFormatVersion (a newer file is refused as such);
//   3. the JSON Schema resources/scene.schema.json (compiled into the library), by RapidJSON;
//   4. the semantic checks of buildScene (scene.h).
// Saving writes canonical text (2-space indent, trailing newline) atomically.
#include <cstddef>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "floptle/core/expected.h"
#include "floptle/core/scene/scene.h"

namespace floptle::scene {

/// The top-level "format" string.
inline constexpr std::string_view kSceneFormatName = "floptle.scene";
/// The newest "version" this build reads and the one it writes.
inline constexpr int kSceneFormatVersion = 1;
/// Largest scene file accepted (bytes). Big meshes and bakes live in their own files.
inline constexpr std::size_t kMaxSceneFileBytes = 32u * 1024u * 1024u;
/// Deepest nesting of arrays and objects accepted (the document root is depth 1).
inline constexpr int kMaxSceneDepth = 200;

/// A checked scene document and the typed Scene that its semantic checks (step 4) built:
/// `scene` is what buildScene(document) returns.
struct LoadedScene {
  nlohmann::ordered_json document;
  Scene scene;
};

/// Reads, parses and checks a scene file. Errors for the file itself (missing, unreadable,
/// too big) have the path as `where`.
Expected<nlohmann::ordered_json> loadSceneFile(const std::filesystem::path& path);

/// loadSceneFile, keeping the Scene its checks built: a caller that needs the typed model
/// builds it once instead of calling buildScene again on the document.
Expected<LoadedScene> loadScene(const std::filesystem::path& path);

/// Parses and checks scene text (steps 1-4 above).
Expected<nlohmann::ordered_json> parseSceneText(std::string_view text);

/// parseSceneText, keeping the Scene its checks built (as loadScene).
Expected<LoadedScene> parseScene(std::string_view text);

/// Steps 2-4 on an already parsed document (the editor checks its edited JSON with this).
/// Returns every problem; empty when the document is valid.
std::vector<Error> checkSceneDocument(const nlohmann::ordered_json& document);

/// Only the schema step (3), every problem found.
std::vector<Error> schemaProblems(const nlohmann::ordered_json& document);

/// The text of resources/scene.schema.json as compiled into the library.
std::string_view sceneSchemaText();

/// Canonical text of a document: dump with a 2-space indent and a trailing newline.
/// Refuses non-finite numbers (JSON cannot hold them) naming their pointer.
Expected<std::string> sceneToText(const nlohmann::ordered_json& document);

/// Writes canonical text atomically: a temporary file in the same folder, flushed to disk,
/// then renamed over `path`. On any failure the old file is left byte-identical, the
/// temporary file is removed and the error says why. An existing file's permissions are kept.
/// It writes any finite document; run checkSceneDocument first to save only valid scenes.
Expected<void> saveSceneFile(const std::filesystem::path& path,
                             const nlohmann::ordered_json& document);

/// Joins problems into one Error: where = the first pointer, what = every problem as
/// `pointer: what`, one per line (the first without its pointer, which message() prepends).
Error joinProblems(const std::vector<Error>& problems);

/// A JSON pointer's reference token escaped per RFC 6901 ("~" -> "~0", "/" -> "~1").
std::string escapePointerToken(std::string_view token);

}  // namespace floptle::scene
