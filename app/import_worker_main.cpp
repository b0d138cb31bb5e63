// floptle-import-worker: reads one mesh file with Assimp in a process of its own, for the
// editor (editor/src/import/import_worker.cpp), so that a file that crashes, hangs or exhausts
// the importer ends this process and never the editor.
//
//   floptle-import-worker mesh|objects FILE [--up auto|y|z] [--unit-scale S] [--object NAME]
//
// stdout: one frame (core/asset/mesh_wire.h): the TriangleMesh (mesh), the MeshObjectTree
// (objects) or the import's Error; exit 0 with a result, 1 with an Error, 2 on a usage error.
// stderr: "progress FRACTION STAGE" lines while it reads (FRACTION in [0, 1]).
// FLOPTLE_IMPORT_WORKER_FAULT=crash|hang|allocate makes it fail on purpose (the editor's tests
// of a worker that dies, never answers, or grows without bound).
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include <unistd.h>

#include "floptle/core/asset/mesh_import.h"
#include "floptle/core/asset/mesh_objects.h"
#include "floptle/core/asset/mesh_wire.h"

namespace {

using namespace floptle;

constexpr const char* kUsage =
    "usage: floptle-import-worker mesh|objects FILE [--up auto|y|z] [--unit-scale S] "
    "[--object NAME]\n";

bool writeAll(const std::string& bytes) {
  std::size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = ::write(STDOUT_FILENO, bytes.data() + done, bytes.size() - done);
    if (n <= 0) return false;
    done += static_cast<std::size_t>(n);
  }
  return true;
}

/// The deliberate failures of FLOPTLE_IMPORT_WORKER_FAULT; returns when there is none.
void injectFault() {
  const char* fault = std::getenv("FLOPTLE_IMPORT_WORKER_FAULT");
  if (!fault) return;
  const std::string_view kind(fault);
  if (kind == "crash") std::raise(SIGSEGV);
  if (kind == "hang") {
    for (;;) std::this_thread::sleep_for(std::chrono::seconds(1));
  }
  if (kind == "allocate") {
    std::vector<std::unique_ptr<char[]>> blocks;
    blocks.reserve(1 << 16);
    for (;;) {  // until the memory limit refuses a block; the blocks go with the exception
      blocks.emplace_back(new char[64 << 20]);
      std::memset(blocks.back().get(), 1, 64 << 20);  // touched, so it is really held
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string_view> args(argv + 1, argv + argc);
  if (args.size() < 2 || (args[0] != "mesh" && args[0] != "objects")) {
    std::fputs(kUsage, stderr);
    return 2;
  }
  asset::ImportOptions options;
  for (std::size_t i = 2; i < args.size(); ++i) {
    const bool hasValue = i + 1 < args.size();
    if (args[i] == "--up" && hasValue) {
      const auto axis = asset::parseUpAxis(args[++i]);
      if (!axis) return std::fputs(kUsage, stderr), 2;
      options.upAxis = *axis;
    } else if (args[i] == "--unit-scale" && hasValue) {
      options.unitScale = std::strtof(std::string(args[++i]).c_str(), nullptr);
    } else if (args[i] == "--object" && hasValue) {
      options.object = std::string(args[++i]);
    } else {
      std::fputs(kUsage, stderr);
      return 2;
    }
  }
  auto progress = [](float fraction, std::string_view stage) {
    std::fprintf(stderr, "progress %.4f %.*s\n", double(fraction), int(stage.size()), stage.data());
    std::fflush(stderr);
  };
  const std::filesystem::path file(args[1]);
  std::string frame;
  bool ok = false;
  try {
    injectFault();
    if (args[0] == "mesh") {
      auto mesh = asset::importMesh(file, options, progress);
      ok = mesh.ok();
      frame = ok ? asset::encodeMeshFrame(*mesh) : asset::encodeErrorFrame(mesh.error());
    } else {
      auto tree = asset::importMeshObjects(file, options, progress);
      ok = tree.ok();
      frame = ok ? asset::encodeObjectsFrame(*tree) : asset::encodeErrorFrame(tree.error());
    }
  } catch (const std::bad_alloc&) {
    frame = asset::encodeErrorFrame(
        Error{file.string(), "the importer ran out of memory reading the file"});
  }
  return writeAll(frame) && ok ? 0 : 1;
}
