// Inputs the fuzz harnesses of tests/fuzz found (kept in tests/data/fuzz/), read through the
// same readers in the ordinary suite: each gives a mesh that is whole or an error naming the
// file, and under ./test.sh's sanitized run (packaging/ci-sanitize.sh) nothing of ours leaks.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "floptle/core/asset/mesh_import.h"
#include "floptle/core/brickmap/brick_map_vdb.h"

namespace floptle::asset {
namespace {

const std::filesystem::path kFuzzData = std::filesystem::path(FLOPTLE_TEST_DATA_DIR) / "fuzz";

/// The harness's check (tests/fuzz/fuzz_mesh_import.cpp): every corner is a vertex, every
/// slot is one of the mesh's material slots.
void expectWhole(const TriangleMesh& mesh) {
  ASSERT_EQ(mesh.triangleSlots.size(), mesh.triangles.size());
  for (std::size_t t = 0; t < mesh.triangles.size(); ++t) {
    for (std::uint32_t corner : mesh.triangles[t])
      ASSERT_LT(corner, mesh.positions.size()) << "triangle " << t;
    const std::uint16_t slot = mesh.triangleSlots[t];
    if (slot != kNoMaterialSlot) {
      ASSERT_LT(slot, mesh.materialSlots.size()) << "triangle " << t;
    }
  }
}

// A 25 KB OBJ whose faces name vertices it does not have; Assimp 5.2.5 leaks what it built
// before refusing it (suppressed: packaging/lsan-suppressions.txt, tests/fuzz).
TEST(FuzzFoundInputs, ObjWithVertexIndexPastTheVerticesIsAnErrorNamingTheFile) {
  const auto file = kFuzzData / "assimp_leak.obj";
  auto mesh = importMesh(file);
  ASSERT_FALSE(mesh.ok());
  EXPECT_EQ(mesh.error().where, file.string());
  EXPECT_NE(mesh.error().what.find("vertex index out of range"), std::string::npos)
      << mesh.error().what;
}

// A 47 KB FBX with a broken compressed array; Assimp reads the rest and leaves the array's
// zlib stream open (suppressed likewise). What comes back must be a whole mesh.
TEST(FuzzFoundInputs, FbxWithABrokenCompressedArrayGivesAWholeMesh) {
  auto mesh = importMesh(kFuzzData / "assimp_zlib_leak.fbx");
  ASSERT_TRUE(mesh.ok()) << mesh.error().message();
  EXPECT_GT(mesh->triangleCount(), 0u);
  expectWhole(*mesh);
}

// A 4.8 KB .vdb (two files spliced) whose grid metadata declares a name of ~170 MB: OpenVDB
// allocated and filled what was claimed (860 MB peak; over 20 s in the fuzz harness) before
// failing. What the file declares is now checked against its bytes before OpenVDB reads any
// of it: here its descriptor already places the grid past the file's end.
TEST(FuzzFoundInputs, VdbWithMetadataSizesPastItsEndIsAnErrorNamingTheFile) {
  const auto file = kFuzzData / "openvdb_metadata_timeout.vdb";
  auto map = readBrickMapVdb(file);
  ASSERT_FALSE(map.ok());
  EXPECT_EQ(map.error().where, file.string());
  EXPECT_NE(map.error().what.find("not a readable OpenVDB file: the descriptor of grid 0 "
                                  "('surface') declares its data at bytes 124, 75458 and 78190, "
                                  "which do not follow it in order within the 4887 bytes"),
            std::string::npos)
      << map.error().what;
}

// A 2.6 KB .vdb (a file cut short, its root table's counts overwritten) that declares 3.5
// billion root tiles: OpenVDB read them one by one past the file's end (a failed read is no
// error to it), past the fuzzer's 10 s limit. Refused by its descriptor now, as above;
// BrickMapVdb.ARootTableLargerThanItsGridIsRefusedBeforeOpenVdbReadsIt has the tile count
// alone.
TEST(FuzzFoundInputs, VdbWithARootTableLargerThanTheFileIsAnErrorNamingTheFile) {
  const auto file = kFuzzData / "openvdb_root_tiles_timeout.vdb";
  auto map = readBrickMapVdb(file);
  ASSERT_FALSE(map.ok());
  EXPECT_EQ(map.error().where, file.string());
  EXPECT_NE(map.error().what.find("not a readable OpenVDB file: the descriptor of grid 0 "
                                  "('surface') declares its data at bytes 124, 11094 and 11280, "
                                  "which do not follow it in order within the 2643 bytes"),
            std::string::npos)
      << map.error().what;
}

// A 78 KB .vdb (Blosc, active-value masks) one of whose value blocks declares more plain bytes
// than its node holds: OpenVDB 10 copied them into the node's heap buffer before comparing the
// two sizes (a heap-buffer-overflow under ASan). The tree walk checks every block first;
// BrickMapVdb.AValueBlockLargerThanItsNodeIsRefusedBeforeOpenVdbReadsIt has the same in a file
// made for it.
TEST(FuzzFoundInputs, VdbWithAPlainBlockLargerThanItsNodeIsAnErrorNamingTheFile) {
  const auto file = kFuzzData / "openvdb_plain_block_overflow.vdb";
  auto map = readBrickMapVdb(file);
  ASSERT_FALSE(map.ok());
  EXPECT_EQ(map.error().where, file.string() + ": grid 'surface'");
  EXPECT_NE(map.error().what.find("bytes of plain values; its node holds"), std::string::npos)
      << map.error().what;
}

// A 78 KB .vdb (one bit of a valid file changed) whose leaves reach index coordinate
// -2^31: the cell arithmetic negated INT_MIN (undefined behaviour under UBSan). Index
// coordinates beyond +-2^28 are refused before it, naming the axis.
TEST(FuzzFoundInputs, VdbWithLeavesAtTheEdgeOfTheIntRangeIsAnErrorNamingTheGrid) {
  const auto file = kFuzzData / "openvdb_leaf_at_int_min.vdb";
  auto map = readBrickMapVdb(file);
  ASSERT_FALSE(map.ok());
  EXPECT_EQ(map.error().where, file.string() + ": grid 'surface'");
  EXPECT_NE(map.error().what.find("beyond +-2^28"), std::string::npos) << map.error().what;
}

}  // namespace
}  // namespace floptle::asset
