// The raycast vehicle: wheel casts, suspension, tyres, anti-roll bar.
#include "floptle/physics/vehicle.h"

#include <algorithm>
#include <cmath>

namespace floptle::physics {

Vehicle::Vehicle(const VehicleDesc& desc, RigidBodySystem& bodies) : desc_(desc) {
  RigidBodyDesc chassis;
  chassis.name = desc.name;
  chassis.shape = BodyShape::box(desc.halfExtents);
  chassis.motion = BodyMotion::Dynamic;
  chassis.position = desc.position;
  chassis.gravityResponse = desc.gravityResponse;
  chassis.rotation = desc.rotation;
  chassis.mass = desc.mass;
  chassis.friction = desc.friction;
  chassis_ = bodies.add(chassis);
  wheels_.resize(desc.wheels.size());
  axlePartner_.assign(desc.wheels.size(), -1);
  for (std::size_t i = 0; i < desc.wheels.size(); ++i)
    for (std::size_t j = 0; j < desc.wheels.size(); ++j) {
      if (i == j) continue;
      const Vec3 a = desc.wheels[i].position, b = desc.wheels[j].position;
      if (std::fabs(a.x + b.x) < 0.01f && std::fabs(a.z - b.z) < 0.01f && std::fabs(a.x) > 0.01f &&
          axlePartner_[i] < 0)
        axlePartner_[i] = static_cast<std::int32_t>(j);
    }
}

void Vehicle::applyForces(const CollisionWorld& world, double t, float dt,
                          const VehicleInput& input, RigidBodySystem& bodies) {
  if (!(dt > 0.0f)) return;
  const BodyState& s = bodies.state(chassis_);
  const Vec3 up = s.rotation * Vec3(0, 1, 0);
  const Vec3 forward = s.rotation * Vec3(0, 0, 1);
  const float throttle =
      std::clamp(std::isfinite(input.throttle) ? input.throttle : 0.0f, -1.0f, 1.0f);
  const float brake = std::clamp(std::isfinite(input.brake) ? input.brake : 0.0f, 0.0f, 1.0f);
  const float steer = std::clamp(std::isfinite(input.steer) ? input.steer : 0.0f, -1.0f, 1.0f);

  struct Contact {
    Vec3 point{0.0f}, normal{0.0f}, surfaceVelocity{0.0f};
  };
  std::vector<Contact> contacts(desc_.wheels.size());
  int inContact = 0;
  // Suspension: cast every wheel first (the anti-roll bar needs both sides).
  for (std::size_t i = 0; i < desc_.wheels.size(); ++i) {
    const WheelDesc& w = desc_.wheels[i];
    WheelState& ws = wheels_[i];
    const Vec3 mount = s.position + s.rotation * w.position;
    auto hit = world.spherecast(mount, -up, w.radius, w.restLength + w.travel, t);
    const float previous = ws.compression;
    const bool had = ws.contact;
    ws.contact = 0;
    ws.load = 0.0f;
    if (!hit.ok() || !hit.value()) {
      ws.compression = -w.travel;
      ws.hadContact = 0;
      continue;
    }
    const Hit& h = *hit.value();
    ws.compression = w.restLength - h.distance;
    ws.contact = 1;
    ws.hadContact = had;
    ++inContact;
    contacts[i] = {h.point, h.normal, world.surfaceVelocity(h, t)};
    const float rate = had ? (ws.compression - previous) / dt : 0.0f;  // (m/s)
    ws.load = std::max(0.0f, w.stiffness * std::max(ws.compression, 0.0f) + w.damping * rate);
    if (ws.compression <= 0.0f && rate <= 0.0f) ws.load = 0.0f;
  }
  if (inContact == 0) return;
  // Anti-roll bar: the more compressed side of an axle pushes up harder, the other less.
  std::vector<float> load(wheels_.size());
  for (std::size_t i = 0; i < wheels_.size(); ++i) {
    load[i] = wheels_[i].load;
    const std::int32_t j = axlePartner_[i];
    if (j >= 0 && wheels_[i].contact && wheels_[std::size_t(j)].contact)
      load[i] = std::max(0.0f, load[i] + desc_.antiRoll * (wheels_[i].compression -
                                                           wheels_[std::size_t(j)].compression));
  }
  // Mass a tyre's force sees at its contact along a direction: the chassis' effective mass
  // there (rotation included: the contacts sit below the centre of mass, so a sideways push
  // also rolls the body), shared between the wheels down, which push at once (kg). Using
  // the translational mass alone over-corrected the slip about four times over and left
  // the chassis rocking from side to side every tick, the friction circle spent on it.
  BodyMass chassisMass;
  chassisMass.inverseMass = 1.0f / desc_.mass;
  const Vec3 inertia = BodyShape::box(desc_.halfExtents).unitInertia() * desc_.mass;
  chassisMass.inverseInertia = Vec3(1.0f / inertia.x, 1.0f / inertia.y, 1.0f / inertia.z);
  const Mat3 inverseInertia = worldInverseInertia(chassisMass, s.rotation);
  auto massShare = [&](Vec3 r, Vec3 dir) {
    const Vec3 rxd = glm::cross(r, dir);
    const float k = chassisMass.inverseMass + glm::dot(rxd, inverseInertia * rxd);
    return 1.0f / (k * float(inContact));
  };
  Vec3 force(0.0f), torque(0.0f);
  for (std::size_t i = 0; i < desc_.wheels.size(); ++i) {
    if (!wheels_[i].contact) continue;
    const WheelDesc& w = desc_.wheels[i];
    const Contact& c = contacts[i];
    const Vec3 r = c.point - s.position;
    Vec3 total = c.normal * load[i];
    // Tyre axes in the contact plane.
    const float angle = steer * w.steer;
    const Vec3 heading = glm::angleAxis(angle, up) * forward;
    Vec3 along = heading - c.normal * glm::dot(heading, c.normal);
    if (glm::length(along) > 1e-4f) {
      along = glm::normalize(along);
      const Vec3 side = glm::cross(c.normal, along);
      const Vec3 vPoint = s.linearVelocity + glm::cross(s.angularVelocity, r) - c.surfaceVelocity;
      const float vLong = glm::dot(vPoint, along);
      const float vLat = glm::dot(vPoint, side);
      const float limit = w.grip * load[i];  // friction circle (N)
      // Lateral slip resisted: the force that would stop it this step, within grip.
      float fLat = -vLat * massShare(r, side) / dt;
      // Engine and brake through grip; a brake never reverses the wheel.
      float fLong = throttle * w.drive;
      if (brake > 0.0f) {
        const float stop = std::fabs(vLong) * massShare(r, along) / dt;
        fLong += -std::copysign(std::min(brake * limit, stop), vLong);
      }
      const float magnitude = std::sqrt(fLat * fLat + fLong * fLong);
      if (magnitude > limit && magnitude > 0.0f) {
        fLat *= limit / magnitude;
        fLong *= limit / magnitude;
      }
      total += along * fLong + side * fLat;
    }
    force += total;
    torque += glm::cross(r, total);
  }
  bodies.addForce(chassis_, force, torque);
}

}  // namespace floptle::physics
