-- The level's script (scene-level): logs the start and when the player stands on the ceiling.
local player = scene.node("player")
local onCeiling = false

function on_start()
  log("level start, player at", player.position.x)
end

function on_contact(node, other, contact)
  if onCeiling then return end
  if (node.name == "player" and other.name == "ceiling") or
     (node.name == "ceiling" and other.name == "player") then
    onCeiling = true
    log("player on the ceiling at tick", scene.tick())
  end
end
