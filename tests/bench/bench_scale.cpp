// Large levels (issue 25) and issue 21's "Scale and load": the generated level of
// tests/large_scene (a ground plane and N static spheres over 400 x 400 m) at N = 10,000 and
// 100,000, timed through the same calls the CLI makes:
//   BM_LoadAndValidate        read + parse + schema + semantic checks, which build the typed
//                             scene (scene::loadScene, as `floptle validate`);
//   BM_CollisionWorldBuild    physics::buildCollisionWorld on the typed scene;
//   BM_SimulateTenTicks       runtime::replay of the loaded document for 10 ticks, the build
//                             included (`floptle simulate --ticks 10` after reading the file);
//                             the level has 16 dynamic balls so the ticks do work;
//   BM_SimulateTenTicksCli    `floptle simulate FILE --ticks 10` run to its end, a fresh
//                             process each iteration (the same level);
//   BM_FirstQueryAnswer       `floptle query` run on the file, timed from its start to its
//                             first raycast answer (a fresh process each iteration);
//   BM_FirstQueryAnswerInProcess  the same through the library in this process
//                             (loadScene -> runtime::QuerySession -> one raycast);
//   BM_OpenTenMegabyteScene   BM_LoadAndValidate on a generated level of at least 10 MB;
//   BM_ImportMillionTriangles asset::importMesh of a 1,000,000-triangle OBJ grid.
// Each but BM_SimulateTenTicksCli reports peak_MiB: the process's peak resident memory during
// that benchmark (VmHWM, reset before it; BM_FirstQueryAnswer: the CLI process's). Targets at
// 10,000 nodes: first query <= 0.5 s, 10 ticks <= 1 s, peak <= 1 GB; at 100,000 within 10x.
#include <benchmark/benchmark.h>

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "floptle/core/asset/mesh_import.h"
#include "floptle/core/scene/scene.h"
#include "floptle/core/scene/scene_io.h"
#include "floptle/physics/mesh_collider_cache.h"
#include "floptle/physics/scene_collision.h"
#include "floptle/runtime/query_session.h"
#include "floptle/runtime/replay.h"
#include "scale_support.h"

