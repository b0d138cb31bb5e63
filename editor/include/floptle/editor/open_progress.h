#pragma once
// Opening a scene file without freezing the window: the file is read, parsed, checked and its
// typed scene built (scene::loadScene) on a worker thread while the event loop keeps painting;
// a busy progress dialog appears once the read has taken longer than a threshold (a second by
// default), so a large level shows that it is loading and a small one opens without a flash.
#include <QString>

#include "floptle/core/expected.h"
#include "floptle/core/scene/scene_io.h"

class QWidget;

namespace floptle::editor {

/// How long an open may take before its progress dialog shows (ms).
inline constexpr int kOpenProgressDelayMs = 1000;

/// scene::loadScene(path) on a worker thread; returns its result (the document and the typed
/// scene its checks built, for EditorDocument::openDerived). Meanwhile the caller's event loop
/// runs without user input (no edit can reach the document being replaced), and a dialog named
/// "openProgress", window-modal over `parent`, shows after `showAfterMs`.
Expected<scene::LoadedScene> readSceneShowingProgress(const QString& path, QWidget* parent,
                                                      int showAfterMs = kOpenProgressDelayMs);

}  // namespace floptle::editor
