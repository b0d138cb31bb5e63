#include "floptle/physics/query_protocol.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <string>

namespace floptle::physics {

namespace {

using nlohmann::json;
using nlohmann::ordered_json;

ordered_json errorAnswer(const std::string& what) {
  return ordered_json{{"error", what}};
}

/// A request key read as the type we need, or an error message.
struct Reader {
  const json& request;
  std::string problem;

  bool failed() const { return !problem.empty(); }

  /// Three finite JSON numbers into d, or false with the problem set.
  bool threeNumbers(const char* key, double (&d)[3]) {
    if (failed()) return false;
    auto it = request.find(key);
    if (it == request.end()) return fail(std::string("missing \"") + key + "\""), false;
    const std::string notThree = std::string("\"") + key + "\" must be an array of three numbers";
    if (!it->is_array() || it->size() != 3) return fail(notThree), false;
    for (int i = 0; i < 3; ++i) {
      const json& c = (*it)[static_cast<std::size_t>(i)];
      if (!c.is_number()) return fail(notThree), false;
      d[i] = c.get<double>();
      if (!std::isfinite(d[i])) return fail(std::string("\"") + key + "\" must be finite"), false;
    }
    return true;
  }

  /// A point or displacement (m): three finite numbers within the float range.
  std::optional<Vec3> vec3(const char* key) {
    double d[3];
    if (!threeNumbers(key, d)) return std::nullopt;
    for (double x : d)
      if (std::abs(x) > std::numeric_limits<float>::max())
        return fail(std::string("\"") + key + "\" must be finite");
    return Vec3(static_cast<float>(d[0]), static_cast<float>(d[1]), static_cast<float>(d[2]));
  }

  /// A direction: three finite numbers, not all zero, of any magnitude (the JSON doubles are
  /// normalized before they become floats, so [0, 1e-30, 0] and [0, 1e39, 0] are both up).
  std::optional<Vec3> direction(const char* key) {
    double d[3];
    if (!threeNumbers(key, d)) return std::nullopt;
    const double largest = std::max({std::abs(d[0]), std::abs(d[1]), std::abs(d[2])});
    if (!(largest > 0.0)) return fail(std::string("\"") + key + "\" must not be zero");
    for (double& x : d) x /= largest;  // now within [-1, 1], the largest exactly +-1
    const double length = std::sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
    return Vec3(static_cast<float>(d[0] / length), static_cast<float>(d[1] / length),
                static_cast<float>(d[2] / length));
  }

  /// A reach along a cast (m): >= 0; beyond the float range it means "no limit".
  std::optional<double> reach(const char* key, double fallback) {
    if (failed()) return std::nullopt;
    auto it = request.find(key);
    if (it == request.end()) return fallback;
    if (!it->is_number()) return failNumber(std::string("\"") + key + "\" must be a number");
    const double d = it->get<double>();
    if (std::isnan(d)) return failNumber(std::string("\"") + key + "\" must be finite");
    if (d < 0.0) return failNumber(std::string("\"") + key + "\" must be >= 0");
    return std::min(d, double(std::numeric_limits<float>::max()));
  }

  std::optional<double> number(const char* key, std::optional<double> fallback = std::nullopt) {
    if (failed()) return std::nullopt;
    auto it = request.find(key);
    if (it == request.end()) {
      if (fallback) return fallback;
      return failNumber(std::string("missing \"") + key + "\"");
    }
    if (!it->is_number()) return failNumber(std::string("\"") + key + "\" must be a number");
    const double d = it->get<double>();
    if (!std::isfinite(d) || std::abs(d) > std::numeric_limits<float>::max())
      return failNumber(std::string("\"") + key + "\" must be finite");
    return d;
  }

