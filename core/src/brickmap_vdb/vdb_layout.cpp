// The .vdb container walk of vdb_layout.h. Byte layout (little-endian, as OpenVDB 10 reads it;
// openvdb/io/Archive.cc, GridDescriptor.cc, Metadata.h, MetaMap.cc, math/Maps.h, RootNode.h):
//   header: int64 magic, uint32 file version, uint32 x2 library version, char has-offsets,
//           36 characters of UUID;
//   metadata map: uint32 count, then per entry: string name, string type, uint32 size, value;
//   string: uint32 length, then the characters;
//   int32 grid count, then per grid: string name, string type, string instance parent,
//           int64 grid, block and end offsets; the grid's own part starts at its grid offset:
//           uint32 compression, metadata map, string transform type and the map's doubles,
//           then the tree: int32 buffer count, the root's background, uint32 tile count,
//           uint32 child count, the tiles (3 int32 + value + bool), the children.
#include "vdb_layout.h"

#include <cstring>

#include "vdb_cursor.h"
#include "vdb_tree.h"

namespace floptle::vdb {
namespace {

constexpr std::int64_t kMagic = 0x56444220;  // " BDV"
constexpr std::size_t kUuidChars = 36;
constexpr std::uint32_t kNoCompressedSizes = 0xffffffffu;
/// Every leaf of a tree stores its 8^3-bit value mask: a file of n bytes has at most n / 64.
constexpr std::uint64_t kLeafMaskBytes = 64;

/// One block of io::DelayedLoadMetadata: `compressed` bytes of Blosc, or (0) `raw` bytes
/// plain. OpenVDB sizes its array from the size the Blosc header states, which OpenVDB's
/// writer pads a little past `raw` (128 bytes for 112); it must stay within twice `raw` and a
/// kilobyte, so what OpenVDB allocates stays in proportion to the file.
Expected<void> delayedLoadBlock(Cursor& c, std::uint32_t compressed, std::uint64_t raw,
                                const std::string& what) {
  if (compressed == 0) return c.skip(raw, what);
  auto header = c.bloscHeader(compressed, what);
  if (!header) return header.error();
  if (header->unpacked > 2 * raw + 1024)
    return c.error(what + " unpacks to " + std::to_string(header->unpacked) +
                   " bytes, far more than the " + std::to_string(raw) + " its count declares");
  return c.skip(compressed - Cursor::kBloscHeaderBytes, what);
}

/// io::DelayedLoadMetadata of `bytes` bytes: uint32 leaf count, a mask byte per leaf, maybe a
/// uint64 compressed size per leaf (each block Blosc-compressed or plain, its size first).
Expected<void> delayedLoad(Cursor& c, std::uint32_t bytes, std::uint64_t fileSize,
                           const std::string& what) {
  if (bytes == 0) return {};
  if (bytes > c.left()) return c.pastEnd(what, bytes);
  const std::uint64_t end = c.pos() + bytes;
  auto count = c.value<std::uint32_t>(what);
  if (!count) return count.error();
  if (*count > fileSize / kLeafMaskBytes)
    return c.error(what + " declares " + std::to_string(*count) +
                   " leaves, more than a file of its size can hold");
  auto maskBytes = c.value<std::uint32_t>(what);
  if (!maskBytes) return maskBytes.error();
  if (auto r = delayedLoadBlock(c, *maskBytes, *count, what); !r) return r;
  auto sizeBytes = c.value<std::uint32_t>(what);
  if (!sizeBytes) return sizeBytes.error();
  if (*sizeBytes != kNoCompressedSizes) {
    if (auto r = delayedLoadBlock(c, *sizeBytes, std::uint64_t(*count) * 8, what); !r) return r;
  }
  if (c.pos() != end)
    return c.error(what + " holds " + std::to_string(c.pos() + bytes - end) +
                   " bytes of parts, not the " + std::to_string(bytes) + " it declares");
  return {};
}

/// GridBase::META_SAVE_HALF_FLOAT: the grid's values are stored as 16-bit floats.
constexpr const char* kSavedAsHalf = "is_saved_as_half_float";

/// A metadata map (MetaMap::readMeta): each value as OpenVDB reads it. `savedAsHalf`, when
/// given, receives the value of kSavedAsHalf (false when absent), which must be a bool.
Expected<void> metadataMap(Cursor& c, std::uint64_t fileSize, const std::string& owner,
                           FixedMetadataBytes fixedBytes, bool* savedAsHalf = nullptr) {
  if (savedAsHalf) *savedAsHalf = false;
  auto count = c.value<std::uint32_t>("the metadata count of " + owner);
  if (!count) return count.error();
  // An entry is at least its two string lengths and its value's size (3 x 4 bytes).
  if (*count > c.left() / 12)
    return c.error(owner + " declares " + std::to_string(*count) +
                   " metadata entries, more than its remaining " + std::to_string(c.left()) +
                   " bytes can hold");
  for (std::uint32_t i = 0; i < *count; ++i) {
    auto name = c.string("the name of metadata entry " + std::to_string(i) + " of " + owner);
    if (!name) return name.error();
    const std::string what = "metadata '" + *name + "' of " + owner;
    auto type = c.string("the type of " + what);
    if (!type) return type.error();
    auto bytes = c.value<std::uint32_t>("the size of " + what);
    if (!bytes) return bytes.error();
    if (savedAsHalf && *name == kSavedAsHalf) {
      if (*type != "bool" || *bytes != 1)
        return c.error(what + " is a " + *type + " of " + std::to_string(*bytes) +
                       " bytes; OpenVDB writes a bool");
      auto flag = c.value<std::uint8_t>(what);
      if (!flag) return flag.error();
      if (*flag > 1) return c.error(what + " is " + std::to_string(*flag) + ", not 0 or 1");
      *savedAsHalf = *flag == 1;
    } else if (*type == "__delayedload") {
      if (auto r = delayedLoad(c, *bytes, fileSize, what); !r) return r;
    } else if (const std::uint32_t fixed = *type == "string" ? 0 : fixedBytes(*type)) {
      if (*bytes != fixed)
        return c.error(what + " declares " + std::to_string(*bytes) + " bytes; a " + *type +
                       " is " + std::to_string(fixed));
      if (auto r = c.skip(fixed, what); !r) return r;
    } else if (auto r = c.skip(*bytes, what); !r) {  // a string, or kept as raw bytes
      return r;
    }
  }
  return {};
}

/// The bytes a linear map's read takes (math/Maps.h: a Mat4d, or Vec3d fields); 0 for others.
std::uint64_t linearMapBytes(const std::string& type) {
  constexpr std::uint64_t vec3d = 3 * 8;
  if (type == "AffineMap" || type == "UnitaryMap") return 16 * 8;
  if (type == "ScaleMap" || type == "UniformScaleMap") return 5 * vec3d;
  if (type == "ScaleTranslateMap" || type == "UniformScaleTranslateMap") return 6 * vec3d;
  if (type == "TranslationMap") return vec3d;
  return 0;
}

bool uuidText(const char* s) {
  for (std::size_t i = 0; i < kUuidChars; ++i) {
    const char ch = s[i];
    const bool hyphen = i == 8 || i == 13 || i == 18 || i == 23;
    const bool hex =
        (ch >= '0' && ch <= '9') || (ch >= 'a' && ch <= 'f') || (ch >= 'A' && ch <= 'F');
    if (hyphen ? ch != '-' : !hex) return false;
  }
  return true;
}

}  // namespace

std::string treeTypeOf(const std::string& stored) {
  static const std::string half = "_HalfFloat";
  const bool halfFloat = stored.size() > half.size() &&
                         stored.compare(stored.size() - half.size(), half.size(), half) == 0;
  return halfFloat ? stored.substr(0, stored.size() - half.size()) : stored;
}

Expected<Layout> readVdbLayout(std::istream& in, std::uint64_t size,
                               const std::filesystem::path& path, FixedMetadataBytes fixedBytes) {
  Cursor c(in, size, path.string());
  auto magic = c.value<std::int64_t>("the header");
  if (!magic) return magic.error();
  if (*magic != kMagic) return c.error("it does not start with the VDB magic number");
  Layout layout;
  auto version = c.value<std::uint32_t>("the file format version");
  if (!version) return version.error();
  layout.fileVersion = *version;
  if (layout.fileVersion < kOldestFileVersion)
    return Error{path.string(), "was written in OpenVDB file format " +
                                    std::to_string(layout.fileVersion) + "; formats from " +
                                    std::to_string(kOldestFileVersion) +
                                    " (OpenVDB 2.0) on are read"};
  auto major = c.value<std::uint32_t>("the library version");
  auto minor = c.value<std::uint32_t>("the library version");
  auto offsets = c.value<char>("the grid offsets flag");
  if (!major || !minor || !offsets) return c.error("the header is cut short");
  layout.libraryMajor = *major;
  layout.libraryMinor = *minor;
  if (*offsets == 0)
    return Error{path.string(),
                 "was written as a stream, without grid offsets; files written by "
                 "openvdb::io::File (as Blender and Houdini write them) are read"};
  char uuid[kUuidChars];
  if (auto r = c.read(uuid, kUuidChars, "the UUID"); !r) return r.error();
  if (!uuidText(uuid)) return c.error("its header's UUID is not UUID text");
  if (auto r = metadataMap(c, size, "the file", fixedBytes); !r) return r.error();

  auto count = c.value<std::int32_t>("the grid count");
  if (!count) return count.error();
  // A descriptor is at least three string lengths and three offsets (36 bytes).
  if (*count < 0 || std::uint64_t(*count) > c.left() / 36)
    return c.error("it declares " + std::to_string(*count) + " grids, more than its remaining " +
                   std::to_string(c.left()) + " bytes can hold");
  for (std::int32_t g = 0; g < *count; ++g) {
    GridEntry grid;
    grid.descriptorPos = c.pos();
    const std::string what = "the descriptor of grid " + std::to_string(g);
    auto name = c.string("the name in " + what);
    if (!name) return name.error();
    auto type = c.string("the type in " + what);
    if (!type) return type.error();
    auto parent = c.string("the instance parent in " + what);
    if (!parent) return parent.error();
    std::int64_t pos[3] = {};
    if (auto r = c.read(pos, sizeof(pos), "the offsets in " + what); !r) return r.error();
    grid.uniqueName = std::move(*name);
    grid.type = std::move(*type);
    grid.instanceParent = std::move(*parent);
    const bool instance = !grid.instanceParent.empty();
    // io::File writes the grid right after its descriptor; an instance has no blocks.
    const bool ordered = pos[0] == std::int64_t(c.pos()) && pos[2] >= pos[0] &&
                         std::uint64_t(pos[2]) <= size &&
                         (instance || (pos[1] >= pos[0] && pos[1] <= pos[2]));
    if (!ordered)
      return c.error(what + " ('" + grid.uniqueName + "') declares its data at bytes " +
                     std::to_string(pos[0]) + ", " + std::to_string(pos[1]) + " and " +
                     std::to_string(pos[2]) + ", which do not follow it in order within the " +
                     std::to_string(size) + " bytes of the file");
    grid.gridPos = std::uint64_t(pos[0]);
    grid.blockPos = instance ? grid.gridPos : std::uint64_t(pos[1]);
    grid.endPos = std::uint64_t(pos[2]);
    if (auto r = c.seek(grid.endPos, "the end of " + what); !r) return r.error();
    layout.grids.push_back(std::move(grid));
  }
  return layout;
}

Expected<void> checkVdbGridDeclarations(std::istream& in, std::uint64_t size,
                                        const std::string& where, const GridEntry& grid,
                                        FixedMetadataBytes fixedBytes) {
  Cursor c(in, size, where);
  if (auto r = c.seek(grid.gridPos, "the grid"); !r) return r;
  TreeFormat format;
  auto compression = c.value<std::uint32_t>("the grid's compression flags");
  if (!compression) return compression.error();
  format.compression = *compression;
  if (auto r = metadataMap(c, size, "the grid", fixedBytes, &format.half); !r) return r;
  // OpenVDB takes the value size from the metadata; its writer states it in both places, and
  // a file whose two disagree is refused rather than read by either.
  const bool halfType = treeTypeOf(grid.type) != grid.type;
  if (halfType != format.half)
    return c.error(std::string("the grid's type ") + (halfType ? "says" : "does not say") +
                   " its values are half floats and its '" + kSavedAsHalf + "' metadata " +
                   (format.half ? "says" : "does not say") + " so");
  auto map = c.string("the grid's transform type");
  if (!map) return map.error();
  if (*map == "NonlinearFrustumMap")
    return Error{where, "has a non-linear (frustum) transform; only uniform voxels are supported"};
  const std::uint64_t mapBytes = linearMapBytes(*map);
  if (mapBytes == 0) return c.error("the grid's transform is of an unknown type '" + *map + "'");
  if (auto r = c.skip(mapBytes, "the grid's transform"); !r) return r;

  return checkFloatTree(c, format, grid.blockPos);
}

}  // namespace floptle::vdb
