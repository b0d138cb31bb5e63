// The data layout of a glTF 2.0 file, checked as the glTF 2.0 specification states it
// (gltf_structure.h). Lengths are 64-bit and every sum is checked against its bound before it
// is formed, so a declared offset near 2^64 cannot wrap past a check.
#include "gltf_structure.h"

#include <rapidjson/document.h>
#include <rapidjson/error/en.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <fstream>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace floptle::asset::detail {
namespace {

using rapidjson::Value;

constexpr std::uint32_t kGlbMagic = 0x46546C67;     // "glTF"
constexpr std::uint32_t kChunkJson = 0x4E4F534A;    // "JSON"
constexpr std::uint32_t kChunkBin = 0x004E4942;     // "BIN\0"
constexpr std::uint64_t kMaxCount = 0xFFFFFFFFull;  // an accessor's count is a uint32 in Assimp

std::uint32_t readU32(const std::string& bytes, std::size_t at) {
  std::uint32_t v = 0;
  for (int i = 3; i >= 0; --i) v = (v << 8) | static_cast<unsigned char>(bytes[at + i]);
  return v;
}

/// Bytes of one component (5120..5126), or 0 for a type glTF does not have.
std::uint64_t componentSize(std::uint64_t type) {
  switch (type) {
    case 5120:
    case 5121:
      return 1;
    case 5122:
    case 5123:
      return 2;
    case 5125:
    case 5126:
      return 4;
    default:
      return 0;
  }
}

/// Components of an element ("SCALAR".."MAT4"), or 0 for a type glTF does not have.
std::uint64_t componentCount(std::string_view type) {
  if (type == "SCALAR") return 1;
  if (type == "VEC2") return 2;
  if (type == "VEC3") return 3;
  if (type == "VEC4" || type == "MAT2") return 4;
  if (type == "MAT3") return 9;
  if (type == "MAT4") return 16;
  return 0;
}

/// What an accessor declares, as later checks need it.
struct AccessorInfo {
  std::uint64_t count = 0;
  std::uint64_t componentType = 0;
  std::string_view type;
};

/// The least count of elements a primitive of each mode (0..6) draws anything with.
constexpr std::array<std::uint64_t, 7> kModeLeast{1, 2, 2, 2, 3, 3, 3};
/// A primitive's mode when the file gives none.
constexpr std::uint64_t kTriangles = 4;

class Checker {
 public:
  Checker(const Value& root, bool binary, std::optional<std::uint64_t> binChunk)
      : root_(root), binary_(binary), binChunk_(binChunk) {}

  Expected<void> run() {
    if (!list("buffers", buffers_) || !list("bufferViews", views_) ||
        !list("accessors", accessors_) || !list("meshes", meshes_) || !list("nodes", nodes_) ||
        !list("skins", skins_) || !list("animations", animations_) || !checkBuffers() ||
        !checkViews() || !checkAccessors() || !checkMeshes() || !checkNodes() || !checkSkins() ||
        !checkAnimations())
      return Error{"", error_};
    return {};
  }

 private:
  bool refuse(const std::string& at, const std::string& what) {
    error_ = at + ": " + what;
    return false;
  }

  /// A top-level array of objects, when present.
  bool list(const char* name, const Value*& out) {
    out = nullptr;
    auto it = root_.FindMember(name);
    if (it == root_.MemberEnd()) return true;
    if (!it->value.IsArray()) return refuse(std::string("/") + name, "is not an array");
    for (rapidjson::SizeType i = 0; i < it->value.Size(); ++i)
      if (!it->value[i].IsObject())
        return refuse(std::string("/") + name + "/" + std::to_string(i), "is not an object");
    out = &it->value;
    return true;
  }
  static std::size_t sizeOf(const Value* array) { return array ? array->Size() : 0; }

