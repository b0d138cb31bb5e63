-- Walking onto this pad flips the direction of gravity: the player falls onto the ceiling.
local flipped = false

function on_contact(node, other, contact)
  if flipped or other.name ~= "player" then return end
  flipped = true
  gravity.set_mode(other, "global", { strength = 9.81, direction = vec3(0, 1, 0) })
  log("gravity flipped, g =", gravity.sample(other.position).y)
end
