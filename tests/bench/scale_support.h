#pragma once
// Shared by the scale benchmarks (issue 25 and issue 21's "Scale and load"): the generated
// large level written once per process to a temporary file, and the process's peak memory.
#include <benchmark/benchmark.h>

#include <unistd.h>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>

#include "../large_scene/large_scene.h"

namespace floptle::bench {

/// The generated level of `spheres` static spheres (and `dynamicBalls` balls), written once to
/// the temporary folder; its path. Aborts the benchmark run when it cannot be written.
inline std::filesystem::path largeSceneFile(int spheres, int dynamicBalls = 0) {
  static std::map<std::pair<int, int>, std::filesystem::path> written;
  auto& path = written[{spheres, dynamicBalls}];
  if (path.empty()) {
    path = std::filesystem::temp_directory_path() /
           ("floptle-bench-scale-" + std::to_string(::getpid()) + "-" + std::to_string(spheres) +
            "-" + std::to_string(dynamicBalls) + ".json");
    test::LargeSceneSpec spec;
    spec.spheres = spheres;
    spec.dynamicBalls = dynamicBalls;
    if (!test::writeLargeScene(path, spec)) {
      std::fprintf(stderr, "cannot write %s\n", path.c_str());
      std::abort();
    }
    std::atexit([] {
      for (const auto& [key, file] : written) {
        std::error_code ignored;
        std::filesystem::remove(file, ignored);
      }
    });
  }
  return path;
}

/// A field of /proc/<pid>/status in kB ("VmHWM", "VmRSS"), this process's by default, or -1.
inline long statusKilobytes(const std::string& field, pid_t pid = 0) {
  std::ifstream status(pid == 0 ? std::string("/proc/self/status")
                                : "/proc/" + std::to_string(pid) + "/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.compare(0, field.size() + 1, field + ":") == 0)
      return std::stol(line.substr(field.size() + 1));
  }
  return -1;
}

/// Resets the process's peak resident set (VmHWM) to its current size, so that peakMebibytes()
/// afterwards reports this benchmark's own peak (Linux: "5" to /proc/self/clear_refs).
inline void resetPeakMemory() {
  std::ofstream("/proc/self/clear_refs") << "5";
}

/// Peak resident memory since the last resetPeakMemory() (MiB), as a benchmark counter.
inline void reportPeakMemory(benchmark::State& state) {
  state.counters["peak_MiB"] = double(statusKilobytes("VmHWM")) / 1024.0;
}

}  // namespace floptle::bench
