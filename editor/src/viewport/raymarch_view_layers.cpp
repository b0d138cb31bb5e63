// RaymarchView: the named overlay layers (lines and meshes) other parts of the editor own.
#include "floptle/editor/raymarch_view.h"

#include "viewport/overlay_layers.h"

namespace floptle::editor {

void RaymarchView::setOverlayLines(const QString& layer, std::vector<OverlayLine> lines,
                                   OverlayDepth depth) {
  OverlayLineLayer& target = layers_->lines[layer];
  target.lines = std::move(lines);
  target.depth = depth;
  target.version = layers_->nextVersion++;
  update();
}

void RaymarchView::clearOverlayLines(const QString& layer) {
  if (layers_->lines.erase(layer)) update();
}

QStringList RaymarchView::overlayLineLayers() const {
  QStringList names;
  for (const auto& [name, layer] : layers_->lines) names << name;
  return names;
}

std::size_t RaymarchView::overlayLineCount(const QString& layer) const {
  const auto found = layers_->lines.find(layer);
  return found == layers_->lines.end() ? 0 : found->second.lines.size();
}

void RaymarchView::setOverlayMesh(const QString& layer, OverlayMesh mesh) {
  OverlayMeshLayer& target = layers_->meshes[layer];
  target.mesh = std::move(mesh);
  target.version = layers_->nextVersion++;
  update();
}

void RaymarchView::setOverlayMeshTransform(const QString& layer, const Mat4& transform) {
  const auto found = layers_->meshes.find(layer);
  if (found == layers_->meshes.end()) return;
  found->second.mesh.transform = transform;  // a uniform: no upload
  update();
}

void RaymarchView::clearOverlayMesh(const QString& layer) {
  if (layers_->meshes.erase(layer)) update();
}

QStringList RaymarchView::overlayMeshLayers() const {
  QStringList names;
  for (const auto& [name, layer] : layers_->meshes) names << name;
  return names;
}

}  // namespace floptle::editor
