#pragma once
// The quick fixes of runtime::findSceneProblems (the Problems dock's Fix), each one undo step
// made through EditorDocument's public edits: runtime says what the fix is (SceneProblem's
// action and its data), this applies it.
#include <filesystem>

#include "floptle/core/expected.h"

namespace floptle::runtime {
struct SceneProblem;
}

namespace floptle::editor {

class EditorDocument;

/// Applies the quick fix of `problem` (found in `document` as it is now) as one undo step.
/// `file` is what the fix points at: for LocateFile the file the user picked, for BakeCollider
/// the .vdb already written (shape_bake.h); it is stored relative to the scene's folder when it
/// lies inside it. Refused (the document unchanged, the error also in its message signal) when
/// the problem has no fix, or is stale: its node gone or moved, its value no longer there.
Expected<void> applyProblemFix(EditorDocument& document, const runtime::SceneProblem& problem,
                               const std::filesystem::path& file = {});

}  // namespace floptle::editor
