// File > Import Mesh in the window: a two-material OBJ written by the test becomes one node
// (the JSON `floptle import` writes) in one undo step, drawn with its material colours and
// depth-composited with the raymarched field; empty and garbage files, and an importer that
// crashes, are refused with the document unchanged; cancelling adds nothing; the baked-field choice
// bakes and says "field", and Play (and any collision world of the scene) finds that bake in the
// mesh collider cache.
#include "import_test_support.h"
#include "play_test_support.h"

#include <QMessageBox>
#include <QProgressDialog>
#include <QPushButton>

#include "floptle/core/scene/scene.h"
#include "floptle/editor/import_mesh_view.h"
#include "floptle/editor/mesh_import_dialog.h"
#include "floptle/editor/play_mode.h"
#include "floptle/editor/play_session.h"
#include "floptle/physics/mesh_collider_cache.h"
#include "floptle/physics/scene_collision.h"

namespace floptle::editor::test {
namespace {

// A box x, z in [-1, 1], y in [0, 2] (m): its +z face is material "front" (blue), the other
// five "sides" (green). Faces wound counter-clockwise seen from outside.
constexpr const char* kCubeObj = R"(mtllib cube.mtl
v -1 0 -1
v 1 0 -1
v 1 2 -1
v -1 2 -1
v -1 0 1
v 1 0 1
v 1 2 1
v -1 2 1
usemtl sides
f 2 1 4 3
f 1 5 8 4
f 6 2 3 7
f 8 7 3 4
f 1 2 6 5
usemtl front
f 5 6 7 8
)";
constexpr const char* kCubeMtl = R"(newmtl sides
Kd 0.1 0.8 0.1
newmtl front
Kd 0.1 0.2 0.9
)";

// A red sphere (r = 0.4 m) in front of the cube's +z face, on the right; the camera looks at
// the face from +z.
constexpr const char* kScene = R"({
  "format": "floptle.scene", "version": 1,
  "materials": [{"id": "red", "color": [0.9, 0.1, 0.1], "density": 1000, "friction": 0.5,
                 "restitution": 0.1, "bulk_modulus": 1e9, "yield_strength": 1e7}],
  "interactions": [],
  "cameras": [{"name": "front", "position": [0, 1, 6], "look_at": [0, 1, 0], "fov": 50}],
  "nodes": [{"name": "ball", "material": "red",
             "shape": {"type": "sphere", "radius": 0.4},
             "transform": {"position": [0.6, 1, 1.6]}}]
})";

class ImportMeshTest : public SmallWindowTest {
 protected:
  void SetUp() override {
    ASSERT_NO_FATAL_FAILURE(openScene(kScene));
    writeText(path("cube.obj"), kCubeObj);
    writeText(path("cube.mtl"), kCubeMtl);
    importer_ = window().findChild<MeshImporter*>("meshImporter");
    ASSERT_NE(importer_, nullptr);
    before_ = document().json();
    undoCount_ = document().undoStack()->count();
  }

  /// Runs an import to its end; true when a node was added.
  bool importAndWait(const QString& file, MeshCollision collision) {
    QSignalSpy imported(importer_, &MeshImporter::imported);
    QSignalSpy failed(importer_, &MeshImporter::failed);
    if (!importer_->start(file, collision)) return false;
    waitFor([&] { return imported.count() + failed.count() > 0; }, 60000);
    return imported.count() == 1;
  }

  QRgb pixelAt(const QImage& image, Vec3 world) {
    Vec2 pixel;
    EXPECT_TRUE(view().camera().project(world, image.width(), image.height(), pixel));
    return image.pixel(int(pixel.x), int(pixel.y));
  }

  void expectDocumentUnchanged() {
    EXPECT_EQ(document().json(), before_);
    EXPECT_EQ(document().undoStack()->count(), undoCount_);
    EXPECT_TRUE(view().overlayMeshLayers().isEmpty());
  }

  MeshImporter* importer_ = nullptr;
  Json before_;
  int undoCount_ = 0;
};

