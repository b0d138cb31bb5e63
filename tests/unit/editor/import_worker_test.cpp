// Mesh reads through the import worker process: the same mesh and object tree as an import in
// this process; a broken file, a crash, a hang, unbounded allocation and a cancel each end the
// worker and come back as an Error naming the file, while this process carries on.
#include <gtest/gtest.h>

#include <fstream>

#include <QTemporaryDir>

#include "floptle/core/asset/mesh_import.h"
#include "floptle/core/asset/mesh_objects.h"
#include "import/import_worker.h"

namespace floptle::editor {
namespace {

const std::filesystem::path kLevel =
    std::filesystem::path(FLOPTLE_TEST_DATA_DIR) / "blender" / "level.glb";

/// Sets FLOPTLE_IMPORT_WORKER_FAULT for its lifetime (the worker inherits the environment).
class Fault {
 public:
  explicit Fault(const char* kind) { qputenv("FLOPTLE_IMPORT_WORKER_FAULT", kind); }
  ~Fault() { qunsetenv("FLOPTLE_IMPORT_WORKER_FAULT"); }
};

TEST(ImportWorker, ReadsTheSameMeshAndTreeAsAnImportInThisProcess) {
  auto local = asset::importMesh(kLevel);
  ASSERT_TRUE(local.ok()) << local.error().message();
  int progressCalls = 0;
  auto remote = importMeshInWorker(kLevel, {}, [&](float fraction, std::string_view stage) {
    EXPECT_GE(fraction, 0.0f);
    EXPECT_LE(fraction, 1.0f);
    EXPECT_FALSE(stage.empty());
    ++progressCalls;
  });
  ASSERT_TRUE(remote.ok()) << remote.error().message();
  EXPECT_GT(progressCalls, 0) << "the worker's progress reaches the caller";
  EXPECT_EQ(remote->positions, local->positions);
  EXPECT_EQ(remote->triangles, local->triangles);
  EXPECT_EQ(remote->triangleSlots, local->triangleSlots);
  ASSERT_EQ(remote->materialSlots.size(), local->materialSlots.size());
  for (std::size_t i = 0; i < local->materialSlots.size(); ++i) {
    EXPECT_EQ(remote->materialSlots[i].name, local->materialSlots[i].name);
    EXPECT_EQ(remote->materialSlots[i].baseColor, local->materialSlots[i].baseColor);
  }
  EXPECT_EQ(remote->sourceFiles, local->sourceFiles);

  auto localTree = asset::importMeshObjects(kLevel);
  auto remoteTree = importMeshObjectsInWorker(kLevel, {});
  ASSERT_TRUE(localTree.ok() && remoteTree.ok());
  ASSERT_EQ(remoteTree->objects.size(), localTree->objects.size());
  for (std::size_t i = 0; i < localTree->objects.size(); ++i) {
    const auto& a = remoteTree->objects[i];
    const auto& b = localTree->objects[i];
    EXPECT_EQ(a.name, b.name);
    EXPECT_EQ(a.parent, b.parent);
    EXPECT_EQ(a.local.position, b.local.position);
    EXPECT_EQ(a.local.rotation, b.local.rotation);
    EXPECT_EQ(a.local.scale, b.local.scale);
    EXPECT_EQ(a.triangleCount, b.triangleCount);
    EXPECT_EQ(a.hasFacesWithoutSlot, b.hasFacesWithoutSlot);
    EXPECT_EQ(a.instanceOf, b.instanceOf);
  }
  // One object alone, as a node's collider reads it.
  asset::ImportOptions suzanne;
  suzanne.object = "Suzanne";
  auto one = importMeshInWorker(kLevel, suzanne);
  auto oneLocal = asset::importMesh(kLevel, suzanne);
  ASSERT_TRUE(one.ok() && oneLocal.ok());
  EXPECT_EQ(one->positions, oneLocal->positions);
}

TEST(ImportWorker, TheImportsOwnErrorsComeBackAsTheyAre) {
  QTemporaryDir dir;
  const std::filesystem::path broken = dir.filePath("broken.glb").toStdString();
  std::ofstream(broken, std::ios::binary) << "glTF\x02garbage that is no binary glTF";
  auto local = asset::importMesh(broken);
  auto remote = importMeshInWorker(broken, {});
  ASSERT_FALSE(local.ok());
  ASSERT_FALSE(remote.ok());
  EXPECT_EQ(remote.error().message(), local.error().message());
}

// Found by the FBX fuzz harness: an ASCII FBX whose model is connected as its own parent
// ("OO",2000,2000), on which Assimp 5.2.5's FBX converter recurses until the stack overflows.
// The structure check refuses it before Assimp reads it, in the worker as in the process.
TEST(ImportWorker, AnFbxAssimpWouldRecurseOnIsRefusedByTheWorkerAsInProcess) {
  const auto file =
      std::filesystem::path(FLOPTLE_TEST_DATA_DIR) / "fuzz" / "assimp_fbx_self_parent.fbx";
  auto local = asset::importMesh(file);
  auto remote = importMeshInWorker(file, {});
  ASSERT_FALSE(local.ok());
  ASSERT_FALSE(remote.ok());
  EXPECT_EQ(remote.error().message(), local.error().message());
  EXPECT_NE(remote.error().what.find("its own parent"), std::string::npos) << remote.error().what;
}

// Found by the glTF fuzz harness: an 85-byte .glb whose buffer declares 4.2 GB, which Assimp
// 5.2.5 allocates before reading. The worker's memory limit ends that; the caller gets an
// error naming the file, whatever the worker managed to say.
TEST(ImportWorker, AGlbThatAsksAssimpForGigabytesIsAnErrorNamingTheFile) {
  const auto file =
      std::filesystem::path(FLOPTLE_TEST_DATA_DIR) / "fuzz" / "assimp_glb_4gb_buffer.glb";
  auto remote = importMeshInWorker(file, {});
  ASSERT_FALSE(remote.ok());
  EXPECT_EQ(remote.error().where, file.string()) << remote.error().message();
}

TEST(ImportWorker, ACrashIsAnErrorNamingTheFile) {
  Fault fault("crash");
  auto remote = importMeshInWorker(kLevel, {});
  ASSERT_FALSE(remote.ok());
  EXPECT_EQ(remote.error().where, kLevel.string());
  EXPECT_NE(remote.error().what.find("crashed"), std::string::npos) << remote.error().what;
}

TEST(ImportWorker, AHangIsStoppedAtTheTimeLimit) {
  Fault fault("hang");
  ImportWorkerLimits limits;
  limits.timeoutMs = 700;
  auto remote = importMeshInWorker(kLevel, {}, {}, nullptr, limits);
  ASSERT_FALSE(remote.ok());
  EXPECT_EQ(remote.error().where, kLevel.string());
  EXPECT_NE(remote.error().what.find("did not finish within"), std::string::npos)
      << remote.error().what;
}

TEST(ImportWorker, UnboundedAllocationEndsAtTheMemoryLimit) {
  Fault fault("allocate");
  ImportWorkerLimits limits;
  limits.memoryBytes = std::uint64_t(1) << 30;
  auto remote = importMeshInWorker(kLevel, {}, {}, nullptr, limits);
  ASSERT_FALSE(remote.ok());
  EXPECT_EQ(remote.error().where, kLevel.string());
  EXPECT_NE(remote.error().what.find("memory"), std::string::npos) << remote.error().what;
}

TEST(ImportWorker, CancelEndsTheWorkerAtOnce) {
  Fault fault("hang");
  const std::atomic<bool> cancel{true};
  auto remote = importMeshInWorker(kLevel, {}, {}, &cancel);
  ASSERT_FALSE(remote.ok());
  EXPECT_EQ(remote.error().what, "cancelled");
}

}  // namespace
}  // namespace floptle::editor
