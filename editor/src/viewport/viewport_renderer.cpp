#include "viewport/viewport_renderer.h"

#include "viewport/overlay_shaders.h"

#include <algorithm>
#include <cmath>

#include <glm/gtc/type_ptr.hpp>

#include "floptle/core/render/raymarch_glsl.h"
#include "floptle/core/render/shading_model.h"

namespace floptle::editor {

namespace {

constexpr const char* kCompositeFragment = R"GLSL(#version 330 core
in vec2 vUv;
out vec4 fragColor;
uniform sampler2D u_color;
uniform sampler2D u_depth;
uniform vec2 u_rendered;   // rendered region (texels)
uniform bool u_exact;      // region == framebuffer: copy texels one to one
void main() {
  if (u_exact) {
    ivec2 texel = ivec2(gl_FragCoord.xy);
    fragColor = texelFetch(u_color, texel, 0);
    gl_FragDepth = texelFetch(u_depth, texel, 0).r;
    return;
  }
  vec2 texel = clamp(vUv * u_rendered, vec2(0.5), u_rendered - 0.5);
  vec2 size = vec2(textureSize(u_color, 0));
  fragColor = texture(u_color, texel / size);
  gl_FragDepth = texelFetch(u_depth, ivec2(texel), 0).r;
}
)GLSL";

/// Pull of the grid towards the eye (-): larger than the raymarch's hit epsilon per metre
/// (shading::kHitEpsilonPerMeter) so a ground plane at y = 0 does not hide its own grid.
constexpr float kGridPull = 2e-3f;
/// Pull of depth-tested line layers (-): wireframes of a collider's drawn surface lie on the
/// field's surface (chords slightly inside it), so they need a little more than the grid.
constexpr float kLayerPull = 3e-3f;

struct LineVertex {
  float position[3];
  float color[4];
};

using overlay_shaders::buildProgram;
using overlay_shaders::kLineFragment;
using overlay_shaders::kLineVertex;

}  // namespace

ViewportRenderer::ViewportRenderer() = default;
ViewportRenderer::~ViewportRenderer() = default;

void ViewportRenderer::initialize() {
  initializeOpenGLFunctions();
  QString log;
  composite_ = buildProgram(render::fullscreenVertexShader(), kCompositeFragment, log);
  lines_ = buildProgram(kLineVertex, kLineFragment, log);
  emptyVao_.create();
  lineVao_.create();
  lineVao_.bind();
  glGenBuffers(1, &lineBuffer_);
  glBindBuffer(GL_ARRAY_BUFFER, lineBuffer_);
  glEnableVertexAttribArray(0);
  glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, sizeof(LineVertex), nullptr);
  glEnableVertexAttribArray(1);
  glVertexAttribPointer(1, 4, GL_FLOAT, GL_FALSE, sizeof(LineVertex),
                        reinterpret_cast<void*>(offsetof(LineVertex, color)));
  lineVao_.release();
  glBindBuffer(GL_ARRAY_BUFFER, 0);
  layerRenderer_.initialize();
}

void ViewportRenderer::release() {
  layerRenderer_.release();
  raymarch_.reset();
  composite_.reset();
  lines_.reset();
  emptyVao_.destroy();
  lineVao_.destroy();
  if (lineBuffer_) glDeleteBuffers(1, &lineBuffer_);
  if (targetFbo_) glDeleteFramebuffers(1, &targetFbo_);
  if (colorTexture_) glDeleteTextures(1, &colorTexture_);
  if (depthTexture_) glDeleteTextures(1, &depthTexture_);
  lineBuffer_ = targetFbo_ = colorTexture_ = depthTexture_ = 0;
  targetWidth_ = targetHeight_ = 0;
}

QString ViewportRenderer::compileRaymarch(const std::string& fragmentSource) {
  QString log;
  auto program = buildProgram(render::fullscreenVertexShader(), fragmentSource, log);
  if (!program) return log;
  raymarch_ = std::move(program);
  return {};
}