TEST_F(ImportMeshTest, ABlenderLevelComesInAsOneNodePerObjectEachEditableInOneUndoStep) {
  // tests/data/blender/level.glb, written by Blender (make_fixtures.py there says how).
  const QString level = QString::fromStdString(
      (std::filesystem::path(FLOPTLE_TEST_DATA_DIR) / "blender" / "level.glb").string());
  QSignalSpy imported(importer_, &MeshImporter::imported);
  QSignalSpy failed(importer_, &MeshImporter::failed);
  ASSERT_TRUE(importer_->start(level, MeshCollision::TriangleMesh, {}, true));
  waitFor([&] { return imported.count() + failed.count() > 0; }, 60000);
  ASSERT_EQ(imported.count(), 1);
  EXPECT_EQ(document().undoStack()->count(), undoCount_ + 1) << "one undo step";
  EXPECT_EQ(document().nodeNames(), QStringList({"ball", "level", "Block", "Suzanne", "Pivot",
                                                 "Child", "CrateA", "CrateB", "Wall"}));
  EXPECT_EQ(document().nodePointer("Child"), "/nodes/1/children/2/children/0")
      << "parented to the empty";
  const Json suzanne = *document().valueAt(document().nodePointer("Suzanne"));
  EXPECT_EQ(suzanne["mesh"]["object"], "Suzanne");
  EXPECT_EQ(suzanne["collider"]["body"], "static");
  // Each object is drawn on its own, under its node's transform.
  ASSERT_TRUE(waitFor([&] { return view().overlayMeshLayers().contains("mesh:Suzanne"); }, 20000));
  EXPECT_TRUE(view().overlayMeshLayers().contains("mesh:Block"));

  // One object made dynamic, one moved, one deleted: each its own undo step; the rest stays.
  ASSERT_TRUE(
      document().setValue(document().nodePointer("Block") + "/collider/body", Json("dynamic")));
  ASSERT_TRUE(document().setValue(document().nodePointer("CrateA") + "/transform/position",
                                  Json::array({1.0, 2.0, 3.0})));
  ASSERT_TRUE(document().removeNodes({"Suzanne"}));
  EXPECT_FALSE(document().nodeNames().contains("Suzanne"));
  EXPECT_EQ((*document().valueAt(document().nodePointer("Block")))["collider"]["body"], "dynamic");
  for (int i = 0; i < 4; ++i) document().undoStack()->undo();
  EXPECT_EQ(document().json(), before_);
}

TEST_F(ImportMeshTest, ObjBecomesOneNodeDrawnWithItsMaterialsAndUndoRemovesIt) {
  ASSERT_TRUE(importAndWait(path("cube.obj"), MeshCollision::TriangleMesh));
  EXPECT_FALSE(importer_->running());

  // One node, as `floptle import` writes it: file relative to the scene, one material per slot.
  ASSERT_EQ(document().nodeNames(), QStringList({"ball", "cube"}));
  const Json node = *document().valueAt(document().nodePointer("cube"));
  EXPECT_EQ(node["mesh"]["file"], "cube.obj");
  EXPECT_EQ(node["mesh"]["collision"], "mesh");
  EXPECT_EQ(node["mesh"]["materials"], Json::array({"sides", "front"}));
  EXPECT_EQ(node["material"], "sides");
  EXPECT_EQ(node["collider"]["body"], "static");
  const Json materials = *document().valueAt("/materials");
  ASSERT_EQ(materials.size(), 3u);
  EXPECT_EQ(materials[2]["id"], "front");
  EXPECT_NEAR(materials[2]["color"][2].get<double>(), 0.9, 1e-6);
  EXPECT_EQ(document().undoStack()->count(), undoCount_ + 1);
  EXPECT_EQ(document().selection(), QStringList({"cube"}));

  // Drawn: the front face blue where nothing is in front of it, the red ball in front of the
  // face hides it (depth composite), and the sides green seen past the ball's left.
  ASSERT_TRUE(waitFor([&] { return view().overlayMeshLayers().contains("mesh:cube"); }, 20000));
  window().document().setSelection({});  // no selection box or gizmo over the pixels
  const QImage image = view().captureImage();
  image.save(path("import.png"));
  const QRgb face = pixelAt(image, {-0.5f, 1.2f, 1.0f});
  EXPECT_GT(qBlue(face), qRed(face) + 40) << "front face not blue";
  EXPECT_GT(qBlue(face), qGreen(face) + 20) << "front face not blue";
  const QRgb ball = pixelAt(image, {0.6f, 1.0f, 2.0f});
  EXPECT_GT(qRed(ball), qBlue(ball) + 50) << "the field in front of the mesh does not hide it";
  EXPECT_GT(qRed(ball), qGreen(ball) + 50);

  // A click picks what it shows: the mesh's front face selects the mesh node (its triangles,
  // it has no field), the ball in front of the face selects the ball, the sky nothing.
  auto pickAt = [&](Vec3 world) {
    Vec2 pixel;
    EXPECT_TRUE(view().camera().project(world, view().width(), view().height(), pixel));
    return window().selectByRay(view().rayAt(QPointF(pixel.x, pixel.y)));
  };
  EXPECT_EQ(pickAt({-0.5f, 1.2f, 1.0f}), "cube");
  EXPECT_EQ(document().selection(), QStringList({"cube"}));
  EXPECT_EQ(pickAt({0.6f, 1.0f, 2.0f}), "ball");
  EXPECT_EQ(pickAt({-0.5f, 60.0f, -40.0f}), "");
  window().document().setSelection({});

  // Undo removes the node and its materials (one step); redo brings it back.
  document().undoStack()->undo();
  EXPECT_EQ(document().json(), before_);
  EXPECT_TRUE(view().overlayMeshLayers().isEmpty());
  const QRgb after = pixelAt(view().captureImage(), {-0.5f, 1.2f, 1.0f});
  EXPECT_LT(qBlue(after) - qRed(after), 40) << "the mesh is still drawn after undo";
  document().undoStack()->redo();
  EXPECT_EQ(document().nodeNames(), QStringList({"ball", "cube"}));
}