  /// A member that must be a non-negative integer when present (or always, `required`).
  bool integer(const Value& object, const char* key, const std::string& at,
               std::optional<std::uint64_t>& out, bool required) {
    out.reset();
    auto it = object.FindMember(key);
    if (it == object.MemberEnd()) {
      return required ? refuse(at, std::string("has no ") + key) : true;
    }
    if (!it->value.IsUint64()) return refuse(at + "/" + key, "is not a non-negative integer");
    out = it->value.GetUint64();
    return true;
  }
  /// A member naming an element of the top-level array `target` (of `size` elements).
  bool reference(const Value& object, const char* key, const std::string& at, const char* target,
                 std::size_t size, std::optional<std::uint64_t>& out, bool required) {
    if (!integer(object, key, at, out, required)) return false;
    if (out && *out >= size)
      return refuse(at + "/" + key, "names " + std::string(target) + " " + std::to_string(*out) +
                                        ", and the file has " + std::to_string(size));
    return true;
  }

  bool checkBuffers() {
    for (std::size_t i = 0; i < sizeOf(buffers_); ++i) {
      const std::string at = "/buffers/" + std::to_string(i);
      std::optional<std::uint64_t> length;
      if (!integer((*buffers_)[i], "byteLength", at, length, true)) return false;
      if (*length == 0) return refuse(at + "/byteLength", "is 0 (a buffer holds at least 1 byte)");
      if (binary_ && i == 0) {
        // A .glb's first buffer is its BIN chunk, whatever the JSON says of it.
        if (!binChunk_) return refuse(at, "is a .glb's BIN chunk, and the file has none");
        if (*binChunk_ < *length)
          return refuse(at + "/byteLength", "is " + std::to_string(*length) +
                                                " bytes; the BIN chunk holds " +
                                                std::to_string(*binChunk_));
      }
      bufferLengths_.push_back(*length);
    }
    return true;
  }

  bool checkViews() {
    for (std::size_t i = 0; i < sizeOf(views_); ++i) {
      const Value& view = (*views_)[i];
      const std::string at = "/bufferViews/" + std::to_string(i);
      std::optional<std::uint64_t> buffer, offset, length, stride;
      if (!reference(view, "buffer", at, "buffer", bufferLengths_.size(), buffer, true) ||
          !integer(view, "byteOffset", at, offset, false) ||
          !integer(view, "byteLength", at, length, true) ||
          !integer(view, "byteStride", at, stride, false))
        return false;
      if (*length == 0) return refuse(at + "/byteLength", "is 0 (a view holds at least 1 byte)");
      const std::uint64_t bufferLength = bufferLengths_[*buffer];
      const std::uint64_t start = offset.value_or(0);
      if (start > bufferLength || *length > bufferLength - start)
        return refuse(at, "bytes " + std::to_string(start) + " + " + std::to_string(*length) +
                              " run past buffer " + std::to_string(*buffer) + "'s " +
                              std::to_string(bufferLength));
      if (stride && (*stride < 4 || *stride > 252 || *stride % 4 != 0))
        return refuse(at + "/byteStride",
                      "is " + std::to_string(*stride) + " (a multiple of 4 from 4 to 252)");
      viewLengths_.push_back(*length);
      viewStrides_.push_back(stride.value_or(0));
    }
    return true;
  }

  /// `count` items of `size` bytes from `offset` fit in buffer view `view`.
  bool fitsView(std::uint64_t view, std::uint64_t offset, std::uint64_t count, std::uint64_t size,
                std::uint64_t stride, const std::string& at) {
    const std::uint64_t length = viewLengths_[view];
    // count <= 2^32 and stride, size <= 252: the span below stays under 2^40.
    const std::uint64_t span = (count - 1) * stride + size;
    if (offset > length || span > length - offset)
      return refuse(at, std::to_string(count) + " element(s) of " + std::to_string(size) +
                            " bytes from byte " + std::to_string(offset) + " (stride " +
                            std::to_string(stride) + ") run past bufferView " +
                            std::to_string(view) + "'s " + std::to_string(length) + " bytes");
    return true;
  }

