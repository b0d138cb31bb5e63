// Query protocol harness: one request line -> answerQueryLine on a small fixed scene
// (scenes/gravity.json: shapes, characters and a gravity field), built once. Every line must
// be answered or refused with {"error": ...}: an object, printable as the CLI prints it.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string_view>

#include "floptle/core/scene/scene.h"
#include "floptle/core/scene/scene_io.h"
#include "floptle/gravity/gravity_field.h"
#include "floptle/gravity/scene_gravity.h"
#include "floptle/physics/query_protocol.h"
#include "floptle/physics/scene_collision.h"
#include "fuzz_support.h"

namespace {

using namespace floptle;

[[noreturn]] void fail(const char* step, const Error& error) {
  std::fprintf(stderr, "fuzz_query_line set-up: %s: %s\n", step, error.message().c_str());
  std::abort();
}

/// The fixed scene's collision world and gravity field (the field points into the world).
struct Fixture {
  std::unique_ptr<physics::CollisionWorld> world;
  std::unique_ptr<gravity::GravityField> field;
};

Fixture makeFixture() {
  auto document = scene::parseSceneText(fuzz::readSourceFile("scenes/gravity.json"));
  if (!document) fail("scene", document.error());
  auto model = scene::buildScene(*document);
  if (!model) fail("scene", model.error());
  auto world = physics::buildCollisionWorld(*model, FLOPTLE_SOURCE_DIR "/scenes");
  if (!world) fail("collision world", world.error());
  Fixture f;
  f.world = std::make_unique<physics::CollisionWorld>(std::move(*world));
  auto gravityField = gravity::sceneGravityField(*model);
  if (!gravityField) fail("gravity field", gravityField.error());
  auto density = gravity::sceneDensityGravity(*model, *gravityField, *f.world);
  if (!density) fail("density gravity", density.error());
  f.field = std::make_unique<gravity::GravityField>(std::move(*gravityField));
  f.field->setSurface(f.world.get());
  f.field->setDensity(std::move(*density));
  return f;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static Fixture fixture = makeFixture();
  const std::string_view line(reinterpret_cast<const char*>(data), size);
  const nlohmann::ordered_json answer =
      physics::answerQueryLine(*fixture.world, line, fixture.field.get());
  if (!answer.is_object()) {
    std::fprintf(stderr, "the answer is not a JSON object: %s\n", answer.dump().c_str());
    std::abort();
  }
  // As `floptle query` prints it (strings of the request may hold bad UTF-8).
  (void)answer.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  return 0;
}