void ViewportRenderer::ensureTarget(int width, int height) {
  if (targetFbo_ && width == targetWidth_ && height == targetHeight_) return;
  if (!targetFbo_) {
    glGenFramebuffers(1, &targetFbo_);
    glGenTextures(1, &colorTexture_);
    glGenTextures(1, &depthTexture_);
  }
  targetWidth_ = width;
  targetHeight_ = height;
  glBindTexture(GL_TEXTURE_2D, colorTexture_);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, width, height, 0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
  glBindTexture(GL_TEXTURE_2D, depthTexture_);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_DEPTH_COMPONENT32F, width, height, 0, GL_DEPTH_COMPONENT,
               GL_FLOAT, nullptr);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_COMPARE_MODE, GL_NONE);
  glBindTexture(GL_TEXTURE_2D, 0);
  glBindFramebuffer(GL_FRAMEBUFFER, targetFbo_);
  glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, colorTexture_, 0);
  glFramebufferTexture2D(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_TEXTURE_2D, depthTexture_, 0);
}

void ViewportRenderer::drawLines(const std::vector<OverlayLine>& lines, const Mat4& viewProj,
                                 Vec3 eye, float pull, float alpha) {
  if (lines.empty() || !lines_) return;
  std::vector<LineVertex> vertices;
  vertices.reserve(lines.size() * 2);
  for (const OverlayLine& line : lines) {
    for (Vec3 p : {line.a, line.b})
      vertices.push_back({{p.x, p.y, p.z}, {line.color.x, line.color.y, line.color.z, line.color.w}});
  }
  lines_->bind();
  glUniformMatrix4fv(lines_->uniformLocation("u_viewProj"), 1, GL_FALSE, glm::value_ptr(viewProj));
  lines_->setUniformValue("u_eye", eye.x, eye.y, eye.z);
  lines_->setUniformValue("u_pull", pull);
  lines_->setUniformValue("u_alpha", alpha);
  lineVao_.bind();
  glBindBuffer(GL_ARRAY_BUFFER, lineBuffer_);
  glBufferData(GL_ARRAY_BUFFER, GLsizeiptr(vertices.size() * sizeof(LineVertex)), vertices.data(),
               GL_STREAM_DRAW);
  glDrawArrays(GL_LINES, 0, GLsizei(vertices.size()));
  glBindBuffer(GL_ARRAY_BUFFER, 0);
  lineVao_.release();
}