  bool checkAccessors() {
    for (std::size_t i = 0; i < sizeOf(accessors_); ++i) {
      const Value& accessor = (*accessors_)[i];
      const std::string at = "/accessors/" + std::to_string(i);
      std::optional<std::uint64_t> view, offset, componentType, count;
      if (!reference(accessor, "bufferView", at, "bufferView", viewLengths_.size(), view, false) ||
          !integer(accessor, "byteOffset", at, offset, false) ||
          !integer(accessor, "componentType", at, componentType, true) ||
          !integer(accessor, "count", at, count, true))
        return false;
      const std::uint64_t bytes = componentSize(*componentType);
      if (bytes == 0)
        return refuse(at + "/componentType",
                      "is " + std::to_string(*componentType) + " (5120 to 5126, not 5124)");
      auto type = accessor.FindMember("type");
      if (type == accessor.MemberEnd() || !type->value.IsString())
        return refuse(at, "has no type (\"SCALAR\" to \"MAT4\")");
      const std::string_view typeName(type->value.GetString(), type->value.GetStringLength());
      const std::uint64_t components = componentCount(typeName);
      if (components == 0)
        return refuse(at + "/type",
                      "is \"" + std::string(typeName) + "\" (\"SCALAR\" to \"MAT4\")");
      if (*count == 0 || *count > kMaxCount)
        return refuse(at + "/count", "is " + std::to_string(*count) + " (1 to 2^32 - 1)");
      const std::uint64_t element = components * bytes;
      if (view) {
        const std::uint64_t stride = viewStrides_[*view] ? viewStrides_[*view] : element;
        if (stride < element)
          return refuse(at, "its bufferView's byteStride " + std::to_string(stride) +
                                " is less than its element of " + std::to_string(element) +
                                " bytes");
        if (!fitsView(*view, offset.value_or(0), *count, element, stride, at)) return false;
      }
      if (auto sparse = accessor.FindMember("sparse"); sparse != accessor.MemberEnd())
        if (!checkSparse(sparse->value, at + "/sparse", *count, element)) return false;
      accessorInfo_.push_back({*count, *componentType, typeName});
    }
    return true;
  }

  bool checkSparse(const Value& sparse, const std::string& at, std::uint64_t accessorCount,
                   std::uint64_t element) {
    if (!sparse.IsObject()) return refuse(at, "is not an object");
    std::optional<std::uint64_t> count;
    if (!integer(sparse, "count", at, count, true)) return false;
    if (*count == 0 || *count > accessorCount)
      return refuse(at + "/count", "is " + std::to_string(*count) + " (1 to the accessor's " +
                                       std::to_string(accessorCount) + ")");
    for (const char* part : {"indices", "values"}) {
      const std::string partAt = at + "/" + part;
      auto it = sparse.FindMember(part);
      if (it == sparse.MemberEnd() || !it->value.IsObject())
        return refuse(at, std::string("has no ") + part + " object");
      std::optional<std::uint64_t> view, offset, componentType;
      if (!reference(it->value, "bufferView", partAt, "bufferView", viewLengths_.size(), view,
                     true) ||
          !integer(it->value, "byteOffset", partAt, offset, false))
        return false;
      std::uint64_t size = element;
      if (part == std::string_view("indices")) {
        if (!integer(it->value, "componentType", partAt, componentType, true)) return false;
        if (*componentType != 5121 && *componentType != 5123 && *componentType != 5125)
          return refuse(partAt + "/componentType",
                        "is " + std::to_string(*componentType) + " (5121, 5123 or 5125)");
        size = componentSize(*componentType);
      }
      // Sparse data is tightly packed, whatever the view's stride.
      if (!fitsView(*view, offset.value_or(0), *count, size, size, partAt)) return false;
    }
    return true;
  }

