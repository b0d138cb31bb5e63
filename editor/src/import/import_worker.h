#pragma once
// The editor's reads of mesh files, through floptle-import-worker (app/import_worker_main.cpp):
// Assimp runs in a process of its own under a memory limit and a time limit, so a file that
// makes it crash, hang or allocate without bound ends the worker and comes back as an Error
// naming the file and why; the editor and its document are untouched. Progress lines from the
// worker reach `progress`; `cancel` ends the worker at once. Blocking: call from a worker
// thread (the import dialog's and the viewport's loads already run on one).
#include <atomic>
#include <cstdint>
#include <filesystem>

#include <QString>

#include "floptle/core/asset/mesh_import.h"
#include "floptle/core/asset/mesh_objects.h"
#include "floptle/core/expected.h"

namespace floptle::editor {

struct ImportWorkerLimits {
  /// Wall-clock time a read may take (ms): a million-triangle FBX reads in well under a minute.
  int timeoutMs = 10 * 60 * 1000;
  /// Address space of the worker (bytes), RLIMIT_AS: far above what a level's meshes need.
  std::uint64_t memoryBytes = std::uint64_t(16) << 30;
};

/// The worker program: $FLOPTLE_IMPORT_WORKER, else floptle-import-worker beside the running
/// program, else the one this build made.
QString importWorkerPath();

Expected<asset::TriangleMesh> importMeshInWorker(const std::filesystem::path& file,
                                                 const asset::ImportOptions& options,
                                                 const asset::ImportProgress& progress = {},
                                                 const std::atomic<bool>* cancel = nullptr,
                                                 const ImportWorkerLimits& limits = {});

Expected<asset::MeshObjectTree> importMeshObjectsInWorker(
    const std::filesystem::path& file, const asset::ImportOptions& options,
    const asset::ImportProgress& progress = {}, const std::atomic<bool>* cancel = nullptr,
    const ImportWorkerLimits& limits = {});

}  // namespace floptle::editor