// The up-axis choice (as `floptle import --up z`): written into the component, and the mesh
// handed to the viewport is the turned one, drawn without reading the file again.
TEST_F(ImportMeshTest, ZUpChoiceIsWrittenAndDrawnTurned) {
  MeshImportDialog dialog(QStringLiteral("cube.obj"));
  EXPECT_EQ(dialog.collision(), MeshCollision::TriangleMesh) << "defaults";
  EXPECT_EQ(dialog.upAxis(), asset::ImportOptions::UpAxis::Automatic);
  dialog.setChoices(MeshCollision::BakedField, asset::ImportOptions::UpAxis::Z);
  EXPECT_EQ(dialog.collision(), MeshCollision::BakedField);
  EXPECT_EQ(dialog.upAxis(), asset::ImportOptions::UpAxis::Z);

  asset::ImportOptions zUp;
  zUp.upAxis = asset::ImportOptions::UpAxis::Z;
  QSignalSpy imported(importer_, &MeshImporter::imported);
  ASSERT_TRUE(importer_->start(path("cube.obj"), MeshCollision::TriangleMesh, zUp));
  ASSERT_TRUE(waitFor([&] { return imported.count() == 1; }, 60000));
  const Json node = *document().valueAt(document().nodePointer("cube"));
  EXPECT_EQ(node["mesh"]["up_axis"], "z");
  auto* meshes = window().findChild<ImportedMeshView*>(QStringLiteral("importedMeshView"));
  ASSERT_NE(meshes, nullptr);
  EXPECT_EQ(meshes->pendingLoads(), 0) << "the imported mesh was read again";
  // (x, y, z) in the file -> (x, z, -y): the box y in [0, 2], z in [-1, 1] lies at z in [-2, 0],
  // y in [-1, 1]; straight down at (0, 5, -0.5) its top is 4 m away (3 m were it taken as Y-up).
  const auto hit = meshes->pick(Ray{Vec3(0.0f, 5.0f, -0.5f), Vec3(0.0f, -1.0f, 0.0f)});
  ASSERT_TRUE(hit.has_value());
  EXPECT_NEAR(hit->distance, 4.0f, 1e-4f);
}

TEST_F(ImportMeshTest, SecondImportOfTheSameFileGetsUniqueNames) {
  ASSERT_TRUE(importAndWait(path("cube.obj"), MeshCollision::TriangleMesh));
  ASSERT_TRUE(importAndWait(path("cube.obj"), MeshCollision::TriangleMesh));
  EXPECT_EQ(document().nodeNames(), QStringList({"ball", "cube", "cube_2"}));
  const Json node = *document().valueAt(document().nodePointer("cube_2"));
  EXPECT_EQ(node["mesh"]["materials"], Json::array({"sides#2", "front#2"}));
}