  /// An attribute's accessor, whose count must be the primitive's vertex count (POSITION's,
  /// or without POSITION the first attribute's, `vertices` once known).
  bool attribute(const Value& value, const std::string& at, std::optional<std::uint64_t>& vertices,
                 std::uint64_t& accessor) {
    if (!value.IsUint64()) return refuse(at, "is not an accessor index");
    accessor = value.GetUint64();
    if (accessor >= accessorInfo_.size())
      return refuse(at, "names accessor " + std::to_string(accessor) + ", and the file has " +
                            std::to_string(accessorInfo_.size()));
    const std::uint64_t count = accessorInfo_[accessor].count;
    if (vertices && *vertices != count)
      return refuse(at, "has " + std::to_string(count) + " elements; the primitive has " +
                            std::to_string(*vertices) + " vertices");
    vertices = count;
    return true;
  }

  bool checkPrimitive(const Value& primitive, const std::string& at) {
    if (!primitive.IsObject()) return refuse(at, "is not an object");
    auto attributes = primitive.FindMember("attributes");
    if (attributes == primitive.MemberEnd() || !attributes->value.IsObject())
      return refuse(at, "has no attributes object");
    std::optional<std::uint64_t> vertices, positions;
    if (auto position = attributes->value.FindMember("POSITION");
        position != attributes->value.MemberEnd()) {
      std::uint64_t accessor = 0;
      if (!attribute(position->value, at + "/attributes/POSITION", vertices, accessor))
        return false;
      positions = vertices;
    }
    std::size_t joints = 0, weights = 0;
    for (auto it = attributes->value.MemberBegin(); it != attributes->value.MemberEnd(); ++it) {
      const std::string name(it->name.GetString(), it->name.GetStringLength());
      std::uint64_t accessor = 0;
      if (!attribute(it->value, at + "/attributes/" + name, vertices, accessor)) return false;
      joints += name.rfind("JOINTS_", 0) == 0;
      weights += name.rfind("WEIGHTS_", 0) == 0;
    }
    // Assimp reads JOINTS_n with WEIGHTS_n for each n of the weights.
    if (joints != weights)
      return refuse(at + "/attributes", std::to_string(joints) + " JOINTS_n and " +
                                            std::to_string(weights) + " WEIGHTS_n sets (one each)");
    if (auto targets = primitive.FindMember("targets"); targets != primitive.MemberEnd()) {
      if (!targets->value.IsArray()) return refuse(at + "/targets", "is not an array");
      for (rapidjson::SizeType t = 0; t < targets->value.Size(); ++t) {
        const Value& target = targets->value[t];
        const std::string targetAt = at + "/targets/" + std::to_string(t);
        if (!target.IsObject()) return refuse(targetAt, "is not an object");
        for (auto it = target.MemberBegin(); it != target.MemberEnd(); ++it) {
          const std::string name(it->name.GetString(), it->name.GetStringLength());
          // Assimp files POSITION_1 as a second position set and reads the first.
          for (const char* kind : {"POSITION", "NORMAL", "TANGENT"})
            if (name.rfind(kind, 0) == 0 && name != kind)
              return refuse(targetAt + "/" + name,
                            std::string("a morph target's attribute is named ") + kind);
          std::uint64_t accessor = 0;
          if (!attribute(it->value, targetAt + "/" + name, vertices, accessor)) return false;
        }
      }
    }
    std::optional<std::uint64_t> indices, mode;
    if (!reference(primitive, "indices", at, "accessor", accessorInfo_.size(), indices, false) ||
        !integer(primitive, "mode", at, mode, false))
      return false;
    if (mode && *mode >= kModeLeast.size())
      return refuse(at + "/mode", "is " + std::to_string(*mode) + " (0 to 6)");
    std::uint64_t elements = positions.value_or(0);
    if (indices) {
      const AccessorInfo& info = accessorInfo_[*indices];
      if (info.type != "SCALAR" ||
          (info.componentType != 5121 && info.componentType != 5123 && info.componentType != 5125))
        return refuse(at + "/indices", "names accessor " + std::to_string(*indices) +
                                           ", which is no SCALAR of 5121, 5123 or 5125");
      elements = info.count;
    }
    const std::uint64_t drawMode = mode.value_or(kTriangles);
    if (elements < kModeLeast[drawMode])
      return refuse(at, "draws " + std::to_string(elements) +
                            (indices ? (elements == 1 ? " index" : " indices")
                                     : (elements == 1 ? " vertex" : " vertices")) +
                            "; mode " + std::to_string(drawMode) + " needs at least " +
                            std::to_string(kModeLeast[drawMode]));
    return true;
  }

