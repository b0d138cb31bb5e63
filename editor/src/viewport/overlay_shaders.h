#pragma once
// GLSL and program building shared by the viewport's raster passes (the built-in overlays in
// viewport_renderer.cpp and the named layers in overlay_layers.cpp): one line shader, one
// way to compile a program and report its log.
#include <QOpenGLShaderProgram>
#include <QString>

#include <memory>
#include <string>

namespace floptle::editor::overlay_shaders {

/// World-space lines with per-vertex RGBA. u_pull moves each vertex that fraction of the way
/// to the eye (keeps lines lying on a surface in front of it); u_alpha scales the alpha.
inline constexpr const char* kLineVertex = R"GLSL(#version 330 core
layout(location = 0) in vec3 a_position;
layout(location = 1) in vec4 a_color;
uniform mat4 u_viewProj;
uniform vec3 u_eye;
uniform float u_pull;   // fraction of the way towards the eye: keeps coplanar lines in front
uniform float u_alpha;
out vec4 v_color;
void main() {
  v_color = vec4(a_color.rgb, a_color.a * u_alpha);
  gl_Position = u_viewProj * vec4(mix(a_position, u_eye, u_pull), 1.0);
}
)GLSL";

inline constexpr const char* kLineFragment = R"GLSL(#version 330 core
in vec4 v_color;
out vec4 fragColor;
void main() { fragColor = v_color; }
)GLSL";

/// Compiles and links; nullptr with `log` set (never empty) on failure. Needs a current
/// context.
inline std::unique_ptr<QOpenGLShaderProgram> buildProgram(const std::string& vertex,
                                                          const std::string& fragment,
                                                          QString& log) {
  auto program = std::make_unique<QOpenGLShaderProgram>();
  if (!program->addShaderFromSourceCode(QOpenGLShader::Vertex, QByteArray::fromStdString(vertex)) ||
      !program->addShaderFromSourceCode(QOpenGLShader::Fragment, QByteArray::fromStdString(fragment)) ||
      !program->link()) {
    log = program->log();
    if (log.isEmpty()) log = QStringLiteral("shader failed to compile or link (no log)");
    return nullptr;
  }
  return program;
}

}  // namespace floptle::editor::overlay_shaders
