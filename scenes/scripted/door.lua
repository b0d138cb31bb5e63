-- A door that melts into the wall over 2 s once the player comes within 4 m.
local blending = false

function on_tick(tick, dt)
  if blending then return end
  local player = scene.node("player")
  if (player.position - self.position):length() < 4 then
    blending = true
    matter.blend_into(self, "wall", { k_from = 0.0, k_to = 0.8, seconds = 2.0 })
    log("door blends into the wall")
  end
end