  bool checkMeshes() {
    for (std::size_t i = 0; i < sizeOf(meshes_); ++i) {
      const std::string at = "/meshes/" + std::to_string(i);
      auto primitives = (*meshes_)[i].FindMember("primitives");
      if (primitives == (*meshes_)[i].MemberEnd() || !primitives->value.IsArray() ||
          primitives->value.Empty())
        return refuse(at, "has no primitives");
      for (rapidjson::SizeType p = 0; p < primitives->value.Size(); ++p)
        if (!checkPrimitive(primitives->value[p], at + "/primitives/" + std::to_string(p)))
          return false;
    }
    return true;
  }

  bool checkNodes() {
    static constexpr std::array<std::pair<const char*, rapidjson::SizeType>, 4> kArrays{
        {{"matrix", 16}, {"translation", 3}, {"rotation", 4}, {"scale", 3}}};
    for (std::size_t i = 0; i < sizeOf(nodes_); ++i) {
      const Value& node = (*nodes_)[i];
      const std::string at = "/nodes/" + std::to_string(i);
      for (const auto& [key, size] : kArrays) {
        auto it = node.FindMember(key);
        if (it == node.MemberEnd()) continue;
        bool numbers = it->value.IsArray() && it->value.Size() == size;
        for (rapidjson::SizeType k = 0; numbers && k < size; ++k) numbers = it->value[k].IsNumber();
        if (!numbers)
          return refuse(at + "/" + key, "is not an array of " + std::to_string(size) + " numbers");
      }
    }
    return true;
  }

  bool checkSkins() {
    for (std::size_t i = 0; i < sizeOf(skins_); ++i) {
      const Value& skin = (*skins_)[i];
      const std::string at = "/skins/" + std::to_string(i);
      auto joints = skin.FindMember("joints");
      if (joints == skin.MemberEnd() || !joints->value.IsArray() || joints->value.Empty())
        return refuse(at, "has no joints");
      for (rapidjson::SizeType j = 0; j < joints->value.Size(); ++j) {
        const Value& joint = joints->value[j];
        if (!joint.IsUint64() || joint.GetUint64() >= sizeOf(nodes_))
          return refuse(at + "/joints/" + std::to_string(j), "is not a node of the file");
      }
      // Valid glTF (identity matrices), but Assimp 5.2.5 reads the matrices without a check.
      std::optional<std::uint64_t> matrices;
      if (!reference(skin, "inverseBindMatrices", at, "accessor", accessorInfo_.size(), matrices,
                     false))
        return false;
      if (!matrices)
        return refuse(at, "has no inverseBindMatrices (the importer needs one per joint)");
      const AccessorInfo& info = accessorInfo_[*matrices];
      if (info.type != "MAT4" || info.componentType != 5126 || info.count < joints->value.Size())
        return refuse(at + "/inverseBindMatrices",
                      "names accessor " + std::to_string(*matrices) + ", which is no MAT4 of " +
                          "floats with one matrix for each of the " +
                          std::to_string(joints->value.Size()) + " joints");
    }
    return true;
  }

