#pragma once
// ShaderChecker: compiles and links a GLSL program (330 core, or a 430 compute shader) in a private
// offscreen OpenGL context, synchronously. Qt 3D compiles shaders later on its render thread;
// checking first lets the viewport report a bad field shader at once (shaderError, lastShaderError)
// and keep showing the last good one instead of handing Qt 3D a program that would draw nothing.
#include <QOpenGLShader>
#include <QString>

#include <initializer_list>
#include <memory>
#include <string>
#include <utility>

class QOffscreenSurface;
class QOpenGLContext;

namespace floptle::editor {

class ShaderChecker {
 public:
  ShaderChecker();
  ~ShaderChecker();
  /// Empty when the program compiles and links; otherwise the log (never empty). Without a
  /// usable context every program passes (Qt 3D then reports its own errors).
  QString check(const std::string& vertex, const std::string& fragment);
  /// The same for a compute shader.
  QString checkCompute(const std::string& compute);
  /// True when the context runs compute shaders (OpenGL 4.3 or later).
  bool supportsCompute();
  /// The context's GL_MAX_TEXTURE_SIZE (texels), asked once; 0 without a usable context.
  int maxTextureSize();

 private:
  bool ensureContext();
  QString link(std::initializer_list<std::pair<QOpenGLShader::ShaderType, std::string>> stages);
  std::unique_ptr<QOffscreenSurface> surface_;
  std::unique_ptr<QOpenGLContext> context_;
  bool failed_ = false;
  int maxTextureSize_ = -1;  // not asked yet
};

}  // namespace floptle::editor
