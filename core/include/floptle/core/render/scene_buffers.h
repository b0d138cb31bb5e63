#pragma once
// The scene as GPU data for the viewport's fixed raymarch program (raymarch_glsl.h): one
// RGBA32F texture, kSceneDataWidth texels wide, holding a UnionField's parts, their
// instructions, their parameter values and, for a scene of many parts, the candidate grid
// (render/scene_grid.h) its map() reads. Moving a node or a tick of play changes these texels,
// never the program.
//
// Texel layout (each texel a vec4; integers stored as exact floats):
//   [0]      (cellCount, unboundedCount, partsOffset, codeOffset)
//   [1]      (gridOffset, partCount, parametersOffset, 0)
//   [2], [3] (bounded.min, planeCount), (bounded.max, 1 when there are bounded parts): the
//            box of the bounded parts; planeCount >= 0 when every unbounded part is one of
//            that many world-space planes (at most kMaxTracedPlanes), else -1. Past the box a
//            ray meets only those planes, so the shader finishes it in closed form.
//   [4..]    kMaxTracedPlanes pairs (unit normal, offset), (material, 0, 0, 0).
//   parts    kPartTexels texels each, the bounded parts in the hierarchy's leaf order, then the
//            unbounded: (box.min, codeStart), (box.max, codeCount), (kind, structure or op +
//            256 * material, parameterStart, scale), then three rows (r.xyz, w) with local =
//            (dot(r, p) + w) / scale for kind Placed / Lone.
//   code     one texel per instruction: (op + 256 * material, parameter index, value index,
//            point index), parameter indices counting floats from the parameter block's start.
//   grid     (cellCount > 0): (bounds.min, cellSize), (bounds.max, listsOffset), (dims.xyz, 0),
//            then one texel per cell, x fastest: (first entry, entry count, clearance, 0); the
//            lists, two texels an entry (entry j at listsOffset + 2 j): (box.min, record),
//            (box.max, structure + kMaxPartStructures * parameter texel of the record's part
//            when entriesCarryParts, else -1).
//   params   4 floats a texel: every part's FieldProgram::parameterValues at the packed time,
//            each part's block starting on a texel.
#include <cstdint>
#include <optional>
#include <vector>

#include "floptle/core/expected.h"
#include "floptle/core/field/union_field.h"

namespace floptle::render {

inline constexpr int kSceneDataWidth = 1024;
/// The GL_MAX_TEXTURE_SIZE every OpenGL 4.1 context has at least (texels): the scene data's
/// row limit where the GPU's own cannot be asked.
inline constexpr int kLeastMaxTextureSize = 16384;
inline constexpr int kPartTexels = 6;
/// Most unbounded planes the shader finishes a ray against in closed form.
inline constexpr int kMaxTracedPlanes = 4;
/// The first part record's texel (after the header and the planes).
inline constexpr int kPartsOffset = 4 + 2 * kMaxTracedPlanes;
/// Deepest value / point stacks the shader's interpreter holds (a deeper part is refused).
inline constexpr int kGpuValueStack = 24;
inline constexpr int kGpuPointStack = 12;
/// Most texels a scene may have to be handed to the shader as a uniform array (fast on every
/// GL, software ones too) rather than a texture; within OpenGL 4's guaranteed 1024 vec4
/// fragment uniforms with room for the rest.
inline constexpr int kMaxUniformTexels = 768;
/// Most distinct part structures the shader gets a function each for; a scene with more is
/// drawn by the instruction interpreter (slower, but its program never grows).
inline constexpr int kMaxPartStructures = 32;
/// Scenes of at most this many parts get a map() that calls each part in turn; larger ones
/// read the candidate grid (one cell's list per evaluation).
inline constexpr int kMaxUnrolledParts = 32;

/// How the shader evaluates a part.
enum class GpuPartKind : int {
  /// The instruction interpreter (any graph).
  Program = 0,
  /// One primitive under one transform: the part record's rows place it, no interpreter.
  Placed = 1,
  /// One primitive in world space.
  Lone = 2,
};

struct SceneBuffers {
  /// RGBA32F texels, row-major, kSceneDataWidth per row; size = 4 * kSceneDataWidth * height.
  std::vector<float> texels;
  int height = 1;
  /// Texels holding data (the rest of the last row is zero padding).
  int usedTexels = 0;
  int partCount = 0;
  /// Texel of the parameter block.
  int parametersOffset = 0;
  /// Cells of the candidate grid along each axis (0 when map() calls every part in turn) and
  /// the entries of its lists.
  glm::ivec3 gridDims{0};
  int gridEntries = 0;
  /// The grid's entries carry their part's structure and parameter texel, so the shader's
  /// list walk reads no part record; false without part functions or when the parameter
  /// block is too large for that packing (2^24 / kMaxPartStructures texels).
  bool entriesCarryParts = false;
  /// One GLSL function `vec2 fp_partK(vec3 p, float t)` per distinct part structure (K = its
  /// index): field::emitGlsl of the part, reading FP(i) from the part's own parameters. A part
  /// record's op field holds its structure K. Empty when the scene has more than
  /// kMaxPartStructures structures: records then hold op codes for the interpreter.
  std::vector<std::string> structures;
  /// Structure of each part record, when map() calls each part in turn (at most
  /// kMaxUnrolledParts parts with structures); empty when it reads the grid.
  std::vector<int> unrolledRecords;
  /// First parameter (a float index into the parameter block) of each unrolled record: the
  /// shader gets it as a constant, so a GPU folds the parameter loads.
  std::vector<int> unrolledParameters;
  /// Records from this index on are the unbounded parts.
  int firstUnbounded = 0;
  /// The shader reads the texels as `uniform vec4 u_sceneData[kMaxUniformTexels]` (unrolled
  /// scenes of at most that many texels), else from the texture.
  bool uniformData = false;
  /// Equal exactly when the shader text the buffers need is equal: moving a node or a new
  /// time keeps it, a new kind of shape changes it (the viewport recompiles then).
  std::uint64_t programHash = 0;
};

/// A world-space plane both renderers trace in closed form: the points p with
/// dot(normal, p) = offset (normal of unit length), drawn in `material`.
struct TracedPlane {
  Vec3 normal{0.0f, 1.0f, 0.0f};
  float offset = 0.0f;
  field::MaterialIndex material = 0;
};

/// The field's unbounded parts at `time` as planes when every one of them is a lone plane (at
/// most kMaxTracedPlanes of them; none is a valid answer), else nullopt. With such planes a
/// march steps on the bounded parts alone and ends at the nearest plane (raymarch_glsl.cpp,
/// cpu_renderer.cpp), and past the bounded parts' box a ray meets only the planes.
std::optional<std::vector<TracedPlane>> tracedPlanes(const field::UnionField& field, double time);

/// Packs `field` with its parameters at `time` (the field should be fitted at that time).
/// Refuses, naming the limit, a scene whose data needs more rows than maxTextureHeight or a
/// part deeper than the shader's stacks.
Expected<SceneBuffers> packSceneBuffers(const field::UnionField& field, double time,
                                        int maxTextureHeight = kLeastMaxTextureSize);

}  // namespace floptle::render
