// The session file of a recorded play session: its JSON, reader and writer.
#include "floptle/runtime/play_recording.h"

#include <charconv>
#include <fstream>
#include <sstream>

#include "floptle/core/fnv_hash.h"
#include "floptle/core/scene/scene_io.h"
#include "floptle/drift/replay.h"
#include "floptle/physics/simulation.h"
#include "floptle/runtime/replay.h"

namespace floptle::runtime {
namespace {

using Json = nlohmann::json;
using OrderedJson = nlohmann::ordered_json;

constexpr const char* kFormat = "floptle.session";
constexpr int kVersion = 1;

const char* kindName(SessionKind kind) {
  return kind == SessionKind::Drift ? "drift" : "physics";
}

std::string hex(std::uint64_t hash) {
  return physics::Simulation::hashHex(hash);
}

/// Reads the fields of the session object, every error naming the file and the pointer.
class Reader {
 public:
  explicit Reader(const std::string& name) : name_(name) {}

  Error error(const std::string& pointer, const std::string& what) const {
    return Error{name_ + ": " + pointer, what};
  }
  Expected<const Json*> member(const Json& object, const std::string& pointer,
                               const char* key) const {
    const auto it = object.find(key);
    if (it == object.end()) return error(pointer + "/" + key, "missing");
    return &*it;
  }
  Expected<std::uint64_t> count(const Json& value, const std::string& pointer) const {
    if (!value.is_number_unsigned() &&
        !(value.is_number_integer() && value.get<std::int64_t>() >= 0))
      return error(pointer, "must be a whole number >= 0");
    return value.get<std::uint64_t>();
  }
  Expected<std::uint64_t> hash(const Json& value, const std::string& pointer) const {
    const std::string* text = value.get_ptr<const std::string*>();
    std::uint64_t out = 0;
    if (text && text->size() == 16) {
      const auto [end, ec] = std::from_chars(text->data(), text->data() + 16, out, 16);
      if (ec == std::errc() && end == text->data() + 16) return out;
    }
    return error(pointer, "must be a state hash: 16 hexadecimal digits in a string");
  }

