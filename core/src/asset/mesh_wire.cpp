// Binary frames of the import worker's answers (see mesh_wire.h).
#include "floptle/core/asset/mesh_wire.h"

#include <cstdint>
#include <cstring>
#include <type_traits>

namespace floptle::asset {
namespace {

constexpr char kMagic[4] = {'F', 'L', 'M', 'W'};
constexpr std::uint32_t kVersion = 1;
enum class Kind : std::uint8_t { Mesh = 1, Objects = 2, Error = 3 };

class Writer {
 public:
  template <class T>
  void pod(const T& value) {
    static_assert(std::is_trivially_copyable_v<T>);
    out_.append(reinterpret_cast<const char*>(&value), sizeof(T));
  }
  void text(std::string_view s) {
    pod(static_cast<std::uint32_t>(s.size()));
    out_.append(s);
  }
  template <class T>
  void array(const std::vector<T>& items) {
    pod(static_cast<std::uint64_t>(items.size()));
    if (!items.empty())
      out_.append(reinterpret_cast<const char*>(items.data()), items.size() * sizeof(T));
  }
  void vec3(Vec3 v) { pod(v.x), pod(v.y), pod(v.z); }
  void slots(const std::vector<MaterialSlot>& slots) {
    pod(static_cast<std::uint32_t>(slots.size()));
    for (const MaterialSlot& slot : slots) {
      text(slot.name);
      for (int i = 0; i < 4; ++i) pod(slot.baseColor[i]);
    }
  }
  void files(const std::vector<std::filesystem::path>& files) {
    pod(static_cast<std::uint32_t>(files.size()));
    for (const auto& file : files) text(file.string());
  }
  std::string take() { return std::move(out_); }

 private:
  std::string out_;
};

/// Reads what Writer wrote; the first shortfall sets failed() and every later read yields zero.
class Reader {
 public:
  explicit Reader(std::string_view bytes) : in_(bytes) {}
  template <class T>
  T pod() {
    T value{};
    if (!take(sizeof(T))) return value;
    std::memcpy(&value, in_.data() + at_ - sizeof(T), sizeof(T));
    return value;
  }
  std::string text() {
    const auto size = pod<std::uint32_t>();
    if (!take(size)) return {};
    return std::string(in_.substr(at_ - size, size));
  }
  template <class T>
  std::vector<T> array() {
    const auto count = pod<std::uint64_t>();
    if (failed_ || count > (in_.size() - at_) / sizeof(T)) {
      failed_ = true;
      return {};
    }
    std::vector<T> items(static_cast<std::size_t>(count));
    if (count) std::memcpy(items.data(), in_.data() + at_, items.size() * sizeof(T));
    at_ += items.size() * sizeof(T);
    return items;
  }
  Vec3 vec3() {
    const float x = pod<float>(), y = pod<float>(), z = pod<float>();
    return {x, y, z};
  }
  std::vector<MaterialSlot> slots() {
    const auto count = pod<std::uint32_t>();
    std::vector<MaterialSlot> slots;
    for (std::uint32_t i = 0; i < count && !failed_; ++i) {
      MaterialSlot slot;
      slot.name = text();
      for (int c = 0; c < 4; ++c) slot.baseColor[c] = pod<float>();
      slots.push_back(std::move(slot));
    }
    return slots;
  }
  std::vector<std::filesystem::path> files() {
    const auto count = pod<std::uint32_t>();
    std::vector<std::filesystem::path> files;
    for (std::uint32_t i = 0; i < count && !failed_; ++i) files.emplace_back(text());
    return files;
  }
  bool failed() const { return failed_; }
  bool atEnd() const { return at_ == in_.size(); }

