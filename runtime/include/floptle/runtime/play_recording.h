#pragma once
// A recorded play session (`NAME.session.json` beside the scene): what the editor's play mode
// records so that Play > Replay and `floptle simulate SCENE --session FILE` can run it again
// bit for bit. Physics scenes only (Drift's inputs are ripple placements of its own format).
//
//   {"format": "floptle.session", "version": 1,
//    "scene": "level.json",            the scene's file name (for people; not checked)
//    "scene_hash": "<16 hex>",         sceneHash() of the scene document that was played
//    "settings": {"fixed_dt": s, "hash_every": n},
//    "ticks": N,                       ticks recorded
//    "inputs": [...],                  tick-addressed inputs, exactly `simulate --inputs`'s
//    "tuning": [{"tick": t, "patch": [RFC 6902 ops]}],   edits of the play copy, applied
//                                      to the document before tick t runs (tick <= N)
//    "hashes": ["<16 hex>", ...],      the state hash after ticks n, 2n, ... (<= N)
//    "final_hash": "<16 hex>"}         the state hash after N ticks
//
// Physics sessions: "inputs" are physics::InputEvent objects ({"tick", "node", "move" | "jump"
// | "throttle" ...}, read by parseInputEvents) and the state hash is Simulation::stateHash.
// Drift sessions: "inputs" are Drift's replay commands (drift/replay.h, read by
// drift::replayInputsFromJson): {"tick": t, "place": [x, z]} for a ripple placed on the water
// at (x, z) (m), consumed by tick t, and {"tick": t, "tuning": {key: value, ...}} for an edit
// of the drift component made while playing (the tuning keys it changed, drift_json.h),
// installed before tick t runs; "tuning" is empty (the edits are inputs, so an exported
// inputs file replays them too) and the state hash is drift::Sandbox::stateHash.
// Exporting a session as an inputs file writes the inputs array unchanged.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "floptle/core/expected.h"

namespace floptle::runtime {

/// One edit of the play copy, as a JSON patch of the scene document, taking effect before the
/// tick it names runs (paused at tick t, an edit is addressed to t).
struct TuningEdit {
  std::uint64_t tick = 0;
  nlohmann::ordered_json patch = nlohmann::ordered_json::array();
};

/// Which simulation a session ran ("simulation" in the file).
enum class SessionKind { Physics, Drift };

struct PlayRecording {
  std::string scene;
  SessionKind simulation = SessionKind::Physics;
  std::uint64_t sceneHash = 0;
  double fixedDt = 1.0 / 60.0;  ///< (s)
  /// Every how many ticks a state hash is kept (>= 1); 1 locates a mismatch exactly.
  std::uint64_t hashEvery = 1;
  std::uint64_t ticks = 0;
  nlohmann::json inputs = nlohmann::json::array();
  std::vector<TuningEdit> tuning;
  /// hashes[i]: the state hash after (i + 1) x hashEvery ticks.
  std::vector<std::uint64_t> hashes;
  std::uint64_t finalHash = 0;

  /// The recorded hash after `tick` ticks, when one was kept for it (tick 0 never is).
  std::optional<std::uint64_t> hashAfter(std::uint64_t tick) const;
  /// Appends the hash after `tick` ticks when it is one that is kept (tick = hashes' next).
  void addHash(std::uint64_t tick, std::uint64_t hash);
  /// The recording of the first `tick` ticks only (a branch starts there): inputs and edits
  /// addressed to `tick` or later and hashes after it are dropped; the final hash is the
  /// caller's to set (`finalHash` is the state hash at `tick`).
  void truncate(std::uint64_t tick, std::uint64_t finalHash);
};

/// FNV-1a 64 of the scene document's compact JSON text: what "scene_hash" records.
std::uint64_t sceneHash(const nlohmann::ordered_json& document);

/// Checks `inputs` as the simulation of `kind` reads them; the error's `where` is the pointer
/// below the inputs array ("/3/place").
Expected<void> checkSessionInputs(SessionKind kind, const nlohmann::json& inputs);

/// The session file beside a scene: "dir/level.json" -> "dir/level.session.json".
std::string sessionPathFor(const std::string& scenePath);

/// The session file's JSON (see the top of this file).
nlohmann::ordered_json recordingToJson(const PlayRecording& recording);
/// Parses a session file's text; `name` (its file name) starts every error's `where`
/// ("level.session.json: /hashes/3"). Checks the JSON as parseInputsText does, every field's
/// type, and the inputs as the session's simulation reads them (parseInputEvents, or
/// drift::replayInputsFromJson for a Drift session).
Expected<PlayRecording> parseRecordingText(std::string_view text, const std::string& name);
Expected<PlayRecording> readRecordingFile(const std::string& path);
/// Writes the file whole (a temporary beside it, then renamed): a failed write keeps the old.
Expected<void> writeRecordingFile(const PlayRecording& recording, const std::string& path);
/// Writes the inputs array alone: a file `floptle simulate --inputs` reads.
Expected<void> writeInputsFile(const PlayRecording& recording, const std::string& path);

}  // namespace floptle::runtime
