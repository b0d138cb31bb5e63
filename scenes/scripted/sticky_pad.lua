-- A pad that makes the player's blob (the visco blob resting on it) sticky when the player
-- walks onto it: matter.set_sticky raises the blob's stickiness and break strain, so its
-- sticky bonds to the pad hold it there.
local done = false

function on_contact(node, other, contact)
  if done or other.name ~= "player" then return end
  done = true
  matter.set_sticky("player_blob", { strength = 0.7, break_strain = 2.5 })
  log("player_blob is sticky")
end
