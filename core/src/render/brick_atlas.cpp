#include "floptle/core/render/brick_atlas.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace floptle::render {

namespace {
/// The first index texel after the fixed header block (the global texel and every map header).
constexpr int kCellsStart = 1 + BrickAtlas::kMapTexels * BrickAtlas::kMaxMaps;
constexpr float kSnormMax = 32767.0f;
static_assert(BrickAtlas::kIndexWidth == 1024, "brickMapsGlsl's BI() reads rows of 1024 texels");
}  // namespace

BrickAtlas::BrickAtlas(glm::ivec3 slotGrid)
    : slots_(glm::clamp(slotGrid, glm::ivec3(1), glm::ivec3(kMaxSlotsPerAxis))) {
  samples_.assign(std::size_t(slotCount()) * kBrickSamples, 0);
  slotDirty_.assign(std::size_t(slotCount()), 0);
  // Lowest slots first (popped from the back).
  for (int s = slotCount() - 1; s >= 0; --s) freeSlots_.push_back(s);
  (void)rebuildIndex();
}

Expected<int> BrickAtlas::addMap(const BrickMap& map, const BrickMapPlacement& placement,
                                 const std::string& name) {
  int id = 0;
  while (id < int(maps_.size()) && maps_[std::size_t(id)].live) ++id;
  if (id >= kMaxMaps)
    return Error{name, "the brick atlas holds at most " + std::to_string(kMaxMaps) +
                           " maps (kMaxMaps), and that many are in use"};
  const glm::ivec3 dims = map.dims();
  const long long cells = (long long)dims.x * dims.y * dims.z;
  if (map.brickCount() > int(freeSlots_.size()))
    return Error{name, "needs " + std::to_string(map.brickCount()) + " bricks, but only " +
                           std::to_string(freeSlots_.size()) + " of the brick atlas's " +
                           std::to_string(slotCount()) + " slots (" + std::to_string(slots_.x) +
                           " x " + std::to_string(slots_.y) + " x " + std::to_string(slots_.z) +
                           ") are free"};
  long long used = 0;
  for (const Map& m : maps_)
    if (m.live) used += (long long)m.slotOf.size();
  const long long limit = (long long)kMaxIndexRows * kIndexWidth - kCellsStart;
  if (used + cells > limit)
    return Error{name, "its " + std::to_string(cells) +
                           " top cells do not fit the brick atlas's index (" +
                           std::to_string(limit) + " cells in " + std::to_string(kMaxIndexRows) +
                           " rows of " + std::to_string(kIndexWidth) + " texels, " +
                           std::to_string(used) + " in use)"};
  if (id == int(maps_.size())) maps_.emplace_back();
  Map& m = maps_[std::size_t(id)];
  m = Map{};
  m.live = true;
  m.dims = dims;
  m.origin = map.origin();
  m.cellSize = map.cellSize();
  m.sampleStep = map.sampleStep();
  m.bandWidth = map.bandWidth();
  m.placement = placement;
  m.slotOf.assign(std::size_t(cells), -1);
  m.centre.assign(std::size_t(cells), 0.0f);
  std::vector<int> all(static_cast<std::size_t>(cells));
  for (int i = 0; i < int(cells); ++i) all[std::size_t(i)] = i;
  Expected<void> index = rebuildIndex();
  if (!index) {
    m.live = false;
    return Error{name, index.error().message()};
  }
  Expected<void> copied = copyCells(id, map, all);
  if (!copied) {
    removeMap(id);
    return copied.error();
  }
  return id;
}

Expected<void> BrickAtlas::checkGrid(int id, const BrickMap& map) const {
  if (id < 0 || id >= int(maps_.size()) || !maps_[std::size_t(id)].live)
    return Error{"brick atlas", "no map with id " + std::to_string(id)};
  const Map& m = maps_[std::size_t(id)];
  if (map.dims() != m.dims || map.origin() != m.origin || map.cellSize() != m.cellSize ||
      map.sampleStep() != m.sampleStep)
    return Error{"brick atlas map " + std::to_string(id),
                 "the brick map's grid differs from the one it was added with (remove it and "
                 "add it again)"};
  return {};
}