TEST_F(ImportMeshTest, EmptyAndGarbageFilesAreRefusedWithTheDocumentUnchanged) {
  writeText(path("empty.obj"), "");
  writeText(path("garbage.glb"),
            std::string("glTF\x02") + std::string(3, '\0') + "this is not a binary glTF at all");
  writeText(path("points.obj"), "v 0 0 0\nv 1 0 0\nv 0 1 0\n");  // vertices, no faces
  for (const QString name : {"empty.obj", "garbage.glb", "points.obj", "missing.fbx"}) {
    SCOPED_TRACE(name.toStdString());
    QSignalSpy failed(importer_, &MeshImporter::failed);
    QSignalSpy messages(importer_, &MeshImporter::message);
    EXPECT_FALSE(importAndWait(path(name), MeshCollision::TriangleMesh));
    ASSERT_EQ(failed.count(), 1);
    EXPECT_FALSE(failed.first().at(1).toBool());  // not a cancel
    EXPECT_TRUE(failed.first().at(0).toString().contains(name))
        << failed.first().at(0).toString().toStdString();
    expectDocumentUnchanged();
    // A clear error dialog (closed here) and the same text in the log.
    auto* box = window().findChild<QMessageBox*>("importError");
    ASSERT_NE(box, nullptr);
    EXPECT_TRUE(box->text().contains(name));
    EXPECT_TRUE(window().log()->toPlainText().contains(box->text()));
    box->close();
    QTest::qWait(20);
  }
}

TEST_F(ImportMeshTest, AnImporterThatCrashesIsReportedAndTheEditorCarriesOn) {
  // The import worker dies as a file that breaks Assimp would make it: the editor names the
  // file and why, the document is unchanged, and the next import works.
  qputenv("FLOPTLE_IMPORT_WORKER_FAULT", "crash");
  QSignalSpy failed(importer_, &MeshImporter::failed);
  const bool added = importAndWait(path("cube.obj"), MeshCollision::TriangleMesh);
  qunsetenv("FLOPTLE_IMPORT_WORKER_FAULT");
  EXPECT_FALSE(added);
  ASSERT_EQ(failed.count(), 1);
  const QString message = failed.first().at(0).toString();
  EXPECT_TRUE(message.contains("cube.obj")) << message.toStdString();
  EXPECT_TRUE(message.contains("crashed")) << message.toStdString();
  expectDocumentUnchanged();
  if (auto* box = window().findChild<QMessageBox*>("importError")) box->close();
  QTest::qWait(20);
  EXPECT_TRUE(importAndWait(path("cube.obj"), MeshCollision::TriangleMesh));
}

TEST_F(ImportMeshTest, CancellingTheProgressDialogAddsNothing) {
  QSignalSpy failed(importer_, &MeshImporter::failed);
  ASSERT_TRUE(importer_->start(path("cube.obj"), MeshCollision::BakedField));
  QProgressDialog* progress = importer_->progressDialog();
  ASSERT_NE(progress, nullptr);
  EXPECT_FALSE(importer_->start(path("cube.obj"), MeshCollision::TriangleMesh))
      << "one import at a time";
  QPushButton* cancelButton = progress->findChild<QPushButton*>();
  ASSERT_NE(cancelButton, nullptr);
  QTest::mouseClick(cancelButton, Qt::LeftButton);
  ASSERT_TRUE(waitFor([&] { return failed.count() > 0; }, 60000));
  EXPECT_TRUE(failed.first().at(1).toBool());
  EXPECT_FALSE(importer_->running());
  EXPECT_EQ(importer_->progressDialog(), nullptr);
  QTest::qWait(50);
  expectDocumentUnchanged();
}

TEST_F(ImportMeshTest, BakedFieldChoiceBakesAndWritesFieldCollision) {
  QSignalSpy messages(importer_, &MeshImporter::message);
  ASSERT_TRUE(importAndWait(path("cube.obj"), MeshCollision::BakedField));
  const Json node = *document().valueAt(document().nodePointer("cube"));
  EXPECT_EQ(node["mesh"]["collision"], "field");
  bool bakedNote = false;
  for (const auto& args : messages)
    bakedNote = bakedNote || args.at(0).toString().contains("bricks");
  EXPECT_TRUE(bakedNote);
  const physics::MeshColliderCacheStats imported = window().meshCache().stats();
  EXPECT_EQ(imported.bakes, 1u);

  // Play builds the collision world from the document through the window's cache: the
  // import's bake is found there (the node as the scene holds it), not read and baked a
  // second time; nor by a second Play.
  PlaySession& session = window().playMode()->session();
  for (int play = 0; play < 2; ++play) {
    window().action("actionPlay")->trigger();
    ASSERT_TRUE(waitForBuild(session));
    ASSERT_EQ(session.state(), PlayState::Playing);
    const physics::MeshColliderCacheStats played = window().meshCache().stats();
    EXPECT_EQ(played.bakes, 1u) << "Play baked the imported mesh again";
    EXPECT_EQ(played.misses, imported.misses) << "Play built something the import had built";
    EXPECT_GT(played.hits, imported.hits);
    window().playMode()->stop();
  }
}

