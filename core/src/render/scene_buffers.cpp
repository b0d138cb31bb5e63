// Packing of a UnionField into the viewport's scene texture (layout in scene_buffers.h).
#include "floptle/core/render/scene_buffers.h"

#include <algorithm>
#include <cassert>
#include <string>
#include <unordered_map>

#include "floptle/core/field/field_glsl.h"

#include "../field/program_impl.h"
#include "scene_grid.h"

namespace floptle::render {

namespace {

using field::Instr;
using field::Op;

struct Packer {
  std::vector<float> texels;

  int texel() const { return int(texels.size() / 4); }
  void push(float x, float y, float z, float w) { texels.insert(texels.end(), {x, y, z, w}); }
  void push(Vec3 v, float w) { push(v.x, v.y, v.z, w); }
  void push(Vec4 v) { push(v.x, v.y, v.z, v.w); }
  float* at(int index) { return &texels[std::size_t(index) * 4]; }
};

/// FNV-1a over what field::emitGlsl reads of each instruction (op, material, slot, stack
/// positions): equal hashes, equal GLSL.
std::uint64_t instructionHash(const field::FieldProgram::Impl& impl) {
  std::uint64_t h = 1469598103934665603ull;
  auto mix = [&](std::int64_t v) {
    for (int i = 0; i < 8; ++i, v >>= 8) h = (h ^ std::uint64_t(v & 0xff)) * 1099511628211ull;
  };
  for (const Instr& in : impl.code) {
    mix(int(in.op));
    mix(in.material);
    mix(in.slot);
    mix(in.valueIndex);
    mix(in.pointIndex);
  }
  return h;
}

float opCode(const Instr& in) {
  return float(int(in.op) + 256 * int(in.material));
}

/// Kind of a part and, for Placed / Lone, its primitive instruction.
GpuPartKind kindOf(const field::FieldProgram::Impl& impl, const Instr*& primitive) {
  const std::vector<Instr>& code = impl.code;
  if (code.size() == 1 && field::isPrimitive(code[0].op)) {
    primitive = &code[0];
    return GpuPartKind::Lone;
  }
  if (code.size() == 3 && code[0].op == Op::PushTransform && field::isPrimitive(code[1].op) &&
      code[2].op == Op::PopTransform) {
    primitive = &code[1];
    return GpuPartKind::Placed;
  }
  primitive = nullptr;
  return GpuPartKind::Program;
}

/// Rows of the world-to-local map of a transform's parameters P (position, quaternion x y z w,
/// scale): local = (dot(row, p) + row.w) / scale, as the shader's PushTransform computes.
void placementRows(const float* P, Vec4 rows[3], float& scale) {
  Quat q(P[6], P[3], P[4], P[5]);
  const float length = glm::length(q);
  q = length > 1e-20f ? q / length : Quat(1.0f, 0.0f, 0.0f, 0.0f);
  const Mat3 rotation = glm::mat3_cast(q);
  const Vec3 position(P[0], P[1], P[2]);
  for (int i = 0; i < 3; ++i) {
    const Vec3 row = rotation[i];  // column i of R = row i of R^T
    rows[i] = Vec4(row, -glm::dot(row, position));
  }
  scale = std::max(P[7], 1e-6f);
}

}  // namespace

std::optional<std::vector<TracedPlane>> tracedPlanes(const field::UnionField& field, double time) {
  std::vector<TracedPlane> planes;
  for (std::int32_t partIndex : field.unboundedParts()) {
    const field::FieldProgram& program = field.part(partIndex);
    const Instr* primitive = nullptr;
    if (kindOf(program.impl(), primitive) != GpuPartKind::Lone || primitive->op != Op::Plane ||
        primitive->slot < 0 || int(planes.size()) == kMaxTracedPlanes)
      return std::nullopt;
    const std::vector<float> values = program.parameterValues(time);
    const float* P = values.data() + primitive->slot;
    TracedPlane plane;
    const Vec3 normal(P[0], P[1], P[2]);
    plane.normal = glm::length(normal) > 1e-20f ? glm::normalize(normal) : kUp;
    plane.offset = P[3];
    plane.material = primitive->material;
    planes.push_back(plane);
  }
  return planes;
}

Expected<SceneBuffers> packSceneBuffers(const field::UnionField& field, double time,
                                        int maxTextureHeight) {
  const int partCount = field.partCount();
  // Part records in leaf order, then the unbounded parts.
  std::vector<std::int32_t> order = field.leafParts();
  order.insert(order.end(), field.unboundedParts().begin(), field.unboundedParts().end());

  Packer out;
  const int partsOffset = kPartsOffset;
  const int codeOffset = partsOffset + kPartTexels * partCount;
  out.texels.reserve(std::size_t(codeOffset + 4 * partCount) * 4);
  out.push(0.0f, float(field.unboundedParts().size()), float(partsOffset), float(codeOffset));
  out.push(0.0f, float(partCount), 0.0f, 0.0f);  // .x grid, .z parameters: set below
  // The bounded parts' box and the unbounded planes (open space: scene_buffers.h).
  Aabb bounded;
  for (std::int32_t partIndex : field.leafParts()) {
    const Aabb& box = field.partBox(partIndex);
    bounded.expand(box.empty() ? Aabb{Vec3(0.0f), Vec3(0.0f)} : box);
  }
  const bool anyBounded = !field.leafParts().empty();
  const std::optional<std::vector<TracedPlane>> planes = tracedPlanes(field, time);
  out.push(anyBounded ? bounded.min : Vec3(0.0f), planes ? float(planes->size()) : -1.0f);
  out.push(anyBounded ? bounded.max : Vec3(0.0f), anyBounded ? 1.0f : 0.0f);
  for (int i = 0; i < kMaxTracedPlanes; ++i) {
    const bool used = planes && i < int(planes->size());
    out.push(used ? Vec4((*planes)[std::size_t(i)].normal, (*planes)[std::size_t(i)].offset)
                  : Vec4(0.0f));
    out.push(used ? float((*planes)[std::size_t(i)].material) : 0.0f, 0.0f, 0.0f, 0.0f);
  }

  // Records first (their code and parameter offsets are filled in as the code is written).
  out.texels.resize(std::size_t(codeOffset) * 4, 0.0f);
  std::vector<float> parameters;
  // Distinct part structures: the emitted GLSL text of each part (its parameters are read,
  // not baked, so parts that differ only in values share one function).
  // emitGlsl is a function of the instruction list alone, so parts are keyed by a hash of
  // their instructions and each structure is emitted once.
  std::unordered_map<std::uint64_t, int> structureOf;
  std::vector<std::string> structures;
  std::vector<int> recordStructure(std::size_t(partCount), 0);
  std::vector<int> recordParameters(std::size_t(partCount), 0);
  for (int r = 0; r < partCount && int(structures.size()) <= kMaxPartStructures; ++r) {
    const field::FieldProgram& program = field.part(order[std::size_t(r)]);
    auto [it, added] = structureOf.emplace(instructionHash(program.impl()), int(structures.size()));
    if (added) {
      field::GlslOptions options;
      options.functionName = "fp_part";
      options.withHelpers = false;
      options.marchEstimates = true;
      structures.push_back(field::emitGlsl(program, options));
    }
    recordStructure[std::size_t(r)] = it->second;
  }
  const bool specialized = int(structures.size()) <= kMaxPartStructures;
  if (!specialized) {
    // The interpreter knows the shapes, transforms and CSG; a morph's displacement is drawn
    // only by the part functions.
    for (int r = 0; r < partCount; ++r)
      for (const Instr& in : field.part(order[std::size_t(r)]).impl().code)
        if (in.op == Op::PushDisplace)
          return Error{"part " + std::to_string(order[std::size_t(r)]),
                       "a morphed shape needs the viewport's part functions, which cover at "
                       "most " +
                           std::to_string(kMaxPartStructures) +
                           " kinds of part; this scene has more"};
  }
  for (int r = 0; r < partCount; ++r) {
    const int partIndex = order[std::size_t(r)];
    const field::FieldProgram& program = field.part(partIndex);
    const field::FieldProgram::Impl& impl = program.impl();
    if (impl.valueDepth + 1 >= kGpuValueStack || impl.pointDepth >= kGpuPointStack)
      return Error{"part " + std::to_string(partIndex),
                   "is nested too deeply for the viewport (at most " +
                       std::to_string(kGpuValueStack - 2) + " values and " +
                       std::to_string(kGpuPointStack - 1) + " points deep)"};
    const std::vector<float> values = program.parameterValues(time);
    // Each part's block starts on a texel: a part function loads its texels whole.
    parameters.resize((parameters.size() + 3) / 4 * 4, 0.0f);
    const int parameterStart = int(parameters.size());
    recordParameters[std::size_t(r)] = parameterStart;
    parameters.insert(parameters.end(), values.begin(), values.end());

    const Instr* primitive = nullptr;
    const GpuPartKind kind = kindOf(impl, primitive);
    const int codeStart = out.texel();
    for (const Instr& in : impl.code)
      out.push(opCode(in), in.slot >= 0 ? float(parameterStart + in.slot) : -1.0f,
               float(in.valueIndex), float(in.pointIndex));

    Aabb box = field.partBox(partIndex);
    if (box.empty()) box = Aabb{Vec3(0.0f), Vec3(0.0f)};
    float* record = out.at(partsOffset + kPartTexels * r);
    const Vec3 lo = glm::max(box.min, Vec3(-1e30f)), hi = glm::min(box.max, Vec3(1e30f));
    const float bounds[8] = {lo.x, lo.y, lo.z, float(codeStart),
                             hi.x, hi.y, hi.z, float(impl.code.size())};
    std::copy(bounds, bounds + 8, record);
    Vec4 rows[3] = {Vec4(1, 0, 0, 0), Vec4(0, 1, 0, 0), Vec4(0, 0, 1, 0)};
    float scale = 1.0f;
    if (kind == GpuPartKind::Placed) placementRows(values.data() + impl.code[0].slot, rows, scale);
    record[8] = float(int(kind));
    record[9] = specialized ? float(recordStructure[std::size_t(r)])
                : primitive ? opCode(*primitive)
                            : 0.0f;
    // The part functions read FP(i) from the part's first parameter; the interpreter's fast
    // path reads its primitive's.
    record[10] = specialized                         ? float(parameterStart)
                 : primitive && primitive->slot >= 0 ? float(parameterStart + primitive->slot)
                                                     : 0.0f;
    record[11] = scale;
    for (int i = 0; i < 3; ++i)
      for (int c = 0; c < 4; ++c) record[12 + 4 * i + c] = rows[i][c];
  }

  // A grid entry's part for the shader's evalEntry: structure + kMaxPartStructures * parameter
  // texel, exact in a float while that stays below 2^24 for every part.
  const bool entriesCarryParts =
      specialized && std::int64_t(kMaxPartStructures) * std::int64_t(parameters.size() / 4 + 1) <=
                         (std::int64_t(1) << 24);
  auto entryPart = [&](std::int32_t record) {
    return entriesCarryParts
               ? float(recordStructure[std::size_t(record)] +
                       kMaxPartStructures * (recordParameters[std::size_t(record)] / 4))
               : -1.0f;
  };

  // The candidate grid, for a map() that does not call every part in turn.
  const bool unrolled = specialized && partCount <= kMaxUnrolledParts;
  SceneGrid grid;
  std::vector<Aabb> boxes;
  if (!unrolled) {
    boxes.reserve(field.leafParts().size());
    for (std::int32_t partIndex : field.leafParts()) boxes.push_back(field.partBox(partIndex));
    grid = buildSceneGrid(boxes);
  }
  const int cellCount = int(grid.cells.size());
  // The texture's final size is known here: reserved whole, the tens of megabytes of a large
  // level are written once, never moved.
  const std::size_t gridTexels =
      cellCount > 0 ? 3 + std::size_t(cellCount) + 2 * grid.entries.size() : 0;
  const std::size_t finalTexels =
      std::size_t(out.texel()) + gridTexels + (parameters.size() + 3) / 4;
  // Refused before any of it is written, naming the limit.
  const int height =
      int(std::max<std::size_t>(1, (finalTexels + kSceneDataWidth - 1) / kSceneDataWidth));
  if (height > maxTextureHeight)
    return Error{"scene", "needs " + std::to_string(height) + " rows of scene data, more than " +
                              "the GPU's texture height limit of " +
                              std::to_string(maxTextureHeight) + " (GL_MAX_TEXTURE_SIZE)"};
  if (double(finalTexels) >= 16777216.0)
    return Error{"scene", "needs more than 2^24 texels of scene data (float index precision)"};
  out.texels.reserve(std::size_t(height) * kSceneDataWidth * 4);
  if (cellCount > 0) {
    const int gridOffset = out.texel();
    const int listsOffset = gridOffset + 3 + cellCount;
    out.at(0)[0] = float(cellCount);
    out.at(1)[0] = float(gridOffset);
    out.push(grid.bounds.min, grid.cellSize);
    out.push(grid.bounds.max, float(listsOffset));
    out.push(float(grid.dims.x), float(grid.dims.y), float(grid.dims.z), 0.0f);
    for (const SceneGrid::Cell& cell : grid.cells)
      out.push(float(cell.first), float(cell.count), cell.clearance, 0.0f);
    // Entries are part indices in leaf order, which is the record order; each carries its
    // part's box and, with part functions, its structure and parameter texel, so the shader's
    // list walk reads no record.
    for (std::int32_t record : grid.entries) {
      const Aabb& box = boxes[std::size_t(record)];
      const bool empty = box.empty();
      out.push(empty ? Vec3(0.0f) : box.min, float(record));
      out.push(empty ? Vec3(0.0f) : box.max, entryPart(record));
    }
  }

  const int parametersOffset = out.texel();
  out.at(1)[2] = float(parametersOffset);
  parameters.resize((parameters.size() + 3) / 4 * 4, 0.0f);
  out.texels.insert(out.texels.end(), parameters.begin(), parameters.end());

  const int texels = out.texel();
  assert(std::size_t(texels) == finalTexels);
  out.texels.resize(std::size_t(height) * kSceneDataWidth * 4, 0.0f);

  SceneBuffers buffers;
  std::uint64_t hash = 1469598103934665603ull;  // FNV-1a over the structures' text
  auto mix = [&](const std::string& text) {
    for (unsigned char c : text) hash = (hash ^ c) * 1099511628211ull;
    hash = (hash ^ 0xffu) * 1099511628211ull;
  };
  buffers.firstUnbounded = int(field.leafParts().size());
  if (unrolled) {
    buffers.unrolledRecords = recordStructure;
    buffers.unrolledParameters = recordParameters;
    mix("unrolled@" + std::to_string(parametersOffset));
    for (int r = 0; r < partCount; ++r)
      mix(std::to_string(recordStructure[std::size_t(r)]) + "@" +
          std::to_string(recordParameters[std::size_t(r)]));
    buffers.uniformData = texels <= kMaxUniformTexels;
    if (buffers.uniformData) mix("uniform");
  }
  if (cellCount > 0 && entriesCarryParts) mix("entry parts");
  if (specialized) {
    for (std::size_t k = 0; k < structures.size(); ++k) {
      // The one name per structure: fp_part -> fp_partK.
      const std::string from = "vec2 fp_part(";
      structures[k].replace(structures[k].find(from), from.size(),
                            "vec2 fp_part" + std::to_string(k) + "(");
      mix(structures[k]);
    }
    buffers.structures = std::move(structures);
  } else {
    mix("interpreter");
  }
  buffers.programHash = hash;
  buffers.texels = std::move(out.texels);
  buffers.height = height;
  buffers.usedTexels = texels;
  buffers.partCount = partCount;
  buffers.parametersOffset = parametersOffset;
  buffers.gridDims = grid.dims;
  buffers.gridEntries = int(grid.entries.size());
  buffers.entriesCarryParts = cellCount > 0 && entriesCarryParts;
  return buffers;
}

}  // namespace floptle::render
