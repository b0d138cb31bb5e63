#include "viewport/shader_check.h"

#include <QOffscreenSurface>
#include <QOpenGLContext>
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

QString ShaderChecker::check(const std::string& vertex, const std::string& fragment) {
  if (!ensureContext() || !context_->makeCurrent(surface_.get())) return {};
  QString log;
  {
    QOpenGLShaderProgram program;
    if (!program.addShaderFromSourceCode(QOpenGLShader::Vertex,
                                         QByteArray::fromStdString(vertex)) ||
        !program.addShaderFromSourceCode(QOpenGLShader::Fragment,
                                         QByteArray::fromStdString(fragment)) ||
        !program.link()) {
      log = program.log();
      if (log.isEmpty()) log = QStringLiteral("shader failed to compile or link (no log)");
    }
  }
  context_->doneCurrent();
  return log;
}

}  // namespace floptle::editor
