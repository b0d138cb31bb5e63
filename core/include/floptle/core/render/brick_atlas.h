#pragma once
// BrickAtlas: brick maps (brickmap/brick_map.h) as GPU data for the viewport's raymarch
// program, so that the viewport draws the same sparse field physics collides with.
//
// Two textures, whose layout the shader part (brickMapsGlsl()) reads:
//   atlas  a 3D texture of slots.x * 9 by slots.y * 9 by slots.z * 9 texels, R16_SNORM: slot
//          s (x fastest) holds one brick's 9^3 samples at texel 9 * (s.x, s.y, s.z) + (i, j, k).
//          R16_SNORM and not R32F: a BrickMap stores its samples as 16-bit multiples of its
//          sampleStep(), so the snorm texel s / 32767 times the map's sampleStep() * 32767 is
//          the stored sample bit for bit, at half the bytes of a float (a brick is 1458 bytes
//          to upload). Hardware trilinear filtering inside a slot is the BrickMap's own
//          interpolation, since a brick duplicates its faces.
//   index  an RGBA32F 2D texture kIndexWidth texels wide:
//            [0]     (map count, slots.x, slots.y, slots.z)
//            per map m, kMapTexels texels at 1 + kMapTexels * m:
//              three rows (r.xyz, w): grid-local point q = (dot(r, p) + w) (m, unscaled),
//              (grid origin.xyz, cell size), (dims.xyz, first cell texel),
//              (sampleStep * 32767, material, scale, band width): distances scale by `scale`
//            per top cell of a map (x fastest): (slot or -1, centre value (m), 0, 0).
// Map headers have a fixed place (at most kMaxMaps maps), so the program text never changes
// with the number of maps or bricks: a map is data.
//
// The distance of a map at grid-local q (the shader's and distance()'s formula):
//   inside the grid, in a top cell with a brick: the trilinear sample (BrickMap::distance
//   exactly, up to float rounding); in an empty cell with centre value c at r from the
//   centre: max(c - r, band) (or min(c + r, -band) when c < 0), a lower bound of the field
//   by its invariant |d| >= band there; outside the grid with v the value at the nearest grid
//   point and g the gap: sqrt(v^2 + g^2) for v >= 0 (the surface lies in the grid box, so
//   the gap and the in-box distance are orthogonal legs), v - g inside a solid the grid cuts.
//
// Uploads are incremental: every change marks the slots and index texels it touched;
// dirtySlots() / indexDirty() say what to send, markUploaded() clears them.
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "floptle/core/brickmap/brick_map.h"
#include "floptle/core/expected.h"
#include "floptle/core/math.h"

namespace floptle::render {

/// Where a map is drawn: p_world = placement.applyToPoint(p_map); material as in the scene
/// data (0 = default albedo).
struct BrickMapPlacement {
  Transform transform;
  int material = 0;
};

class BrickAtlas {
 public:
  static constexpr int kSamples = BrickMap::kSamples;
  static constexpr int kBrickSamples = BrickMap::kBrickSamples;
  static constexpr int kIndexWidth = 1024;
  static constexpr int kMapTexels = 6;
  static constexpr int kMaxMaps = 64;
  /// Most slots along an axis: 28 * 9 = 252 texels, within OpenGL 3.3's guaranteed 256 of
  /// GL_MAX_3D_TEXTURE_SIZE.
  static constexpr int kMaxSlotsPerAxis = 28;
  /// Index rows at most (a map whose cells would need more is refused).
  static constexpr int kMaxIndexRows = 4096;

  /// An atlas of slotGrid.x * slotGrid.y * slotGrid.z brick slots, each axis clamped to
  /// [1, kMaxSlotsPerAxis].
  explicit BrickAtlas(glm::ivec3 slotGrid = glm::ivec3(16));