  bool checkAnimation(const Value& animation, const std::string& at) {
    auto samplers = animation.FindMember("samplers");
    auto channels = animation.FindMember("channels");
    if (samplers == animation.MemberEnd() || !samplers->value.IsArray())
      return refuse(at, "has no samplers array");
    if (channels == animation.MemberEnd() || !channels->value.IsArray())
      return refuse(at, "has no channels array");
    for (rapidjson::SizeType s = 0; s < samplers->value.Size(); ++s) {
      const Value& sampler = samplers->value[s];
      const std::string samplerAt = at + "/samplers/" + std::to_string(s);
      if (!sampler.IsObject()) return refuse(samplerAt, "is not an object");
      std::optional<std::uint64_t> input, output;
      if (!reference(sampler, "input", samplerAt, "accessor", accessorInfo_.size(), input, true) ||
          !reference(sampler, "output", samplerAt, "accessor", accessorInfo_.size(), output, true))
        return false;
      const AccessorInfo& keys = accessorInfo_[*input];
      if (keys.type != "SCALAR" || keys.componentType != 5126)
        return refuse(samplerAt + "/input", "names accessor " + std::to_string(*input) +
                                                ", which is no SCALAR of floats");
      bool cubic = false;
      if (auto it = sampler.FindMember("interpolation"); it != sampler.MemberEnd()) {
        const std::string_view name =
            it->value.IsString() ? std::string_view(it->value.GetString()) : std::string_view();
        if (name != "LINEAR" && name != "STEP" && name != "CUBICSPLINE")
          return refuse(samplerAt + "/interpolation", "is not LINEAR, STEP or CUBICSPLINE");
        cubic = name == "CUBICSPLINE";
      }
      // A cubic spline holds an in-tangent, a value and an out-tangent for each key.
      const std::uint64_t least = keys.count * (cubic ? 3 : 1);
      if (accessorInfo_[*output].count < least)
        return refuse(samplerAt + "/output", "names accessor " + std::to_string(*output) + " of " +
                                                 std::to_string(accessorInfo_[*output].count) +
                                                 " elements; " + std::to_string(keys.count) +
                                                 " keys need at least " + std::to_string(least));
    }
    for (rapidjson::SizeType c = 0; c < channels->value.Size(); ++c) {
      const Value& channel = channels->value[c];
      const std::string channelAt = at + "/channels/" + std::to_string(c);
      if (!channel.IsObject()) return refuse(channelAt, "is not an object");
      std::optional<std::uint64_t> sampler, node;
      if (!reference(channel, "sampler", channelAt, "sampler", samplers->value.Size(), sampler,
                     true))
        return false;
      auto target = channel.FindMember("target");
      if (target == channel.MemberEnd() || !target->value.IsObject())
        return refuse(channelAt, "has no target object");
      if (!reference(target->value, "node", channelAt + "/target", "node", sizeOf(nodes_), node,
                     true))
        return false;
      auto path = target->value.FindMember("path");
      const std::string_view name = path != target->value.MemberEnd() && path->value.IsString()
                                        ? std::string_view(path->value.GetString())
                                        : std::string_view();
      if (name != "translation" && name != "rotation" && name != "scale" && name != "weights")
        return refuse(channelAt + "/target/path", "is not translation, rotation, scale or weights");
    }
    return true;
  }

  bool checkAnimations() {
    for (std::size_t i = 0; i < sizeOf(animations_); ++i)
      if (!checkAnimation((*animations_)[i], "/animations/" + std::to_string(i))) return false;
    return true;
  }

