// BrickMap <-> .vdb: a baked sphere written and read back keeps every sample; OpenVDB's own
// trilinear sampler reads our file at world points as BrickMap::distance does (the transform
// and vertex-centred offset); a level set made by OpenVDB reads as the sphere it is; fog
// volumes, vector grids, rotated transforms, missing and corrupt files are refused by name; a
// degenerate band is read promptly.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>

#include <unistd.h>

#include <openvdb/io/File.h>
#include <openvdb/openvdb.h>
#include <openvdb/tools/Interpolation.h>
#include <openvdb/tools/LevelSetSphere.h>

#include "floptle/core/brickmap/brick_map_vdb.h"

namespace floptle {
namespace {

namespace fs = std::filesystem;

const Vec3 kCentre(0.3f, -0.2f, 0.1f);
constexpr float kRadius = 1.3f, kCell = 0.1f;

fs::path tempDir() {
  const fs::path dir =
      fs::temp_directory_path() / ("floptle_vdb_test_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  return dir;
}

BrickMap bakedSphere() {
  BrickMapSettings s;
  s.bounds = Aabb::fromCenterHalf(kCentre, Vec3(kRadius));
  s.cellSize = kCell;
  auto map = BrickMap::bake(s, [](std::span<const Vec3> points, float, std::span<float> out) {
    for (std::size_t i = 0; i < points.size(); ++i)
      out[i] = glm::length(points[i] - kCentre) - kRadius;
  });
  EXPECT_TRUE(map.ok());
  return std::move(map).value();
}

/// Random points in a box around the sphere.
std::vector<Vec3> randomPoints(int n, float reach, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u(-reach, reach);
  std::vector<Vec3> out;
  for (int i = 0; i < n; ++i) out.push_back(kCentre + Vec3(u(rng), u(rng), u(rng)));
  return out;
}

/// Points where the map interpolates stored brick samples only (all 8 corners in one brick).
bool inBrick(const BrickMap& map, Vec3 p) {
  if (!map.gridBounds().contains(p)) return false;
  const glm::ivec3 c =
      glm::ivec3(glm::floor((p - map.origin()) / (map.cellSize() * BrickMap::kCells)));
  return glm::all(glm::greaterThanEqual(c, glm::ivec3(0))) &&
         glm::all(glm::lessThan(c, map.dims())) && map.brickAt(c) >= 0;
}

std::string fileBytes(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

void writeBytes(const fs::path& file, const std::string& bytes) {
  std::ofstream out(file, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), std::streamsize(bytes.size()));
}

TEST(BrickMapVdb, RoundTripKeepsEveryStoredSample) {
  const BrickMap original = bakedSphere();
  const fs::path file = tempDir() / "sphere.vdb";
  auto written = writeBrickMapVdb(original, file);
  ASSERT_TRUE(written.ok()) << written.error().message();
  auto read = readBrickMapVdb(file);
  ASSERT_TRUE(read.ok()) << read.error().message();
  EXPECT_EQ(read->cellSize(), original.cellSize());
  EXPECT_EQ(read->bandWidth(), original.bandWidth());
  // Both grids lie on the same sample lattice: the origins differ by whole bricks.
  const float brick = kCell * BrickMap::kCells;
  const Vec3 shift = (original.origin() - read->origin()) / brick;
  const glm::ivec3 delta = glm::ivec3(glm::round(shift));
  EXPECT_LT(glm::length(shift - Vec3(delta)), 1e-4f);
  int compared = 0;
  for (int z = 0; z < original.dims().z; ++z)
    for (int y = 0; y < original.dims().y; ++y)
      for (int x = 0; x < original.dims().x; ++x) {
        const glm::ivec3 c(x, y, z);
        const int b = original.brickAt(c);
        if (b < 0) continue;
        const glm::ivec3 rc = c + delta;
        const bool inRead = glm::all(glm::greaterThanEqual(rc, glm::ivec3(0))) &&
                            glm::all(glm::lessThan(rc, read->dims()));
        const int rb = inRead ? read->brickAt(rc) : -1;
        bool nearSurface = false;
        for (int k = 0; k < BrickMap::kSamples; ++k)
          for (int j = 0; j < BrickMap::kSamples; ++j)
            for (int i = 0; i < BrickMap::kSamples; ++i) {
              const float v = original.brickSample(b, i, j, k);
              nearSurface |= std::abs(v) < original.bandWidth();
              if (rb < 0) continue;
              ASSERT_NEAR(read->brickSample(rb, i, j, k), v, 1e-6f)
                  << "brick " << x << "," << y << "," << z;
              ++compared;
            }
        EXPECT_TRUE(rb >= 0 || !nearSurface) << "a brick holding band samples was lost";
      }
  EXPECT_GT(compared, 50 * BrickMap::kBrickSamples);

  int inBand = 0;
  for (const Vec3& p : randomPoints(20000, kRadius + 0.6f, 7)) {
    const float want = original.distance(p);
    const float got = read->distance(p);
    ASSERT_FALSE(std::isnan(got));
    if (std::abs(want) < original.bandWidth() && inBrick(original, p)) {
      ++inBand;
      ASSERT_NEAR(got, want, 2e-6f) << "at " << p.x << "," << p.y << "," << p.z;
      ASSERT_NEAR(got, glm::length(p - kCentre) - kRadius, 0.5f * kCell);
    } else {
      // Beyond the band: same side, at least a band away (the file keeps no far field).
      ASSERT_EQ(got < 0.0f, want < 0.0f) << "at " << p.x << "," << p.y << "," << p.z;
      ASSERT_GE(std::abs(got), original.bandWidth() * (1.0f - 1e-6f) - 2e-6f);
    }
  }
  EXPECT_GT(inBand, 500);
  // Rays from outside still find the surface through the read map's empty-space skipping.
  for (const Vec3& dir : {Vec3(1, 0, 0), Vec3(0, -1, 0), glm::normalize(Vec3(1, 2, -3))}) {
    const Vec3 origin = kCentre - dir * 5.0f;
    const BrickMap::RayHit hit = read->raycast(origin, dir, 10.0f);
    ASSERT_TRUE(hit.hit);
    EXPECT_NEAR(hit.distance, 5.0f - kRadius, 0.5f * kCell);
  }
}

TEST(BrickMapVdb, OpenVdbReadsOurFileAtTheSameWorldPoints) {
  const BrickMap original = bakedSphere();
  const fs::path file = tempDir() / "sphere_for_openvdb.vdb";
  ASSERT_TRUE(writeBrickMapVdb(original, file).ok());
  openvdb::initialize();
  openvdb::io::File in(file.string());
  in.open();
  openvdb::GridBase::Ptr base = in.readGrid("surface");
  in.close();
  ASSERT_TRUE(base && base->isType<openvdb::FloatGrid>());
  auto grid = openvdb::gridPtrCast<openvdb::FloatGrid>(base);
  EXPECT_EQ(grid->getGridClass(), openvdb::GRID_LEVEL_SET);
  EXPECT_FLOAT_EQ(grid->background(), original.bandWidth());
  EXPECT_NEAR(grid->voxelSize().x(), kCell, 1e-9);
  EXPECT_TRUE(grid->hasUniformVoxels());
  EXPECT_EQ(grid->metaValue<std::string>("units"), "meters");
  EXPECT_EQ(grid->metaValue<std::string>("up_axis"), "Y");
  EXPECT_EQ(grid->metaValue<openvdb::Int32>("floptle_format_version"), 1);
  // Voxel (0,0,0) is the sample at the map's origin: vertex-centred, no half-voxel shift.
  const openvdb::Vec3d o = grid->indexToWorld(openvdb::Coord(0, 0, 0));
  EXPECT_NEAR(o.x(), original.origin().x, 1e-6);
  EXPECT_NEAR(o.y(), original.origin().y, 1e-6);
  EXPECT_NEAR(o.z(), original.origin().z, 1e-6);
  // Sparse: only the band is active, and active values are within the band (a valid level set).
  EXPECT_GT(grid->activeVoxelCount(), 0u);
  EXPECT_LT(grid->activeVoxelCount(), openvdb::Index64(original.brickCount()) * 512u);
  for (auto it = grid->cbeginValueOn(); it; ++it) ASSERT_LT(std::abs(*it), grid->background());
  // Interior empty space is inactive -background, outside is background.
  EXPECT_FLOAT_EQ(grid->tree().getValue(grid->transform().worldToIndexCellCentered(
                      openvdb::Vec3d(kCentre.x, kCentre.y, kCentre.z))),
                  -original.bandWidth());
  EXPECT_FLOAT_EQ(grid->tree().getValue(openvdb::Coord(-1000, 0, 0)), original.bandWidth());

  openvdb::tools::GridSampler<openvdb::FloatGrid, openvdb::tools::BoxSampler> sampler(*grid);
  int compared = 0;
  for (const Vec3& p : randomPoints(20000, kRadius + 0.5f, 11)) {
    const float ours = original.distance(p);
    if (!(std::abs(ours) < original.bandWidth()) || !inBrick(original, p)) continue;
    ++compared;
    ASSERT_NEAR(sampler.wsSample(openvdb::Vec3d(p.x, p.y, p.z)), ours, 2e-6f)
        << "at " << p.x << "," << p.y << "," << p.z;
  }
  EXPECT_GT(compared, 500);
}

TEST(BrickMapVdb, ReadsALevelSetMadeByOpenVdb) {
  openvdb::initialize();
  // As Houdini or Blender would write it: another voxel size, cell-centred world lattice,
  // 3-voxel band, only the band stored.
  const float R = 0.8f, voxel = 0.05f;
  const openvdb::Vec3f c(1.0f, 2.0f, -0.5f);
  auto sphere = openvdb::tools::createLevelSetSphere<openvdb::FloatGrid>(R, c, voxel, 3.0f);
  sphere->setName("density_sdf");
  auto velocity = openvdb::Vec3SGrid::create();
  velocity->setName("vel");
  const fs::path file = tempDir() / "openvdb_sphere.vdb";
  openvdb::io::File(file.string()).write(openvdb::GridPtrVec{velocity, sphere});
  auto read = readBrickMapVdb(file);  // no "surface": the first float grid
  ASSERT_TRUE(read.ok()) << read.error().message();
  EXPECT_FLOAT_EQ(read->cellSize(), voxel);
  EXPECT_FLOAT_EQ(read->bandWidth(), sphere->background());
  const Vec3 centre(c.x(), c.y(), c.z());
  std::mt19937 rng(5);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  for (int i = 0; i < 2000; ++i) {
    const Vec3 dir = glm::normalize(Vec3(u(rng), u(rng), u(rng)) + Vec3(1e-4f));
    const float s = 0.5f * read->bandWidth() * u(rng);  // within the band
    const Vec3 p = centre + dir * (R + s);
    ASSERT_NEAR(read->distance(p), s, 0.5f * voxel) << "at " << p.x << "," << p.y << "," << p.z;
    Vec3 point, normal;
    read->closestPoint(p, point, normal);
    ASSERT_GT(glm::dot(normal, dir), 0.99f);
  }
  // Beyond the band (0.15 m) the file stores no distance: brick samples there read the band
  // (as any narrow-band bake's do), while empty top cells within two bricks of the band get
  // their centre distances rebuilt from the file's sign crossings: within a voxel there.
  int inEmptyCells = 0;
  float worstEmpty = 0.0f, meanEmpty = 0.0f;
  for (int i = 0; i < 1000; ++i) {
    const Vec3 dir = glm::normalize(Vec3(u(rng), u(rng), u(rng)) + Vec3(1e-4f));
    const float s = 0.45f + 0.15f * u(rng);  // 0.3 .. 0.6 m out
    const Vec3 p = centre + dir * (R + s);
    const float d = read->distance(p);
    ASSERT_GE(d, read->bandWidth() - 1e-6f);
    ASSERT_LE(d, s + voxel) << "at " << p.x << "," << p.y << "," << p.z;
    if (inBrick(*read, p)) continue;
    ++inEmptyCells;
    worstEmpty = std::max(worstEmpty, std::abs(d - s));
    meanEmpty += std::abs(d - s);
  }
  ASSERT_GT(inEmptyCells, 50);
  meanEmpty /= float(inEmptyCells);
  // Trilinear over brick-spaced centres of a curved field: within a quarter brick at worst,
  // a voxel on average (a plain lower bound would be off by up to a brick).
  EXPECT_LT(worstEmpty, 2.0f * voxel);
  EXPECT_LT(meanEmpty, voxel);
  std::printf(
      "empty-space distance error 0.3-0.6 m out: mean %.4f m, worst %.4f m (voxel %.2f m)\n",
      meanEmpty, worstEmpty, voxel);
  const BrickMap::RayHit hit = read->raycast(centre + Vec3(0, 4, 0), Vec3(0, -1, 0), 10.0f);
  ASSERT_TRUE(hit.hit);
  EXPECT_NEAR(hit.distance, 4.0f - R, 0.5f * voxel);
  EXPECT_LT(read->distance(centre), 0.0f);
  EXPECT_GT(read->distance(centre + Vec3(3, 0, 0)), 0.0f);
}

void expectRefused(const fs::path& file, const std::string& mentions) {
  auto read = readBrickMapVdb(file);
  ASSERT_FALSE(read.ok()) << file;
  const std::string message = read.error().message();
  EXPECT_NE(message.find(file.string()), std::string::npos) << message;
  EXPECT_NE(message.find(mentions), std::string::npos) << message;
}

TEST(BrickMapVdb, RefusesWhatIsNotAFloatLevelSet) {
  openvdb::initialize();
  const fs::path dir = tempDir();
  auto fog =
      openvdb::tools::createLevelSetSphere<openvdb::FloatGrid>(1.0f, openvdb::Vec3f(0.0f), 0.1f);
  fog->setGridClass(openvdb::GRID_FOG_VOLUME);
  fog->setName("surface");
  openvdb::io::File((dir / "fog.vdb").string()).write(openvdb::GridPtrVec{fog});
  expectRefused(dir / "fog.vdb", "grid 'surface': is a fog volume");

  auto vectors = openvdb::Vec3SGrid::create();
  vectors->setName("surface");
  openvdb::io::File((dir / "vec3.vdb").string()).write(openvdb::GridPtrVec{vectors});
  expectRefused(dir / "vec3.vdb", "no float grid");
  auto named = readBrickMapVdb(dir / "vec3.vdb", VdbReadOptions{"surface", 1});
  ASSERT_FALSE(named.ok());
  EXPECT_NE(named.error().message().find("grid 'surface': holds vec3s values"), std::string::npos)
      << named.error().message();

  auto rotated =
      openvdb::tools::createLevelSetSphere<openvdb::FloatGrid>(1.0f, openvdb::Vec3f(0.0f), 0.1f);
  rotated->transform().postRotate(0.3, openvdb::math::Y_AXIS);
  openvdb::io::File((dir / "rotated.vdb").string()).write(openvdb::GridPtrVec{rotated});
  expectRefused(dir / "rotated.vdb", "rotated");

  auto stretched =
      openvdb::tools::createLevelSetSphere<openvdb::FloatGrid>(1.0f, openvdb::Vec3f(0.0f), 0.1f);
  stretched->transform().postScale(openvdb::Vec3d(1.0, 2.0, 1.0));
  openvdb::io::File((dir / "stretched.vdb").string()).write(openvdb::GridPtrVec{stretched});
  expectRefused(dir / "stretched.vdb", "non-uniformly scaled");

  expectRefused(dir / "missing.vdb", "no such file");
  {
    std::ofstream corrupt(dir / "corrupt.vdb", std::ios::binary);
    corrupt << "this is not an OpenVDB file, just some bytes\n";
  }
  expectRefused(dir / "corrupt.vdb", "not a readable OpenVDB file");
  auto absent = readBrickMapVdb(dir / "fog.vdb", VdbReadOptions{"distance", 1});
  ASSERT_FALSE(absent.ok());
  EXPECT_NE(absent.error().message().find("no grid named 'distance'"), std::string::npos);
}

// Band voxels far apart, one with no sign change near it (a case the .vdb fuzz harness timed
// out on): the top cells near it must not search the whole grid for a crossing (the grid's size
// to the fourth power per cell: minutes for this 11 KB file); past a few rings they keep a
// lower bound.
TEST(BrickMapVdb, AFarBandVoxelWithoutASignChangeReadsAsALowerBound) {
  openvdb::initialize();
  constexpr float kVoxel = 0.25f, kBackground = 0.75f;
  constexpr int kFar = 400;  // voxels along each axis
  auto grid = openvdb::FloatGrid::create(kBackground);
  grid->setGridClass(openvdb::GRID_LEVEL_SET);
  grid->setTransform(openvdb::math::Transform::createLinearTransform(kVoxel));
  grid->setName("surface");
  grid->tree().setValue(openvdb::Coord(0, 0, 0), -0.1f);  // the only sign change: a speck
  grid->tree().setValue(openvdb::Coord(kFar, kFar, kFar), 0.1f);
  const fs::path file = tempDir() / "far_band.vdb";
  openvdb::io::File(file.string()).write(openvdb::GridPtrVec{grid});

  auto map = readBrickMapVdb(file);
  ASSERT_TRUE(map.ok()) << map.error().message();
  // Beside the far voxel: outside, and no farther from the surface than the speck at the origin.
  const Vec3 far(kFar * kVoxel + 1.0f);
  const float d = map->distance(far);
  EXPECT_GT(d, 0.0f);
  EXPECT_LE(d, glm::length(far) + kVoxel);
  EXPECT_LT(map->distance(Vec3(0.0f)), 0.0f);
}

// OpenVDB keys its root table by origin: a child repeating another's origin would replace it
// (leaking the first), and an origin off the 4096-voxel lattice names no child's place. Both
// are refused, naming the child, before OpenVDB reads the tree.
TEST(BrickMapVdb, ARootChildWithARepeatedOrUnalignedOriginIsRefused) {
  openvdb::initialize();
  auto grid = openvdb::FloatGrid::create(0.75f);
  grid->setGridClass(openvdb::GRID_LEVEL_SET);
  grid->setTransform(openvdb::math::Transform::createLinearTransform(0.25));
  grid->setName("surface");
  grid->tree().setValue(openvdb::Coord(0, 0, 0), -0.1f);
  grid->tree().setValue(openvdb::Coord(5000, 0, 0), 0.1f);  // in the root child at 4096
  const fs::path file = tempDir() / "root_origins.vdb";
  openvdb::io::File(file.string()).write(openvdb::GridPtrVec{grid});
  ASSERT_TRUE(readBrickMapVdb(file).ok());
  const std::string bytes = fileBytes(file);
  auto triple = [](std::int32_t x) {
    const std::int32_t v[3] = {x, 0, 0};
    return std::string(reinterpret_cast<const char*>(v), sizeof v);
  };
  // The root table: no tiles, two children, the first at the origin; the second child's
  // origin is the first (4096, 0, 0) after it (the voxel data may hold the same bytes later).
  const std::uint32_t counts[2] = {0, 2};
  const std::size_t table =
      bytes.find(std::string(reinterpret_cast<const char*>(counts), sizeof counts) + triple(0));
  ASSERT_NE(table, std::string::npos);
  const std::size_t second = bytes.find(triple(4096), table);
  ASSERT_NE(second, std::string::npos);
  const std::pair<std::int32_t, std::string> cases[] = {
      {0, "repeats the origin (0, 0, 0) of root child 0"},
      {4095, "has the origin (4095, 0, 0), not a multiple of 4096"}};
  for (const auto& [x, why] : cases) {
    std::string patched = bytes;
    patched.replace(second, 12, triple(x));
    writeBytes(file, patched);
    auto read = readBrickMapVdb(file);
    ASSERT_FALSE(read.ok()) << "the second root child at x = " << x;
    EXPECT_NE(read.error().what.find("root child 1 at byte " + std::to_string(second) + " " + why),
              std::string::npos)
        << read.error().what;
  }
}

// An empty level set's tree is its buffer count, background and root counts, which end where
// its (empty) voxel data starts: the file's end. Declaring 3.5 billion tiles there made
// OpenVDB read tiles past the end for minutes (the fuzz find FuzzFoundInputs.VdbWithARoot...);
// the counts must fit in the bytes before the voxel data.
TEST(BrickMapVdb, ARootTableLargerThanItsGridIsRefusedBeforeOpenVdbReadsIt) {
  openvdb::initialize();
  auto empty = openvdb::FloatGrid::create(0.3f);
  empty->setGridClass(openvdb::GRID_LEVEL_SET);
  empty->setName("surface");
  const fs::path file = tempDir() / "root_tiles.vdb";
  openvdb::io::File(file.string()).write(openvdb::GridPtrVec{empty});
  auto read = readBrickMapVdb(file);
  ASSERT_FALSE(read.ok());
  EXPECT_NE(read.error().what.find("no voxels"), std::string::npos) << read.error().message();
  std::string bytes = fileBytes(file);
  const std::uint32_t tiles = 3'500'000'000u, children = 0;
  ASSERT_GT(bytes.size(), 8u);
  ASSERT_EQ(bytes.compare(bytes.size() - 8, 8, std::string(8, '\0')), 0) << "no empty root";
  bytes.replace(bytes.size() - 8, 4, reinterpret_cast<const char*>(&tiles), 4);
  bytes.replace(bytes.size() - 4, 4, reinterpret_cast<const char*>(&children), 4);
  writeBytes(file, bytes);
  read = readBrickMapVdb(file);
  ASSERT_FALSE(read.ok());
  EXPECT_EQ(read.error().where, file.string() + ": grid 'surface'");
  EXPECT_NE(read.error().what.find("the grid's root table declares 3500000000 tiles and 0 child "
                                   "nodes, at least 59500000000 bytes, but the grid has 0 bytes "
                                   "before its voxel data"),
            std::string::npos)
      << read.error().what;
}

// A file over the size limit is refused before any of it is read, naming the limit.
TEST(BrickMapVdb, AFileOverTheSizeLimitIsRefusedUnread) {
  const fs::path file = tempDir() / "limited.vdb";
  ASSERT_TRUE(writeBrickMapVdb(bakedSphere(), file).ok());
  VdbReadOptions options;
  options.maxFileBytes = 1000;
  ASSERT_GT(fs::file_size(file), options.maxFileBytes);
  auto read = readBrickMapVdb(file, options);
  ASSERT_FALSE(read.ok());
  EXPECT_EQ(read.error().where, file.string());
  EXPECT_NE(read.error().what.find("more than the 1000-byte limit"), std::string::npos)
      << read.error().what;
  options.maxFileBytes = fs::file_size(file);
  EXPECT_TRUE(readBrickMapVdb(file, options).ok()) << "a file of exactly the limit is read";
}

// A grid whose top-level brick grid has more cells than the limit is refused before any is
// built, naming its size and the limit; one of exactly the limit is read.
TEST(BrickMapVdb, AGridSpanningMoreBricksThanTheLimitIsRefused) {
  const fs::path file = tempDir() / "brick_limited.vdb";
  ASSERT_TRUE(writeBrickMapVdb(bakedSphere(), file).ok());
  auto whole = readBrickMapVdb(file);
  ASSERT_TRUE(whole.ok()) << whole.error().message();
  const glm::ivec3 dims = whole->dims();
  VdbReadOptions options;
  options.maxBricks = std::uint64_t(dims.x) * dims.y * dims.z - 1;
  auto read = readBrickMapVdb(file, options);
  ASSERT_FALSE(read.ok());
  EXPECT_EQ(read.error().where, file.string() + ": grid 'surface'");
  const std::string size = std::to_string(dims.x) + " x " + std::to_string(dims.y) + " x " +
                           std::to_string(dims.z) + " bricks";
  EXPECT_NE(read.error().what.find("spans " + size + ", more than the " +
                                   std::to_string(options.maxBricks) + "-brick limit"),
            std::string::npos)
      << read.error().what;
  options.maxBricks += 1;
  EXPECT_TRUE(readBrickMapVdb(file, options).ok()) << "a grid of exactly the limit is read";
}

// A file cut short anywhere (header, metadata, descriptor, tree, voxels) is an error naming it,
// never a crash or a read past its end.
TEST(BrickMapVdb, AFileCutShortAnywhereIsAnErrorNamingIt) {
  const fs::path whole = tempDir() / "whole.vdb";
  ASSERT_TRUE(writeBrickMapVdb(bakedSphere(), whole).ok());
  const std::string bytes = fileBytes(whole);
  ASSERT_GT(bytes.size(), 1000u);
  const fs::path cut = tempDir() / "cut.vdb";
  constexpr int kCuts = 64;
  for (int i = 0; i < kCuts; ++i) {
    const std::size_t length = bytes.size() * std::size_t(i) / kCuts;
    {
      std::ofstream out(cut, std::ios::binary | std::ios::trunc);
      out.write(bytes.data(), std::streamsize(length));
    }
    auto read = readBrickMapVdb(cut);
    ASSERT_FALSE(read.ok()) << "cut at " << length << " of " << bytes.size();
    EXPECT_EQ(read.error().where.rfind(cut.string(), 0), 0u) << read.error().message();
    EXPECT_NE(read.error().what.find("not a readable OpenVDB file"), std::string::npos)
        << "cut at " << length << ": " << read.error().message();
  }
}

// Every compression OpenVDB writes (none, Zip, Blosc, each with and without active-value
// masks), in full and half floats: the tree walk that checks each block before OpenVDB reads it
// takes each of them, and the sphere reads back within its storage's precision.
TEST(BrickMapVdb, ReadsEveryCompressionAndHalfFloats) {
  openvdb::initialize();
  const float R = 0.6f, voxel = 0.05f;
  using openvdb::io::COMPRESS_ACTIVE_MASK, openvdb::io::COMPRESS_BLOSC, openvdb::io::COMPRESS_ZIP;
  const std::uint32_t compressions[] = {openvdb::io::COMPRESS_NONE,
                                        COMPRESS_ZIP,
                                        COMPRESS_BLOSC,
                                        COMPRESS_ACTIVE_MASK,
                                        COMPRESS_ZIP | COMPRESS_ACTIVE_MASK,
                                        COMPRESS_BLOSC | COMPRESS_ACTIVE_MASK};
  for (const std::uint32_t compression : compressions) {
    for (const bool half : {false, true}) {
      SCOPED_TRACE("compression " + openvdb::io::compressionToString(compression) +
                   (half ? ", half floats" : ", floats"));
      auto sphere = openvdb::tools::createLevelSetSphere<openvdb::FloatGrid>(
          R, openvdb::Vec3f(0.0f), voxel, 3.0f);
      sphere->setName("surface");
      sphere->setSaveFloatAsHalf(half);
      const fs::path file = tempDir() / "compressed.vdb";
      openvdb::io::File out(file.string());
      out.setCompression(compression);
      out.write(openvdb::GridPtrVec{sphere});
      out.close();
      auto read = readBrickMapVdb(file);
      ASSERT_TRUE(read.ok()) << read.error().message();
      for (const Vec3 dir : {Vec3(1, 0, 0), Vec3(0, -1, 0), glm::normalize(Vec3(1, 1, -1))})
        for (const float s : {-0.04f, 0.0f, 0.06f})
          EXPECT_NEAR(read->distance(dir * (R + s)), s, 0.5f * voxel);
    }
  }
}

/// A level set of one leaf of 512 active voxels whose values do not compress (random bits,
/// any finite float), so that Zip stores them plain: a block of -2048 (bytes) then the floats.
/// OpenVDB's writer never zips a level set: the grid is written as a staggered grid and its
/// class renamed in the file (the two names are as long).
fs::path oneNoisyLeaf(const std::string& name) {
  openvdb::initialize();
  auto grid = openvdb::FloatGrid::create(0.3f);
  grid->setGridClass(openvdb::GRID_STAGGERED);
  grid->setName("surface");
  std::mt19937 rng(9);
  auto noise = [&] {
    while (true) {
      const std::uint32_t bits = rng();
      float v;
      std::memcpy(&v, &bits, sizeof v);
      if (std::isfinite(v)) return v;
    }
  };
  for (int i = 0; i < 8; ++i)
    for (int j = 0; j < 8; ++j)
      for (int k = 0; k < 8; ++k) grid->tree().setValue(openvdb::Coord(i, j, k), noise());
  const fs::path file = tempDir() / name;
  openvdb::io::File out(file.string());
  out.setCompression(openvdb::io::COMPRESS_ZIP);
  out.write(openvdb::GridPtrVec{grid});
  out.close();
  std::string bytes = fileBytes(file);
  const std::size_t cls = bytes.find("staggered");
  EXPECT_NE(cls, std::string::npos);
  if (cls != std::string::npos) bytes.replace(cls, 9, "level set");
  writeBytes(file, bytes);
  return file;
}

// OpenVDB 10 copies a plain block into its node's buffer before comparing the block's size
// with the buffer's (io::bloscFromStream), so a block declaring more bytes than its leaf holds
// wrote past a heap buffer (found by fuzz_vdb_read: FuzzFoundInputs.VdbWithAPlainBlock...).
// Here the leaf's block declares 6144 bytes where the leaf holds 2048, and the file has those
// bytes: only the tree walk's size check stands between them and the leaf's buffer.
TEST(BrickMapVdb, AValueBlockLargerThanItsNodeIsRefusedBeforeOpenVdbReadsIt) {
  const fs::path file = oneNoisyLeaf("oversized_block.vdb");
  ASSERT_TRUE(readBrickMapVdb(file).ok());
  std::string bytes = fileBytes(file);
  const std::int64_t plain = -2048, oversized = -6144;
  const std::string marker(reinterpret_cast<const char*>(&plain), 8);
  const std::size_t at = bytes.find(marker);
  ASSERT_NE(at, std::string::npos) << "no plain 2048-byte block";
  ASSERT_EQ(bytes.find(marker, at + 1), std::string::npos) << "more than one such block";
  bytes.replace(at, 8, reinterpret_cast<const char*>(&oversized), 8);
  bytes.append(4096, '\0');
  writeBytes(file, bytes);
  auto read = readBrickMapVdb(file);
  ASSERT_FALSE(read.ok());
  EXPECT_EQ(read.error().where, file.string() + ": grid 'surface'");
  EXPECT_NE(read.error().what.find("the values of leaf 0 at byte " + std::to_string(at) +
                                   " declares -6144 bytes of plain values; its node holds 2048"),
            std::string::npos)
      << read.error().what;
}

// The value size (float or half) comes from the grid's metadata; OpenVDB's writer states it in
// the grid's type too, and a file whose two disagree could size a block for the one and be
// read as the other: refused.
TEST(BrickMapVdb, AGridWhoseTypeAndMetadataDisagreeOnHalfFloatsIsRefused) {
  openvdb::initialize();
  auto sphere =
      openvdb::tools::createLevelSetSphere<openvdb::FloatGrid>(0.5f, openvdb::Vec3f(0.0f), 0.1f);
  sphere->setName("surface");
  sphere->setSaveFloatAsHalf(true);
  const fs::path file = tempDir() / "half_mismatch.vdb";
  openvdb::io::File(file.string()).write(openvdb::GridPtrVec{sphere});
  ASSERT_TRUE(readBrickMapVdb(file).ok());
  std::string bytes = fileBytes(file);
  // The entry: its name, then "bool" (a uint32 length and 4 characters), a uint32 size of 1,
  // and the value byte.
  const std::size_t name = bytes.find("is_saved_as_half_float");
  ASSERT_NE(name, std::string::npos);
  const std::size_t value = name + std::strlen("is_saved_as_half_float") + 4 + 4 + 4;
  ASSERT_EQ(bytes.compare(value - 8, 4, "bool"), 0);
  ASSERT_EQ(bytes[value], 1);
  bytes[value] = 0;
  writeBytes(file, bytes);
  expectRefused(file,
                "the grid's type says its values are half floats and its "
                "'is_saved_as_half_float' metadata does not say so");
}

TEST(BrickMapVdb, WriteRefusesAnEmptyMapAndAnUnwritablePath) {
  EXPECT_FALSE(writeBrickMapVdb(BrickMap{}, tempDir() / "empty.vdb").ok());
  auto bad = writeBrickMapVdb(bakedSphere(), tempDir() / "no_such_folder" / "x.vdb");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().message().find("x.vdb"), std::string::npos);
}

}  // namespace
}  // namespace floptle
