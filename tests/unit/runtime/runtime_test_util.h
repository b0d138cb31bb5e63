#pragma once
// Helpers for the runtime tests: a scene document built into a running SceneRuntime.
#include <gtest/gtest.h>

#include "floptle/core/scene/scene.h"
#include "floptle/runtime/scene_runtime.h"

namespace floptle::runtime::test {

/// The runtime of `document`; a failure to build fails the test.
inline SceneRuntime built(const nlohmann::ordered_json& document) {
  auto sc = scene::buildScene(document);
  EXPECT_TRUE(sc) << (sc ? "" : sc.error().message());
  auto runtime = SceneRuntime::build(document, sc.value());
  EXPECT_TRUE(runtime) << (runtime ? "" : runtime.error().message());
  return std::move(runtime.value());
}

}  // namespace floptle::runtime::test
