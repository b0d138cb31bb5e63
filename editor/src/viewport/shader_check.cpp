#include "viewport/shader_check.h"

#include <QOffscreenSurface>
#include <QOpenGLContext>
#include <QOpenGLFunctions>
#include <QOpenGLShaderProgram>
#include <QSurfaceFormat>

namespace floptle::editor {

ShaderChecker::ShaderChecker() = default;

ShaderChecker::~ShaderChecker() {
  if (context_) context_->doneCurrent();
}

bool ShaderChecker::ensureContext() {
  if (context_) return true;
  if (failed_) return false;
  QSurfaceFormat format;
  format.setVersion(3, 3);
  format.setProfile(QSurfaceFormat::CoreProfile);
  auto context = std::make_unique<QOpenGLContext>();
  context->setFormat(format);
  auto surface = std::make_unique<QOffscreenSurface>();
  surface->setFormat(format);
  surface->create();
  if (!context->create() || !surface->isValid()) {
    qWarning("viewport: no offscreen OpenGL context to check shaders; Qt 3D reports errors");
    failed_ = true;
    return false;
  }
  context_ = std::move(context);
  surface_ = std::move(surface);
  return true;
}

bool ShaderChecker::supportsCompute() {
  return ensureContext() && context_->format().version() >= qMakePair(4, 3);
}

int ShaderChecker::maxTextureSize() {
  if (maxTextureSize_ >= 0) return maxTextureSize_;
  maxTextureSize_ = 0;
  if (!ensureContext() || !context_->makeCurrent(surface_.get())) return 0;
  GLint size = 0;
  context_->functions()->glGetIntegerv(GL_MAX_TEXTURE_SIZE, &size);
  context_->doneCurrent();
  maxTextureSize_ = size > 0 ? int(size) : 0;
  return maxTextureSize_;
}

QString ShaderChecker::check(const std::string& vertex, const std::string& fragment) {
  return link({{QOpenGLShader::Vertex, vertex}, {QOpenGLShader::Fragment, fragment}});
}

QString ShaderChecker::checkCompute(const std::string& compute) {
  return link({{QOpenGLShader::Compute, compute}});
}

QString ShaderChecker::link(
    std::initializer_list<std::pair<QOpenGLShader::ShaderType, std::string>> stages) {
  if (!ensureContext() || !context_->makeCurrent(surface_.get())) return {};
  QString log;
  {
    QOpenGLShaderProgram program;
    bool ok = true;
    for (const auto& [type, source] : stages)
      ok = ok && program.addShaderFromSourceCode(type, QByteArray::fromStdString(source));
    if (!ok || !program.link()) {
      log = program.log();
      if (log.isEmpty()) log = QStringLiteral("shader failed to compile or link (no log)");
    }
  }
  context_->doneCurrent();
  return log;
}

}  // namespace floptle::editor
