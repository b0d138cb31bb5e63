#pragma once
// The viewport's named overlay layers: the CPU copy the RaymarchView edits (OverlayLayers)
// and their GL side (OverlayLayerRenderer), which keeps one vertex buffer per layer and
// re-uploads a layer only when its version changed since the last frame.
//
// Depth: meshes draw first with depth test and depth write against the composited field
// depth, so a mesh hides behind field surfaces and hides the field behind it; tested line
// layers then draw with depth test (no depth write), on-top line layers without it.
#include <QOpenGLExtraFunctions>
#include <QOpenGLShaderProgram>
#include <QOpenGLVertexArrayObject>
#include <QString>

#include <cstdint>
#include <map>
#include <memory>
#include <vector>

#include "floptle/editor/raymarch_view.h"

namespace floptle::editor {

struct OverlayLineLayer {
  std::vector<OverlayLine> lines;
  OverlayDepth depth = OverlayDepth::Tested;
  std::uint64_t version = 0;
};

struct OverlayMeshLayer {
  OverlayMesh mesh;
  /// Version of the triangles (the transform is a uniform and never forces an upload).
  std::uint64_t version = 0;
};

struct OverlayLayers {
  std::map<QString, OverlayLineLayer> lines;
  std::map<QString, OverlayMeshLayer> meshes;
  /// Source of the layers' versions; grows on every change.
  std::uint64_t nextVersion = 1;
};

class OverlayLayerRenderer : protected QOpenGLExtraFunctions {
 public:
  OverlayLayerRenderer();
  ~OverlayLayerRenderer();
  /// Context current for every call below.
  void initialize();
  void release();

  /// Uploads changed layers and frees the buffers of removed ones.
  void sync(const OverlayLayers& layers);
  /// Draws the meshes (depth test + write); blending off.
  void drawMeshes(const OverlayLayers& layers, const Mat4& viewProj);
  /// Draws the line layers of one depth mode (the caller sets the depth state).
  void drawLines(const OverlayLayers& layers, OverlayDepth depth, const Mat4& viewProj, Vec3 eye,
                 float pull);

 private:
  struct GpuBuffer {
    QOpenGLVertexArrayObject* vao = nullptr;
    unsigned buffer = 0;
    int vertexCount = 0;
    std::uint64_t version = 0;
  };
  GpuBuffer makeBuffer(bool mesh);
  void freeBuffer(GpuBuffer& buffer);
  template <class Layer, class Upload>
  void syncMap(const std::map<QString, Layer>& layers, std::map<QString, GpuBuffer>& gpu,
               bool mesh, Upload upload);

  std::unique_ptr<QOpenGLShaderProgram> lineProgram_;
  std::unique_ptr<QOpenGLShaderProgram> meshProgram_;
  std::map<QString, GpuBuffer> lineBuffers_;
  std::map<QString, GpuBuffer> meshBuffers_;
};

}  // namespace floptle::editor