  /// Adds a map with every brick it holds; returns its id (>= 0). Refused, naming the limit,
  /// when its bricks do not fit the free slots, its cells the index, or kMaxMaps are in use.
  /// `name` says which map in a message.
  Expected<int> addMap(const BrickMap& map, const BrickMapPlacement& placement,
                       const std::string& name = "brick map");
  /// Re-copies the bricks of top cells `changedCells` of map `id` (the cells a re-bake
  /// touched; a cell that gained a brick takes a slot, one that lost it frees its slot) and
  /// their centre values. The map must have the grid it was added with. Refused (the atlas
  /// unchanged) when the new bricks do not fit the free slots.
  Expected<void> updateMap(int id, const BrickMap& map, std::span<const glm::ivec3> changedCells);
  /// As updateMap over every top cell whose brick samples or centre value differ from what the
  /// atlas holds (for a writer that does not track its changed cells). Returns the cells found.
  Expected<int> syncMap(int id, const BrickMap& map);
  /// Moves or re-materials a map (only its header texels change).
  void setPlacement(int id, const BrickMapPlacement& placement);
  /// Frees a map's slots and its index entry (the other maps' cells move: the index is dirty).
  void removeMap(int id);

  /// Signed distance (m) and material of the nearest map at world point p, by the shader's
  /// formula from the atlas's own texels: {1e30, 0} without maps.
  Vec2 distance(Vec3 p) const;

  // GPU data.
  glm::ivec3 slotGrid() const { return slots_; }
  glm::ivec3 atlasTexels() const { return slots_ * kSamples; }
  int slotCount() const { return slots_.x * slots_.y * slots_.z; }
  int usedSlots() const { return slotCount() - int(freeSlots_.size()); }
  /// One slot's 729 samples (x fastest), in units of the map's sampleStep().
  std::span<const std::int16_t> slotSamples(int slot) const {
    return {samples_.data() + std::size_t(slot) * kBrickSamples, std::size_t(kBrickSamples)};
  }
  /// First texel of a slot in the atlas.
  glm::ivec3 slotOrigin(int slot) const {
    return kSamples *
           glm::ivec3(slot % slots_.x, (slot / slots_.x) % slots_.y, slot / (slots_.x * slots_.y));
  }
  /// RGBA32F texels of the index, kIndexWidth * indexRows() * 4 floats.
  const std::vector<float>& indexTexels() const { return index_; }
  int indexRows() const { return int(index_.size()) / (4 * kIndexWidth); }

  /// Slots written since the last markUploaded(), ascending, each once.
  std::vector<int> dirtySlots() const;
  /// Whether an index texel changed since the last markUploaded().
  bool indexDirty() const { return indexDirty_; }
  void markUploaded();

 private:
  struct Map {
    bool live = false;
    glm::ivec3 dims{0};
    Vec3 origin{0.0f};
    float cellSize = 0.0f;
    float sampleStep = 0.0f;
    float bandWidth = 0.0f;
    BrickMapPlacement placement;
    std::vector<std::int32_t> slotOf;  ///< per top cell: atlas slot or -1
    std::vector<float> centre;         ///< per top cell (m)
    int firstCell = 0;                 ///< index texel of its first cell
  };
  Expected<void> checkGrid(int id, const BrickMap& map) const;
  /// Re-copies `cells` (top cell indices) of map id; refuses before writing when slots run out.
  Expected<void> copyCells(int id, const BrickMap& map, std::span<const int> cells);
  void writeSlot(int slot, const BrickMap& map, int brick);
  void writeHeader(int id);
  void writeCell(int id, int cell);
  /// Lays out every live map's cells anew and rewrites the whole index.
  Expected<void> rebuildIndex();
  float* texel(int i) { return index_.data() + std::size_t(i) * 4; }
  const float* texel(int i) const { return index_.data() + std::size_t(i) * 4; }
  float mapDistance(const Map& map, Vec3 q) const;
  float atlasSample(int slot, glm::ivec3 s) const;

  glm::ivec3 slots_;
  std::vector<std::int16_t> samples_;
  std::vector<int> freeSlots_;
  std::vector<Map> maps_;
  std::vector<float> index_;
  std::vector<std::uint8_t> slotDirty_;
  bool indexDirty_ = true;
};

/// The top cells the map's latest round (its bake or its last rebakeNearest) sampled, x
/// fastest: after a rebakeNearest, the changedCells to hand BrickAtlas::updateMap.
std::vector<glm::ivec3> cellsSampledInLastRound(const BrickMap& map);

/// The shader part: `vec2 brickMapsDistance(vec3 p)` (distance (m), material) of the maps in
/// `uniform sampler3D u_brickAtlas` and `uniform sampler2D u_brickIndex`, the formula of
/// BrickAtlas::distance. Fixed text.
std::string brickMapsGlsl();

}  // namespace floptle::render
