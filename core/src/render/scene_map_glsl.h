#pragma once
// The scene's map() of the viewport's fixed raymarch program (raymarch_glsl.cpp): the scene
// data read through SD(texel) (scene_buffers.h), the part functions or the instruction
// interpreter, and for few parts a call of each, else the candidate grid (scene_grid.h); with
// the scene header's helpers the shading reads (boundsExit, planesAhead, planesApart,
// shadowSkipsPlanes, shadowSpan).
#include <string>

#include "floptle/core/render/scene_buffers.h"

namespace floptle::render {

/// A GLSL float literal that round-trips the float exactly (always with '.' or an exponent).
std::string glslFloat(float v);

/// log2(kSceneDataWidth): the shader's row of texel i is i >> this.
int sceneDataWidthShift();

/// The GLSL of the scene's map() and its helpers for `buffers`.
std::string sceneMapGlsl(const SceneBuffers& buffers);

}  // namespace floptle::render
