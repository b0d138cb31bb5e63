// Mesh reads through floptle-import-worker (see import_worker.h).
#include "import/import_worker.h"

#include <sys/resource.h>

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QProcess>
#include <QProcessEnvironment>

#include "floptle/core/asset/mesh_wire.h"

#if defined(__SANITIZE_ADDRESS__)
#define FLOPTLE_ADDRESS_SANITIZER 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define FLOPTLE_ADDRESS_SANITIZER 1
#endif
#endif
#ifndef FLOPTLE_ADDRESS_SANITIZER
#define FLOPTLE_ADDRESS_SANITIZER 0
#endif

namespace floptle::editor {
namespace {

QString upAxisArgument(asset::ImportOptions::UpAxis axis) {
  const std::string_view name = asset::upAxisName(axis);
  return QString::fromUtf8(name.data(), int(name.size()));
}

QStringList optionArguments(const asset::ImportOptions& options) {
  QStringList args{"--up", upAxisArgument(options.upAxis)};
  if (options.unitScale > 0.0f)
    args << "--unit-scale" << QString::number(double(options.unitScale), 'g', 9);
  if (!options.object.empty()) args << "--object" << QString::fromStdString(options.object);
  return args;
}

/// Hands complete "progress FRACTION STAGE" lines of `buffer` to `progress`, keeping a partial
/// last line for the next read; other lines are kept as the worker's last words.
void takeProgressLines(QByteArray& buffer, const asset::ImportProgress& progress,
                       QByteArray& other) {
  for (qsizetype end; (end = buffer.indexOf('\n')) >= 0;) {
    const QByteArray line = buffer.left(end);
    buffer.remove(0, end + 1);
    if (line.startsWith("progress ")) {
      const qsizetype space = line.indexOf(' ', 9);
      bool ok = false;
      const float fraction = line.mid(9, space < 0 ? -1 : space - 9).toFloat(&ok);
      const QByteArray stage = space < 0 ? QByteArray() : line.mid(space + 1);
      if (ok && progress)
        progress(fraction, std::string_view(stage.constData(), std::size_t(stage.size())));
    } else if (!line.isEmpty()) {
      other = line;
    }
  }
}

/// Runs the worker and returns the frame it printed, or an Error saying how it ended.
Expected<asset::WireResult> runWorker(const QString& mode, const std::filesystem::path& file,
                                      const asset::ImportOptions& options,
                                      const asset::ImportProgress& progress,
                                      const std::atomic<bool>* cancel,
                                      const ImportWorkerLimits& limits) {
  const std::string where = file.string();
  QProcess process;
  process.setProgram(importWorkerPath());
  process.setArguments(QStringList{mode, QString::fromStdString(where)} + optionArguments(options));
  const rlim_t memory = limits.memoryBytes;
#if FLOPTLE_ADDRESS_SANITIZER
  // AddressSanitizer reserves terabytes of address space for its shadow before main, so an
  // RLIMIT_AS would stop the (equally sanitized) worker from starting. Its own RSS limit stands
  // in: past it the worker aborts, which reads as a crash naming the memory limit.
  QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
  environment.insert("ASAN_OPTIONS", environment.value("ASAN_OPTIONS") +
                                         ":abort_on_error=1:hard_rss_limit_mb=" +
                                         QString::number(quint64(memory >> 20)));
  process.setProcessEnvironment(environment);
#else
  process.setChildProcessModifier([memory] {
    const rlimit limit{memory, memory};
    ::setrlimit(RLIMIT_AS, &limit);
  });
#endif
  process.start();
  if (!process.waitForStarted(30'000)) {
    return Error{where, "cannot start the import worker " + process.program().toStdString() + ": " +
                            process.errorString().toStdString()};
  }
  QByteArray out, err, lastWords;
  QElapsedTimer clock;
  clock.start();
  enum class Stop { None, Cancelled, TimedOut } stop = Stop::None;
  while (process.state() != QProcess::NotRunning) {
    process.waitForFinished(50);
    out += process.readAllStandardOutput();
    err += process.readAllStandardError();
    takeProgressLines(err, progress, lastWords);
    if (cancel && cancel->load()) stop = Stop::Cancelled;
    if (clock.elapsed() > limits.timeoutMs) stop = Stop::TimedOut;
    if (stop != Stop::None) {
      process.kill();
      process.waitForFinished(-1);
      break;
    }
  }
  out += process.readAllStandardOutput();
  if (stop == Stop::Cancelled) return Error{where, "cancelled"};
  if (stop == Stop::TimedOut) {
    return Error{where, "the importer did not finish within " +
                            std::to_string(limits.timeoutMs / 1000) +
                            " s and was stopped (the file may be too large or malformed)"};
  }
  if (process.exitStatus() == QProcess::CrashExit) {
    return Error{where, "the importer crashed reading the file (its memory limit is " +
                            std::to_string(limits.memoryBytes >> 20) +
                            " MB); the file may be malformed"};
  }
  auto frame = asset::decodeFrame(std::string_view(out.constData(), std::size_t(out.size())));
  if (!frame) {
    return Error{where, "the importer ended (exit code " + std::to_string(process.exitCode()) +
                            ") without an answer" +
                            (lastWords.isEmpty() ? std::string() : ": " + lastWords.toStdString())};
  }
  return frame;
}

template <class T>
Expected<T> answer(Expected<asset::WireResult> frame, const std::filesystem::path& file) {
  if (!frame) return frame.error();
  if (auto* error = std::get_if<Error>(&*frame)) return *error;
  if (auto* value = std::get_if<T>(&*frame)) return std::move(*value);
  return Error{file.string(), "the importer answered with the wrong kind of result"};
}

}  // namespace

QString importWorkerPath() {
  const QString fromEnvironment = qEnvironmentVariable("FLOPTLE_IMPORT_WORKER");
  if (!fromEnvironment.isEmpty()) return fromEnvironment;
  if (QCoreApplication::instance()) {
    const QString beside =
        QDir(QCoreApplication::applicationDirPath()).filePath("floptle-import-worker");
    if (QFileInfo(beside).isExecutable()) return beside;
  }
  return QStringLiteral(FLOPTLE_IMPORT_WORKER_BUILD_PATH);
}

Expected<asset::TriangleMesh> importMeshInWorker(const std::filesystem::path& file,
                                                 const asset::ImportOptions& options,
                                                 const asset::ImportProgress& progress,
                                                 const std::atomic<bool>* cancel,
                                                 const ImportWorkerLimits& limits) {
  return answer<asset::TriangleMesh>(runWorker("mesh", file, options, progress, cancel, limits),
                                     file);
}

Expected<asset::MeshObjectTree> importMeshObjectsInWorker(const std::filesystem::path& file,
                                                          const asset::ImportOptions& options,
                                                          const asset::ImportProgress& progress,
                                                          const std::atomic<bool>* cancel,
                                                          const ImportWorkerLimits& limits) {
  return answer<asset::MeshObjectTree>(
      runWorker("objects", file, options, progress, cancel, limits), file);
}

}  // namespace floptle::editor
