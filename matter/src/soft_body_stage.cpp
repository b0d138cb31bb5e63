// SoftBodyStage: stepping, snapshots, the state hash and the per-node results.
#include "floptle/matter/soft_body_stage.h"

#include <algorithm>

#include "floptle/core/fnv_hash.h"
#include "floptle/matter/soft_body_surface_map.h"

namespace floptle::matter {
namespace {

struct Snapshot : physics::SimulationStageSnapshot {
  std::vector<SoftBody::State> states;
  std::vector<BodyBond> bonds;
  std::uint32_t next = 0;
  /// With Visco bodies (which may split, changing the list): every body whole.
  std::vector<SoftBody> bodies;
};

bool anyVisco(const std::vector<SoftBody>& bodies) {
  for (const SoftBody& b : bodies)
    if (b.desc().visco) return true;
  return false;
}

nlohmann::ordered_json vec3Json(Vec3 v) {
  return nlohmann::ordered_json::array({v.x, v.y, v.z});
}

}  // namespace

const SoftBody* SoftBodyStage::find(std::string_view name) const {
  for (const SoftBody& b : bodies_)
    if (b.name() == name) return &b;
  return nullptr;
}

void SoftBodyStage::step(physics::Simulation& simulation, double tEnd, float dt) {
  const double tStart = tEnd - double(dt);
  stepBodies(
      simulation.world(), [&](Vec3 c) { return simulation.gravityAt(c, tStart); }, tEnd, dt);
  for (const std::shared_ptr<SoftBodySurfaceMap>& surface : surfaces_) surface->update(bodies_);
}

bool SoftBodyStage::beginBody(std::size_t i, const physics::CollisionWorld& world, Vec3 gravity,
                              double tEnd, float dt, std::uint64_t& particlesLeft, bool first) {
  SoftBody& b = bodies_[i];
  if (budget_.particles > 0 && !b.state().asleep) {
    const std::uint64_t cost = b.particleCount() * std::uint64_t(b.substepCount());
    if (cost > particlesLeft && !first) {
      b.clearCounters();
      ++counters_.bodiesDeferred;
      return false;
    }
    particlesLeft -= std::min(cost, particlesLeft);
  }
  active_[i] = b.beginStep(world, gravity, tEnd, dt) ? 1 : 0;
  return true;
}

void SoftBodyStage::substepBodies(const physics::CollisionWorld& world, int& bondsLeft) {
  const std::size_t n = bodies_.size();
  int most = 0;
  for (std::size_t i = 0; i < n; ++i)
    if (active_[i]) most = std::max(most, bodies_[i].substepCount());
  open_.assign(n, 0);
  substep_.assign(n, 0);
  for (int s = 0; s < most; ++s) {
    for (std::size_t i = 0; i < n; ++i) {
      open_[i] = 0;
      if (!active_[i]) continue;
      // Body i's k substeps spread evenly over the `most` global ones.
      const std::int64_t k = bodies_[i].substepCount();
      const std::int64_t j = std::int64_t(s) * k / most;
      if ((std::int64_t(s) + 1) * k / most == j) continue;
      open_[i] = 1;
      substep_[i] = int(j);
      bodies_[i].solveSubstep(int(j));
    }
    collideBodies(bondsLeft);
    solveBodyBonds();
    for (std::size_t i = 0; i < n; ++i) {
      if (!open_[i]) continue;
      SoftBody& b = bodies_[i];
      // The bond budget is shared in body order: what is left of it is this body's to form.
      const std::uint64_t before = b.counters().bondsCreated;
      b.setBondBudget(int(before) + std::max(0, bondsLeft));
      b.endSubstep(world, substep_[i]);
      bondsLeft -= int(b.counters().bondsCreated - before);
    }
  }
  std::fill(open_.begin(), open_.end(), std::uint8_t(0));
}

void SoftBodyStage::splitBodies() {
  // Visco bodies whose bonds fell apart become one body per component, in place (in play
  // only: the document keeps its one node); the bonds between bodies follow their particles.
  for (std::size_t i = 0; i < bodies_.size(); ++i) {
    if (!bodies_[i].desc().visco || bodies_[i].componentCount() <= 1) continue;
    const std::vector<std::uint32_t> of = bodies_[i].components();
    std::vector<std::uint32_t> local(of.size()), seen(of.size(), 0);
    for (std::size_t p = 0; p < of.size(); ++p) local[p] = seen[of[p]]++;
    std::vector<SoftBody> pieces = bodies_[i].split();
    const std::size_t count = pieces.size();
    const auto remap = [&](std::uint32_t& body, std::uint32_t& particle) {
      if (body == i) {
        body = std::uint32_t(i + of[particle]);
        particle = local[particle];
      } else if (body > i) {
        body += std::uint32_t(count - 1);
      }
    };
    for (BodyBond& bond : bonds_)
      remap(bond.bodyA, bond.particleA), remap(bond.bodyB, bond.particleB);
    if (next_ > i) next_ += std::uint32_t(count - 1);
    bodies_.erase(bodies_.begin() + std::ptrdiff_t(i));
    bodies_.insert(bodies_.begin() + std::ptrdiff_t(i), std::make_move_iterator(pieces.begin()),
                   std::make_move_iterator(pieces.end()));
    i += count - 1;
  }
}

MatterCounts SoftBodyStage::counts() const {
  MatterCounts c;
  c.bodies = bodies_.size();
  c.bonds = bonds_.size();
  for (const SoftBody& b : bodies_) {
    c.particles += b.particleCount();
    c.bonds += b.bondCount();
    c.sleepingBodies += b.state().asleep ? 1 : 0;
  }
  return c;
}

std::shared_ptr<const physics::SimulationStageSnapshot> SoftBodyStage::save() const {
  auto s = std::make_shared<Snapshot>();
  s->bonds = bonds_;
  s->next = next_;
  if (anyVisco(bodies_)) {
    s->bodies = bodies_;
    return s;
  }
  for (const SoftBody& b : bodies_) s->states.push_back(b.state());
  return s;
}

void SoftBodyStage::restore(const physics::SimulationStageSnapshot& snapshot) {
  const auto& s = static_cast<const Snapshot&>(snapshot);
  bonds_ = s.bonds;
  next_ = s.next;
  if (!s.bodies.empty()) {
    bodies_ = s.bodies;
    return;
  }
  for (std::size_t i = 0; i < bodies_.size() && i < s.states.size(); ++i)
    bodies_[i].state() = s.states[i];
}

std::uint64_t SoftBodyStage::stateHash() const {
  Fnv1a64 h;
  for (const SoftBody& b : bodies_) {
    const SoftBody::State& s = b.state();
    for (Vec3 p : s.position) h.vec(p);
    for (Vec3 v : s.velocity) h.vec(v);
    h.quat(s.rotation), h.f32(s.stillTime), h.u64(s.asleep), h.vec(s.sleepGravity);
    for (std::uint32_t c : s.sleepContacts) h.u64(c);
    for (float d : s.sleepDistances) h.f32(d);
    for (float r : s.edgeRest) h.f32(r);
    for (float r : s.tetRest) h.f32(r);
    for (float y : s.tetYield) h.f32(y);
    if (!b.desc().visco) continue;
    for (std::uint8_t e : s.edgeBroken) h.u64(e);
    for (std::uint32_t a : s.anchorParticle) h.u64(a);
    for (Vec3 p : s.anchorPoint) h.vec(p);
    for (float r : s.anchorRest) h.f32(r);
    for (float r : s.anchorFormed) h.f32(r);
  }
  for (const BodyBond& bond : bonds_) {
    h.u64(bond.bodyA), h.u64(bond.particleA), h.u64(bond.bodyB), h.u64(bond.particleB);
    h.f32(bond.rest), h.f32(bond.formed);
  }
  h.u64(next_);
  return h.value();
}

void SoftBodyStage::writeResults(nlohmann::ordered_json& nodes) const {
  // One entry per node: the pieces a split left (consecutive, same name) summed into it.
  for (std::size_t i = 0; i < bodies_.size();) {
    std::size_t end = i + 1;
    while (end < bodies_.size() && bodies_[end].name() == bodies_[i].name()) ++end;
    float volume = 0.0f, restVolume = 0.0f, mass = 0.0f;
    glm::dvec3 weighted(0.0);
    Aabb box;
    std::size_t particles = 0, bonds = 0, components = 0;
    bool asleep = true;
    for (std::size_t k = i; k < end; ++k) {
      const SoftBody& b = bodies_[k];
      volume += b.volume();
      restVolume += b.restVolume();
      mass += b.mass();
      weighted += glm::dvec3(b.centroid()) * double(b.mass());
      const Aabb piece = b.bounds();
      box.min = glm::min(box.min, piece.min), box.max = glm::max(box.max, piece.max);
      particles += b.particleCount();
      bonds += b.bondCount();
      for (const BodyBond& bond : bonds_)
        bonds += (bond.bodyA == k ? 1 : 0) + (bond.bodyB == k ? 1 : 0);
      components += b.componentCount();
      asleep = asleep && b.state().asleep;
    }
    nlohmann::ordered_json n;
    n["centroid"] = vec3Json(Vec3(weighted / double(mass)));
    n["volume"] = volume;
    n["rest_volume"] = restVolume;
    n["density"] = volume > 0.0f ? mass / volume : 0.0f;
    n["aabb"] = nlohmann::ordered_json::array({vec3Json(box.min), vec3Json(box.max)});
    n["particles"] = particles;
    n["bonds"] = bonds;
    n["components"] = components;
    n["asleep"] = asleep;
    nodes[bodies_[i].name()] = n;
    i = end;
  }
}

void SoftBodyStage::writeCounters(nlohmann::ordered_json& counters) const {
  std::uint64_t solved = 0, contacts = 0, queries = 0, asleep = 0, created = 0, broken = 0;
  for (const SoftBody& b : bodies_) {
    created += b.counters().bondsCreated;
    broken += b.counters().bondsBroken;
    solved += b.counters().particlesSolved;
    contacts += b.counters().contacts;
    queries += b.counters().distanceQueries;
    asleep += b.state().asleep ? 1 : 0;
  }
  counters["matter_particles_solved"] = solved;
  counters["matter_contacts"] = contacts;
  counters["matter_distance_queries"] = queries;
  counters["matter_sleeping_bodies"] = asleep;
  const MatterCounts c = counts();
  counters["matter_particles"] = c.particles;
  counters["matter_bonds"] = c.bonds;
  counters["matter_bodies_deferred"] = counters_.bodiesDeferred;
  counters["matter_body_contacts"] = counters_.bodyContacts;
  if (anyVisco(bodies_)) {
    counters["matter_bonds_created"] = created + counters_.bodyBondsCreated;
    counters["matter_bonds_broken"] = broken + counters_.bodyBondsBroken;
  }
}

}  // namespace floptle::matter
