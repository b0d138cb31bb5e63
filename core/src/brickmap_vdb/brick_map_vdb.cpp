// BrickMap <-> OpenVDB level-set files. The only file of the project that includes OpenVDB:
// its headers are heavy and it throws, so everything stays behind brick_map_vdb.h's Expected.
#include "floptle/core/brickmap/brick_map_vdb.h"

#include <algorithm>
#include <cmath>
#include <deque>
#include <fstream>
#include <limits>
#include <mutex>
#include <system_error>

#include <openvdb/io/File.h>
#include <openvdb/io/GridDescriptor.h>
#include <openvdb/openvdb.h>
#include <openvdb/tools/Interpolation.h>

#include "vdb_layout.h"

namespace floptle {
namespace {

constexpr int kFormatVersion = 1;
constexpr int kCells = BrickMap::kCells;

void initializeOpenVdb() {
  static std::once_flag once;
  std::call_once(once, [] { openvdb::initialize(); });
}

int floorDiv(int a, int b) {
  return a >= 0 ? a / b : -((-a + b - 1) / b);
}

std::string gridWhere(const std::filesystem::path& file, const std::string& grid) {
  return file.string() + ": grid '" + grid + "'";
}

/// The bytes OpenVDB reads for a value of registered metadata type `type` when that is fixed
/// (TypedMetadata<T> reads sizeof(T), whatever size the file states); 0 otherwise.
std::uint32_t fixedMetadataBytes(const std::string& type) {
  if (type == "string" || type == "__delayedload" || !openvdb::Metadata::isRegisteredType(type))
    return 0;
  return openvdb::Metadata::createMetadata(type)->size();
}

/// Archive::readGrid (protected): one grid's compression, metadata, transform, tree and voxels
/// from a stream positioned at its data, as io::File reads it.
struct GridReader : openvdb::io::Archive {
  static void read(openvdb::GridBase::Ptr grid, const openvdb::io::GridDescriptor& descriptor,
                   std::istream& in) {
    readGrid(std::move(grid), descriptor, in);
  }
};

openvdb::Coord coordOf(glm::ivec3 v) {
  return openvdb::Coord(v.x, v.y, v.z);
}

// ---- writing ---------------------------------------------------------------------------

openvdb::FloatGrid::Ptr gridOf(const BrickMap& map, const std::string& name) {
  const float background = map.bandWidth();
  openvdb::FloatGrid::Ptr grid = openvdb::FloatGrid::create(background);
  // Voxel ijk <-> world origin + ijk * cellSize: the BrickMap's sample lattice (vertex-centred).
  openvdb::math::Transform::Ptr transform =
      openvdb::math::Transform::createLinearTransform(map.cellSize());
  const Vec3 o = map.origin();
  transform->postTranslate(openvdb::Vec3d(o.x, o.y, o.z));
  grid->setTransform(transform);
  grid->setName(name);
  grid->setGridClass(openvdb::GRID_LEVEL_SET);
  grid->setCreator("Floptle");
  grid->insertMeta("units", openvdb::StringMetadata("meters"));
  grid->insertMeta("up_axis", openvdb::StringMetadata("Y"));
  grid->insertMeta("floptle_format_version", openvdb::Int32Metadata(kFormatVersion));
  grid->insertMeta("floptle_band_width", openvdb::FloatMetadata(background));

  const glm::ivec3 dims = map.dims();
  auto forEachCell = [&](auto body) {
    for (int z = 0; z < dims.z; ++z)
      for (int y = 0; y < dims.y; ++y)
        for (int x = 0; x < dims.x; ++x) body(glm::ivec3(x, y, z));
  };
  // 1. Empty top cells inside the surface: one inactive -background tile each (a top cell is
  //    exactly one 8^3 VDB leaf: index 0 is the map's origin and bricks are 8 cells wide).
  forEachCell([&](glm::ivec3 c) {
    if (map.brickAt(c) < 0 && map.centreValue(c) < 0.0f)
      grid->tree().fill(openvdb::CoordBBox(coordOf(c * kCells), coordOf(c * kCells + (kCells - 1))),
                        -background,
                        /*active=*/false);
  });
  // 2. Brick samples: first the +x/+y/+z faces a brick shares with its neighbour, then every
  //    brick's own 8^3 samples, so a shared face holds the value of the brick that owns it and
  //    a face next to an empty cell still carries the brick's value (what a trilinear read in
  //    the brick's last cell needs).
  openvdb::FloatGrid::Accessor acc = grid->getAccessor();
  auto put = [&](openvdb::Coord ijk, float v) {
    if (std::abs(v) < background)
      acc.setValueOn(ijk, v);
    else
      acc.setValueOff(ijk, v);
  };
  for (const bool owned : {false, true}) {
    forEachCell([&](glm::ivec3 c) {
      const int b = map.brickAt(c);
      if (b < 0) return;
      for (int k = 0; k < BrickMap::kSamples; ++k)
        for (int j = 0; j < BrickMap::kSamples; ++j)
          for (int i = 0; i < BrickMap::kSamples; ++i) {
            const bool own = i < kCells && j < kCells && k < kCells;
            if (own == owned)
              put(coordOf(c * kCells + glm::ivec3(i, j, k)), map.brickSample(b, i, j, k));
          }
    });
  }
  grid->pruneGrid(0.0f);
  return grid;
}

// ---- reading ---------------------------------------------------------------------------

/// The grid to read, from the file's descriptors: the named one, else "surface", else the first
/// float grid.
Expected<const vdb::GridEntry*> chooseGrid(const vdb::Layout& layout,
                                           const std::filesystem::path& path,
                                           const std::string& wanted) {
  std::string list;
  const vdb::GridEntry *firstFloat = nullptr, *surface = nullptr;
  for (const vdb::GridEntry& g : layout.grids) {
    const std::string name = openvdb::io::GridDescriptor::stripSuffix(g.uniqueName);
    const std::string type = vdb::treeTypeOf(g.type);
    openvdb::GridBase::Ptr empty =
        openvdb::GridBase::isRegistered(type) ? openvdb::GridBase::createGrid(type) : nullptr;
    list += (list.empty() ? "" : ", ") +
            ("'" + name + "' (" + (empty ? empty->valueType() : type) + ")");
    if (!wanted.empty() && name == wanted) return &g;
    if (type == openvdb::FloatGrid::gridType()) {
      if (!firstFloat) firstFloat = &g;
      if (name == "surface" && !surface) surface = &g;
    }
  }
  if (list.empty()) list = "none";
  if (!wanted.empty())
    return Error{path.string(), "has no grid named '" + wanted + "' (grids: " + list + ")"};
  if (surface) return surface;
  if (!firstFloat)
    return Error{path.string(), "has no float grid to read as a level set (grids: " + list + ")"};
  return firstFloat;
}

const char* className(openvdb::GridClass c) {
  switch (c) {
    case openvdb::GRID_LEVEL_SET:
      return "a level set";
    case openvdb::GRID_FOG_VOLUME:
      return "a fog volume";
    case openvdb::GRID_STAGGERED:
      return "a staggered grid";
    default:
      return "of unknown class";
  }
}

/// Voxel size (m) and translation (m) of a uniform, axis-aligned linear transform.
Expected<std::pair<double, openvdb::Vec3d>> axisAlignedUniform(const openvdb::math::Transform& t,
                                                               const std::string& where) {
  if (!t.isLinear())
    return Error{where, "has a non-linear (frustum) transform; only uniform voxels are supported"};
  const openvdb::Mat4d m =
      t.baseMap()->getAffineMap()->getMat4();  // row vectors: world = [ijk 1] * m
  const double s = m(0, 0);
  const double tol = 1e-6 * std::abs(s);
  bool ok = s > 0.0 && std::isfinite(s);
  for (int r = 0; r < 3 && ok; ++r)
    for (int c = 0; c < 3 && ok; ++c) ok = std::abs(m(r, c) - (r == c ? s : 0.0)) <= tol;
  if (!ok)
    return Error{where,
                 "has a rotated, sheared or non-uniformly scaled transform; only axis-aligned "
                 "cubic voxels are supported"};
  const openvdb::Vec3d translation(m(3, 0), m(3, 1), m(3, 2));
  if (!std::isfinite(translation.x()) || !std::isfinite(translation.y()) ||
      !std::isfinite(translation.z()))
    return Error{where, "has a non-finite transform"};
  return std::make_pair(s, translation);
}

/// Top cells (of the map being built) that hold a narrow-band voxel, and the distance from
/// each other top cell's centre to the surface (m), which a narrow-band file does not store:
/// the surface lies where adjacent voxels change sign, so inside the boxes of the cells
/// holding band voxels (|v| < background); a cell k top cells away (Chebyshev) from all of
/// them is at least (k - 1/2) bricks off. Cells within kNearRings of the band (band cells
/// included) get the distance to the nearest sign crossing of the file (the surface to within
/// a voxel) instead.
struct CoarseField {
  std::vector<std::uint8_t> band;
  std::vector<float> farDistance;  ///< (m)
};
constexpr int kNearRings = 2;
/// Rings searched around a near cell for its nearest crossing. A narrow band holds the surface,
/// so a real file has one within a ring or two; a file whose band never changes sign has none,
/// and an unbounded search would cost the grid's size to the fourth power per cell. Past the
/// last ring searched the cell keeps a lower bound (nothing is nearer than that ring).
constexpr int kCrossingRings = kNearRings + 3;

CoarseField coarseField(const openvdb::FloatGrid& grid, openvdb::Coord base, glm::ivec3 dims,
                        float brickSize) {
  const float background = grid.background();
  const std::size_t cells = static_cast<std::size_t>(dims.x) * dims.y * dims.z;
  CoarseField out{std::vector<std::uint8_t>(cells, 0), std::vector<float>(cells, 0.0f)};
  auto index = [&](glm::ivec3 c) {
    return static_cast<std::size_t>(c.x + dims.x * (c.y + dims.y * c.z));
  };
  auto inside = [&](glm::ivec3 c) {
    return glm::all(glm::greaterThanEqual(c, glm::ivec3(0))) && glm::all(glm::lessThan(c, dims));
  };
  // Sign crossings along voxel edges (voxel units from `base`), bucketed by top cell.
  std::vector<std::vector<glm::vec3>> crossings(cells);
  openvdb::FloatGrid::ConstAccessor acc = grid.getConstAccessor();
  for (auto leaf = grid.tree().cbeginLeaf(); leaf; ++leaf) {
    for (auto it = leaf->cbeginValueAll(); it; ++it) {
      const float v = *it;
      for (int axis = 0; axis < 3; ++axis) {
        openvdb::Coord next = it.getCoord();
        next[axis] += 1;
        const float w = acc.getValue(next);
        if ((v < 0.0f) == (w < 0.0f) || !std::isfinite(v) || !std::isfinite(w)) continue;
        const openvdb::Coord g = it.getCoord() - base;
        glm::vec3 q(float(g.x()), float(g.y()), float(g.z()));
        q[axis] += v / (v - w);
        const glm::ivec3 c = glm::ivec3(glm::floor(q / float(kCells)));
        if (inside(c)) crossings[index(c)].push_back(q);
      }
      if (!(std::abs(v) < background)) continue;
      const openvdb::Coord g = it.getCoord() - base;
      const glm::ivec3 l(g.x(), g.y(), g.z());
      const glm::ivec3 home(floorDiv(l.x, kCells), floorDiv(l.y, kCells), floorDiv(l.z, kCells));
      // A voxel on a top cell's low face is also the high face of the cell below.
      for (int dz = 0; dz <= (l.z % kCells == 0 ? 1 : 0); ++dz)
        for (int dy = 0; dy <= (l.y % kCells == 0 ? 1 : 0); ++dy)
          for (int dx = 0; dx <= (l.x % kCells == 0 ? 1 : 0); ++dx) {
            const glm::ivec3 c = home - glm::ivec3(dx, dy, dz);
            if (inside(c)) out.band[index(c)] = 1;
          }
    }
  }
  // Chebyshev distance in top cells to the nearest band cell (breadth first, 26 neighbours).
  std::vector<int> steps(cells, -1);
  std::deque<glm::ivec3> queue;
  for (int z = 0; z < dims.z; ++z)
    for (int y = 0; y < dims.y; ++y)
      for (int x = 0; x < dims.x; ++x)
        if (out.band[index({x, y, z})]) {
          steps[index({x, y, z})] = 0;
          queue.push_back({x, y, z});
        }
  while (!queue.empty()) {
    const glm::ivec3 c = queue.front();
    queue.pop_front();
    for (int dz = -1; dz <= 1; ++dz)
      for (int dy = -1; dy <= 1; ++dy)
        for (int dx = -1; dx <= 1; ++dx) {
          const glm::ivec3 n = c + glm::ivec3(dx, dy, dz);
          if (!inside(n) || steps[index(n)] >= 0) continue;
          steps[index(n)] = steps[index(c)] + 1;
          queue.push_back(n);
        }
  }
  for (std::size_t i = 0; i < cells; ++i)
    out.farDistance[i] =
        steps[i] < 0 ? 1e9f : std::max(0.0f, (static_cast<float>(steps[i]) - 0.5f) * brickSize);
  // Near the band: the nearest crossing, ring by ring until no farther ring can hold a nearer
  // one (ring r is at least (r - 1/2) bricks from the centre).
  const float voxel = brickSize / kCells;
  for (int z = 0; z < dims.z; ++z)
    for (int y = 0; y < dims.y; ++y)
      for (int x = 0; x < dims.x; ++x) {
        const glm::ivec3 c(x, y, z);
        const int k = steps[index(c)];
        if (k < 0 || k > kNearRings) continue;
        const glm::vec3 centre = glm::vec3(c * kCells) + glm::vec3(0.5f * kCells);
        float best2 = std::numeric_limits<float>::infinity();
        for (int r = 0; r <= kCrossingRings + 1; ++r) {
          const float ringGap = (float(r) - 0.5f) * kCells;
          if (r > 0 && best2 <= ringGap * ringGap) break;  // no farther ring holds a nearer one
          if (r > kCrossingRings) {  // not searched: nothing in it is nearer than ringGap
            best2 = ringGap * ringGap;
            break;
          }
          for (int dz = -r; dz <= r; ++dz)
            for (int dy = -r; dy <= r; ++dy)
              for (int dx = -r; dx <= r; ++dx) {
                if (std::max({std::abs(dx), std::abs(dy), std::abs(dz)}) != r) continue;
                const glm::ivec3 n = c + glm::ivec3(dx, dy, dz);
                if (!inside(n)) continue;
                for (const glm::vec3& q : crossings[index(n)])
                  best2 = std::min(best2, glm::dot(q - centre, q - centre));
              }
        }
        out.farDistance[index(c)] = std::max(out.farDistance[index(c)], std::sqrt(best2) * voxel);
      }
  return out;
}

Expected<BrickMap> brickMapOf(const openvdb::FloatGrid& grid, const std::string& where,
                              const VdbReadOptions& options, const BakeProgress& progress) {
  if (grid.getGridClass() != openvdb::GRID_LEVEL_SET)
    return Error{where, std::string("is ") + className(grid.getGridClass()) +
                            ", not a level set (a signed distance field)"};
  auto frame = axisAlignedUniform(grid.transform(), where);
  if (!frame) return frame.error();
  const double voxel = frame->first;
  const float background = grid.background();
  if (!(background > 0.0f) || !std::isfinite(background))
    return Error{where, "has a background of " + std::to_string(background) +
                            "; a level set's must be > 0 (its band's outside distance)"};
  if (background > 1000.0 * voxel) return Error{where, "has a narrow band wider than 1000 voxels"};
  openvdb::CoordBBox leaves;
  if (!grid.tree().evalLeafBoundingBox(leaves))
    return Error{where, "has no voxels (an empty level set)"};
  // The cell arithmetic below is in int: index coordinates stay within +-2^28 voxels (a
  // lattice far wider than the brick limit lets any level span).
  constexpr int kMaxIndex = 1 << 28;
  for (int axis = 0; axis < 3; ++axis) {
    if (leaves.min()[axis] < -kMaxIndex || leaves.max()[axis] > kMaxIndex)
      return Error{where, "has voxels at index " + std::to_string(leaves.min()[axis]) + " .. " +
                              std::to_string(leaves.max()[axis]) + " on axis " +
                              std::to_string(axis) + ", beyond +-2^28"};
  }

  // Top cells on the file's lattice: cell c covers voxels base + 8c .. base + 8c + 8, with an
  // empty ring around the leaves, and enough cells that BrickMap::bake's padding fits.
  const float cell = static_cast<float>(voxel), brick = cell * kCells;
  const float pad = background + cell;
  const glm::ivec3 lo(floorDiv(leaves.min().x(), kCells) - 1,
                      floorDiv(leaves.min().y(), kCells) - 1,
                      floorDiv(leaves.min().z(), kCells) - 1);
  const glm::ivec3 hi(floorDiv(leaves.max().x(), kCells) + 1,
                      floorDiv(leaves.max().y(), kCells) + 1,
                      floorDiv(leaves.max().z(), kCells) + 1);
  const int minCells = static_cast<int>(std::ceil(0.75 + 2.0 * pad / brick));
  const glm::ivec3 dims = glm::max(hi - lo + 1, glm::ivec3(minCells));
  const double bricks = double(dims.x) * dims.y * dims.z;
  const double maxBricks = std::min(double(options.maxBricks), double(1 << 26));
  if (bricks > maxBricks)
    return Error{where, "spans " + std::to_string(dims.x) + " x " + std::to_string(dims.y) + " x " +
                            std::to_string(dims.z) + " bricks, more than the " +
                            std::to_string(std::uint64_t(maxBricks)) +
                            "-brick limit (VdbReadOptions::maxBricks)"};
  const openvdb::Coord base = coordOf(lo * kCells);
  const openvdb::Vec3d o = frame->second + voxel * base.asVec3d();
  const Vec3 origin(static_cast<float>(o.x()), static_cast<float>(o.y()),
                    static_cast<float>(o.z()));

  const CoarseField coarse = coarseField(grid, base, dims, brick);
  std::vector<float> centre(coarse.band.size());
  {
    openvdb::FloatGrid::ConstAccessor acc = grid.getConstAccessor();
    for (int z = 0, n = 0; z < dims.z; ++z)
      for (int y = 0; y < dims.y; ++y)
        for (int x = 0; x < dims.x; ++x, ++n) {
          const float v = acc.getValue(base + coordOf(glm::ivec3(x, y, z) * kCells + kCells / 2));
          // A band cell's centre voxel is exact when inside the band; elsewhere the file says
          // only the side, and the crossings say how far.
          centre[n] = coarse.band[n] && std::abs(v) < background
                          ? v
                          : std::copysign(std::max(coarse.farDistance[n], background), v);
        }
  }
  // BrickMap::bake only ever asks at lattice points: top-cell centres (unbounded: answered
  // from `centre`) and brick samples (the file's voxels, exactly).
  const DistanceBatchFn distance = [&](std::span<const Vec3> points, float maxDistance,
                                       std::span<float> out) {
    openvdb::FloatGrid::ConstAccessor acc = grid.getConstAccessor();
    for (std::size_t i = 0; i < points.size(); ++i) {
      const glm::dvec3 l = (glm::dvec3(points[i]) - glm::dvec3(origin)) / double(cell);
      const glm::dvec3 r = glm::round(l);
      const glm::ivec3 g(r);
      if (glm::any(glm::greaterThan(glm::abs(l - r), glm::dvec3(1e-3)))) {  // off the lattice
        const openvdb::Vec3d ijk = base.asVec3d() + openvdb::Vec3d(l.x, l.y, l.z);
        out[i] = openvdb::tools::BoxSampler::sample(acc, ijk);
      } else if (std::isinf(maxDistance)) {
        const glm::ivec3 c = glm::clamp(
            glm::ivec3(floorDiv(g.x, kCells), floorDiv(g.y, kCells), floorDiv(g.z, kCells)),
            glm::ivec3(0), dims - 1);
        out[i] = centre[static_cast<std::size_t>(c.x + dims.x * (c.y + dims.y * c.z))];
      } else {
        out[i] = acc.getValue(base + coordOf(g));
      }
    }
  };
  BrickMapSettings settings;
  settings.cellSize = cell;
  settings.bandWidth = background;
  settings.threads = std::max(1, options.threads);
  // bake() grows the bounds by `pad` and centres whole bricks on them: these bounds make its
  // grid exactly [origin, origin + dims * brick] (the quarter-brick slack keeps the brick
  // count from rounding up).
  const Vec3 extent = Vec3(dims) * brick;
  settings.bounds =
      Aabb{origin + Vec3(0.25f * brick + pad), origin + extent - Vec3(0.25f * brick + pad)};
  auto map = BrickMap::bake(settings, distance, progress);
  if (!map) return Error{where, map.error().message()};
  if (map->dims() != dims ||
      glm::any(glm::greaterThan(glm::abs(map->origin() - origin), Vec3(1e-3f * cell))))
    return Error{where, "internal error: the brick grid did not land on the file's voxel lattice"};
  return map;
}

}  // namespace

Expected<void> writeBrickMapVdb(const BrickMap& map, const std::filesystem::path& file,
                                const VdbWriteOptions& options) {
  if (map.dims().x <= 0 || map.dims().y <= 0 || map.dims().z <= 0)
    return Error{file.string(), "the baked field is empty (nothing to write)"};
  if (options.gridName.empty()) return Error{file.string(), "the grid needs a name"};
  std::filesystem::path temporary = file;
  temporary += ".tmp";
  try {
    initializeOpenVdb();
    openvdb::GridPtrVec grids{gridOf(map, options.gridName)};
    openvdb::io::File out(temporary.string());
    out.setCompression(openvdb::io::COMPRESS_ZIP | openvdb::io::COMPRESS_ACTIVE_MASK);
    out.write(grids);
    out.close();
  } catch (const std::exception& e) {
    std::error_code ignored;
    std::filesystem::remove(temporary, ignored);
    return Error{file.string(), std::string("cannot write the .vdb file: ") + e.what()};
  }
  std::error_code ec;
  std::filesystem::rename(temporary, file, ec);
  if (ec) {
    std::filesystem::remove(temporary, ec);
    return Error{file.string(), "cannot write the .vdb file: " + ec.message()};
  }
  return {};
}

Expected<BrickMap> readBrickMapVdb(const std::filesystem::path& file, const VdbReadOptions& options,
                                   const BakeProgress& progress) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(file, ec)) return Error{file.string(), "no such file"};
  const std::uintmax_t size = std::filesystem::file_size(file, ec);
  if (ec) return Error{file.string(), "cannot read the .vdb file: " + ec.message()};
  if (size > options.maxFileBytes)
    return Error{file.string(), "is " + std::to_string(size) + " bytes, more than the " +
                                    std::to_string(options.maxFileBytes) +
                                    "-byte limit for a .vdb file (VdbReadOptions::maxFileBytes); "
                                    "refused without reading it"};
  openvdb::GridBase::Ptr base;
  std::string where = file.string();
  try {
    initializeOpenVdb();
    // What the file declares, checked against its size before OpenVDB trusts any of it.
    std::ifstream declared(file, std::ios::binary);
    if (!declared) return Error{file.string(), "cannot open the .vdb file"};
    auto layout = vdb::readVdbLayout(declared, size, file, fixedMetadataBytes);
    if (!layout) return layout.error();
    auto chosen = chooseGrid(*layout, file, options.gridName);
    if (!chosen) return chosen.error();
    const vdb::GridEntry& entry = **chosen;
    where = gridWhere(file, openvdb::io::GridDescriptor::stripSuffix(entry.uniqueName));
    if (vdb::treeTypeOf(entry.type) != openvdb::FloatGrid::gridType()) {
      openvdb::GridBase::Ptr empty =
          openvdb::GridBase::isRegistered(vdb::treeTypeOf(entry.type))
              ? openvdb::GridBase::createGrid(vdb::treeTypeOf(entry.type))
              : nullptr;
      return Error{where, "holds " + (empty ? empty->valueType() : entry.type) +
                              " values; a level set must be a float grid"};
    }
    if (!entry.instanceParent.empty())
      return Error{where, "shares the tree of grid '" +
                              openvdb::io::GridDescriptor::stripSuffix(entry.instanceParent) +
                              "' (an instance); read that grid instead"};
    if (auto ok = vdb::checkVdbGridDeclarations(declared, size, where, entry, fixedMetadataBytes);
        !ok)
      return ok.error();
    // OpenVDB reads the one grid from a stream on which a read past the file's end throws (its
    // own file stream fails silently and it reads on), as openvdb::io::File tags its stream.
    std::ifstream in(file, std::ios::binary);
    in.exceptions(std::ios::failbit | std::ios::badbit);
    openvdb::io::StreamMetadata::Ptr streamMetadata(new openvdb::io::StreamMetadata);
    openvdb::io::setStreamMetadataPtr(in, streamMetadata, /*transfer=*/false);
    openvdb::io::setVersion(in, openvdb::VersionId(layout->libraryMajor, layout->libraryMinor),
                            layout->fileVersion);
    openvdb::io::setDataCompression(in, openvdb::io::Archive::DEFAULT_COMPRESSION_FLAGS);
    in.seekg(static_cast<std::streamoff>(entry.descriptorPos));
    openvdb::io::GridDescriptor descriptor;
    base = descriptor.read(in);
    in.seekg(static_cast<std::streamoff>(descriptor.getGridPos()));
    GridReader::read(base, descriptor, in);
  } catch (const std::ios_base::failure&) {
    return Error{where,
                 "not a readable OpenVDB file: its data ends before what it declares "
                 "(cut short or corrupt)"};
  } catch (const std::exception& e) {
    return Error{where, std::string("not a readable OpenVDB file (") + e.what() + ")"};
  }
  if (!base || !base->isType<openvdb::FloatGrid>())
    return Error{where, "holds " + (base ? base->valueType() : std::string("nothing")) +
                            " values; a level set must be a float grid"};
  try {
    return brickMapOf(*openvdb::gridPtrCast<openvdb::FloatGrid>(base), where, options, progress);
  } catch (const std::exception& e) {
    return Error{where, std::string("cannot be read: ") + e.what()};
  }
}

}  // namespace floptle
