-- A pad that makes the player's blob sticky when it walks onto it. Sticky bonds are the
-- Visco tier's: on a visco body set_sticky sets its stickiness and break strain; the player
-- here is a character, which set_sticky refuses by name, and that is logged rather than
-- stopping the level.
local done = false

function on_contact(node, other, contact)
  if done or other.name ~= "player" then return end
  done = true
  local ok, err = pcall(matter.set_sticky, other, { strength = 0.7, break_strain = 2.5 })
  if ok then
    log("player is sticky")
  else
    log("sticky pad:", err)
  end
end
