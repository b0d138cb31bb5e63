#pragma once
// The GLSL instruction interpreter the viewport's scene program uses when a scene has more part
// structures than it writes a function for (scene_map_glsl.cpp): fp_run over a part's
// instructions and evalPart, reading the scene data through SD() and the constants of
// sceneMapConstants().

namespace floptle::render {

const char* sceneInterpreterGlsl();

}  // namespace floptle::render
