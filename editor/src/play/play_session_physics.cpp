// PlaySession, physics scenes: building the simulation from the copy, the nodes it moves,
// the player's controls and the values the running simulation takes live.
#include <cmath>

#include <QFileInfo>

#include "floptle/drift/sandbox.h"
#include "floptle/editor/derived_scene.h"
#include "floptle/editor/play_session.h"
#include "floptle/core/field/field_program.h"
#include "floptle/physics/field_collider.h"
#include "floptle/physics/simulation.h"

namespace floptle::editor {

Expected<void> PlaySession::buildPhysics() {
  const std::filesystem::path dir =
      filePath_.isEmpty() ? std::filesystem::path()
                          : std::filesystem::path(QFileInfo(filePath_).absolutePath().toStdString());
  // The one code path that assembles a simulation (also `floptle simulate` and the tests).
  Expected<physics::Simulation> built = physics::Simulation::fromScene(copy_->derived().scene, dir);
  if (!built) return built.error();
  simulation_ = std::make_unique<physics::Simulation>(std::move(built.value()));
  collectMovedNodes();
  return {};
}

void PlaySession::collectMovedNodes() {
  moved_.clear();
  const scene::Scene& scene = copy_->derived().scene;
  for (int n = 0; n < int(scene.nodes.size()); ++n) {
    const scene::SceneNode& node = scene.nodes[std::size_t(n)];
    MovedNode m;
    m.sceneIndex = n;
    if (auto c = simulation_->findCharacter(node.name)) {
      m.source = MovedNode::Source::Character;
      m.index = *c;
    } else if (auto v = simulation_->findVehicle(node.name)) {
      m.source = MovedNode::Source::Vehicle;
      m.index = *v;
    } else if (auto b = simulation_->findBody(node.name)) {
      m.source = MovedNode::Source::Body;
      m.index = *b;
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
  for (MovedNode& m : moved_) {
    Transform pose;
    switch (m.source) {
      case MovedNode::Source::Character:
        pose.position = simulation_->characters()[m.index].state().position;
        break;
      case MovedNode::Source::Vehicle: {
        const physics::BodyState& s =
            simulation_->bodies().state(simulation_->vehicles()[m.index].chassis());
        pose.position = s.position;
        pose.rotation = s.rotation;
        break;
      }
      case MovedNode::Source::Body: {
        const physics::BodyState& s = simulation_->bodies().state(m.index);
        pose.position = s.position;
        pose.rotation = s.rotation;
        break;
      }
    }
    (shiftPrevious ? m.previous : m.current) = pose;
  }
}

std::optional<std::uint32_t> PlaySession::playerCharacter() const {
  if (!simulation_ || simulation_->characters().empty()) return std::nullopt;
  return 0u;
}

std::optional<std::uint32_t> PlaySession::playerVehicle() const {
  if (!simulation_ || simulation_->vehicles().empty()) return std::nullopt;
  return 0u;
}

void PlaySession::setMove(Vec2 move) {
  if (auto c = playerCharacter()) simulation_->characterInput(*c).move = move;
}

void PlaySession::jump() {
  if (auto c = playerCharacter()) simulation_->characterInput(*c).jump = true;
}

void PlaySession::setVehicleControls(float throttle, float brake, float steer) {
  if (auto v = playerVehicle()) simulation_->vehicleInput(*v) = {throttle, brake, steer};
}

std::optional<Vec3> PlaySession::playerPosition() const {
  if (auto c = playerCharacter()) return simulation_->characters()[*c].state().position;
  if (auto v = playerVehicle())
    return simulation_->bodies().state(simulation_->vehicles()[*v].chassis()).position;
  if (sandbox_) return Vec3(float(sandbox_->boat().position.x), 0.0f, float(sandbox_->boat().position.z));
  return std::nullopt;
}

std::optional<Vec3> PlaySession::playerVelocity() const {
  if (auto c = playerCharacter()) {
    const physics::CharacterState& s = simulation_->characters()[*c].state();
    return s.velocity + s.surfaceVelocity;
  }
  if (auto v = playerVehicle())
    return simulation_->bodies().state(simulation_->vehicles()[*v].chassis()).linearVelocity;
  if (sandbox_) return Vec3(float(sandbox_->boat().velocity.x), 0.0f, float(sandbox_->boat().velocity.z));
  return std::nullopt;
}

std::optional<Vec3> PlaySession::playerPositionInterpolated() const {
  const float a = float(viewAlpha());
  const MovedNode::Source wanted = playerCharacter() ? MovedNode::Source::Character
                                                     : MovedNode::Source::Vehicle;
  for (const MovedNode& m : moved_)
    if (m.source == wanted && m.index == 0)
      return glm::mix(m.previous.position, m.current.position, a);
  return playerPosition();
}

Vec3 PlaySession::up() const {
  return simulation_ ? physics::upFromGravity(simulation_->settings().gravity) : kUp;
}

std::uint64_t PlaySession::contacts() const {
  if (sandbox_) return sandbox_->counters().contacts;
  if (!simulation_) return 0;
  const physics::RigidBodyCounters& b = simulation_->bodies().counters();
  std::uint64_t n = std::uint64_t(b.worldContacts) + b.bodyContacts;
  for (const physics::Vehicle& v : simulation_->vehicles())
    for (const physics::WheelState& w : v.wheels()) n += w.contact;
  for (const physics::CharacterController& c : simulation_->characters()) n += c.state().grounded;
  return n;
}

// What a running simulation can take without being rebuilt: surface friction and
// restitution (world colliders and bodies), body density (mass), the character's and the
// vehicle's controller values. Shapes, transforms and new nodes wait for the next Play.
void PlaySession::applyCopyToPhysics() {
  const scene::Scene& scene = copy_->derived().scene;
  physics::Simulation& sim = *simulation_;
  // World colliders: friction / restitution of their node's material.
  std::vector<physics::SurfaceMaterial> surfaces(sim.world().size());
  for (physics::ColliderId id = 0; id < sim.world().size(); ++id) {
    const int n = scene.findNode(sim.world().nodeName(id));
    if (n < 0) continue;
    if (const scene::Material* m = scene.material(scene.nodes[std::size_t(n)].material))
      surfaces[id] = {m->friction, m->restitution, false};
    if (const auto* f = dynamic_cast<const physics::FieldCollider*>(&sim.world().shape(id)))
      surfaces[id].morphs = f->program().animated();
  }
  sim.bodies().setWorldMaterials(std::move(surfaces));
  for (std::uint32_t i = 0; i < sim.bodies().size(); ++i) {
    physics::RigidBodyDesc& desc = sim.bodies().desc(i);
    const int n = scene.findNode(desc.name);
    if (n < 0) continue;
    const scene::Material* m = scene.material(scene.nodes[std::size_t(n)].material);
    const scene::Material fallback;
    const scene::Material& mat = m ? *m : fallback;
    desc.friction = mat.friction;
    desc.restitution = mat.restitution;
    if (desc.motion == physics::BodyMotion::Dynamic) {
      const float mass = mat.density * desc.shape.volume();
      if (mass > 0.0f && std::isfinite(mass) && mass != desc.mass) {
        desc.mass = mass;
        sim.bodies().refreshMass(i);
      }
    }
    sim.bodies().wake(i);
  }
  // Controllers: the copy's components read by the same checked parser the simulation was
  // built with; only the tunable values are taken (a value out of range keeps the old ones).
  for (physics::CharacterController& c : sim.characters()) {
    const int n = scene.findNode(c.desc().name);
    if (n < 0) continue;
    const auto tuned = physics::characterFromNode(scene.nodes[std::size_t(n)], scene);
    if (!tuned) continue;
    physics::CharacterDesc& d = c.desc();
    d.speed = tuned->speed;
    d.jumpSpeed = tuned->jumpSpeed;
    d.stepHeight = tuned->stepHeight;
    d.slopeLimit = tuned->slopeLimit;
  }
  for (physics::Vehicle& v : sim.vehicles()) {
    const int n = scene.findNode(v.desc().name);
    if (n < 0) continue;
    const auto tuned = physics::vehicleFromNode(scene.nodes[std::size_t(n)], scene);
    if (!tuned) continue;
    physics::VehicleDesc& d = v.desc();
    d.antiRoll = tuned->antiRoll;
    d.friction = tuned->friction;
    for (std::size_t w = 0; w < d.wheels.size() && w < tuned->wheels.size(); ++w) {
      physics::WheelDesc& wd = d.wheels[w];
      const physics::WheelDesc& t = tuned->wheels[w];
      wd.stiffness = t.stiffness;
      wd.damping = t.damping;
      wd.grip = t.grip;
      wd.drive = t.drive;
      wd.steer = t.steer;
    }
  }
}

}  // namespace floptle::editor