 private:
  const std::string& name_;
};

}  // namespace

std::optional<std::uint64_t> PlayRecording::hashAfter(std::uint64_t tick) const {
  if (tick == 0 || hashEvery == 0 || tick % hashEvery != 0) return std::nullopt;
  const std::uint64_t i = tick / hashEvery - 1;
  if (i >= hashes.size()) return std::nullopt;
  return hashes[i];
}

void PlayRecording::addHash(std::uint64_t tick, std::uint64_t hash) {
  if (tick == 0 || tick % hashEvery != 0 || tick / hashEvery != hashes.size() + 1) return;
  hashes.push_back(hash);
}

void PlayRecording::truncate(std::uint64_t tick, std::uint64_t hashAtTick) {
  Json kept = Json::array();
  for (const Json& e : inputs)
    if (!(e.is_object() && e.value("tick", std::uint64_t(0)) >= tick)) kept.push_back(e);
  inputs = std::move(kept);
  std::erase_if(tuning, [tick](const TuningEdit& e) { return e.tick >= tick; });
  hashes.resize(std::min<std::size_t>(hashes.size(), tick / hashEvery));
  ticks = tick;
  finalHash = hashAtTick;
}

Expected<void> checkSessionInputs(SessionKind kind, const nlohmann::json& inputs) {
  if (kind == SessionKind::Physics) {
    if (auto events = physics::parseInputEvents(inputs); !events) return events.error();
    return {};
  }
  // Drift's reader names its source first ("where: /3/place"); here the pointer alone.
  if (auto commands = drift::replayInputsFromJson(inputs, ""); !commands) {
    std::string where = commands.error().where;
    if (where.rfind(": ", 0) == 0) where.erase(0, 2);
    return Error{where, commands.error().what};
  }
  return {};
}

std::uint64_t sceneHash(const nlohmann::ordered_json& document) {
  const std::string text = document.dump();
  Fnv1a64 h;
  h.bytes(text.data(), text.size());
  return h.value();
}

std::string sessionPathFor(const std::string& scenePath) {
  std::filesystem::path path(scenePath);
  const std::string stem =
      path.extension() == ".json" ? path.stem().string() : path.filename().string();
  return (path.parent_path() / (stem + ".session.json")).string();
}

nlohmann::ordered_json recordingToJson(const PlayRecording& r) {
  OrderedJson out;
  out["format"] = kFormat;
  out["version"] = kVersion;
  out["scene"] = r.scene;
  out["scene_hash"] = hex(r.sceneHash);
  out["simulation"] = kindName(r.simulation);
  out["settings"] = {{"fixed_dt", r.fixedDt}, {"hash_every", r.hashEvery}};
  out["ticks"] = r.ticks;
  // The inputs exactly as read (an unordered document: its objects' keys come out sorted).
  out["inputs"] = OrderedJson::parse(r.inputs.dump());
  OrderedJson tuning = OrderedJson::array();
  for (const TuningEdit& e : r.tuning) tuning.push_back({{"tick", e.tick}, {"patch", e.patch}});
  out["tuning"] = std::move(tuning);
  OrderedJson hashes = OrderedJson::array();
  for (std::uint64_t h : r.hashes) hashes.push_back(hex(h));
  out["hashes"] = std::move(hashes);
  out["final_hash"] = hex(r.finalHash);
  return out;
}

Expected<PlayRecording> parseRecordingText(std::string_view text, const std::string& name) {
  auto parsed = parseInputsText(text, name);  // the JSON checks of an inputs file
  if (!parsed) return parsed.error();
  const Json& root = *parsed;
  const Reader read(name);
  if (!root.is_object()) return read.error("", "a session file must be a JSON object");
  PlayRecording r;
  const std::string* format =
      root.contains("format") ? root["format"].get_ptr<const std::string*>() : nullptr;
  if (!format || *format != kFormat)
    return read.error("/format", std::string("must be \"") + kFormat + "\" (not a session file)");
  auto version = read.member(root, "", "version");
  if (!version) return version.error();
  if (**version != kVersion)
    return read.error("/version", "unsupported version " + (*version)->dump() +
                                      " (this build reads " + std::to_string(kVersion) + ")");
  if (root.contains("scene") && root["scene"].is_string()) r.scene = root["scene"];
  if (const auto kind = root.find("simulation"); kind != root.end()) {
    if (*kind == "drift")
      r.simulation = SessionKind::Drift;
    else if (*kind != "physics")
      return read.error("/simulation", "must be \"physics\" or \"drift\"");
  }
  for (const char* key : {"scene_hash", "final_hash"}) {
    auto value = read.member(root, "", key);
    if (!value) return value.error();
    auto h = read.hash(**value, std::string("/") + key);
    if (!h) return h.error();
    (std::string_view(key) == "scene_hash" ? r.sceneHash : r.finalHash) = *h;
  }
  auto settings = read.member(root, "", "settings");
  if (!settings) return settings.error();
  if (!(*settings)->is_object()) return read.error("/settings", "must be an object");
  auto dt = read.member(**settings, "/settings", "fixed_dt");
  if (!dt) return dt.error();
  if (!(*dt)->is_number() || !((*dt)->get<double>() > 0.0))
    return read.error("/settings/fixed_dt", "must be a number > 0 (s)");
  r.fixedDt = **dt;
  auto every = read.member(**settings, "/settings", "hash_every");
  if (!every) return every.error();
  auto everyValue = read.count(**every, "/settings/hash_every");
  if (!everyValue) return everyValue.error();
  if (*everyValue == 0) return read.error("/settings/hash_every", "must be >= 1");
  r.hashEvery = *everyValue;
  auto ticks = read.member(root, "", "ticks");
  if (!ticks) return ticks.error();
  auto ticksValue = read.count(**ticks, "/ticks");
  if (!ticksValue) return ticksValue.error();
  r.ticks = *ticksValue;

  auto inputs = read.member(root, "", "inputs");
  if (!inputs) return inputs.error();
  if (auto checked = checkSessionInputs(r.simulation, **inputs); !checked)
    return read.error("/inputs" + checked.error().where, checked.error().what);
  r.inputs = **inputs;

  auto tuning = read.member(root, "", "tuning");
  if (!tuning) return tuning.error();
  if (!(*tuning)->is_array()) return read.error("/tuning", "must be an array");
  for (std::size_t i = 0; i < (*tuning)->size(); ++i) {
    const std::string at = "/tuning/" + std::to_string(i);
    const Json& e = (**tuning)[i];
    if (!e.is_object()) return read.error(at, "must be an object {\"tick\", \"patch\"}");
    auto tick = read.member(e, at, "tick");
    if (!tick) return tick.error();
    auto tickValue = read.count(**tick, at + "/tick");
    if (!tickValue) return tickValue.error();
    if (*tickValue > r.ticks)
      return read.error(at + "/tick", "is past the recording's end (ticks)");
    auto patch = read.member(e, at, "patch");
    if (!patch) return patch.error();
    if (!(*patch)->is_array()) return read.error(at + "/patch", "must be a JSON patch (an array)");
    r.tuning.push_back({*tickValue, OrderedJson::parse((*patch)->dump())});
  }

  auto hashes = read.member(root, "", "hashes");
  if (!hashes) return hashes.error();
  if (!(*hashes)->is_array()) return read.error("/hashes", "must be an array");
  if ((*hashes)->size() > r.ticks / r.hashEvery)
    return read.error("/hashes", "has more entries than ticks / hash_every (" +
                                     std::to_string(r.ticks / r.hashEvery) + ")");
  for (std::size_t i = 0; i < (*hashes)->size(); ++i) {
    auto h = read.hash((**hashes)[i], "/hashes/" + std::to_string(i));
    if (!h) return h.error();
    r.hashes.push_back(*h);
  }
  return r;
}

Expected<PlayRecording> readRecordingFile(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) return Error{path, "cannot open file"};
  std::stringstream text;
  text << file.rdbuf();
  return parseRecordingText(text.str(), path);
}

Expected<void> writeRecordingFile(const PlayRecording& recording, const std::string& path) {
  return scene::saveSceneFile(path, recordingToJson(recording));
}

Expected<void> writeInputsFile(const PlayRecording& recording, const std::string& path) {
  return scene::saveSceneFile(path, nlohmann::ordered_json::parse(recording.inputs.dump()));
}

}  // namespace floptle::runtime
