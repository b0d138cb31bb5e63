// Loading: file -> text -> JSON -> version -> schema -> semantic checks. A document is
// accepted whole or refused with every problem found.
#include <fstream>
#include <sstream>
#include <system_error>

#include "floptle/core/scene/scene.h"
#include "floptle/core/scene/scene_io.h"
#include "scene/scene_internal.h"
#include "scene/scene_parsed.h"

namespace floptle::scene {
namespace {

bool isSameOrNested(const std::string& pointer, const std::string& ancestor) {
  return pointer == ancestor ||
         (pointer.size() > ancestor.size() && pointer.compare(0, ancestor.size(), ancestor) == 0 &&
          pointer[ancestor.size()] == '/');
}

std::string megabytes(std::uintmax_t bytes) {
  std::ostringstream text;
  text.precision(1);
  text << std::fixed << static_cast<double>(bytes) / (1024.0 * 1024.0) << " MiB";
  return text.str();
}

/// Steps 2-4. `schemaValid`: true when step 1 found the document meets the whole schema (then
/// step 3 has nothing to add); false to check it here. `built` receives the Scene that step 4
/// built; it is buildScene's answer when no problem is returned.
std::vector<Error> checkBuilding(const nlohmann::ordered_json& document, bool schemaValid,
                                 Scene& built) {
  if (!document.is_object()) {
    return {Error{"", "a scene document is a JSON object, found " + describeType(document)}};
  }
  // A newer file may be shaped differently throughout: say that, and nothing else.
  if (const auto version = document.find("version"); version != document.end() &&
                                                     version->is_number() &&
                                                     version->get<double>() > kSceneFormatVersion) {
    return {Error{"/version", "this scene is format version " + version->dump() +
                                  ", written by a newer Floptle; this build reads version " +
                                  std::to_string(kSceneFormatVersion) +
                                  " and older: update Floptle to open it"}};
  }
  std::vector<Error> problems;
  if (!schemaValid) problems = schemaProblems(document);
  Problems semantic;
  built = buildSceneCollecting(document, semantic);
  for (Error& problem : semantic.list) {
    bool known = false;
    for (const Error& reported : problems) {
      known = known || isSameOrNested(problem.where, reported.where) ||
              isSameOrNested(reported.where, problem.where);
    }
    if (!known) problems.push_back(std::move(problem));
  }
  return problems;
}

}  // namespace

std::vector<Error> checkSceneDocument(const nlohmann::ordered_json& document) {
  Scene unused;
  return checkBuilding(document, false, unused);
}

Expected<LoadedScene> parseScene(std::string_view text) {
  constexpr std::string_view kByteOrderMark = "\xEF\xBB\xBF";
  if (text.substr(0, kByteOrderMark.size()) == kByteOrderMark) {
    text.remove_prefix(kByteOrderMark.size());
  }
  auto parsed = parseJsonText(text);
  if (!parsed) return parsed.error();
  LoadedScene loaded{std::move(parsed->document), {}};
  std::vector<Error> problems = checkBuilding(loaded.document, parsed->schemaValid, loaded.scene);
  if (!problems.empty()) return joinProblems(problems);
  return loaded;
}

Expected<nlohmann::ordered_json> parseSceneText(std::string_view text) {
  auto loaded = parseScene(text);
  if (!loaded) return loaded.error();
  return std::move(loaded->document);
}

Expected<LoadedScene> loadScene(const std::filesystem::path& path) {
  std::error_code error;
  const auto status = std::filesystem::status(path, error);
  if (error || !std::filesystem::exists(status)) {
    return Error{path.string(), "cannot open the scene: no such file"};
  }
  if (!std::filesystem::is_regular_file(status)) {
    return Error{path.string(), "cannot open the scene: not a regular file"};
  }
  const std::uintmax_t size = std::filesystem::file_size(path, error);
  if (error) return Error{path.string(), "cannot read the scene: " + error.message()};
  if (size > kMaxSceneFileBytes) {
    return Error{path.string(), "the file is " + megabytes(size) + ", larger than the " +
                                    megabytes(kMaxSceneFileBytes) +
                                    " a scene file may be; refused without reading it"};
  }
  std::ifstream file(path, std::ios::binary);
  if (!file) return Error{path.string(), "cannot open the scene for reading"};
  std::string text(static_cast<std::size_t>(size), '\0');
  file.read(text.data(), static_cast<std::streamsize>(size));
  if (file.gcount() != static_cast<std::streamsize>(size)) {
    return Error{path.string(), "cannot read the scene: the read stopped early"};
  }
  return parseScene(text);
}

Expected<nlohmann::ordered_json> loadSceneFile(const std::filesystem::path& path) {
  auto loaded = loadScene(path);
  if (!loaded) return loaded.error();
  return std::move(loaded->document);
}

}  // namespace floptle::scene
