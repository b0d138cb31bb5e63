// PlayMode, what the viewport shows while playing: the moved shapes (a field built from the
// play copy with the simulated transforms, interpolated by alpha), the follow camera, the
// player capsule, the Drift debug overlay and the ocean pattern, and the HUD.
#include <algorithm>
#include <cmath>

#include <QLabel>

#include "floptle/core/field/field_program.h"
#include "floptle/core/field/node_spec.h"
#include "floptle/core/field/union_field.h"
#include "floptle/core/scene/scene_composition.h"
#include "floptle/drift/sandbox.h"
#include "floptle/editor/derived_scene.h"
#include "floptle/editor/log_panel.h"
#include "floptle/editor/main_window.h"
#include "floptle/editor/play_mode.h"
#include "floptle/editor/play_plot.h"
#include "floptle/editor/raymarch_view.h"
#include "floptle/matter/soft_body_stage.h"
#include "floptle/matter/soft_body_surface_strands.h"
#include "floptle/physics/simulation.h"
#include "floptle/runtime/scene_matter.h"
#include "floptle/runtime/script_stage.h"
#include "viewport/overlay_shapes.h"

namespace floptle::editor {
namespace {

constexpr float kTwoPi = 6.28318530718f;
const QString kPlayerLayer = QStringLiteral("play/player");
const QString kDriftLayer = QStringLiteral("play/drift");
const QString kOceanLayer = QStringLiteral("play/ocean");
const QString kMatterLayer = QStringLiteral("play/matter");

Transform lerpTransform(const Transform& a, const Transform& b, float t) {
  return {glm::mix(a.position, b.position, t),
          glm::normalize(glm::slerp(a.rotation, b.rotation, t)), a.scale + (b.scale - a.scale) * t};
}

Vec3 xz(double x, double z, float y) {
  return Vec3(float(x), y, float(z));
}

/// The matter's over-yielded bonds as strands (matter::yieldedStrands), drawn where the
/// surfaces do not hide them; from amber (just yielded) to red (grown by half or more).
void drawMatterStrands(RaymarchView& view, const physics::Simulation* sim) {
  const auto* stage =
      sim ? dynamic_cast<const matter::SoftBodyStage*>(sim->matterStage()) : nullptr;
  if (!stage) {
    view.clearOverlayLines(kMatterLayer);
    return;
  }
  std::vector<OverlayLine> lines;
  for (const matter::Strand& s : matter::yieldedStrands(*stage)) {
    const float heat = std::min(1.0f, 2.0f * s.growth);
    lines.push_back({s.a, s.b, Vec4(1.0f, 0.75f - 0.55f * heat, 0.2f, 1.0f)});
  }
  view.setOverlayLines(kMatterLayer, std::move(lines), OverlayDepth::Tested);
}

}  // namespace

void PlayMode::onTicked() {
  if (!session_.active() || !hud_) return;
  const double now = double(session_.tick()) * session_.fixedDt();
  const double frame = now - lastFrameSeconds_;
  lastFrameSeconds_ = now;
  oceanTime_ += frame > 0.0 && frame < 1.0 ? frame : 0.0;
  updateField();
  updateCamera();
  if (session_.kind() == PlayKind::Drift) {
    drawDriftOverlay();
    drawOcean();
  } else {
    drawPlayerOverlay();
    drawMatterStrands(*window_.viewport(), session_.simulation());
  }
  // HUD: tick, step time, contacts and the matter's counts; the plot: the player's speed and
  // height.
  QString text = tr("%1  tick %2  step %3 ms  contacts %4")
                     .arg(session_.state() == PlayState::Paused ? tr("PAUSED") : tr("PLAYING"))
                     .arg(session_.tick())
                     .arg(session_.stepMs(), 0, 'f', 3)
                     .arg(session_.contacts());
  if (const std::optional<Vec3> g = session_.playerGravity())
    text += tr("  |g| %1 m/s^2").arg(double(glm::length(*g)), 0, 'f', 2);
  if (const physics::Simulation* simulation = session_.simulation())
    if (const std::optional<matter::MatterCounts> matter = runtime::matterCounts(*simulation))
      text += tr("\nmatter: particles %1  bonds %2  sleeping %3 of %4 bodies")
                  .arg(matter->particles)
                  .arg(matter->bonds)
                  .arg(matter->sleepingBodies)
                  .arg(matter->bodies);
  if (const drift::Sandbox* sandbox = session_.sandbox()) {
    const drift::Snapshot s = sandbox->snapshot();
    text += tr("\nripples %1  placements %2  queued %3")
                .arg(s.rippleCount)
                .arg(sandbox->counters().placements)
                .arg(sandbox->queuedPlacements());
    if (s.hasContact)
      text += tr("\nlast contact: tick %1 ripple %2 fraction %3 normal (%4, %5)")
                  .arg(s.contactTick)
                  .arg(s.contactRipple)
                  .arg(s.contactFraction, 0, 'f', 3)
                  .arg(s.contactNormalX, 0, 'f', 2)
                  .arg(s.contactNormalZ, 0, 'f', 2);
  }
  hud_->setText(text);
  hud_->adjustSize();
  const std::optional<Vec3> position = session_.playerPosition();
  const std::optional<Vec3> velocity = session_.playerVelocity();
  if (position && velocity && plot_)
    plot_->addSample(glm::length(*velocity), glm::dot(*position, session_.up()));
}

// The field of the play copy with the simulated transforms (only when a moved node or one
// of its descendants has a shape; a shapeless character is drawn as an overlay instead).
void PlayMode::updateField() {
  EditorDocument* copy = session_.copy();
  if (!copy) return;
  const scene::Scene& source = copy->derived().scene();
  const bool drift = session_.kind() == PlayKind::Drift;
  const physics::Simulation* sim = session_.simulation();
  const runtime::ScriptStage* scripts = sim ? runtime::scriptStageOf(*sim) : nullptr;
  const bool scripted = scripts && scripts->sceneRevision() > 0;
  if (!drift && session_.movedNodes().empty() && !scripted && !copyEdited_) return;
  scene::Scene scene = source;
  bool anyShape = copyEdited_;
  copyEdited_ = false;
  if (scripted) {
    // What the scripts changed (a kinematic node moved, a parameter set, a blend): their
    // scene has the same nodes in the same order as the copy's.
    const scene::Scene& changed = scripts->scene();
    for (int n : scripts->changedNodes()) {
      const std::size_t i = std::size_t(n);
      if (i >= scene.nodes.size() || scene.nodes[i].name != changed.nodes[i].name) continue;
      scene.nodes[i].world = changed.nodes[i].world;
      scene.nodes[i].shape = changed.nodes[i].shape;
      anyShape = anyShape || scene.nodes[i].shape.has_value();
    }
    scene.interactions = changed.interactions;
  }
  // Soft bodies drawn from the matter's bricks leave the scene field (play_matter_view.cpp).
  const bool matterFromBricks = !drift && syncMatterMap();
  std::vector<char> moved(scene.nodes.size(), 0);
  const float a = float(session_.viewAlpha());
  for (const MovedNode& m : session_.movedNodes()) {
    scene.nodes[std::size_t(m.sceneIndex)].world =
        lerpTransform(m.previous, m.current, a).compose(m.offset);
    moved[std::size_t(m.sceneIndex)] = 1;
    if (matterFromBricks && !m.softBody.empty()) {
      scene.nodes[std::size_t(m.sceneIndex)].shape.reset();
      anyShape = true;  // its old place must be redrawn without it
    }
  }
  // Descendants ride on their moved ancestors (parents precede children).
  for (std::size_t i = 0; i < scene.nodes.size(); ++i) {
    scene::SceneNode& node = scene.nodes[i];
    if (!moved[i] && node.parent >= 0 && moved[std::size_t(node.parent)]) {
      node.world = scene.nodes[std::size_t(node.parent)].world.compose(node.local);
      moved[i] = 1;
    }
    anyShape = anyShape || (moved[i] && node.shape.has_value());
  }
  // Drift's ocean look: surfaces without a material of their own (the water) take the play
  // palette's sea colour, the hull the one after it (index 0 always draws the default grey).
  const auto sea = field::MaterialIndex(scene.materials.size() + 1);
  if (drift)
    for (scene::SceneNode& node : scene.nodes)
      if (node.shape && node.shape->material == 0) {
        node.shape->material = sea;
        node.shape->hasOwnMaterial = true;
      }
  // The scene's parts (only texels change from tick to tick: the viewport's program is fixed).
  std::vector<field::FieldProgram> parts;
  if (!scene::shapedNodes(scene).empty()) {
    Expected<scene::SceneUnion> composed =
        scene::compileSceneUnion(scene, window_.viewport()->time());
    if (!composed) return;
    for (int i = 0; i < composed->field.partCount(); ++i) parts.push_back(composed->field.part(i));
  }
  if (const drift::Sandbox* sandbox = session_.sandbox()) {
    // The boat's hull as a low cylinder on the water, at the interpolated position.
    const drift::Snapshot s = sandbox->snapshot();
    field::FieldNode hull = field::makeDefaultNode(field::NodeType::Cylinder);
    hull.params[0] = s.boatRadius;
    hull.params[1] = 0.12f;
    hull.material = field::MaterialIndex(sea + 1);
    hull.hasOwnMaterial = true;
    Transform place;
    place.position = Vec3(s.boatX, 0.06f, s.boatZ);
    if (auto program = field::FieldProgram::compile(scene::placeShape(place, std::move(hull))))
      parts.push_back(std::move(*program));
    anyShape = true;
  }
  if (!anyShape || parts.empty()) return;
  Expected<field::UnionField> field =
      field::UnionField::build(std::move(parts), window_.viewport()->time());
  if (!field) return;
  if (drift) {
    // The play palette: the scene's colours, then sea blue and the hull's white. Stop
    // restores the document's palette (MainWindow::refreshViewport).
    render::MaterialColors colors{Vec3(0.7f)};
    for (const scene::Material& material : scene.materials) colors.push_back(material.color);
    colors.push_back(Vec3(0.06f, 0.22f, 0.38f));
    colors.push_back(Vec3(0.92f, 0.9f, 0.85f));
    window_.viewport()->setMaterialColors(colors);
  }
  window_.viewport()->setSceneField(std::move(*field));
}

// The camera follows the player: an orbit at yaw / pitch / distance about the player in the
// frame of the eased up vector (which turns toward the gravity's up at ~3 /s). render::Camera
// has no roll of its own, so the eased up shapes the orbit, not the image's horizon.
void PlayMode::updateCamera() {
  const std::optional<Vec3> target = session_.kind() == PlayKind::Drift
                                         ? std::optional<Vec3>()
                                         : session_.playerPositionInterpolated();
  if (!target) return;  // Drift: the camera stays free (orbit to look, click to place)
  const Vec3 up = session_.up();
  const float ease = 1.0f - std::exp(-3.0f * float(session_.fixedDt()));
  cameraUp_ = glm::normalize(glm::mix(cameraUp_, up, ease));
  // Yaw 0 looks where move (0, -1) walks: against the character's move-frame forward, which
  // the runtime carries along as up turns, so the view and W keep agreeing all the way round
  // a planet (PlayMode::updateControls maps the keys into that frame). Without a character:
  // -Z (or +X when up is near Z).
  Vec3 ref = std::abs(cameraUp_.z) < 0.9f ? Vec3(0, 0, -1) : Vec3(1, 0, 0);
  if (const std::optional<Vec3> moveForward = session_.moveForward()) ref = -*moveForward;
  Vec3 forward0 = ref - cameraUp_ * glm::dot(ref, cameraUp_);
  if (glm::length(forward0) < 1e-4f) forward0 = glm::cross(cameraUp_, Vec3(1, 0, 0));
  forward0 = glm::normalize(forward0);
  const Vec3 right0 = glm::normalize(glm::cross(forward0, cameraUp_));
  const Vec3 forward = float(std::cos(yaw_)) * forward0 + float(std::sin(yaw_)) * right0;
  const Vec3 back = -forward * float(std::cos(pitch_)) + cameraUp_ * float(std::sin(pitch_));
  render::Camera camera = window_.viewport()->camera();
  camera.lookAt = *target + cameraUp_ * 0.8f;
  camera.position = camera.lookAt + back * float(distance_);
  camera.up = cameraUp_;  // the horizon leans with gravity (walking round a planet)
  window_.viewport()->setCamera(camera);
}

void PlayMode::drawPlayerOverlay() {
  const physics::Simulation* sim = session_.simulation();
  RaymarchView* view = window_.viewport();
  if (!sim || sim->characters().empty()) {
    view->clearOverlayLines(kPlayerLayer);
    return;
  }
  std::vector<OverlayLine> lines;
  const Vec3 up = session_.up();
  const Vec3 u = glm::normalize(std::abs(up.x) < 0.9f ? glm::cross(up, Vec3(1, 0, 0))
                                                      : glm::cross(up, Vec3(0, 0, 1)));
  const Vec3 v = glm::cross(up, u);
  const Vec4 color(1.0f, 0.75f, 0.2f, 1.0f);
  const physics::CharacterController& c = sim->characters()[0];
  const Vec3 centre = session_.playerPositionInterpolated().value_or(c.state().position);
  const float r = c.desc().radius;
  const Vec3 bottom = c.bottomCentre(centre, up), top = c.topCentre(centre, up);
  addCircle(lines, bottom, u, v, r, color);
  addCircle(lines, top, u, v, r, color);
  for (const Vec3& side : {u, v, -u, -v})
    lines.push_back({bottom + side * r, top + side * r, color});
  const float half = kTwoPi * 0.5f;
  addCircle(lines, top, u, up, r, color, 16, 0.0f, half);
  addCircle(lines, top, v, up, r, color, 16, 0.0f, half);
  addCircle(lines, bottom, u, -up, r, color, 16, 0.0f, half);
  addCircle(lines, bottom, v, -up, r, color, 16, 0.0f, half);
  // Grounded: the ground normal at the feet; else the wall normal if touching one.
  const physics::CharacterState& s = c.state();
  if (s.grounded)
    addArrow(lines, bottom - up * r, bottom - up * r + s.groundNormal, up, Vec4(0.3f, 1, 0.3f, 1));
  // The player's up (cyan, 1.5 m) and g (magenta, 0.15 m per m/s^2) from the capsule's top.
  addArrow(lines, top + up * r, top + up * (r + 1.5f), u, Vec4(0.3f, 0.95f, 1.0f, 1));
  if (const std::optional<Vec3> g = session_.playerGravity(); g && glm::length(*g) > 1e-6f)
    addArrow(lines, centre, centre + *g * 0.15f, u, Vec4(1.0f, 0.35f, 0.9f, 1));
  view->setOverlayLines(kPlayerLayer, std::move(lines), OverlayDepth::OnTop);
}

// The Drift debug overlay (seed 003, "Performance and debugging"): hull, each ring's physical
// band, the last contact's normal and fraction, and the water velocity.
void PlayMode::drawDriftOverlay() {
  const drift::Sandbox* sandbox = session_.sandbox();
  if (!sandbox) return;
  const drift::Snapshot s = sandbox->snapshot();
  const Vec3 ux(1, 0, 0), uz(0, 0, 1), up(0, 1, 0);
  const float y = 0.03f;
  std::vector<OverlayLine> lines;
  const Vec3 boat = xz(s.boatX, s.boatZ, y);
  addCircle(lines, boat, ux, uz, s.boatRadius, Vec4(1, 1, 1, 1), 40);
  // Heading tick.
  lines.push_back({boat, boat + Vec3(std::sin(s.heading), 0, std::cos(s.heading)) * s.boatRadius,
                   Vec4(1, 1, 1, 1)});
  for (int i = 0; i < s.rippleCount; ++i) {
    const drift::RippleView& r = s.ripples[i];
    const Vec3 centre = xz(r.centreX, r.centreZ, y);
    const float reach = r.halfWidth + s.boatRadius;  // the band the hull's centre meets
    const float fade = r.contacted ? 0.35f : 1.0f;
    addCircle(lines, centre, ux, uz, r.radius, Vec4(0.5f, 0.8f, 1.0f, fade), 64);
    addCircle(lines, centre, ux, uz, r.radius + reach, Vec4(1.0f, 0.55f, 0.1f, fade), 64);
    if (r.radius - reach > 0.0f)
      addCircle(lines, centre, ux, uz, r.radius - reach, Vec4(1.0f, 0.55f, 0.1f, fade), 64);
  }
  if (s.hasContact) {
    // The normal from the hull's centre, and the contact fraction as a bar of fraction x 1 m.
    const Vec3 n(s.contactNormalX, 0, s.contactNormalZ);
    addArrow(lines, boat, boat + n * (s.boatRadius + 1.0f), up, Vec4(1, 0.2f, 0.2f, 1));
    const Vec3 side = glm::cross(up, n);
    const Vec3 base = boat + side * (s.boatRadius + 0.2f);
    lines.push_back({base, base + n * s.contactFraction, Vec4(1, 0.9f, 0.2f, 1)});
  }
  const Vec3 water(s.waterVelocityX, 0, s.waterVelocityZ);
  if (glm::length(water) > 1e-6f)
    addArrow(lines, boat + Vec3(0, 0.5f, 0), boat + Vec3(0, 0.5f, 0) + water * 2.0f, up,
             Vec4(0.2f, 1.0f, 1.0f, 1));
  window_.viewport()->setOverlayLines(kDriftLayer, std::move(lines), OverlayDepth::OnTop);
}

// The ocean's look: short crest strokes on a 2 m lattice scrolling with the pattern velocity
// (drift key "ocean_pattern_velocity"); it never reads the physical water velocity.
void PlayMode::drawOcean() {
  EditorDocument* copy = session_.copy();
  if (!copy) return;
  Vec2 pattern(0.5f, 0.5f);
  const std::optional<Json> value =
      copy->valueAt(copy->nodePointer(session_.driftNode()) + "/drift/ocean_pattern_velocity");
  if (value && value->is_array() && value->size() == 2 && (*value)[0].is_number() &&
      (*value)[1].is_number())
    pattern = Vec2((*value)[0].get<float>(), (*value)[1].get<float>());
  const float spacing = 2.0f;
  const Vec2 shift(std::fmod(pattern.x * float(oceanTime_), spacing),
                   std::fmod(pattern.y * float(oceanTime_), spacing));
  std::vector<OverlayLine> lines;
  const Vec4 color(0.7f, 0.88f, 1.0f, 0.8f);
  for (int i = -12; i <= 12; ++i) {
    for (int j = -12; j <= 12; ++j) {
      const float wobble = 0.35f * std::sin(float(i * 7 + j * 13));
      const Vec3 p(float(i) * spacing + shift.x + wobble, 0.01f, float(j) * spacing + shift.y);
      lines.push_back({p - Vec3(0.45f, 0, 0.1f), p + Vec3(0.45f, 0, 0.1f), color});
    }
  }
  window_.viewport()->setOverlayLines(kOceanLayer, std::move(lines), OverlayDepth::Tested);
}

void PlayMode::clearOverlays() {
  RaymarchView* view = window_.viewport();
  view->clearOverlayLines(kPlayerLayer);
  view->clearOverlayLines(kDriftLayer);
  view->clearOverlayLines(kOceanLayer);
  view->clearOverlayLines(kMatterLayer);
}

}  // namespace floptle::editor