void ViewportRenderer::render(const ViewportFrame& frame) {
  const int width = std::max(frame.width, 1), height = std::max(frame.height, 1);
  const float scale = std::clamp(frame.scale, 0.05f, 1.0f);
  const int renderedW = std::clamp(int(std::lround(width * scale)), 1, width);
  const int renderedH = std::clamp(int(std::lround(height * scale)), 1, height);
  const float aspect = float(width) / float(height);
  ensureTarget(width, height);

  // 1. Raymarch into the offscreen target (its lower-left renderedW x renderedH texels).
  glBindFramebuffer(GL_FRAMEBUFFER, targetFbo_);
  glViewport(0, 0, renderedW, renderedH);
  glDisable(GL_BLEND);
  glEnable(GL_DEPTH_TEST);
  glDepthFunc(GL_ALWAYS);
  glDepthMask(GL_TRUE);
  emptyVao_.bind();
  if (raymarch_) {
    const render::CameraBasis basis = frame.camera.basis();
    const Vec3 pos = frame.camera.position;
    raymarch_->bind();
    raymarch_->setUniformValue("u_camPos", pos.x, pos.y, pos.z);
    raymarch_->setUniformValue("u_camRight", basis.right.x, basis.right.y, basis.right.z);
    raymarch_->setUniformValue("u_camUp", basis.up.x, basis.up.y, basis.up.z);
    raymarch_->setUniformValue("u_camForward", basis.forward.x, basis.forward.y, basis.forward.z);
    raymarch_->setUniformValue("u_tanHalfFovY", frame.camera.tanHalfFovY());
    raymarch_->setUniformValue("u_aspect", aspect);
    raymarch_->setUniformValue("u_time", float(frame.time));
    if (frame.params && !frame.params->empty()) {
      std::vector<float> packed(std::size_t(render::packedParameterSlots(int(frame.params->size()))) * 4, 0.0f);
      std::copy(frame.params->begin(), frame.params->end(), packed.begin());
      raymarch_->setUniformValueArray("u_params", packed.data(), int(packed.size() / 4), 4);
    }
    std::vector<float> albedo(std::size_t(render::shading::kMaxMaterials) * 3, 0.0f);
    int materialCount = 0;
    if (frame.materials) {
      materialCount = int(std::min<std::size_t>(frame.materials->size(), render::shading::kMaxMaterials));
      for (int i = 0; i < materialCount; ++i)
        for (int c = 0; c < 3; ++c) albedo[std::size_t(i) * 3 + c] = (*frame.materials)[i][c];
    }
    raymarch_->setUniformValueArray("u_materials", albedo.data(), render::shading::kMaxMaterials, 3);
    raymarch_->setUniformValue("u_materialCount", int(frame.materials ? frame.materials->size() : 0));
    glDrawArrays(GL_TRIANGLES, 0, 3);
  } else {
    glClearColor(0.2f, 0.2f, 0.22f, 1.0f);
    glClearDepth(1.0);
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
  }

  // 2. Composite onto the widget's framebuffer, depth included.
  glBindFramebuffer(GL_FRAMEBUFFER, frame.targetFramebuffer);
  glViewport(0, 0, width, height);
  if (composite_) {
    composite_->bind();
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_2D, colorTexture_);
    glActiveTexture(GL_TEXTURE1);
    glBindTexture(GL_TEXTURE_2D, depthTexture_);
    composite_->setUniformValue("u_color", 0);
    composite_->setUniformValue("u_depth", 1);
    composite_->setUniformValue("u_rendered", float(renderedW), float(renderedH));
    composite_->setUniformValue("u_exact", renderedW == width && renderedH == height);
    glDrawArrays(GL_TRIANGLES, 0, 3);
    glBindTexture(GL_TEXTURE_2D, 0);
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_2D, 0);
  }
  emptyVao_.release();

  // 3. Overlay meshes, depth-tested against the field and writing depth.
  const Mat4 viewProj = frame.camera.projectionMatrix(aspect, render::shading::kDepthNear,
                                                      render::shading::kDepthFar) *
                        frame.camera.viewMatrix();
  const Vec3 eye = frame.camera.position;
  if (frame.layers) {
    layerRenderer_.sync(*frame.layers);
    glDisable(GL_BLEND);
    glDepthMask(GL_TRUE);
    glDepthFunc(GL_LESS);
    layerRenderer_.drawMeshes(*frame.layers, viewProj);
  }

  // 4. Line overlays.
  glEnable(GL_BLEND);
  glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
  glDepthMask(GL_FALSE);
  glDepthFunc(GL_LEQUAL);
  drawLines(frame.grid, viewProj, eye, kGridPull, 1.0f);
  drawLines(frame.selection, viewProj, eye, kGridPull, 1.0f);
  glDepthFunc(GL_GREATER);  // the hidden part of the selection, faint
  drawLines(frame.selection, viewProj, eye, kGridPull, 0.25f);
  if (frame.layers) {
    glDepthFunc(GL_LEQUAL);
    layerRenderer_.drawLines(*frame.layers, OverlayDepth::Tested, viewProj, eye, kLayerPull);
  }
  glDisable(GL_DEPTH_TEST);
  if (frame.layers) layerRenderer_.drawLines(*frame.layers, OverlayDepth::OnTop, viewProj, eye, 0.0f);
  drawLines(frame.gizmo, viewProj, eye, 0.0f, 1.0f);
  glDepthMask(GL_TRUE);
  glDepthFunc(GL_LESS);
  glDisable(GL_BLEND);
}

}  // namespace floptle::editor
