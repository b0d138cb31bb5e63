#include "viewport/overlay_layers.h"

#include "viewport/overlay_shaders.h"

#include <glm/gtc/matrix_inverse.hpp>
#include <glm/gtc/type_ptr.hpp>

#include <cstddef>
#include <string>

#include "floptle/core/render/shading_model.h"

namespace floptle::editor {

namespace {

constexpr const char* kMeshVertex = R"GLSL(#version 330 core
layout(location = 0) in vec3 a_position;
layout(location = 1) in vec3 a_normal;
layout(location = 2) in vec3 a_albedo;
uniform mat4 u_viewProj;
uniform mat4 u_model;
uniform mat3 u_normalMatrix;
out vec3 v_normal;
out vec3 v_albedo;
void main() {
  v_normal = u_normalMatrix * a_normal;
  v_albedo = a_albedo;
  gl_Position = u_viewProj * u_model * vec4(a_position, 1.0);
}
)GLSL";

// The field's lighting without shadows or AO (shading_model.h): sun + sky ambient, gamma.
constexpr const char* kMeshFragmentTemplate = R"GLSL(#version 330 core
in vec3 v_normal;
in vec3 v_albedo;
out vec4 fragColor;
const vec3 kSun = vec3(@SUN@);
const vec3 kSunColor = vec3(@SUNCOLOR@);
const vec3 kSkyAmbient = vec3(@AMBIENT@);
const float kAmbientBase = @AMBIENTBASE@;
const float kGamma = @GAMMA@;
void main() {
  vec3 n = normalize(v_normal);
  if (!gl_FrontFacing) n = -n;  // exports are not always consistently wound: light both sides
  float sky = kAmbientBase + (1.0 - kAmbientBase) * (0.5 + 0.5 * n.y);
  vec3 light = kSunColor * max(dot(n, kSun), 0.0) + kSkyAmbient * sky;
  fragColor = vec4(pow(max(v_albedo * light, vec3(0.0)), vec3(1.0 / kGamma)), 1.0);
}
)GLSL";

struct LineVertex {
  float position[3];
  float color[4];
};

struct MeshVertex {
  float position[3];
  float normal[3];
  float albedo[3];
};

std::string vec3Literal(Vec3 v) {
  return std::to_string(v.x) + ", " + std::to_string(v.y) + ", " + std::to_string(v.z);
}

std::string meshFragment() {
  namespace s = render::shading;
  std::string text = kMeshFragmentTemplate;
  auto replace = [&text](const std::string& key, const std::string& value) {
    text.replace(text.find(key), key.size(), value);
  };
  replace("@SUN@", vec3Literal(s::kSunDirection));
  replace("@SUNCOLOR@", vec3Literal(s::kSunColor));
  replace("@AMBIENT@", vec3Literal(s::kSkyAmbient));
  replace("@AMBIENTBASE@", std::to_string(s::kAmbientBase));
  replace("@GAMMA@", std::to_string(s::kGamma));
  return text;
}

std::unique_ptr<QOpenGLShaderProgram> build(const std::string& vertex, const std::string& fragment) {
  QString log;
  auto program = overlay_shaders::buildProgram(vertex, fragment, log);
  if (!program) qWarning("overlay shader: %s", qPrintable(log));
  return program;
}

std::vector<LineVertex> lineVertices(const std::vector<OverlayLine>& lines) {
  std::vector<LineVertex> vertices;
  vertices.reserve(lines.size() * 2);
  for (const OverlayLine& line : lines)
    for (Vec3 p : {line.a, line.b})
      vertices.push_back({{p.x, p.y, p.z}, {line.color.x, line.color.y, line.color.z, line.color.w}});
  return vertices;
}

/// Flat shading: three vertices per triangle, each with the face normal (local space).
std::vector<MeshVertex> meshVertices(const OverlayMesh& mesh) {
  std::vector<MeshVertex> vertices;
  vertices.reserve(mesh.triangles.size() * 3);
  const Vec3 grey = render::shading::kDefaultAlbedo;
  const std::size_t count = mesh.positions.size();
  for (std::size_t t = 0; t < mesh.triangles.size(); ++t) {
    const auto& tri = mesh.triangles[t];
    if (tri[0] >= count || tri[1] >= count || tri[2] >= count) continue;
    const Vec3 a = mesh.positions[tri[0]], b = mesh.positions[tri[1]], c = mesh.positions[tri[2]];
    Vec3 n = glm::cross(b - a, c - a);
    const float length = glm::length(n);
    n = length > 0.0f ? n / length : Vec3(0.0f, 1.0f, 0.0f);
    const Vec3 albedo = t < mesh.triangleColors.size() ? mesh.triangleColors[t] : grey;
    for (Vec3 p : {a, b, c})
      vertices.push_back({{p.x, p.y, p.z}, {n.x, n.y, n.z}, {albedo.x, albedo.y, albedo.z}});
  }
  return vertices;
}

}  // namespace

OverlayLayerRenderer::OverlayLayerRenderer() = default;
OverlayLayerRenderer::~OverlayLayerRenderer() = default;

void OverlayLayerRenderer::initialize() {
  initializeOpenGLFunctions();
  lineProgram_ = build(overlay_shaders::kLineVertex, overlay_shaders::kLineFragment);
  meshProgram_ = build(kMeshVertex, meshFragment());
}

void OverlayLayerRenderer::release() {
  for (auto& [name, buffer] : lineBuffers_) freeBuffer(buffer);
  for (auto& [name, buffer] : meshBuffers_) freeBuffer(buffer);
  lineBuffers_.clear();
  meshBuffers_.clear();
  lineProgram_.reset();
  meshProgram_.reset();
}

