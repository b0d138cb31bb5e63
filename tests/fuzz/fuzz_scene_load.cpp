// Scene loader harness: scene text -> parseSceneText (JSON, schema, semantic checks) ->
// buildScene -> the scene's field. A valid document must also survive its own canonical text:
// sceneToText then parseSceneText again accepts it (what saving and reopening does).
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string_view>

#include "floptle/core/scene/scene.h"
#include "floptle/core/scene/scene_io.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace floptle;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto document = scene::parseSceneText(text);
  if (!document) return 0;  // refused with an error: fine
  auto model = scene::buildScene(*document);
  if (!model) {
    std::fprintf(stderr, "parseSceneText accepted a document buildScene refuses: %s\n",
                 model.error().message().c_str());
    std::abort();
  }
  (void)scene::sceneField(*model);
  auto saved = scene::sceneToText(*document);
  if (!saved) {
    std::fprintf(stderr, "a loaded document cannot be saved: %s\n",
                 saved.error().message().c_str());
    std::abort();
  }
  auto reopened = scene::parseSceneText(*saved);
  if (!reopened) {
    std::fprintf(stderr, "a saved document does not load again: %s\n",
                 reopened.error().message().c_str());
    std::abort();
  }
  return 0;
}
