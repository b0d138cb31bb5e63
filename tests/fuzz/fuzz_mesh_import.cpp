// Mesh import harness, built once per format: the bytes of a mesh file -> importMesh (which
// reads a path and picks Assimp's importer by the extension, so each input is written to a
// scratch file named input<FLOPTLE_FUZZ_MESH_EXTENSION>). A mesh it returns must be whole:
// every triangle's corners are vertices of it, every slot names one of its material slots.
// Assimp allocates what a file declares (a 85-byte .glb asks for 4.2 GB): the harness runs
// with fuzz_allocation_limit.h's limit, under which such a file must be an error.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include "floptle/core/asset/mesh_import.h"
#include "fuzz_allocation_limit.h"
#include "fuzz_support.h"

namespace {

[[noreturn]] void broken(const char* what, std::size_t triangle) {
  std::fprintf(stderr, "importMesh returned a broken mesh: triangle %zu %s\n", triangle, what);
  std::abort();
}

}  // namespace

// Leaks inside Assimp itself (Debian's 5.2.5 loses what it has built when some broken OBJ files
// fail half-way, and the zlib stream of a broken compressed FBX array) cannot be fixed from our
// side; only a process of its own contains them. The harness calls zlib only through Assimp.
// Leaks of memory allocated outside Assimp's calls are still reported.
extern "C" const char* __lsan_default_suppressions() {
  return "leak:libassimp.so\nleak:libz.so\n";
}
extern "C" const char* __lsan_default_options() {
  return "print_suppressions=0";
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace floptle;
  static fuzz::ScratchFile file(FLOPTLE_FUZZ_MESH_EXTENSION);
  auto mesh = asset::importMesh(file.write(data, size));
  if (!mesh) return 0;
  if (mesh->triangleSlots.size() != mesh->triangles.size()) broken("count has no slot count", 0);
  for (std::size_t t = 0; t < mesh->triangles.size(); ++t) {
    for (std::uint32_t corner : mesh->triangles[t])
      if (corner >= mesh->positions.size()) broken("has a corner past the vertices", t);
    const std::uint16_t slot = mesh->triangleSlots[t];
    if (slot != asset::kNoMaterialSlot && slot >= mesh->materialSlots.size())
      broken("names a material slot the mesh does not have", t);
  }
  return 0;
}
