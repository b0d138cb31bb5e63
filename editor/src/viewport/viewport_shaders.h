#pragma once
// The GLSL (330 core, for Qt 3D's OpenGL renderer) of the viewport's passes, in one place:
// the full-screen triangle the raymarch and the composite share, the composite (colour
// upscaled, depth through gl_FragDepth), overlay lines and overlay meshes. The raymarch
// fragment shader itself is render::viewportFragmentShader (core), around the field's GLSL.
//
// Qt 3D binds attributes by name: every vertex shader here reads `vertexPosition`, the name
// Qt3DCore::QAttribute::defaultPositionAttributeName() gives.
#include <string>

#include "floptle/core/math.h"
#include "floptle/core/render/shading_model.h"

namespace floptle::editor::viewport_shaders {

/// Full-screen triangle from a 3-vertex buffer (-1,-1), (3,-1), (-1,3): the same vUv in
/// [0, 1]^2 (0 = bottom-left) as render::fullscreenVertexShader's gl_VertexID version.
inline constexpr const char* kFullscreenVertex = R"GLSL(#version 330 core
in vec3 vertexPosition;
out vec2 vUv;
void main() {
  vUv = vertexPosition.xy * 0.5 + 0.5;
  gl_Position = vec4(vertexPosition.xy, 0.0, 1.0);
}
)GLSL";

/// The raymarch target's lower-left u_rendered texels onto the window, colour bilinear and
/// depth nearest (written through gl_FragDepth so overlays depth-test against the field).
inline constexpr const char* kCompositeFragment = R"GLSL(#version 330 core
in vec2 vUv;
out vec4 fragColor;
uniform sampler2D u_color;
uniform sampler2D u_depth;
uniform vec2 u_rendered;   // rendered region (texels)
uniform float u_exact;     // 1: region == window, copy texels one to one
uniform float u_blank;     // 1: nothing marched yet, the window's clear shows
void main() {
  if (u_blank > 0.5) discard;
  if (u_exact > 0.5) {
    ivec2 texel = ivec2(gl_FragCoord.xy);
    fragColor = texelFetch(u_color, texel, 0);
    gl_FragDepth = texelFetch(u_depth, texel, 0).r;
    return;
  }
  vec2 texel = clamp(vUv * u_rendered, vec2(0.5), u_rendered - 0.5);
  vec2 size = vec2(textureSize(u_color, 0));
  fragColor = texture(u_color, texel / size);
  gl_FragDepth = texelFetch(u_depth, ivec2(texel), 0).r;
}
)GLSL";

/// World-space lines with per-vertex RGBA. u_pull moves each vertex that fraction of the way
/// to the eye (keeps lines lying on a surface in front of it); u_alpha scales the alpha.
inline constexpr const char* kLineVertex = R"GLSL(#version 330 core
in vec3 vertexPosition;
in vec4 vertexColor;
uniform mat4 u_viewProj;
uniform vec3 u_eye;
uniform float u_pull;   // fraction of the way towards the eye: keeps coplanar lines in front
uniform float u_alpha;
out vec4 v_color;
out vec3 v_world;
void main() {
  v_color = vec4(vertexColor.rgb, vertexColor.a * u_alpha);
  v_world = mix(vertexPosition, u_eye, u_pull);
  gl_Position = u_viewProj * vec4(v_world, 1.0);
}
)GLSL";

/// u_fade (m): the alpha falls from 1 at distance x from the eye to 0 at y, per fragment
/// (a grid's lines are too long to fade per vertex); y <= 0: no fade.
inline constexpr const char* kLineFragment = R"GLSL(#version 330 core
in vec4 v_color;
in vec3 v_world;
uniform vec3 u_eye;
uniform vec2 u_fade;
out vec4 fragColor;
void main() {
  float fade = u_fade.y > 0.0 ? 1.0 - smoothstep(u_fade.x, u_fade.y, distance(v_world, u_eye)) : 1.0;
  fragColor = vec4(v_color.rgb, v_color.a * fade);
}
)GLSL";

/// Flat-shaded triangles (face normal and albedo per vertex, local space), moved by u_model.
inline constexpr const char* kMeshVertex = R"GLSL(#version 330 core
in vec3 vertexPosition;
in vec3 vertexNormal;
in vec3 vertexColor;
uniform mat4 u_viewProj;
uniform mat4 u_model;
out vec3 v_normal;
out vec3 v_albedo;
void main() {
  v_normal = transpose(inverse(mat3(u_model))) * vertexNormal;
  v_albedo = vertexColor;
  gl_Position = u_viewProj * u_model * vec4(vertexPosition, 1.0);
}
)GLSL";

/// The field's lighting without shadows or AO (shading_model.h): sun + sky ambient, gamma.
inline std::string meshFragment() {
  namespace s = render::shading;
  auto vec3Literal = [](Vec3 v) {
    return "vec3(" + std::to_string(v.x) + ", " + std::to_string(v.y) + ", " + std::to_string(v.z) +
           ")";
  };
  return std::string(
             "#version 330 core\n"
             "in vec3 v_normal;\nin vec3 v_albedo;\nout vec4 fragColor;\n") +
         "const vec3 kSun = " + vec3Literal(s::kSunDirection) + ";\n" +
         "const vec3 kSunColor = " + vec3Literal(s::kSunColor) + ";\n" +
         "const vec3 kSkyAmbient = " + vec3Literal(s::kSkyAmbient) + ";\n" +
         "const float kAmbientBase = " + std::to_string(s::kAmbientBase) + ";\n" +
         "const float kGamma = " + std::to_string(s::kGamma) + ";\n" + R"GLSL(
void main() {
  vec3 n = normalize(v_normal);
  if (!gl_FrontFacing) n = -n;  // exports are not always consistently wound: light both sides
  float sky = kAmbientBase + (1.0 - kAmbientBase) * (0.5 + 0.5 * n.y);
  vec3 light = kSunColor * max(dot(n, kSun), 0.0) + kSkyAmbient * sky;
  fragColor = vec4(pow(max(v_albedo * light, vec3(0.0)), vec3(1.0 / kGamma)), 1.0);
}
)GLSL";
}

}  // namespace floptle::editor::viewport_shaders
