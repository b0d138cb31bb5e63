// PlaySession, physics scenes: the nodes the simulation moves and the player's controls.
#include "floptle/drift/sandbox.h"
#include "floptle/editor/derived_scene.h"
#include "floptle/editor/play_session.h"
#include "floptle/matter/soft_body_stage.h"
#include "floptle/matter/soft_body_surface.h"
#include "floptle/physics/simulation.h"

namespace floptle::editor {
namespace {

const matter::SoftBodyStage* softBodies(const physics::Simulation& sim) {
  return dynamic_cast<const matter::SoftBodyStage*>(sim.matterStage());
}

}  // namespace

void PlaySession::collectMovedNodes() {
  moved_.clear();
  const scene::Scene& scene = copy_->derived().scene();
  const matter::SoftBodyStage* soft = softBodies(*simulation());
  for (int n = 0; n < int(scene.nodes.size()); ++n) {
    const scene::SceneNode& node = scene.nodes[std::size_t(n)];
    MovedNode m;
    m.sceneIndex = n;
    if (soft && soft->find(node.name)) {
      m.softBody = node.name;
    } else if (auto c = simulation()->findCharacter(node.name)) {
      m.character = *c;
    } else if (auto v = simulation()->findVehicle(node.name)) {
      m.vehicle = *v;
    } else if (auto b = simulation()->findBody(node.name)) {
      m.body = *b;
    } else {
      continue;
    }
    moved_.push_back(m);
  }
  sampleMovedNodes(false);
  // The node is rigid on its simulated pose: world = pose * offset, fixed from the start.
  for (MovedNode& m : moved_) {
    m.offset = m.current.inverse().compose(scene.nodes[std::size_t(m.sceneIndex)].world);
    m.previous = m.current;
  }
}

void PlaySession::sampleMovedNodes(bool shiftPrevious) {
  const physics::Simulation& sim = *simulation();
  const matter::SoftBodyStage* soft = softBodies(sim);
  for (MovedNode& m : moved_) {
    Transform pose;
    if (!m.softBody.empty()) {
      // A split leaves pieces of the same name: the first stands for the node.
      const matter::SoftBody* body = soft ? soft->find(m.softBody) : nullptr;
      if (!body) continue;
      pose = matter::bestRigidTransform(*body);
    } else if (sim.valid(m.character)) {
      pose.position = sim.characters()[m.character.index].state().position;
    } else if (sim.valid(m.vehicle) || sim.valid(m.body)) {
      const std::uint32_t body =
          sim.valid(m.vehicle) ? sim.vehicles()[m.vehicle.index].chassis() : m.body.index;
      const physics::BodyState& s = sim.bodies().state(body);
      pose.position = s.position;
      pose.rotation = s.rotation;
    } else {
      continue;  // an id of another simulation: never dereferenced
    }
    (shiftPrevious ? m.previous : m.current) = pose;
  }
}

std::optional<std::uint32_t> PlaySession::playerCharacter() const {
  if (!simulation() || simulation()->characters().empty()) return std::nullopt;
  return 0u;
}

std::optional<std::uint32_t> PlaySession::playerVehicle() const {
  if (!simulation() || simulation()->vehicles().empty()) return std::nullopt;
  return 0u;
}

// While recording, a control reaches the simulation as an input event at the current tick
// (recordInput): the path a replay takes. An unchanged control records nothing.
void PlaySession::setMove(Vec2 move) {
  const auto c = playerCharacter();
  if (!c) return;
  if (!recordingOn_) {
    simulation()->characterInput(*c).move = move;
    return;
  }
  if (lastMove_ && *lastMove_ == move) return;
  if (replaying_) return;
  lastMove_ = move;
  recordInput({{"node", simulation()->characters()[*c].desc().name},
               {"move", {double(move.x), double(move.y)}}});
}

void PlaySession::jump() {
  const auto c = playerCharacter();
  if (!c) return;
  if (!recordingOn_) {
    simulation()->characterInput(*c).jump = true;
    return;
  }
  recordInput({{"node", simulation()->characters()[*c].desc().name}, {"jump", true}});
}

void PlaySession::setVehicleControls(float throttle, float brake, float steer) {
  const auto v = playerVehicle();
  if (!v) return;
  if (!recordingOn_) {
    simulation()->vehicleInput(*v) = {throttle, brake, steer};
    return;
  }
  const std::array<float, 3> controls{throttle, brake, steer};
  if (lastVehicle_ && *lastVehicle_ == controls) return;
  if (replaying_) return;
  lastVehicle_ = controls;
  recordInput({{"node", simulation()->vehicles()[*v].desc().name},
               {"throttle", double(throttle)},
               {"brake", double(brake)},
               {"steer", double(steer)}});
}

std::optional<Vec3> PlaySession::playerPosition() const {
  if (auto c = playerCharacter()) return simulation()->characters()[*c].state().position;
  if (auto v = playerVehicle())
    return simulation()->bodies().state(simulation()->vehicles()[*v].chassis()).position;
  if (sandbox())
    return Vec3(float(sandbox()->boat().position.x), 0.0f, float(sandbox()->boat().position.z));
  return std::nullopt;
}

std::optional<Vec3> PlaySession::playerVelocity() const {
  if (auto c = playerCharacter()) {
    const physics::CharacterState& s = simulation()->characters()[*c].state();
    return s.velocity + s.surfaceVelocity;
  }
  if (auto v = playerVehicle())
    return simulation()->bodies().state(simulation()->vehicles()[*v].chassis()).linearVelocity;
  if (sandbox())
    return Vec3(float(sandbox()->boat().velocity.x), 0.0f, float(sandbox()->boat().velocity.z));
  return std::nullopt;
}

std::optional<Vec3> PlaySession::playerPositionInterpolated() const {
  const float a = float(viewAlpha());
  const auto character = playerCharacter();
  const auto vehicle = playerVehicle();
  for (const MovedNode& m : moved_)
    if ((character && m.character == simulation()->characterId(*character)) ||
        (!character && vehicle && m.vehicle == simulation()->vehicleId(*vehicle)))
      return glm::mix(m.previous.position, m.current.position, a);
  return playerPosition();
}

Vec3 PlaySession::up() const {
  if (auto c = playerCharacter()) return simulation()->characters()[*c].state().up;
  if (auto p = playerPosition(); p && simulation())
    return physics::upFromGravity(simulation()->gravityAt(*p, simulation()->time()));
  return kUp;
}

std::optional<Vec3> PlaySession::playerGravity() const {
  if (!simulation()) return std::nullopt;
  const std::optional<Vec3> p = playerPosition();
  if (!p) return std::nullopt;
  return simulation()->gravityAt(*p, simulation()->time());
}

std::optional<Vec3> PlaySession::moveForward() const {
  if (auto c = playerCharacter()) return simulation()->characters()[*c].state().forward;
  return std::nullopt;
}

std::uint64_t PlaySession::contacts() const {
  if (sandbox()) return sandbox()->counters().contacts;
  if (!simulation()) return 0;
  const physics::RigidBodyCounters& b = simulation()->bodies().counters();
  std::uint64_t n = std::uint64_t(b.worldContacts) + b.bodyContacts;
  for (const physics::Vehicle& v : simulation()->vehicles())
    for (const physics::WheelState& w : v.wheels()) n += w.contact;
  for (const physics::CharacterController& c : simulation()->characters()) n += c.state().grounded;
  return n;
}

}  // namespace floptle::editor
