// `floptle render`: PNG written at the requested size, the defaults, and the exit codes
// 0 (written), 1 (bad scene / unknown camera), 2 (usage).
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "floptle/core/render/image.h"

namespace fs = std::filesystem;

namespace {

constexpr const char* kScene = R"({
  "format": "floptle.scene",
  "version": 1,
  "materials": [
    {"id": "red", "color": [0.9, 0.1, 0.1], "density": 1000, "friction": 0.5,
     "restitution": 0.1, "bulk_modulus": 1e9, "yield_strength": 1e6}
  ],
  "interactions": [],
  "cameras": [
    {"name": "front", "position": [0, 1, 5], "look_at": [0, 0.5, 0], "fov": 50},
    {"name": "top", "position": [0, 8, 0.01], "look_at": [0, 0, 0]}
  ],
  "nodes": [
    {"name": "ground", "shape": {"type": "plane", "normal": [0, 1, 0]}},
    {"name": "ball", "transform": {"position": [0, 0.5, 0]}, "material": "red",
     "shape": {"type": "sphere", "radius": 0.5}}
  ]
}
)";

class RenderCli : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ =
        fs::temp_directory_path() /
        ("floptle_render_cli_" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) +
         "_" + ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_);
    std::ofstream(dir_ / "scene.json") << kScene;
  }
  void TearDown() override { fs::remove_all(dir_); }

  /// Runs `floptle render ARGS`, returns the exit code; stderr goes to dir_/err.txt.
  int render(const std::string& args) {
    const std::string command = std::string(FLOPTLE_CLI) + " render " + args + " > \"" +
                                (dir_ / "out.txt").string() + "\" 2> \"" +
                                (dir_ / "err.txt").string() + "\"";
    const int status = std::system(command.c_str());
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }
  std::string stderrText() {
    std::ifstream in(dir_ / "err.txt");
    return std::string(std::istreambuf_iterator<char>(in), {});
  }
  std::string scene() const { return "\"" + (dir_ / "scene.json").string() + "\""; }
  std::string path(const char* name) const { return "\"" + (dir_ / name).string() + "\""; }

  fs::path dir_;
};

}  // namespace

TEST_F(RenderCli, WritesPngOfTheRequestedSize) {
  ASSERT_EQ(render(scene() + " --out " + path("a.png") + " --width 48 --height 30"), 0)
      << stderrText();
  auto image = floptle::render::readPng((dir_ / "a.png").string());
  ASSERT_TRUE(image.ok()) << image.error().message();
  EXPECT_EQ(image->width, 48);
  EXPECT_EQ(image->height, 30);
}

TEST_F(RenderCli, DefaultSizeIs640x360) {
  ASSERT_EQ(render(scene() + " --out " + path("d.png") + " --camera top"), 0) << stderrText();
  auto image = floptle::render::readPng((dir_ / "d.png").string());
  ASSERT_TRUE(image.ok());
  EXPECT_EQ(image->width, 640);
  EXPECT_EQ(image->height, 360);
}

TEST_F(RenderCli, CameraFlagsChooseTheView) {
  // The red ball fills the centre of the "front" view; looking away from it shows none.
  ASSERT_EQ(
      render(scene() + " --out " + path("front.png") + " --width 40 --height 24 --camera front"),
      0);
  ASSERT_EQ(render(scene() + " --out " + path("away.png") +
                   " --width 40 --height 24 --look-from 0,1,5 --look-at 0,1.5,10 --fov 40"),
            0)
      << stderrText();
  auto front = floptle::render::readPng((dir_ / "front.png").string());
  auto away = floptle::render::readPng((dir_ / "away.png").string());
  ASSERT_TRUE(front.ok() && away.ok());
  auto redness = [](const floptle::render::Image& image, int x, int y) {
    const std::uint8_t* p = image.pixel(x, y);
    return int(p[0]) - (int(p[1]) + int(p[2])) / 2;
  };
  EXPECT_GT(redness(*front, 20, 12), 60);
  EXPECT_LT(redness(*away, 20, 12), 20);
}

TEST_F(RenderCli, BadInputGivesClearErrorsAndExitCodes) {
  EXPECT_EQ(render(scene()), 2);  // no --out
  EXPECT_NE(stderrText().find("--out"), std::string::npos);
  EXPECT_EQ(render(scene() + " --out " + path("x.png") + " --width -3"), 2);
  EXPECT_NE(stderrText().find("--width"), std::string::npos);
  EXPECT_EQ(render(scene() + " --out " + path("x.png") + " --look-from 1,2"), 2);
  EXPECT_EQ(render(scene() + " --out " + path("x.png") + " --look-from 1,2,3"), 2);  // no --look-at
  EXPECT_EQ(render(scene() + " --out " + path("x.png") + " --fov 200"), 2);
  EXPECT_EQ(render(scene() + " --out " + path("x.png") + " --bogus 1"), 2);
  EXPECT_EQ(render(scene() + " --out " + path("x.png") + " --camera nowhere"), 1);
  EXPECT_NE(stderrText().find("nowhere"), std::string::npos);
  EXPECT_NE(stderrText().find("front"), std::string::npos);  // lists the cameras there are
  EXPECT_EQ(render(path("missing.json") + " --out " + path("x.png")), 1);
  EXPECT_EQ(render(scene() + " --out " + path("no-such-dir/x.png") + " --width 8 --height 8"), 1);
  EXPECT_FALSE(fs::exists(dir_ / "x.png"));
}

TEST_F(RenderCli, ShaderOutWritesAStandaloneShader) {
  ASSERT_EQ(render(scene() + " --out " + path("s.png") + " --width 8 --height 8 --shader-out " +
                   path("s.frag")),
            0);
  std::ifstream in(dir_ / "s.frag");
  const std::string text((std::istreambuf_iterator<char>(in)), {});
  EXPECT_EQ(text.rfind("#version 330 core", 0), 0u);
  EXPECT_NE(text.find("vec2 map(vec3 p, float t)"), std::string::npos);
  EXPECT_NE(text.find("uniform float iTime"), std::string::npos);
}

// FILE.comp: the same program as the viewport dispatches it (render::computeShaderOf), its
// scene read from the texels --shader-data writes.
TEST_F(RenderCli, ShaderOutToACompFileWritesTheComputeTwin) {
  ASSERT_EQ(render(scene() + " --out " + path("s.png") + " --width 8 --height 8 --shader-out " +
                   path("s.comp") + " --shader-data " + path("s.bin")),
            0);
  std::ifstream in(dir_ / "s.comp");
  const std::string text((std::istreambuf_iterator<char>(in)), {});
  EXPECT_EQ(text.rfind("#version 430 core\nlayout(local_size_x = 8, local_size_y = 8) in;\n", 0),
            0u);
  EXPECT_NE(text.find("vec2 map(vec3 p, float t)"), std::string::npos);
  EXPECT_NE(text.find("imageStore(u_colorOut, pixel, color)"), std::string::npos);
  EXPECT_EQ(text.find("out vec4 fragColor;"), std::string::npos);
  EXPECT_EQ(text.find("gl_FragCoord"), std::string::npos);
  EXPECT_GT(fs::file_size(dir_ / "s.bin"), 0u);
}