Expected<void> BrickAtlas::updateMap(int id, const BrickMap& map,
                                     std::span<const glm::ivec3> changedCells) {
  if (Expected<void> ok = checkGrid(id, map); !ok) return ok;
  const glm::ivec3 dims = maps_[std::size_t(id)].dims;
  std::vector<int> cells;
  cells.reserve(changedCells.size());
  for (glm::ivec3 c : changedCells) {
    if (glm::any(glm::lessThan(c, glm::ivec3(0))) || glm::any(glm::greaterThanEqual(c, dims)))
      return Error{"brick atlas map " + std::to_string(id),
                   "changed cell (" + std::to_string(c.x) + ", " + std::to_string(c.y) + ", " +
                       std::to_string(c.z) + ") lies outside its " + std::to_string(dims.x) +
                       " x " + std::to_string(dims.y) + " x " + std::to_string(dims.z) +
                       " top grid"};
    cells.push_back(c.x + dims.x * (c.y + dims.y * c.z));
  }
  std::sort(cells.begin(), cells.end());
  cells.erase(std::unique(cells.begin(), cells.end()), cells.end());
  return copyCells(id, map, cells);
}

Expected<int> BrickAtlas::syncMap(int id, const BrickMap& map) {
  if (Expected<void> ok = checkGrid(id, map); !ok) return ok.error();
  const Map& m = maps_[std::size_t(id)];
  std::vector<int> cells;
  std::int16_t brick[kBrickSamples];
  for (int cell = 0; cell < int(m.slotOf.size()); ++cell) {
    const glm::ivec3 c(cell % m.dims.x, (cell / m.dims.x) % m.dims.y, cell / (m.dims.x * m.dims.y));
    const int b = map.brickAt(c);
    const int slot = m.slotOf[std::size_t(cell)];
    bool differs = (b >= 0) != (slot >= 0) || map.centreValue(c) != m.centre[std::size_t(cell)];
    if (!differs && b >= 0) {
      for (int k = 0, i = 0; k < kSamples; ++k)
        for (int y = 0; y < kSamples; ++y)
          for (int x = 0; x < kSamples; ++x, ++i)
            brick[i] = std::int16_t(std::lround(map.brickSample(b, x, y, k) / m.sampleStep));
      differs = std::memcmp(brick, slotSamples(slot).data(), sizeof brick) != 0;
    }
    if (differs) cells.push_back(cell);
  }
  if (Expected<void> ok = copyCells(id, map, cells); !ok) return ok.error();
  return int(cells.size());
}

Expected<void> BrickAtlas::copyCells(int id, const BrickMap& map, std::span<const int> cells) {
  Map& m = maps_[std::size_t(id)];
  auto coords = [&](int cell) {
    return glm::ivec3(cell % m.dims.x, (cell / m.dims.x) % m.dims.y, cell / (m.dims.x * m.dims.y));
  };
  // Count the slots the change needs before touching anything.
  long long needed = 0;
  for (int cell : cells) {
    const bool has = map.brickAt(coords(cell)) >= 0, had = m.slotOf[std::size_t(cell)] >= 0;
    needed += int(has) - int(had);
  }
  if (needed > (long long)freeSlots_.size())
    return Error{"brick atlas map " + std::to_string(id),
                 "needs " + std::to_string(needed) + " more bricks, but only " +
                     std::to_string(freeSlots_.size()) + " of the brick atlas's " +
                     std::to_string(slotCount()) + " slots (" + std::to_string(slots_.x) + " x " +
                     std::to_string(slots_.y) + " x " + std::to_string(slots_.z) + ") are free"};
  for (int cell : cells) {
    const glm::ivec3 c = coords(cell);
    const int brick = map.brickAt(c);
    std::int32_t& slot = m.slotOf[std::size_t(cell)];
    if (brick < 0 && slot >= 0) {
      freeSlots_.push_back(slot);
      slot = -1;
    } else if (brick >= 0 && slot < 0) {
      slot = freeSlots_.back();
      freeSlots_.pop_back();
    }
    if (brick >= 0) writeSlot(slot, map, brick);
    m.centre[std::size_t(cell)] = map.centreValue(c);
    writeCell(id, cell);
  }
  return {};
}

void BrickAtlas::writeSlot(int slot, const BrickMap& map, int brick) {
  std::int16_t* out = samples_.data() + std::size_t(slot) * kBrickSamples;
  const float inv = 1.0f / map.sampleStep();
  for (int k = 0; k < kSamples; ++k)
    for (int j = 0; j < kSamples; ++j)
      for (int i = 0; i < kSamples; ++i)
        *out++ = std::int16_t(std::lround(map.brickSample(brick, i, j, k) * inv));
  slotDirty_[std::size_t(slot)] = 1;
}

void BrickAtlas::setPlacement(int id, const BrickMapPlacement& placement) {
  if (id < 0 || id >= int(maps_.size()) || !maps_[std::size_t(id)].live) return;
  maps_[std::size_t(id)].placement = placement;
  writeHeader(id);
}