  std::optional<Vec3> fail(std::string what) {
    problem = std::move(what);
    return std::nullopt;
  }
  std::optional<double> failNumber(std::string what) {
    problem = std::move(what);
    return std::nullopt;
  }
};

ordered_json vecJson(Vec3 v) {
  return ordered_json::array({v.x, v.y, v.z});
}

ordered_json materialJson(const CollisionWorld& world, const Hit& hit) {
  // Resolved here, on read: the query itself never paid for it.
  auto m = world.material(hit);
  return m ? ordered_json(*m) : ordered_json(nullptr);
}

ordered_json castAnswer(const CollisionWorld& world, const std::optional<Hit>& hit) {
  if (!hit) return ordered_json{{"hit", false}};
  ordered_json a{{"hit", true},
                 {"distance", hit->distance},
                 {"point", vecJson(hit->point)},
                 {"normal", vecJson(hit->normal)},
                 {"node", world.nodeName(*hit)},
                 {"material", materialJson(world, *hit)}};
  if (hit->inside) a["inside"] = true;
  return a;
}

ordered_json overlapAnswer(const CollisionWorld& world, const std::optional<Hit>& hit) {
  if (!hit) return ordered_json{{"hit", false}};
  return ordered_json{{"hit", true},
                      {"penetration", hit->distance},
                      {"point", vecJson(hit->point)},
                      {"normal", vecJson(hit->normal)},
                      {"node", world.nodeName(*hit)}};
}

/// A sweep answers as a cast, plus its time of impact (fraction of the motion).
ordered_json sweepAnswer(const CollisionWorld& world, const std::optional<Hit>& hit) {
  ordered_json a = castAnswer(world, hit);
  if (hit) a["toi"] = hit->toi;
  return a;
}

template <class T>
ordered_json fromExpected(const Expected<T>& result, auto&& answer) {
  if (!result) return errorAnswer(result.error().message());
  return answer(result.value());
}

}  // namespace

ordered_json answerQuery(CollisionWorld& world, const json& request,
                         const GravitySampler* gravity) {
  if (!request.is_object()) return errorAnswer("a query must be a JSON object");
  auto opIt = request.find("op");
  if (opIt == request.end() || !opIt->is_string()) return errorAnswer("missing \"op\" (a string)");
  const std::string op = opIt->get<std::string>();
  Reader in{request, {}};
  const auto t = in.number("t", 0.0);
  if (in.failed()) return errorAnswer(in.problem);
  // Morphing and moving colliders have boxes for one time: refit before answering at another.
  if (*t != world.refitTime()) world.refit(*t);

  if (op == "raycast" || op == "spherecast") {
    const auto origin = in.vec3("origin");
    const auto dir = in.direction("dir");
    const auto radius = op == "spherecast" ? in.number("radius") : std::optional<double>(0.0);
    const auto max = in.reach("max", kDefaultMaxDistance);
    if (in.failed()) return errorAnswer(in.problem);
    auto cast = [&](const std::optional<Hit>& h) { return castAnswer(world, h); };
    if (op == "raycast")
      return fromExpected(world.raycast(Ray{*origin, *dir}, static_cast<float>(*max), *t), cast);
    return fromExpected(
        world.spherecast(*origin, *dir, static_cast<float>(*radius), static_cast<float>(*max), *t),
        cast);
  }
  if (op == "gravity") {
    const auto p = in.vec3("p");
    if (in.failed()) return errorAnswer(in.problem);
    if (!gravity) return errorAnswer("this world has no gravity field");
    return ordered_json{{"g", vecJson(gravity->sample(*p, *t))}};
  }
  if (op == "closest") {
    const auto p = in.vec3("p");
    if (in.failed()) return errorAnswer(in.problem);
    return fromExpected(world.closest(*p, *t), [&](const std::optional<Hit>& h) {
      if (!h) return ordered_json{{"distance", nullptr}};
      return ordered_json{{"distance", h->distance},
                          {"point", vecJson(h->point)},
                          {"normal", vecJson(h->normal)},
                          {"node", world.nodeName(*h)}};
    });
  }
  auto overlap = [&](const std::optional<Hit>& h) { return overlapAnswer(world, h); };
  if (op == "sphere_overlap") {
    const auto c = in.vec3("center");
    const auto r = in.number("radius");
    if (in.failed()) return errorAnswer(in.problem);
    return fromExpected(world.sphereOverlap(*c, static_cast<float>(*r), *t), overlap);
  }
  if (op == "capsule_overlap") {
    const auto a = in.vec3("a");
    const auto b = in.vec3("b");
    const auto r = in.number("radius");
    if (in.failed()) return errorAnswer(in.problem);
    return fromExpected(world.capsuleOverlap(*a, *b, static_cast<float>(*r), *t), overlap);
  }
  if (op == "sweep") {
    auto kindIt = request.find("shape");
    if (kindIt == request.end() || !kindIt->is_string())
      return errorAnswer("missing \"shape\" (\"sphere\" or \"capsule\")");
    const std::string kind = kindIt->get<std::string>();
    SweepShape shape;
    if (kind == "sphere") {
      const auto c = in.vec3("center");
      const auto r = in.number("radius");
      if (in.failed()) return errorAnswer(in.problem);
      shape = SweepShape::sphere(*c, static_cast<float>(*r));
    } else if (kind == "capsule") {
      const auto a = in.vec3("a");
      const auto b = in.vec3("b");
      const auto r = in.number("radius");
      if (in.failed()) return errorAnswer(in.problem);
      shape = SweepShape::capsule(*a, *b, static_cast<float>(*r));
    } else {
      return errorAnswer("\"shape\" must be \"sphere\" or \"capsule\", got \"" + kind + "\"");
    }
    const auto motion = in.vec3("motion");
    if (in.failed()) return errorAnswer(in.problem);
    return fromExpected(world.sweep(shape, *motion, *t),
                        [&](const std::optional<Hit>& h) { return sweepAnswer(world, h); });
  }
  return errorAnswer(
      "unknown op \"" + op +
      "\" (raycast, spherecast, closest, sphere_overlap, capsule_overlap, sweep, gravity)");
}

ordered_json answerQueryLine(CollisionWorld& world, std::string_view line,
                             const GravitySampler* gravity) {
  json request;
  try {
    request = json::parse(line.begin(), line.end());
  } catch (const json::exception& e) {
    // nlohmann's message says where ("line 1, column 18") and what (an invalid literal such
    // as NaN, a number past a double such as 1e999), after a "[json.exception...] " tag.
    std::string_view what = e.what();
    if (const auto tag = what.find("] "); tag != std::string_view::npos)
      what.remove_prefix(tag + 2);
    return errorAnswer("not valid JSON: " + std::string(what));
  }
  try {
    return answerQuery(world, request, gravity);
  } catch (const std::exception& e) {  // nothing may escape the protocol
    return errorAnswer(std::string("internal error: ") + e.what());
  }
}

}  // namespace floptle::physics
