-- Walking onto this pad flips the direction of gravity in the region around it (everything
-- within 7 m of the pad): the player falls onto the ceiling; the rest of the level keeps
-- its gravity.
local flipped = false

function on_contact(node, other, contact)
  if flipped or other.name ~= "player" then return end
  flipped = true
  gravity.set_mode(self, "global", { strength = 9.81, direction = vec3(0, 1, 0), reach = 7 })
  log("gravity flipped, g =", gravity.sample(other.position).y)
end