// The worker part alone: progress runs from 0 to 1 in order, a bake adds its stages.
/// The two-material cube written into `dir`, as a request to import it with a baked field.
MeshImportRequest bakedCubeRequest(const QTemporaryDir& dir) {
  writeText(dir.filePath("cube.obj"), kCubeObj);
  writeText(dir.filePath("cube.mtl"), kCubeMtl);
  MeshImportRequest request;
  request.file = dir.filePath("cube.obj").toStdString();
  request.collision = MeshCollision::BakedField;
  return request;
}

TEST(ImportMeshJob, ProgressIsMonotoneAndEndsAtOne) {
  physics::MeshColliderCache cache;
  QTemporaryDir dir;
  const MeshImportRequest request = bakedCubeRequest(dir);
  std::vector<float> fractions;
  auto result =
      runMeshImport(request, cache, [&](float f, std::string_view) { fractions.push_back(f); });
  ASSERT_TRUE(result.ok()) << result.error().message();
  EXPECT_EQ(result->mesh.triangleCount(), 12u);
  EXPECT_GT(result->bakedBricks, 0u);
  ASSERT_GE(fractions.size(), 3u);
  EXPECT_TRUE(std::is_sorted(fractions.begin(), fractions.end()));
  EXPECT_FLOAT_EQ(fractions.back(), 1.0f);

  std::atomic<bool> cancel{true};
  auto cancelled = runMeshImport(request, cache, {}, &cancel);
  EXPECT_FALSE(cancelled.ok());
}

// The import's collider and bake are the ones the scene's collision world gets: the node that
// meshSceneEntries writes for the request (up axis, unit scale, default cell) finds them in the
// cache. A cancelled bake leaves nothing behind (the next import bakes again).
TEST(ImportMeshJob, SceneBuiltAfterTheImportReusesItsBake) {
  physics::MeshColliderCache cache;
  QTemporaryDir dir;
  MeshImportRequest request = bakedCubeRequest(dir);
  request.options.upAxis = asset::ImportOptions::UpAxis::Z;
  request.options.unitScale = 0.3f;  // not a binary fraction: the JSON round trip must keep it

  // Cancelled once the bake runs: an error, nothing cached.
  std::atomic<bool> cancel{false};
  auto cancelled = runMeshImport(
      request, cache,
      [&](float, std::string_view stage) {
        if (stage == "sampling bricks") cancel.store(true);
      },
      &cancel);
  ASSERT_FALSE(cancelled.ok());
  EXPECT_EQ(cancelled.error().what, "cancelled");
  EXPECT_EQ(cache.stats().entries, 0u);

  auto result = runMeshImport(request, cache);
  ASSERT_TRUE(result.ok()) << result.error().message();
  EXPECT_FALSE(result->fromCache);
  EXPECT_EQ(cache.stats().bakes, 2u);  // the cancelled one and this one
  // Z up, 0.3 m a unit: the box's y in [0, 2] becomes z in [-0.6, 0].
  EXPECT_NEAR(result->mesh.bounds().min.z, -0.6f, 1e-6f);

  const MeshSceneEntries entries =
      meshSceneEntries(result->mesh, request.file, dir.path().toStdString(), request.collision, {},
                       {}, request.options);
  Json document = {{"format", "floptle.scene"},
                   {"version", 1},
                   {"interactions", Json::array()},
                   {"materials", entries.materials},
                   {"nodes", Json::array({entries.node})}};
  auto scene = scene::buildScene(Json::parse(document.dump()));  // as read back from the file
  ASSERT_TRUE(scene.ok()) << scene.error().message();
  const physics::MeshColliderCacheStats before = cache.stats();
  physics::ColliderBuildOptions through;
  through.meshCache = &cache;
  auto world = physics::buildCollisionWorld(*scene, dir.path().toStdString(), through);
  ASSERT_TRUE(world.ok()) << world.error().message();
  const physics::MeshColliderCacheStats after = cache.stats();
  EXPECT_EQ(after.bakes, before.bakes) << "the collision world baked the imported mesh again";
  EXPECT_EQ(after.misses, before.misses);
  EXPECT_EQ(after.hits, before.hits + 1);

  // A second import of the same file is answered from the cache.
  auto again = runMeshImport(request, cache);
  ASSERT_TRUE(again.ok());
  EXPECT_TRUE(again->fromCache);
  EXPECT_EQ(again->bakedBricks, result->bakedBricks);
}

}  // namespace
}  // namespace floptle::editor::test
