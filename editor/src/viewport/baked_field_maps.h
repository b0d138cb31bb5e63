#pragma once
// The scene's `baked_field` nodes (physics/baked_field_file.h) drawn from their bricks: each
// node's level set becomes a brick map of the viewport (RaymarchView::addBrickMap), placed by
// the node's world transform, so the viewport draws the BrickMap physics collides with. A file
// is read (readBrickMapVdb, the reader physics' makeBakedFieldFileCollider uses) when its
// node's component changes; a moved node only moves its placement.
#include <QObject>
#include <QString>

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "floptle/core/scene/scene.h"

namespace floptle::editor {

class RaymarchView;
class EditorDocument;

class BakedFieldMaps {
 public:
  /// Brings the view's baked-field maps in line with `scene` (files relative to sceneDir).
  /// Returns one message per node whose file could not be read or drawn, naming the node's
  /// pointer; such a node is not drawn, the others are.
  std::vector<std::string> sync(RaymarchView& view, const scene::Scene& scene,
                                const std::filesystem::path& sceneDir);

 private:
  struct Entry {
    std::string component;  ///< the component's JSON text it was read from
    int id = -1;            ///< the view's map id
  };
  std::map<std::string, Entry> entries_;  ///< by node pointer
};

/// Keeps a view's baked-field maps in line with a document: syncs on every documentChanged
/// (files relative to the document's folder), reports each failure once per change.
class BakedFieldView : public QObject {
  Q_OBJECT

 public:
  BakedFieldView(EditorDocument& document, RaymarchView& view, QObject* parent = nullptr);
  void refresh();

 signals:
  void message(const QString& text);

 private:
  EditorDocument& document_;
  RaymarchView& view_;
  BakedFieldMaps maps_;
};

}  // namespace floptle::editor
