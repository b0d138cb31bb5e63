// readGravityField: "settings/gravity" through the component table's gravity rows.
#include "floptle/core/scene/gravity_desc.h"

#include <cmath>

#include "floptle/core/scene/component_values.h"

namespace floptle::scene {
namespace {

using Json = nlohmann::ordered_json;

Expected<Vec3> unit(Vec3 v, const std::string& where) {
  const float len = glm::length(v);
  if (!(len > 1e-6f)) return Error{where, "must not be zero"};
  return v / len;
}

Expected<void> readRegion(const Json& item, const std::string& at, GravityFieldDesc& out) {
  if (!item.is_object() || !item.contains("shape") || !item["shape"].is_string())
    return Error{at + "/shape", "a region needs \"shape\": \"box\" or \"sphere\""};
  const std::string shape = item["shape"].get<std::string>();
  if (shape == "box") {
    auto in = ComponentReader::open(item, "gravity_box_region", at);
    if (!in) return in.error();
    GravityBoxRegion r;
    auto read = firstRefusal(
        {in->onlyKnownKeys(), in->vec3("center", r.center), in->vec3("half_extents", r.halfExtents),
         in->vec3("direction", r.direction), in->number("strength", r.strength)});
    if (!read) return read.error();
    if (in->has("rotation")) {
      double q[4];
      if (auto rot = in->vector("rotation", q); !rot) return rot.error();
      r.rotation = glm::normalize(Quat(float(q[3]), float(q[0]), float(q[1]), float(q[2])));
    }
    auto direction = unit(r.direction, at + "/direction");
    if (!direction) return direction.error();
    r.direction = *direction;
    out.boxes.push_back(r);
    return {};
  }
  if (shape == "sphere") {
    auto in = ComponentReader::open(item, "gravity_sphere_region", at);
    if (!in) return in.error();
    GravitySphereRegion r;
    std::string radial = "in";
    auto read = firstRefusal({in->onlyKnownKeys(), in->vec3("center", r.center),
                              in->number("radius", r.radius), in->string("radial", radial),
                              in->number("strength", r.strength)});
    if (!read) return read.error();
    r.outward = radial == "out";
    out.spheres.push_back(r);
    return {};
  }
  return Error{at + "/shape", "must be \"box\" or \"sphere\", found \"" + shape + "\""};
}

Expected<void> readSource(const Json& item, const std::string& at, GravityFieldDesc& out) {
  if (!item.is_object() || !item.contains("type") || !item["type"].is_string())
    return Error{at + "/type",
                 "a source needs \"type\": \"point\", \"sphere\", \"line\" or \"planet\""};
  const std::string type = item["type"].get<std::string>();
  GravitySource s;
  Expected<void> read;
  if (type == "point") {
    auto in = ComponentReader::open(item, "gravity_point", at);
    if (!in) return in.error();
    s.type = GravitySource::Type::Point;
    read = firstRefusal(
        {in->onlyKnownKeys(), in->vec3("center", s.center), in->number("mass", s.mass)});
  } else if (type == "sphere") {
    auto in = ComponentReader::open(item, "gravity_sphere", at);
    if (!in) return in.error();
    s.type = GravitySource::Type::Sphere;
    read =
        firstRefusal({in->onlyKnownKeys(), in->vec3("center", s.center), in->number("mass", s.mass),
                      in->number("radius", s.radius), in->number("r_outer", s.rOuter)});
  } else if (type == "line") {
    auto in = ComponentReader::open(item, "gravity_line", at);
    if (!in) return in.error();
    s.type = GravitySource::Type::Line;
    read = firstRefusal({in->onlyKnownKeys(), in->vec3("a", s.center), in->vec3("b", s.end),
                         in->number("lambda", s.mass), in->number("r_outer", s.rOuter)});
  } else if (type == "planet") {
    auto in = ComponentReader::open(item, "gravity_planet", at);
    if (!in) return in.error();
    s.type = GravitySource::Type::Planet;
    read = firstRefusal({in->onlyKnownKeys(), in->vec3("center", s.center),
                         in->number("strength", s.strength), in->number("r_outer", s.rOuter)});
  } else {
    return Error{at + "/type",
                 "must be \"point\", \"sphere\", \"line\" or \"planet\", found \"" + type + "\""};
  }
  if (!read) return read.error();
  out.sources.push_back(s);
  return {};
}

Expected<GravitySdfDesc> readSdf(const Json& item, const std::string& at) {
  auto in = ComponentReader::open(item, "gravity_sdf", at);
  if (!in) return in.error();
  GravitySdfDesc sdf;
  for (auto it = item.begin(); it != item.end(); ++it)
    if (it.key() != "strength" && it.key() != "range" && it.key() != "ema" &&
        it.key() != "smoothing")
      return Error{at + "/" + it.key(),
                   "is not a key of sdf gravity (strength, range, smoothing, ema)"};
  auto read = firstRefusal({in->number("strength", sdf.strength), in->number("range", sdf.range),
                            in->number("ema", sdf.ema)});
  if (!read) return read.error();
  if (item.contains("smoothing")) {
    const Json& smoothing = item["smoothing"];
    if (smoothing.is_object() && smoothing.contains("baked")) {
      if (smoothing.size() != 1)
        return Error{at + "/smoothing", "is either {\"baked\": {...}} or {\"epsilon\": e}"};
      auto baked =
          ComponentReader::open(smoothing["baked"], "gravity_sdf_baked", at + "/smoothing/baked");
      if (!baked) return baked.error();
      if (auto r = firstRefusal({baked->onlyKnownKeys(), baked->number("cell", sdf.bakedCell),
                                 baked->number("blur", sdf.blur)});
          !r)
        return r.error();
      return sdf;
    }
    auto eps = ComponentReader::open(smoothing, "gravity_sdf_epsilon", at + "/smoothing");
    if (!eps) return eps.error();
    if (auto r = firstRefusal({eps->onlyKnownKeys(), eps->number("epsilon", sdf.epsilon)}); !r)
      return r.error();
  }
  return sdf;
}

/// One corner of "bounds": three finite numbers.
Expected<Vec3> corner(const Json& item, const std::string& at) {
  if (!item.is_array() || item.size() != 3) return Error{at, "must be a point [x, y, z] (m)"};
  Vec3 v(0.0f);
  for (int i = 0; i < 3; ++i) {
    if (!item[std::size_t(i)].is_number() || !std::isfinite(item[std::size_t(i)].get<double>()) ||
        std::abs(item[std::size_t(i)].get<double>()) > 1e6)
      return Error{at + "/" + std::to_string(i), "must be a finite number in [-1e6, 1e6] (m)"};
    v[i] = item[std::size_t(i)].get<float>();
  }
  return v;
}

Expected<GravityDensityDesc> readDensity(const Json& item, const std::string& at) {
  auto in = ComponentReader::open(item, "gravity_density", at);
  if (!in) return in.error();
  for (auto it = item.begin(); it != item.end(); ++it) {
    if (it.key() == "bodies_attract" || it.key() == "theta")
      return Error{at + "/" + it.key(),
                   "belongs to the gravity object itself (bodies attract with or without the "
                   "density grid)"};
    if (it.key() != "cell" && it.key() != "cadence" && it.key() != "bounds")
      return Error{at + "/" + it.key(), "is not a key of density gravity (cell, cadence, bounds)"};
  }
  GravityDensityDesc density;
  std::int64_t cadence = density.cadence;
  if (auto r = firstRefusal({in->number("cell", density.cell), in->integer("cadence", cadence)});
      !r)
    return r.error();
  density.cadence = int(cadence);
  if (item.contains("bounds")) {
    const Json& bounds = item["bounds"];
    const std::string where = at + "/bounds";
    if (!bounds.is_array() || bounds.size() != 2)
      return Error{where, "must be [[min x, y, z], [max x, y, z]] (m)"};
    auto lo = corner(bounds[0], where + "/0");
    if (!lo) return lo.error();
    auto hi = corner(bounds[1], where + "/1");
    if (!hi) return hi.error();
    for (int i = 0; i < 3; ++i)
      if (!((*hi)[i] > (*lo)[i]))
        return Error{where, "each coordinate of the min corner must be below the max corner's"};
    density.bounds = Aabb{*lo, *hi};
  }
  return density;
}

}  // namespace

Expected<GravityFieldDesc> readGravityField(const Json& gravity, const std::string& pointer) {
  GravityFieldDesc desc;
  if (gravity.is_array()) {
    // The vector form: {"global": [x, y, z]}.
    Json wrapped = Json::object();
    wrapped["global"] = gravity;
    auto in = ComponentReader::open(wrapped, "gravity_field", pointer);
    if (!in) return in.error();
    Vec3 g(0.0f);
    if (auto r = in->vec3("global", g); !r) return Error{pointer, r.error().what};
    desc.global = g;
    return desc;
  }
  auto in = ComponentReader::open(gravity, "gravity_field", pointer);
  if (!in) return in.error();
  if (auto r =
          firstRefusal({in->number("G", desc.G), in->boolean("bodies_attract", desc.bodiesAttract),
                        in->number("theta", desc.theta)});
      !r)
    return r.error();
  if (in->has("global")) {
    Vec3 g(0.0f);
    if (auto r = in->vec3("global", g); !r) return r.error();
    desc.global = g;
  }
  if (gravity.contains("sdf")) {
    auto sdf = readSdf(gravity["sdf"], pointer + "/sdf");
    if (!sdf) return sdf.error();
    desc.sdf = sdf.value();
  }
  if (gravity.contains("density")) {
    auto density = readDensity(gravity["density"], pointer + "/density");
    if (!density) return density.error();
    desc.density = density.value();
  }
  for (const char* list : {"regions", "sources"}) {
    if (!gravity.contains(list)) continue;
    const Json& items = gravity[list];
    const std::string at = pointer + "/" + list;
    if (!items.is_array()) return Error{at, "must be an array"};
    for (std::size_t i = 0; i < items.size(); ++i) {
      const std::string item = at + "/" + std::to_string(i);
      auto read = std::string(list) == "regions" ? readRegion(items[i], item, desc)
                                                 : readSource(items[i], item, desc);
      if (!read) return read.error();
    }
  }
  for (auto it = gravity.begin(); it != gravity.end(); ++it) {
    const std::string& key = it.key();
    if (key != "G" && key != "global" && key != "regions" && key != "sources" && key != "sdf" &&
        key != "density" && key != "bodies_attract" && key != "theta")
      return Error{pointer + "/" + key,
                   "is not a key of the gravity field (G, global, regions, sources, sdf, "
                   "density, bodies_attract, theta)"};
  }
  return desc;
}

}  // namespace floptle::scene