void BrickAtlas::removeMap(int id) {
  if (id < 0 || id >= int(maps_.size()) || !maps_[std::size_t(id)].live) return;
  Map& m = maps_[std::size_t(id)];
  for (std::int32_t slot : m.slotOf)
    if (slot >= 0) freeSlots_.push_back(slot);
  m = Map{};
  (void)rebuildIndex();
}

Expected<void> BrickAtlas::rebuildIndex() {
  int next = kCellsStart;
  for (Map& m : maps_) {
    if (!m.live) continue;
    m.firstCell = next;
    next += int(m.slotOf.size());
  }
  const int rows = (next + kIndexWidth - 1) / kIndexWidth;
  if (rows > kMaxIndexRows)
    return Error{"brick atlas", "the index needs " + std::to_string(rows) + " rows, more than " +
                                    std::to_string(kMaxIndexRows)};
  index_.assign(std::size_t(rows) * kIndexWidth * 4, 0.0f);
  int live = 0;
  for (int id = 0; id < int(maps_.size()); ++id) {
    if (!maps_[std::size_t(id)].live) continue;
    live = id + 1;
    writeHeader(id);
    for (int cell = 0; cell < int(maps_[std::size_t(id)].slotOf.size()); ++cell)
      writeCell(id, cell);
  }
  // The shader walks headers 0 .. count - 1 and skips the dead ones (cell size 0).
  float* head = texel(0);
  head[0] = float(live);
  head[1] = float(slots_.x);
  head[2] = float(slots_.y);
  head[3] = float(slots_.z);
  indexDirty_ = true;
  return {};
}

void BrickAtlas::writeHeader(int id) {
  const Map& m = maps_[std::size_t(id)];
  float* t = texel(1 + kMapTexels * id);
  const Transform& x = m.placement.transform;
  // q = conj(rotation) (p - position) / scale, written as rows of the unscaled rotation; the
  // shader divides by the scale.
  const Mat3 r = glm::transpose(glm::mat3_cast(x.rotation));
  for (int row = 0; row < 3; ++row) {
    const Vec3 axis(r[0][row], r[1][row], r[2][row]);
    t[4 * row + 0] = axis.x;
    t[4 * row + 1] = axis.y;
    t[4 * row + 2] = axis.z;
    t[4 * row + 3] = -glm::dot(axis, x.position);
  }
  t[12] = m.origin.x;
  t[13] = m.origin.y;
  t[14] = m.origin.z;
  t[15] = m.cellSize;
  t[16] = float(m.dims.x);
  t[17] = float(m.dims.y);
  t[18] = float(m.dims.z);
  t[19] = float(m.firstCell);
  t[20] = m.sampleStep * kSnormMax;
  t[21] = float(m.placement.material);
  t[22] = x.scale;
  t[23] = m.bandWidth;
  indexDirty_ = true;
}

void BrickAtlas::writeCell(int id, int cell) {
  const Map& m = maps_[std::size_t(id)];
  float* t = texel(m.firstCell + cell);
  t[0] = float(m.slotOf[std::size_t(cell)]);
  t[1] = m.centre[std::size_t(cell)];
  indexDirty_ = true;
}

std::vector<int> BrickAtlas::dirtySlots() const {
  std::vector<int> out;
  for (int s = 0; s < slotCount(); ++s)
    if (slotDirty_[std::size_t(s)]) out.push_back(s);
  return out;
}

void BrickAtlas::markUploaded() {
  std::fill(slotDirty_.begin(), slotDirty_.end(), std::uint8_t(0));
  indexDirty_ = false;
}

float BrickAtlas::atlasSample(int slot, glm::ivec3 s) const {
  return float(samples_[std::size_t(slot) * kBrickSamples + std::size_t(s.x) +
                        std::size_t(kSamples) * std::size_t(s.y + kSamples * s.z)]);
}

