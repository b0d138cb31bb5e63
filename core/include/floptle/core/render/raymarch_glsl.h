#pragma once
// GLSL (330 core) twin of the CPU renderer: the shading model of shading_model.h around the
// `vec2 map(vec3 p, float t)` that field::emitGlsl writes, for the viewport and for
// stand-alone shader benchmarks.
#include <string>

#include "floptle/core/field/field_program.h"
#include "floptle/core/render/camera.h"
#include "floptle/core/render/cpu_renderer.h"
#include "floptle/core/render/scene_buffers.h"

namespace floptle::render {

/// Vertex shader of a full-screen triangle (no attributes: draw 3 vertices) that hands the
/// fragment shader `vec2 vUv` in [0, 1]^2 (0 = bottom-left).
std::string fullscreenVertexShader();

/// The two passes of a raymarch shader (any of those below): the coarse pass, drawn first into
/// an R32F target of a texel per kCoarseTile x kCoarseTile pixels of the frame, writes how far
/// each tile's cone of rays runs clear of every part but the planes; the full pass starts its
/// primary rays there (`uniform sampler2D u_coarse`). Without either define a shader draws in
/// one pass. In the coarse pass the viewport's shaders read the full frame's pixels from
/// `uniform vec2 u_frame`, the standalone ones from iResolution (a host sets it to the full
/// frame's in both passes).
inline constexpr const char* kCoarsePassDefine = "FLOPTLE_COARSE_PASS";
inline constexpr const char* kCoarseInputDefine = "FLOPTLE_COARSE_INPUT";
inline constexpr int kCoarseTile = 8;
/// Tiles of the coarse pass across `pixels` pixels.
constexpr int coarseTiles(int pixels) {
  return (pixels + kCoarseTile - 1) / kCoarseTile;
}

/// The compute twin of a raymarch fragment shader of this file (any below): the same program,
/// run as a GL 4.3 compute shader of kComputeGroup x kComputeGroup invocations a work group,
/// one invocation a pixel (a tile in the coarse pass) of the frame (`u_frame` for the
/// viewport's, `iResolution` for the standalone ones); an invocation past the frame's edge
/// writes nothing. It writes the colour to `image2D u_colorOut` (rgba8) and, the viewport's,
/// the window depth to `image2D u_depthOut` (r32f); in the coarse pass the start to
/// `image2D u_coarseOut` (r32f). Where the fragment stage draws a frame through a slice of a
/// GPU (a data-centre GPU runs fragment shaders on a few of its multiprocessors), compute runs on
/// all of it. Empty for a shader not made here.
inline constexpr int kComputeGroup = 8;
std::string computeShaderOf(const std::string& fragmentShader);

/// `shader` with `#define name` after its first line (its #version).
std::string withDefine(const std::string& shader, const std::string& name);

/// Number of vec4 slots holding `parameterCount` packed floats (at least 1).
int packedParameterSlots(int parameterCount);

/// The viewport's fragment shader around `mapGlsl` (field::emitGlsl output, reading FP(i)).
/// Uniforms: vec3 u_camPos, u_camRight, u_camUp, u_camForward (Camera::basis()),
/// float u_tanHalfFovY, u_aspect (width / height), u_time (s), vec4 u_params[slots] (the
/// packed FieldProgram::parameterValues), vec3 u_materials[shading::kMaxMaterials],
/// int u_materialCount. Writes fragColor (display colour, alpha 1) and gl_FragDepth
/// (window depth of the hit under Camera::projectionMatrix(aspect, kDepthNear, kDepthFar),
/// 1 for sky).
std::string viewportFragmentShader(const std::string& mapGlsl, int parameterCount);

/// The viewport's scene shader: it reads the scene from the RGBA32F texture
/// `sampler2D u_sceneData` (render::packSceneBuffers), with one function per distinct part
/// structure (SceneBuffers::structures) or the instruction interpreter; so its text changes
/// only with SceneBuffers::programHash, never with a node's values or the scene's size.
/// Uniforms as above, without u_params. The map it marches is UnionField::renderSample; with
/// brickMaps, the nearer of that and the brick maps of `sampler3D u_brickAtlas` and
/// `sampler2D u_brickIndex` (BrickAtlas, brick_atlas.h), whose number never changes the text.
std::string viewportFragmentShader(const SceneBuffers& buffers, bool brickMaps = false);

/// The standalone shader of a UnionField: the viewport's scene program with the scene data (at
/// `time`) baked in as a constant array. A scene the packing refuses gives a GLSL comment
/// naming why.
std::string standaloneFragmentShader(const field::UnionField& field, const Camera& camera,
                                     const MaterialColors& materials, double time);

/// The standalone scene shader of packed buffers: with embedData (or SceneBuffers::uniformData)
/// the texels as a constant array, else read from `uniform sampler2D u_sceneData` (the
/// viewport's way for larger scenes; a host binds the texels, e.g.
/// tests/bench/gpu/gpu_scene_bench).
std::string standaloneSceneShader(const SceneBuffers& buffers, const Camera& camera,
                                  const MaterialColors& materials, bool embedData);

/// A self-contained fragment shader for /work/shared/tools/gpu-shader-bench and similar
/// hosts (`in vec2 vUv`, `uniform vec2 iResolution`, `uniform float iTime`,
/// `out vec4 fragColor`): the program's GLSL with its parameter values at `time`, the camera
/// and the material colours baked in as constants; map() is evaluated at iTime.
std::string standaloneFragmentShader(const field::FieldProgram& program, const Camera& camera,
                                     const MaterialColors& materials, double time);

}  // namespace floptle::render