  const Value& root_;
  bool binary_;
  std::optional<std::uint64_t> binChunk_;
  const Value* buffers_ = nullptr;
  const Value* views_ = nullptr;
  const Value* accessors_ = nullptr;
  const Value* meshes_ = nullptr;
  const Value* nodes_ = nullptr;
  const Value* skins_ = nullptr;
  const Value* animations_ = nullptr;
  std::vector<std::uint64_t> bufferLengths_;
  std::vector<std::uint64_t> viewLengths_;
  std::vector<std::uint64_t> viewStrides_;  // 0: none declared
  std::vector<AccessorInfo> accessorInfo_;
  std::string error_;
};

/// The deepest nesting of arrays and objects in JSON text (strings skipped), stopping once
/// past `limit`.
std::size_t jsonDepth(std::string_view json, std::size_t limit) {
  std::size_t depth = 0, deepest = 0;
  bool inString = false, escaped = false;
  for (char c : json) {
    if (inString) {
      if (escaped)
        escaped = false;
      else if (c == '\\')
        escaped = true;
      else if (c == '"')
        inString = false;
    } else if (c == '"') {
      inString = true;
    } else if (c == '[' || c == '{') {
      deepest = std::max(deepest, ++depth);
      if (deepest > limit) break;
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  return deepest;
}

}  // namespace

Expected<void> checkGltfFile(const std::filesystem::path& path, bool binary) {
  std::error_code ec;
  const std::uint64_t size = std::filesystem::file_size(path, ec);
  std::ifstream in(path, std::ios::binary);
  if (ec || !in) return Error{"", "cannot read the file"};
  const auto read = [&](std::uint64_t offset, std::uint64_t length, std::string& out) {
    out.assign(static_cast<std::size_t>(length), '\0');
    return static_cast<bool>(in.seekg(static_cast<std::streamoff>(offset))
                                 .read(out.data(), static_cast<std::streamsize>(length)));
  };
  std::string json;
  std::optional<std::uint64_t> binChunk;
  if (!binary) {
    if (!read(0, size, json)) return Error{"", "cannot read the file"};
  } else {
    // Header: magic, version, length; then the JSON chunk (length, type) and, where the
    // header's length leaves room for it, the BIN chunk's header, as Assimp reads them. The
    // BIN chunk's bytes are Assimp's to read.
    std::string header;
    if (size < 20 || !read(0, 20, header))
      return Error{"", "shorter than a binary glTF's 20-byte header and first chunk header"};
    if (readU32(header, 0) != kGlbMagic) return Error{"", "no binary glTF magic \"glTF\""};
    if (const std::uint32_t version = readU32(header, 4); version != 2)
      return Error{"", "binary glTF version " + std::to_string(version) + " (only 2 is read)"};
    const std::uint64_t length = readU32(header, 8);
    if (length > size)
      return Error{"", "the header gives " + std::to_string(length) + " bytes; the file has " +
                           std::to_string(size)};
    const std::uint64_t jsonLength = readU32(header, 12);
    if (readU32(header, 16) != kChunkJson) return Error{"", "the first chunk is not JSON"};
    if (jsonLength > size - 20)
      return Error{"", "the JSON chunk's " + std::to_string(jsonLength) +
                           " bytes run past the end of the file"};
    if (!read(20, jsonLength, json)) return Error{"", "cannot read the JSON chunk"};
    const std::uint64_t body = 20 + jsonLength + (4 - jsonLength % 4) % 4 + 8;
    if (length >= body) {
      std::string chunk;
      if (body > size || !read(body - 8, 8, chunk))
        return Error{"", "the BIN chunk's header runs past the end of the file"};
      if (readU32(chunk, 4) != kChunkBin) return Error{"", "the second chunk is not BIN"};
      binChunk = readU32(chunk, 0);
      if (*binChunk > size - body)
        return Error{"", "the BIN chunk's " + std::to_string(*binChunk) +
                             " bytes run past the end of the file"};
    }
  }
  // Assimp parses the JSON up to its first NUL byte (some exporters pad the chunk with them).
  json.resize(std::min(json.size(), json.find('\0')));
  if (jsonDepth(json, kGltfMaxJsonDepth) > kGltfMaxJsonDepth)
    return Error{"", "its JSON nests deeper than " + std::to_string(kGltfMaxJsonDepth) + " levels"};
  rapidjson::Document document;
  document.Parse<rapidjson::kParseIterativeFlag>(json.data(), json.size());
  if (document.HasParseError())
    return Error{"", "JSON error at byte " + std::to_string(document.GetErrorOffset()) + ": " +
                         rapidjson::GetParseError_En(document.GetParseError())};
  if (!document.IsObject()) return Error{"", "its JSON is not an object"};
  return Checker(document, binary, binChunk).run();
}

}  // namespace floptle::asset::detail