 private:
  bool take(std::size_t size) {
    if (failed_ || size > in_.size() - at_) {
      failed_ = true;
      return false;
    }
    at_ += size;
    return true;
  }
  std::string_view in_;
  std::size_t at_ = 0;
  bool failed_ = false;
};

Writer header(Kind kind) {
  Writer w;
  for (char c : kMagic) w.pod(c);
  w.pod(kVersion);
  w.pod(kind);
  return w;
}

Error corrupt(const std::string& what) {
  return Error{"frame", "corrupt import-worker answer: " + what};
}

}  // namespace

std::string encodeMeshFrame(const TriangleMesh& mesh) {
  Writer w = header(Kind::Mesh);
  w.array(mesh.positions);
  w.array(mesh.triangles);
  w.array(mesh.triangleSlots);
  w.slots(mesh.materialSlots);
  w.files(mesh.sourceFiles);
  return w.take();
}

std::string encodeObjectsFrame(const MeshObjectTree& tree) {
  Writer w = header(Kind::Objects);
  w.pod(static_cast<std::uint32_t>(tree.objects.size()));
  for (const MeshObject& object : tree.objects) {
    w.text(object.name);
    w.pod(static_cast<std::int32_t>(object.parent));
    w.vec3(object.local.position);
    w.pod(object.local.rotation.x), w.pod(object.local.rotation.y);
    w.pod(object.local.rotation.z), w.pod(object.local.rotation.w);
    w.pod(object.local.scale);
    w.pod(static_cast<std::uint64_t>(object.triangleCount));
    w.slots(object.materialSlots);
    w.pod(static_cast<std::uint8_t>(object.hasFacesWithoutSlot));
    w.text(object.instanceOf);
  }
  w.files(tree.sourceFiles);
  return w.take();
}

std::string encodeErrorFrame(const Error& error) {
  Writer w = header(Kind::Error);
  w.text(error.where);
  w.text(error.what);
  return w.take();
}

Expected<WireResult> decodeFrame(std::string_view bytes) {
  Reader r(bytes);
  for (char c : kMagic) {
    if (r.pod<char>() != c) return corrupt("no frame (" + std::to_string(bytes.size()) + " bytes)");
  }
  if (const auto version = r.pod<std::uint32_t>(); version != kVersion)
    return corrupt("format version " + std::to_string(version) + ", expected " +
                   std::to_string(kVersion));
  const auto kind = r.pod<Kind>();
  WireResult result;
  if (kind == Kind::Mesh) {
    TriangleMesh mesh;
    mesh.positions = r.array<Vec3>();
    mesh.triangles = r.array<std::array<std::uint32_t, 3>>();
    mesh.triangleSlots = r.array<std::uint16_t>();
    mesh.materialSlots = r.slots();
    mesh.sourceFiles = r.files();
    if (r.failed()) return corrupt("truncated mesh");
    if (mesh.triangleSlots.size() != mesh.triangles.size())
      return corrupt("a slot count that is not the triangle count");
    for (const auto& t : mesh.triangles)
      for (std::uint32_t i : t)
        if (i >= mesh.positions.size()) return corrupt("a vertex index out of range");
    for (std::uint16_t slot : mesh.triangleSlots)
      if (slot != kNoMaterialSlot && slot >= mesh.materialSlots.size())
        return corrupt("a material slot out of range");
    result = std::move(mesh);
  } else if (kind == Kind::Objects) {
    MeshObjectTree tree;
    const auto count = r.pod<std::uint32_t>();
    for (std::uint32_t i = 0; i < count && !r.failed(); ++i) {
      MeshObject object;
      object.name = r.text();
      object.parent = r.pod<std::int32_t>();
      object.local.position = r.vec3();
      const float x = r.pod<float>(), y = r.pod<float>(), z = r.pod<float>(), w = r.pod<float>();
      object.local.rotation = Quat(w, x, y, z);
      object.local.scale = r.pod<float>();
      object.triangleCount = static_cast<std::size_t>(r.pod<std::uint64_t>());
      object.materialSlots = r.slots();
      object.hasFacesWithoutSlot = r.pod<std::uint8_t>() != 0;
      object.instanceOf = r.text();
      if (object.parent < -1 || object.parent >= static_cast<std::int32_t>(i))
        return corrupt("an object whose parent is not before it");
      tree.objects.push_back(std::move(object));
    }
    tree.sourceFiles = r.files();
    if (r.failed()) return corrupt("truncated object tree");
    result = std::move(tree);
  } else if (kind == Kind::Error) {
    Error error;
    error.where = r.text();
    error.what = r.text();
    if (r.failed()) return corrupt("truncated error");
    result = std::move(error);
  } else {
    return corrupt("unknown kind " + std::to_string(int(kind)));
  }
  if (!r.atEnd()) return corrupt("bytes after the end of the frame");
  return result;
}

}  // namespace floptle::asset