OverlayLayerRenderer::GpuBuffer OverlayLayerRenderer::makeBuffer(bool mesh) {
  GpuBuffer result;
  result.vao = new QOpenGLVertexArrayObject;
  result.vao->create();
  result.vao->bind();
  glGenBuffers(1, &result.buffer);
  glBindBuffer(GL_ARRAY_BUFFER, result.buffer);
  if (mesh) {
    const auto stride = GLsizei(sizeof(MeshVertex));
    glEnableVertexAttribArray(0);
    glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, stride, nullptr);
    glEnableVertexAttribArray(1);
    glVertexAttribPointer(1, 3, GL_FLOAT, GL_FALSE, stride,
                          reinterpret_cast<void*>(offsetof(MeshVertex, normal)));
    glEnableVertexAttribArray(2);
    glVertexAttribPointer(2, 3, GL_FLOAT, GL_FALSE, stride,
                          reinterpret_cast<void*>(offsetof(MeshVertex, albedo)));
  } else {
    const auto stride = GLsizei(sizeof(LineVertex));
    glEnableVertexAttribArray(0);
    glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, stride, nullptr);
    glEnableVertexAttribArray(1);
    glVertexAttribPointer(1, 4, GL_FLOAT, GL_FALSE, stride,
                          reinterpret_cast<void*>(offsetof(LineVertex, color)));
  }
  result.vao->release();
  glBindBuffer(GL_ARRAY_BUFFER, 0);
  return result;
}

void OverlayLayerRenderer::freeBuffer(GpuBuffer& buffer) {
  if (buffer.buffer) glDeleteBuffers(1, &buffer.buffer);
  if (buffer.vao) {
    buffer.vao->destroy();
    delete buffer.vao;
  }
  buffer = {};
}

template <class Layer, class Upload>
void OverlayLayerRenderer::syncMap(const std::map<QString, Layer>& layers,
                                   std::map<QString, GpuBuffer>& gpu, bool mesh, Upload upload) {
  for (auto it = gpu.begin(); it != gpu.end();) {
    if (layers.count(it->first)) {
      ++it;
    } else {
      freeBuffer(it->second);
      it = gpu.erase(it);
    }
  }
  for (const auto& [name, layer] : layers) {
    auto found = gpu.find(name);
    if (found == gpu.end()) found = gpu.emplace(name, makeBuffer(mesh)).first;
    GpuBuffer& buffer = found->second;
    if (buffer.version == layer.version) continue;
    glBindBuffer(GL_ARRAY_BUFFER, buffer.buffer);
    buffer.vertexCount = upload(layer);
    glBindBuffer(GL_ARRAY_BUFFER, 0);
    buffer.version = layer.version;
  }
}

void OverlayLayerRenderer::sync(const OverlayLayers& layers) {
  syncMap(layers.lines, lineBuffers_, false, [this](const OverlayLineLayer& layer) {
    const auto vertices = lineVertices(layer.lines);
    glBufferData(GL_ARRAY_BUFFER, GLsizeiptr(vertices.size() * sizeof(LineVertex)),
                 vertices.data(), GL_DYNAMIC_DRAW);
    return int(vertices.size());
  });
  syncMap(layers.meshes, meshBuffers_, true, [this](const OverlayMeshLayer& layer) {
    const auto vertices = meshVertices(layer.mesh);
    glBufferData(GL_ARRAY_BUFFER, GLsizeiptr(vertices.size() * sizeof(MeshVertex)),
                 vertices.data(), GL_STATIC_DRAW);
    return int(vertices.size());
  });
}

void OverlayLayerRenderer::drawMeshes(const OverlayLayers& layers, const Mat4& viewProj) {
  if (!meshProgram_ || layers.meshes.empty()) return;
  meshProgram_->bind();
  glUniformMatrix4fv(meshProgram_->uniformLocation("u_viewProj"), 1, GL_FALSE,
                     glm::value_ptr(viewProj));
  for (const auto& [name, layer] : layers.meshes) {
    const auto found = meshBuffers_.find(name);
    if (found == meshBuffers_.end() || found->second.vertexCount == 0) continue;
    const glm::mat3 normalMatrix = glm::inverseTranspose(glm::mat3(layer.mesh.transform));
    glUniformMatrix4fv(meshProgram_->uniformLocation("u_model"), 1, GL_FALSE,
                       glm::value_ptr(layer.mesh.transform));
    glUniformMatrix3fv(meshProgram_->uniformLocation("u_normalMatrix"), 1, GL_FALSE,
                       glm::value_ptr(normalMatrix));
    found->second.vao->bind();
    glDrawArrays(GL_TRIANGLES, 0, found->second.vertexCount);
    found->second.vao->release();
  }
  meshProgram_->release();
}

void OverlayLayerRenderer::drawLines(const OverlayLayers& layers, OverlayDepth depth,
                                     const Mat4& viewProj, Vec3 eye, float pull) {
  if (!lineProgram_) return;
  bool bound = false;
  for (const auto& [name, layer] : layers.lines) {
    if (layer.depth != depth) continue;
    const auto found = lineBuffers_.find(name);
    if (found == lineBuffers_.end() || found->second.vertexCount == 0) continue;
    if (!bound) {
      lineProgram_->bind();
      glUniformMatrix4fv(lineProgram_->uniformLocation("u_viewProj"), 1, GL_FALSE,
                         glm::value_ptr(viewProj));
      lineProgram_->setUniformValue("u_eye", eye.x, eye.y, eye.z);
      lineProgram_->setUniformValue("u_pull", pull);
      lineProgram_->setUniformValue("u_alpha", 1.0f);
      bound = true;
    }
    found->second.vao->bind();
    glDrawArrays(GL_LINES, 0, found->second.vertexCount);
    found->second.vao->release();
  }
  if (bound) lineProgram_->release();
}

}  // namespace floptle::editor