float BrickAtlas::mapDistance(const Map& m, Vec3 q) const {
  const float brickSize = float(BrickMap::kCells) * m.cellSize;
  const Vec3 hi = m.origin + Vec3(m.dims) * brickSize;
  const Vec3 c = glm::clamp(q, m.origin, hi);
  const float gap = glm::length(q - c);
  const glm::ivec3 cell =
      glm::clamp(glm::ivec3(glm::floor((c - m.origin) / brickSize)), glm::ivec3(0), m.dims - 1);
  const int index = cell.x + m.dims.x * (cell.y + m.dims.y * cell.z);
  const int slot = m.slotOf[std::size_t(index)];
  float v;
  if (slot >= 0) {
    const Vec3 f =
        glm::clamp((c - (m.origin + Vec3(cell) * brickSize)) / m.cellSize, Vec3(0.0f), Vec3(8.0f));
    const glm::ivec3 i0 = glm::min(glm::ivec3(glm::floor(f)), glm::ivec3(BrickMap::kCells - 1));
    const Vec3 w = f - Vec3(i0);
    float acc = 0.0f;
    for (int corner = 0; corner < 8; ++corner) {
      const glm::ivec3 o(corner & 1, (corner >> 1) & 1, corner >> 2);
      const float weight =
          (o.x ? w.x : 1.0f - w.x) * (o.y ? w.y : 1.0f - w.y) * (o.z ? w.z : 1.0f - w.z);
      acc += weight * atlasSample(slot, i0 + o);
    }
    v = acc * m.sampleStep;
  } else {
    const float centre = m.centre[std::size_t(index)];
    const float r = glm::length(c - (m.origin + (Vec3(cell) + 0.5f) * brickSize));
    v = centre >= 0.0f ? std::max(centre - r, m.bandWidth) : std::min(centre + r, -m.bandWidth);
  }
  return v >= 0.0f ? std::sqrt(v * v + gap * gap) : v - gap;
}

Vec2 BrickAtlas::distance(Vec3 p) const {
  Vec2 best(1e30f, 0.0f);
  for (const Map& m : maps_) {
    if (!m.live) continue;
    const Transform& x = m.placement.transform;
    const Vec3 q = glm::conjugate(x.rotation) * (p - x.position) / x.scale;
    const float d = mapDistance(m, q) * x.scale;
    if (d < best.x) best = Vec2(d, float(m.placement.material));
  }
  return best;
}

std::vector<glm::ivec3> cellsSampledInLastRound(const BrickMap& map) {
  std::vector<glm::ivec3> cells;
  const glm::ivec3 dims = map.dims();
  const float brickSize = float(BrickMap::kCells) * map.cellSize();
  for (int z = 0; z < dims.z; ++z)
    for (int y = 0; y < dims.y; ++y)
      for (int x = 0; x < dims.x; ++x) {
        const glm::ivec3 c(x, y, z);
        if (map.sampledInLastRound(map.origin() + (Vec3(c) + 0.5f) * brickSize)) cells.push_back(c);
      }
  return cells;
}

std::string brickMapsGlsl() {
  return R"GLSL(
// ---- brick maps (render/brick_atlas.h) ----
uniform sampler3D u_brickAtlas;
uniform sampler2D u_brickIndex;
#define BI(i) texelFetch(u_brickIndex, ivec2((i) & 1023, (i) >> 10), 0)
vec2 brickMapsDistance(vec3 p) {
  vec4 head = BI(0);
  int count = int(head.x);
  ivec3 slots = ivec3(head.yzw);
  vec3 atlasTexels = 9.0 * head.yzw;
  vec2 best = vec2(1e30, 0.0);
  for (int m = 0; m < count; ++m) {
    int b = 1 + 6 * m;
    vec4 r0 = BI(b), r1 = BI(b + 1), r2 = BI(b + 2), g = BI(b + 3), d = BI(b + 4), s = BI(b + 5);
    if (g.w <= 0.0) continue;  // a removed map
    vec3 q = vec3(dot(r0.xyz, p) + r0.w, dot(r1.xyz, p) + r1.w, dot(r2.xyz, p) + r2.w) / s.z;
    float brickSize = 8.0 * g.w;
    ivec3 dims = ivec3(d.xyz);
    vec3 c = clamp(q, g.xyz, g.xyz + d.xyz * brickSize);
    float gap = length(q - c);
    if (gap * s.z >= best.x) continue;
    ivec3 cell = clamp(ivec3(floor((c - g.xyz) / brickSize)), ivec3(0), dims - 1);
    vec4 e = BI(int(d.w) + cell.x + dims.x * (cell.y + dims.y * cell.z));
    float v;
    if (e.x >= 0.0) {
      int slot = int(e.x);
      ivec3 sc = ivec3(slot % slots.x, (slot / slots.x) % slots.y, slot / (slots.x * slots.y));
      vec3 f = clamp((c - (g.xyz + vec3(cell) * brickSize)) / g.w, vec3(0.0), vec3(8.0));
      v = texture(u_brickAtlas, (vec3(sc) * 9.0 + 0.5 + f) / atlasTexels).r * s.x;
    } else {
      float r = length(c - (g.xyz + (vec3(cell) + 0.5) * brickSize));
      v = e.y >= 0.0 ? max(e.y - r, s.w) : min(e.y + r, -s.w);
    }
    float dist = (v >= 0.0 ? sqrt(v * v + gap * gap) : v - gap) * s.z;
    if (dist < best.x) best = vec2(dist, s.y);
  }
  return best;
}
)GLSL";
}

}  // namespace floptle::render
