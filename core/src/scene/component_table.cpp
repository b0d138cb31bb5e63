// The component table: one row per value a scene component (or an input event) may carry.
// resources/scene.schema.json states the same ranges; component_table_schema_test holds the
// two equal. Defaults agree with the runtime structs (CharacterDesc, VehicleDesc, WheelDesc,
// drift::Tuning, scene::Material ...) that readers fill.
#include <algorithm>

#include "floptle/core/scene/component_values.h"

namespace floptle::scene {
namespace {

constexpr double kBig = 1e6;
/// drift::kMaxTuningMagnitude: the Drift sandbox's values stay within it.
constexpr double kDriftBig = 1e9;

constexpr ValueSpec number(std::string_view key, double min, double max, double def,
                           std::string_view unit, std::string_view help) {
  return {key, ValueKind::Number, min, max, false, false, {def}, unit, help};
}
/// The same with the minimum itself refused: (min, max].
constexpr ValueSpec positive(std::string_view key, double min, double max, double def,
                             std::string_view unit, std::string_view help) {
  ValueSpec row = number(key, min, max, def, unit, help);
  row.minExclusive = true;
  return row;
}
constexpr ValueSpec vector(std::string_view key, ValueKind kind, double min, double max,
                           std::array<double, 4> def, std::string_view unit,
                           std::string_view help) {
  return {key, kind, min, max, false, false, def, unit, help};
}
constexpr ValueSpec flag(std::string_view key, bool def, std::string_view help) {
  return {key, ValueKind::Bool, 0, 1, false, false, {def ? 1.0 : 0.0}, "-", help};
}
constexpr ValueSpec choice(std::string_view key, std::span<const std::string_view> choices,
                           double def, std::string_view help) {
  ValueSpec row{key, ValueKind::Enum, 0, 0, false, false, {def}, "-", help};
  row.choices = choices;
  return row;
}
constexpr ValueSpec required(ValueSpec row) {
  row.required = true;
  return row;
}

constexpr ValueSpec kCharacter[] = {
    positive("radius", 0, 1000, 0.3, "m", "Capsule radius"),
    number("height", 0, 1000, 1.8, "m", "Capsule height end to end, at least twice the radius"),
    number("speed", 0, 1e4, 5, "m/s", "Walking speed at full input"),
    number("jump_speed", 0, 1e4, 5, "m/s", "Upward speed a jump starts with"),
    number("slope_limit", 0, 90, 60, "deg",
           "Steepest walkable surface (default: the scene's settings)"),
    number("step_height", 0, 1000, 0.3, "m", "Highest ledge climbed by walking into it"),
    number("mass", 1e-3, 1e6, 80, "kg", "What it weighs on and pushes dynamic bodies with"),
};

constexpr ValueSpec kVehicle[] = {
    {"half_extents",
     ValueKind::Vec3,
     0,
     kBig,
     true,
     false,
     {1, 0.3, 2},
     "m",
     "Chassis box half size"},
    number("mass", 1e-3, 1e7, 1200, "kg", "Chassis mass"),
    number("anti_roll", 0, 1e8, 0, "N/m", "Anti-roll bar rate"),
    required({"wheels",
              ValueKind::Objects,
              0,
              0,
              false,
              false,
              {},
              "-",
              "The wheels, one object each",
              false,
              {},
              "wheel"}),
};

constexpr ValueSpec kWheel[] = {
    vector("position", ValueKind::Vec3, -kBig, kBig, {}, "m",
           "Suspension mount in the chassis frame"),
    number("radius", 1e-3, 100, 0.35, "m", "Wheel radius"),
    number("rest_length", 0, 100, 0.4, "m", "Mount to wheel centre at rest"),
    number("travel", 0, 100, 0.2, "m", "Further droop below rest the cast reaches"),
    number("stiffness", 0, 1e9, 30000, "N/m", "Spring rate"),
    number("damping", 0, 1e9, 3000, "N s/m", "Damper rate"),
    number("grip", 0, 100, 1, "-", "Tyre friction coefficient"),
    number("drive", -1e7, 1e7, 0, "N", "Drive force at full throttle; 0 = undriven"),
    number("steer", -90, 90, 0, "deg", "Steering angle at full lock; 0 = fixed"),
};

constexpr std::string_view kBodies[] = {"static", "dynamic", "kinematic"};
constexpr ValueSpec kCollider[] = {
    choice("body", kBodies, 0, "How the node moves: static, dynamic or kinematic"),
    flag("collidable", true, "False: drawn but never collided with"),
    vector("velocity", ValueKind::Vec3, -kBig, kBig, {}, "m/s",
           "A dynamic body's velocity at the start"),
};

// Gravity (seed 001): the scene's field ("settings": {"gravity": {...}}), its regions and
// sources (one table per kind, told apart by "shape" / "type"), and a body's response.
constexpr ValueSpec kGravityField[] = {
    positive("G", 0, kBig, 1, "m^3/(kg s^2)",
             "Game-feel gravitational constant of the Newtonian sources"),
    vector("global", ValueKind::Vec3, -kBig, kBig, {}, "m/s^2",
           "Constant gravity everywhere (absent: none)"),
    flag("bodies_attract", false,
         "Dynamic bodies pull each other as point masses (Barnes-Hut tree)"),
    positive("theta", 0, 1, 0.5, "-", "Barnes-Hut opening angle: smaller is more exact and slower"),
};
constexpr ValueSpec kGravityDensity[] = {
    required(positive("cell", 0, kBig, 1, "m", "Spacing of the density and potential grid")),
    {"cadence",
     ValueKind::Integer,
     1,
     1e6,
     false,
     false,
     {10},
     "ticks",
     "Re-solved every this many ticks while the matter changes"},
};
constexpr ValueSpec kGravitySdf[] = {
    required(number("strength", 0, kBig, 9.81, "m/s^2",
                    "Pull into the nearest surface, on the surface")),
    required(positive("range", 0, kBig, 5, "m",
                      "The pull fades linearly to 0 at this distance from the surface")),
    number("ema", 0, 1000, 0, "1/s",
           "Rate a body's gravity eases towards the sampled one (0: at once)"),
};
constexpr ValueSpec kGravitySdfEpsilon[] = {
    required(positive("epsilon", 0, kBig, 0.05, "m",
                      "Half size of the tetrahedron the gradient is taken over")),
};
constexpr ValueSpec kGravitySdfBaked[] = {
    required(positive("cell", 0, kBig, 0.25, "m",
                      "Cell edge of the grid the surface's distance is baked on")),
    number("blur", 0, 16, 1, "cells",
           "Width (standard deviation) of the blur over the baked grid (0: none); smooths the pull "
           "over folds"),
};
constexpr std::string_view kBoxShape[] = {"box"};
constexpr std::string_view kSphereShape[] = {"sphere"};
constexpr std::string_view kRadial[] = {"in", "out"};
constexpr ValueSpec kGravityBoxRegion[] = {
    required(choice("shape", kBoxShape, 0, "A box region")),
    vector("center", ValueKind::Vec3, -kBig, kBig, {}, "m", "Box centre"),
    required(vector("half_extents", ValueKind::Vec3, 0, kBig, {}, "m", "Box half size")),
    vector("rotation", ValueKind::Quat, -kBig, kBig, {0, 0, 0, 1}, "-",
           "Box rotation quaternion [x, y, z, w]"),
    required(vector("direction", ValueKind::Vec3, -kBig, kBig, {}, "-",
                    "World direction of the pull (normalized)")),
    required(number("strength", 0, kBig, 9.81, "m/s^2", "Acceleration inside the box")),
};
constexpr ValueSpec kGravitySphereRegion[] = {
    required(choice("shape", kSphereShape, 0, "A sphere region")),
    vector("center", ValueKind::Vec3, -kBig, kBig, {}, "m", "Sphere centre"),
    required(positive("radius", 0, kBig, 1, "m", "Sphere radius")),
    choice("radial", kRadial, 0, "Pull towards the centre (in) or away from it (out)"),
    required(number("strength", 0, kBig, 9.81, "m/s^2", "Acceleration inside the sphere")),
};
constexpr std::string_view kPointType[] = {"point"};
constexpr std::string_view kSphereType[] = {"sphere"};
constexpr std::string_view kLineType[] = {"line"};
constexpr std::string_view kPlanetType[] = {"planet"};
constexpr ValueSpec kGravityPoint[] = {
    required(choice("type", kPointType, 0, "A point mass")),
    vector("center", ValueKind::Vec3, -kBig, kBig, {}, "m", "Where the mass is"),
    required(positive("mass", 0, 1e12, 1, "kg", "Mass (pull G M / r^2)")),
};
constexpr ValueSpec kGravitySphere[] = {
    required(choice("type", kSphereType, 0, "A uniform ball")),
    vector("center", ValueKind::Vec3, -kBig, kBig, {}, "m", "Ball centre"),
    required(positive("mass", 0, 1e12, 1, "kg", "Mass (pull G M / r^2 outside)")),
    required(
        positive("radius", 0, kBig, 1, "m", "Ball radius: the pull falls linearly to 0 inside")),
    positive("r_outer", 0, kBig, 0, "m", "No pull past this distance (absent: none)"),
};
constexpr ValueSpec kGravityLine[] = {
    required(choice("type", kLineType, 0, "A rod")),
    required(vector("a", ValueKind::Vec3, -kBig, kBig, {}, "m", "One end")),
    required(vector("b", ValueKind::Vec3, -kBig, kBig, {}, "m", "The other end")),
    required(positive("lambda", 0, 1e12, 1, "kg/m", "Mass per length (pull 2 G lambda / r)")),
    positive("r_outer", 0, kBig, 0, "m", "No pull past this distance (absent: none)"),
};
constexpr ValueSpec kGravityPlanet[] = {
    required(choice("type", kPlanetType, 0, "A simple planet: constant pull towards its centre")),
    vector("center", ValueKind::Vec3, -kBig, kBig, {}, "m", "Planet centre"),
    required(number("strength", 0, kBig, 9.81, "m/s^2", "Pull towards the centre")),
    required(positive("r_outer", 0, kBig, 1, "m", "No pull past this distance")),
};
constexpr std::string_view kEmitterTypes[] = {"planet", "newtonian"};
constexpr ValueSpec kGravityEmitter[] = {
    required(choice("type", kEmitterTypes, 0,
                    "planet: constant pull to the node's centre; newtonian: G rho V / r^2")),
    number("strength", 0, kBig, 9.81, "m/s^2", "A planet's pull towards the node's centre"),
    positive("r_outer", 0, kBig, 0, "m", "No pull past this distance from the node's centre"),
};
constexpr ValueSpec kGravityReceiver[] = {
    number("response", 0, 100, 1, "-",
           "Fraction of g the body obeys: 1 a walker, 0 a free-flying ship"),
    number("align_rate", 0, 1000, 10, "1/s", "How fast a character's up turns towards -g"),
};

constexpr ValueSpec kDrift[] = {
    positive("boat_radius", 0, kDriftBig, 0.5, "m", "Hull radius of the circular boat"),
    vector("boat_position", ValueKind::Vec2, -kDriftBig, kDriftBig, {}, "m",
           "Boat centre [x, z] at the start"),
    vector("boat_velocity", ValueKind::Vec2, -kDriftBig, kDriftBig, {}, "m/s",
           "Boat velocity [x, z] at the start"),
    number("drag_rate", 0, kDriftBig, 0.7, "1/s", "Drag rate toward the water velocity"),
    vector("water_velocity", ValueKind::Vec2, -kDriftBig, kDriftBig, {}, "m/s",
           "Water current [x, z]"),
    positive("speed_cap", 0, kDriftBig, 7, "m/s", "Largest boat speed"),
    number("ripple_start_radius", 0, kDriftBig, 0, "m", "Ring radius when a ripple is placed"),
    number("ripple_growth", -kDriftBig, kDriftBig, 4, "m/s", "Ring radius growth"),
    number("ripple_half_width", 0, kDriftBig, 0.35, "m",
           "Half width of the ring's band, without the boat"),
    positive("ripple_lifetime", 0, kDriftBig, 2.5, "s", "How long a ripple lives"),
    number("ripple_impulse", 0, kDriftBig, 3, "m/s", "Radial velocity change a fresh ripple gives"),
    number("ripple_attenuation", 0, kDriftBig, 0.5, "1/s", "Impulse decay with ripple age"),
    number("placement_cooldown", 0, kDriftBig, 0.25, "s", "Shortest time between two placements"),
};

constexpr ValueSpec kMaterial[] = {
    vector("color", ValueKind::Vec3, 0, 1, {0.8, 0.8, 0.8}, "-", "Linear RGB"),
    positive("density", 0, 1e6, 1000, "kg/m^3", "Density"),
    number("friction", 0, 10, 0.5, "-", "Coulomb friction coefficient"),
    number("restitution", 0, 1, 0, "-", "Bounce: 0 none, 1 perfectly elastic"),
    positive("bulk_modulus", 0, 1e13, 1e9, "Pa", "Resistance to compression"),
    number("yield_strength", 0, 1e13, 1e6, "Pa", "Stress where plastic deformation starts"),
};

constexpr std::string_view kRules[] = {"ignore", "merge", "carve", "hard"};
constexpr ValueSpec kInteraction[] = {
    choice("rule", kRules, 3, "How material a meets material b"),
    number("k", 0, 1000, 0, "m", "Blend radius of merge / carve; 0 = a crisp seam"),
};

// The MatterModel: "tier" picks the tier; each built tier has its own table of
// knobs (the tier row repeated so one reader takes the whole object). "field_blend" is named
// but refused by the reader until built.
constexpr std::string_view kMatterTiers[] = {"rigid", "morph", "field_blend", "soft_body", "visco"};
constexpr ValueSpec kMatter[] = {
    choice("tier", kMatterTiers, 0, "How the node behaves as matter; rigid when absent"),
};
constexpr ValueSpec kMatterSoftBody[] = {
    choice("tier", kMatterTiers, 3, "How the node behaves as matter; rigid when absent"),
    {"particles",
     ValueKind::Integer,
     8,
     1e6,
     false,
     false,
     {512},
     "-",
     "Particles of the cage, about (a lattice inside the shape)"},
    positive("stiffness", 0, 1, 0.5, "-",
             "Edge stiffness: 1 rigid; compliance (1/s - 1) dt_sub^2 / m_particle"),
    number("volume_preserve", 0, 1, 0.9, "-",
           "Tetrahedral volume stiffness: 1 incompressible, 0 no volume constraint"),
    number("shape_match", 0, 1, 0.5, "-",
           "Pull toward the best rigid fit of the rest shape, fraction per step"),
    {"substeps",
     ValueKind::Integer,
     1,
     100,
     false,
     false,
     {10},
     "-",
     "Solver substeps per fixed step"},
    number("damping", 0, 1000, 1, "1/s",
           "Damping of each particle's velocity relative to the body's mean velocity"),
};
// Visco: the SoftBody knobs plus sticky bonds that yield and break (matter/soft_body.h).
constexpr ValueSpec kMatterVisco[] = {
    choice("tier", kMatterTiers, 4, "How the node behaves as matter; rigid when absent"),
    {"particles",
     ValueKind::Integer,
     8,
     1e6,
     false,
     false,
     {512},
     "-",
     "Particles of the cage, about (a lattice inside the shape)"},
    positive("stiffness", 0, 1, 0.5, "-",
             "Edge stiffness: 1 rigid; compliance (1/s - 1) dt_sub^2 / m_particle"),
    number("volume_preserve", 0, 1, 0.9, "-",
           "Tetrahedral volume stiffness: 1 incompressible, 0 no volume constraint"),
    number("shape_match", 0, 1, 0.5, "-",
           "Pull toward the best rigid fit of the rest shape, fraction per step"),
    {"substeps",
     ValueKind::Integer,
     1,
     100,
     false,
     false,
     {10},
     "-",
     "Solver substeps per fixed step"},
    number("damping", 0, 1000, 1, "1/s",
           "Damping of each particle's velocity relative to the body's mean velocity"),
    number("stickiness", 0, 1, 0.5, "-",
           "Stiffness of the bonds formed in the contact band: 0 none, 1 rigid"),
    positive("break_strain", 0, 1000, 1, "-",
             "Strain (stretch / rest length) past which a bond snaps"),
    positive("yield_strain", 0, 1000, 0.3, "-",
             "Strain past which a bond's rest length grows for good (plastic)"),
    number("contact_band", 0, 10, 0.02, "m",
           "Gap to other geometry within which a particle bonds to it"),
};
// Morph: its displacement terms and bake are read by field::readMorph (a list of terms and an
// object are no table rows); the table holds the tier so the inspector offers it.
constexpr ValueSpec kMatterMorph[] = {
    choice("tier", kMatterTiers, 1, "How the node behaves as matter; rigid when absent"),
};

constexpr ValueSpec kCamera[] = {
    {"name",
     ValueKind::String,
     0,
     0,
     false,
     false,
     {},
     "-",
     "Name used by floptle render --camera"},
    vector("position", ValueKind::Vec3, -kBig, kBig, {0, 2, 8}, "m", "Eye position"),
    vector("look_at", ValueKind::Vec3, -kBig, kBig, {}, "m",
           "Point looked at; never the eye position"),
    number("fov", 1, 179, 60, "deg", "Vertical field of view"),
};

constexpr ValueSpec kSettings[] = {
    number("fixed_dt", 1e-4, 1, 1.0 / 60.0, "s", "Fixed simulation step"),
    vector("gravity", ValueKind::Vec3, -kBig, kBig, {0, -9.81, 0}, "m/s^2",
           "Uniform gravity acceleration"),
    number("slope_limit", 0, 90, 60, "deg", "Steepest surface that counts as ground"),
};

constexpr ValueSpec kTransform[] = {
    vector("position", ValueKind::Vec3, -kBig, kBig, {}, "m", "Translation"),
    vector("rotation", ValueKind::Quat, -kBig, kBig, {0, 0, 0, 1}, "-",
           "Rotation quaternion [x, y, z, w]"),
    number("scale", 1e-4, 1e4, 1, "-", "Uniform scale"),
};

constexpr ValueSpec kNode[] = {
    {"name", ValueKind::String, 0, 0, false, false, {}, "-", "Unique name of the node"},
};

constexpr ValueSpec kInputEvent[] = {
    required(
        {"tick", ValueKind::Integer, 0, 1e18, false, false, {}, "-", "Tick the event applies at"}),
    required(
        {"node", ValueKind::String, 0, 0, false, false, {}, "-", "Name of the node it drives"}),
    vector("move", ValueKind::Vec2, -kBig, kBig, {}, "-",
           "Character direction [x, z], length <= 1"),
    flag("jump", false, "Character jump request"),
    number("throttle", -1, 1, 0, "-", "Vehicle throttle"),
    number("brake", 0, 1, 0, "-", "Vehicle brake"),
    number("steer", -1, 1, 0, "-", "Vehicle steering, positive turns left"),
};

constexpr ComponentSpec kTables[] = {
    {"character", "character", kCharacter},
    {"vehicle", "vehicle", kVehicle},
    {"wheel", "wheel", kWheel},
    {"collider", "collider", kCollider},
    {"drift", "drift", kDrift},
    {"material", "material", kMaterial},
    {"interaction", "interaction", kInteraction},
    // The schema's "matter" definition is the union of the tiers' tables; matter_visco holds
    // every numeric row of it (the soft body's knobs and its own), so it is the one checked
    // against it.
    {"matter", "", kMatter},
    {"matter_soft_body", "", kMatterSoftBody},
    {"matter_visco", "matter", kMatterVisco},
    {"matter_morph", "", kMatterMorph},
    {"camera", "camera", kCamera},
    {"settings", "settings", kSettings},
    {"gravity_field", "gravity_field", kGravityField},
    {"gravity_sdf", "gravity_sdf", kGravitySdf},
    {"gravity_density", "gravity_density", kGravityDensity},
    {"gravity_sdf_epsilon", "gravity_sdf_epsilon", kGravitySdfEpsilon},
    {"gravity_sdf_baked", "gravity_sdf_baked", kGravitySdfBaked},
    {"gravity_box_region", "gravity_box_region", kGravityBoxRegion},
    {"gravity_sphere_region", "gravity_sphere_region", kGravitySphereRegion},
    {"gravity_point", "gravity_point", kGravityPoint},
    {"gravity_sphere", "gravity_sphere", kGravitySphere},
    {"gravity_line", "gravity_line", kGravityLine},
    {"gravity_planet", "gravity_planet", kGravityPlanet},
    {"gravity", "gravity_receiver", kGravityReceiver},
    {"gravity_source", "gravity_emitter", kGravityEmitter},
    {"transform", "transform", kTransform},
    {"node", "node", kNode},
    {"input_event", "", kInputEvent},
};

}  // namespace

const ValueSpec* ComponentSpec::find(std::string_view key) const {
  const auto row =
      std::find_if(values.begin(), values.end(), [&](const ValueSpec& v) { return v.key == key; });
  return row == values.end() ? nullptr : &*row;
}

std::span<const ComponentSpec> allComponentSpecs() {
  return kTables;
}

const ComponentSpec* componentSpec(std::string_view name) {
  for (const ComponentSpec& table : kTables)
    if (table.name == name) return &table;
  return nullptr;
}

}  // namespace floptle::scene
