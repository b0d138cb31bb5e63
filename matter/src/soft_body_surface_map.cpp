// SoftBodySurfaceMap: the soft bodies' skinned field in a brickmap, re-baked on a budget
// (soft_body_surface_map.h).
#include "floptle/matter/soft_body_surface_map.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace floptle::matter {
namespace {

bool finiteBox(const Aabb& box) {
  return isFinite(box.min) && isFinite(box.max) && box.min.x <= box.max.x &&
         box.min.y <= box.max.y && box.min.z <= box.max.z;
}

}  // namespace

Expected<SoftBodySurfaceMap> SoftBodySurfaceMap::build(const std::vector<SoftBody>& bodies,
                                                       std::vector<std::string> names,
                                                       std::vector<RestField> restFields,
                                                       Aabb reach, const std::string& pointer,
                                                       int budget) {
  if (bodies.empty()) return Error{pointer, "a matter surface map needs a soft body"};
  if (names.size() != restFields.size())
    return Error{pointer, "a matter surface map needs one rest field per name"};
  if (!finiteBox(reach))
    return Error{pointer, "the matter surface map's reach must be a finite, non-empty box"};
  SoftBodySurfaceMap s;
  s.names_ = std::move(names);
  s.rest_ = std::move(restFields);
  s.budget_ = budget;
  float h = std::numeric_limits<float>::max();
  for (const SoftBody& b : bodies)
    if (s.restOf(b.name())) h = std::min(h, b.spacing());
  for (const std::string& name : s.names_)
    if (std::none_of(bodies.begin(), bodies.end(),
                     [&](const SoftBody& b) { return b.name() == name; }))
      return Error{pointer, "the matter surface map has no soft body called '" + name + "'"};
  if (s.names_.empty()) return Error{pointer, "a matter surface map needs a soft body"};
  // Half the spacing, doubled until the top grid (grown by the band and a cell each side, as
  // the bake grows it) fits kMaxTopCells.
  float cell = 0.5f * h;
  for (;;) {
    const Vec3 size = reach.max - reach.min + Vec3(8.0f * cell);
    const glm::dvec3 bricks = glm::ceil(glm::dvec3(size) / double(8.0f * cell));
    if (bricks.x * bricks.y * bricks.z <= double(kMaxTopCells)) break;
    cell *= 2.0f;
    if (!std::isfinite(cell))
      return Error{pointer, "the matter surface map's reach is too large for its grid"};
  }
  BrickMapSettings settings;
  settings.bounds = reach;
  settings.cellSize = cell;
  auto map = BrickMap::bake(settings, s.field(bodies));
  if (!map) return Error{pointer, "matter surface map: " + map.error().message()};
  s.map_ = std::move(*map);
  s.searchRadius_ = s.map_.bandWidth() + 2.0f * h;
  const glm::ivec3 d = s.map_.dims();
  s.changedFlag_.assign(std::size_t(d.x) * std::size_t(d.y) * std::size_t(d.z), 0);
  for (const SoftBody& b : bodies)
    if (s.restOf(b.name()))
      s.lastPoints_.insert(s.lastPoints_.end(), b.state().position.begin(),
                           b.state().position.end());
  return s;
}

const RestField* SoftBodySurfaceMap::restOf(const std::string& name) const {
  for (std::size_t i = 0; i < names_.size(); ++i)
    if (names_[i] == name) return &rest_[i];
  return nullptr;
}

DistanceBatchFn SoftBodySurfaceMap::field(const std::vector<SoftBody>& bodies) const {
  struct Skinned {
    SoftBodySkin skin;
    const RestField* rest;
  };
  auto skins = std::make_shared<std::vector<Skinned>>();
  for (const SoftBody& b : bodies)
    if (const RestField* rest = restOf(b.name())) skins->push_back({SoftBodySkin::fit(b), rest});
  return [skins](std::span<const Vec3> points, float maxDistance, std::span<float> out) {
    for (std::size_t i = 0; i < points.size(); ++i) {
      float f = std::numeric_limits<float>::infinity();
      for (const Skinned& s : *skins)
        f = std::min(f, s.skin.distance(*s.rest, points[i], maxDistance));
      out[i] = f;
    }
  };
}

void SoftBodySurfaceMap::update(const std::vector<SoftBody>& bodies) {
  ++counters_.updates;
  counters_.bricksRebaked = 0;
  std::vector<Vec3> points;
  for (const SoftBody& b : bodies)
    if (!b.state().asleep && restOf(b.name()))
      points.insert(points.end(), b.state().position.begin(), b.state().position.end());
  const std::size_t now = points.size();
  points.insert(points.end(), lastPoints_.begin(), lastPoints_.end());
  lastPoints_.assign(points.begin(), points.begin() + std::ptrdiff_t(now));
  if (points.empty() || budget_ <= 0) return;
  const int n = map_.rebakeNearest(field(bodies), points, budget_, searchRadius_);
  counters_.bricksRebaked = std::uint64_t(n);
  counters_.bricksRebakedTotal += std::uint64_t(n);
  if (n == 0) return;
  // The re-sampled cells lie within searchRadius of a point: scan that box for the cells the
  // round sampled.
  Aabb box;
  for (Vec3 p : points)
    if (isFinite(p)) box.min = glm::min(box.min, p), box.max = glm::max(box.max, p);
  const Vec3 brick = Vec3(8.0f * map_.cellSize());
  const glm::ivec3 dims = map_.dims();
  const glm::ivec3 lo =
      glm::clamp(glm::ivec3(glm::floor((box.min - Vec3(searchRadius_) - map_.origin()) / brick)),
                 glm::ivec3(0), dims - 1);
  const glm::ivec3 hi =
      glm::clamp(glm::ivec3(glm::floor((box.max + Vec3(searchRadius_) - map_.origin()) / brick)),
                 glm::ivec3(0), dims - 1);
  for (int z = lo.z; z <= hi.z; ++z)
    for (int y = lo.y; y <= hi.y; ++y)
      for (int x = lo.x; x <= hi.x; ++x) {
        const glm::ivec3 c(x, y, z);
        const std::size_t index = std::size_t(x + dims.x * (y + dims.y * z));
        if (changedFlag_[index]) continue;
        if (!map_.sampledInLastRound(map_.origin() + (Vec3(c) + Vec3(0.5f)) * brick)) continue;
        changedFlag_[index] = 1;
        changed_.push_back(c);
      }
}

std::vector<glm::ivec3> SoftBodySurfaceMap::takeChangedCells() {
  std::vector<glm::ivec3> out = std::move(changed_);
  changed_.clear();
  for (glm::ivec3 c : out)
    changedFlag_[std::size_t(c.x + map_.dims().x * (c.y + map_.dims().y * c.z))] = 0;
  return out;
}

}  // namespace floptle::matter