namespace {

using namespace floptle;
using floptle::bench::largeSceneFile;

/// Dynamic balls in the simulated level (-).
constexpr int kBalls = 16;

scene::Scene loadedScene(const std::filesystem::path& path) {
  auto loaded = scene::loadScene(path);
  if (!loaded) std::abort();
  return std::move(loaded->scene);
}

void BM_LoadAndValidate(benchmark::State& state) {
  const auto path = largeSceneFile(static_cast<int>(state.range(0)));
  bench::resetPeakMemory();
  for (auto _ : state) {
    auto loaded = scene::loadScene(path);
    if (!loaded) {
      state.SkipWithError(loaded.error().message().c_str());
      return;
    }
    benchmark::DoNotOptimize(loaded);
  }
  bench::reportPeakMemory(state);
  state.counters["file_MiB"] = double(std::filesystem::file_size(path)) / (1024.0 * 1024.0);
}
BENCHMARK(BM_LoadAndValidate)->Arg(10000)->Arg(100000)->Unit(benchmark::kMillisecond);

void BM_CollisionWorldBuild(benchmark::State& state) {
  const scene::Scene model = loadedScene(largeSceneFile(static_cast<int>(state.range(0))));
  bench::resetPeakMemory();
  for (auto _ : state) {
    auto world = physics::buildCollisionWorld(model, {}, {});
    if (!world) {
      state.SkipWithError(world.error().message().c_str());
      return;
    }
    benchmark::DoNotOptimize(world);
  }
  bench::reportPeakMemory(state);
}
BENCHMARK(BM_CollisionWorldBuild)->Arg(10000)->Arg(100000)->Unit(benchmark::kMillisecond);

void BM_SimulateTenTicks(benchmark::State& state) {
  const auto path = largeSceneFile(static_cast<int>(state.range(0)), kBalls);
  auto document = scene::loadSceneFile(path);
  if (!document) {
    state.SkipWithError(document.error().message().c_str());
    return;
  }
  bench::resetPeakMemory();
  double tickSeconds = 0.0;
  for (auto _ : state) {
    physics::MeshColliderCache cache;
    runtime::ReplayOptions options;
    options.ticks = 10;
    options.meshCache = &cache;
    options.sceneName = path.string();
    options.stepSeconds = &tickSeconds;
    auto result = runtime::replay(*document, path.parent_path(), options);
    if (!result) {
      state.SkipWithError(result.error().message().c_str());
      return;
    }
    benchmark::DoNotOptimize(result);
  }
  bench::reportPeakMemory(state);
  // The ten steps alone, of the last iteration (ms).
  state.counters["ticks_ms"] = tickSeconds * 1e3;
}
BENCHMARK(BM_SimulateTenTicks)->Arg(10000)->Arg(100000)->Unit(benchmark::kMillisecond);

/// The floptle CLI started with `args` and the file actions given; its pid, or -1. posix_spawn,
/// not fork: the time must not grow with this process's own heap.
pid_t spawnCli(std::vector<std::string> args, const posix_spawn_file_actions_t& actions) {
  std::string program = FLOPTLE_CLI;
  std::vector<char*> argv{program.data()};
  for (std::string& arg : args) argv.push_back(arg.data());
  argv.push_back(nullptr);
  pid_t pid = -1;
  if (::posix_spawn(&pid, FLOPTLE_CLI, &actions, nullptr, argv.data(), environ) != 0) return -1;
  return pid;
}

/// `floptle simulate FILE --ticks 10` run to its end, its output discarded: the user's wait for
/// ten ticks at the command line, the process's start, the read and the build included.
void BM_SimulateTenTicksCli(benchmark::State& state) {
  const auto path = largeSceneFile(static_cast<int>(state.range(0)), kBalls);
  for (auto _ : state) {
    posix_spawn_file_actions_t actions;
    ::posix_spawn_file_actions_init(&actions);
    ::posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
    const auto start = std::chrono::steady_clock::now();
    const pid_t pid = spawnCli({"simulate", path.string(), "--ticks", "10"}, actions);
    ::posix_spawn_file_actions_destroy(&actions);
    int status = -1;
    if (pid > 0) ::waitpid(pid, &status, 0);
    state.SetIterationTime(
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    if (pid <= 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
      state.SkipWithError("floptle simulate failed");
      return;
    }
  }
}
BENCHMARK(BM_SimulateTenTicksCli)
    ->Arg(10000)
    ->Arg(100000)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);

/// The raycast of the first-answer benchmarks: straight down onto a point in the spread, an
/// answer that has to find its sphere or the ground among all of them.
constexpr const char* kFirstQuery = R"({"op":"raycast","origin":[12.5,50,-31.25],"dir":[0,-1,0]})";

/// `floptle query FILE` started, the raycast written to it, its first answer line read: the
/// wait of a user at the command line, the process's start and the level's load included,
/// each iteration a fresh process. peak_MiB is the child's peak resident memory.
void BM_FirstQueryAnswer(benchmark::State& state) {
  const auto path = largeSceneFile(static_cast<int>(state.range(0)));
  const std::string line = std::string(kFirstQuery) + "\n";
  long peakKilobytes = 0;
  for (auto _ : state) {
    int toChild[2], fromChild[2];
    if (::pipe(toChild) != 0 || ::pipe(fromChild) != 0) {
      state.SkipWithError("pipe failed");
      return;
    }
    posix_spawn_file_actions_t actions;
    ::posix_spawn_file_actions_init(&actions);
    ::posix_spawn_file_actions_adddup2(&actions, toChild[0], 0);
    ::posix_spawn_file_actions_adddup2(&actions, fromChild[1], 1);
    ::posix_spawn_file_actions_addclose(&actions, toChild[1]);
    ::posix_spawn_file_actions_addclose(&actions, fromChild[0]);
    const auto start = std::chrono::steady_clock::now();
    const pid_t pid = spawnCli({"query", path.string()}, actions);
    ::posix_spawn_file_actions_destroy(&actions);
    ::close(toChild[0]);
    ::close(fromChild[1]);
    const bool written = pid > 0 && ::write(toChild[1], line.data(), line.size()) ==
                                        static_cast<ssize_t>(line.size());
    std::string answer;
    char chunk[4096];
    while (written && answer.find('\n') == std::string::npos) {
      const ssize_t n = ::read(fromChild[0], chunk, sizeof chunk);
      if (n <= 0) break;
      answer.append(chunk, static_cast<std::size_t>(n));
    }
    state.SetIterationTime(
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    // Read while the CLI waits for its next line. (wait4's ru_maxrss would not do: a process
    // spawned from this one starts its count at this process's peak.)
    if (pid > 0) peakKilobytes = std::max(peakKilobytes, bench::statusKilobytes("VmHWM", pid));
    ::close(toChild[1]);
    ::close(fromChild[0]);
    int status = 0;
    if (pid > 0) ::waitpid(pid, &status, 0);
    if (answer.find(R"("hit":true)") == std::string::npos) {
      state.SkipWithError(("no hit in the first answer: " + answer).c_str());
      return;
    }
  }
  state.counters["peak_MiB"] = double(peakKilobytes) / 1024.0;
}
BENCHMARK(BM_FirstQueryAnswer)
    ->Arg(10000)
    ->Arg(100000)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);

/// The same answer through the library in this process (file -> loadScene ->
/// runtime::QuerySession -> one raycast), timed up to the answer; the teardown after is not.
/// Iterations after the first reuse the heap the last one freed: a profile of the load, not
/// a user's wait.
void BM_FirstQueryAnswerInProcess(benchmark::State& state) {
  const auto path = largeSceneFile(static_cast<int>(state.range(0)));
  bench::resetPeakMemory();
  for (auto _ : state) {
    const auto start = std::chrono::steady_clock::now();
    auto loaded = scene::loadScene(path);
    if (!loaded) {
      state.SkipWithError(loaded.error().message().c_str());
      return;
    }
    physics::MeshColliderCache cache;
    auto session = runtime::QuerySession::open(loaded->scene, path.parent_path(), &cache);
    if (!session) {
      state.SkipWithError(session.error().message().c_str());
      return;
    }
    const nlohmann::ordered_json answer = session.value()->answer(kFirstQuery);
    state.SetIterationTime(
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    if (!answer.value("hit", false)) {
      state.SkipWithError(("the ray missed: " + answer.dump()).c_str());
      return;
    }
    benchmark::DoNotOptimize(answer);
  }
  bench::reportPeakMemory(state);
}
BENCHMARK(BM_FirstQueryAnswerInProcess)
    ->Arg(10000)
    ->Arg(100000)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);

void BM_OpenTenMegabyteScene(benchmark::State& state) {
  // About 161 bytes a node: 65,000 spheres make a file of just over 10 MB.
  const auto path = largeSceneFile(65000);
  const double mebibytes = double(std::filesystem::file_size(path)) / (1024.0 * 1024.0);
  if (mebibytes < 10.0 * 1e6 / (1024.0 * 1024.0)) {
    state.SkipWithError("the generated file is under 10 MB");
    return;
  }
  bench::resetPeakMemory();
  for (auto _ : state) {
    auto loaded = scene::loadScene(path);
    if (!loaded) {
      state.SkipWithError(loaded.error().message().c_str());
      return;
    }
    benchmark::DoNotOptimize(loaded);
  }
  bench::reportPeakMemory(state);
  state.counters["file_MiB"] = mebibytes;
}
BENCHMARK(BM_OpenTenMegabyteScene)->Unit(benchmark::kMillisecond);

/// A flat grid of `quads` x `quads` quads as two triangles each, in OBJ, written once.
std::filesystem::path gridObj(int quads) {
  static std::filesystem::path path;
  if (!path.empty()) return path;
  path = std::filesystem::temp_directory_path() /
         ("floptle-bench-grid-" + std::to_string(::getpid()) + ".obj");
  std::ofstream out(path);
  const int side = quads + 1;
  for (int z = 0; z < side; ++z)
    for (int x = 0; x < side; ++x) out << "v " << x * 0.1 << " 0 " << z * 0.1 << "\n";
  for (int z = 0; z < quads; ++z) {
    for (int x = 0; x < quads; ++x) {
      const int a = z * side + x + 1, b = a + 1, c = a + side, d = c + 1;  // OBJ is 1-based
      out << "f " << a << ' ' << c << ' ' << b << "\nf " << b << ' ' << c << ' ' << d << "\n";
    }
  }
  std::atexit([] {
    std::error_code ignored;
    std::filesystem::remove(path, ignored);
  });
  return path;
}

void BM_ImportMillionTriangles(benchmark::State& state) {
  constexpr int kQuads = 708;  // 2 * 708^2 = 1,002,528 triangles
  const auto path = gridObj(kQuads);
  bench::resetPeakMemory();
  std::size_t triangles = 0;
  for (auto _ : state) {
    auto mesh = asset::importMesh(path);
    if (!mesh) {
      state.SkipWithError(mesh.error().message().c_str());
      return;
    }
    triangles = mesh->triangleCount();
    benchmark::DoNotOptimize(mesh);
  }
  bench::reportPeakMemory(state);
  state.counters["triangles"] = double(triangles);
  state.counters["file_MiB"] = double(std::filesystem::file_size(path)) / (1024.0 * 1024.0);
}
BENCHMARK(BM_ImportMillionTriangles)->Unit(benchmark::kMillisecond);

}  // namespace
BENCHMARK_MAIN();
