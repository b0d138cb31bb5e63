// Simulate inputs harness: the text of an inputs file (`floptle simulate --inputs`) ->
// parseInputsText -> replay for a few ticks on a small fixed scene. The first byte picks the
// scene: even, a physics scene with a character and a vehicle (physics::parseInputEvents);
// odd, the Drift sample (drift::replayInputsFromJson, placements and tuning changes).
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "floptle/core/scene/scene_io.h"
#include "floptle/runtime/replay.h"
#include "fuzz_support.h"

namespace {

using namespace floptle;

constexpr std::string_view kPhysicsScene = R"({
  "format": "floptle.scene", "version": 1, "materials": [], "interactions": [],
  "nodes": [
    {"name": "ground", "shape": {"type": "plane", "normal": [0, 1, 0], "offset": 0},
     "collider": {"body": "static"}},
    {"name": "player", "transform": {"position": [3, 1, 0]},
     "character": {"radius": 0.3, "height": 1.8, "speed": 4, "jump_speed": 5, "step_height": 0.3}},
    {"name": "car", "transform": {"position": [-3, 0.8, 0]},
     "vehicle": {"half_extents": [0.9, 0.3, 2.0], "mass": 1200, "wheels": [
       {"position": [-0.8, -0.3, 1.4], "radius": 0.35, "rest_length": 0.4, "drive": 3000, "steer": 30},
       {"position": [0.8, -0.3, 1.4], "radius": 0.35, "rest_length": 0.4, "drive": 3000, "steer": 30},
       {"position": [-0.8, -0.3, -1.4], "radius": 0.35, "rest_length": 0.4},
       {"position": [0.8, -0.3, -1.4], "radius": 0.35, "rest_length": 0.4}]}}
  ]
})";

/// Ticks replayed per input: enough for inputs at ticks 0..7 to act.
constexpr std::uint64_t kTicks = 8;

nlohmann::ordered_json load(std::string_view text) {
  auto document = scene::parseSceneText(text);
  if (!document) {
    std::fprintf(stderr, "fuzz_simulate_inputs set-up: %s\n", document.error().message().c_str());
    std::abort();
  }
  return std::move(*document);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const nlohmann::ordered_json physicsScene = load(kPhysicsScene);
  static const nlohmann::ordered_json driftScene = load(fuzz::readSourceFile("scenes/drift.json"));
  if (size == 0) return 0;
  const bool drift = (data[0] & 1) != 0;
  const std::string_view text(reinterpret_cast<const char*>(data) + 1, size - 1);
  auto inputs = runtime::parseInputsText(text, "inputs.json");
  if (!inputs) return 0;
  runtime::ReplayOptions options;
  options.ticks = kTicks;
  options.inputs = &*inputs;
  options.sceneName = "scene.json";
  options.inputsName = "inputs.json";
  (void)runtime::replay(drift ? driftScene : physicsScene, FLOPTLE_SOURCE_DIR "/scenes", options);
  return 0;
}
