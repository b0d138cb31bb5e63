#pragma once
// The line protocol of `floptle query`: one JSON object per line in, one JSON object per
// line out, in order. Ops (t defaults to 0 (s) everywhere; lengths in m):
//   {"op":"raycast","origin":[x,y,z],"dir":[x,y,z],"max":m,"t":t}
//   {"op":"spherecast","origin":[..],"dir":[..],"radius":r,"max":m,"t":t}
//       ->
//       {"hit":true,"distance":d,"point":[..],"normal":[..],"node":"name","material":"slot"|null}
//          (+ "inside":true when the cast started inside / overlapping) or {"hit":false}.
//          distance is along the normalized dir; "max" defaults to kDefaultMaxDistance.
//   {"op":"closest","p":[..],"t":t}
//       -> {"distance":d,"point":[..],"normal":[..],"node":"name"} (signed: negative inside),
//          or {"distance":null} for a world with nothing to collide with.
//   {"op":"sphere_overlap","center":[..],"radius":r,"t":t}
//   {"op":"capsule_overlap","a":[..],"b":[..],"radius":r,"t":t}
//       -> {"hit":true,"penetration":p,"point":[..],"normal":[..],"node":"name"} or {"hit":false}
//   {"op":"sweep","shape":"sphere","center":[..],"radius":r,"motion":[..],"t":t}
//   {"op":"sweep","shape":"capsule","a":[..],"b":[..],"radius":r,"motion":[..],"t":t}
//       -> {"hit":true,"distance":d,"point":[..],"normal":[..],"node":"name",
//           "material":"slot"|null,"toi":f} or {"hit":false}; toi in [0, 1] is the fraction of
//          motion travelled before contact, distance = toi * |motion|.
//   {"op":"gravity","p":[..],"t":t}
//       -> {"g":[x,y,z]}: the scene's gravity field at p (m/s^2), no receiver's response.
// Anything else (not JSON, not an object, unknown op, missing or mistyped key, non-finite
// number, zero direction, negative radius) -> {"error":"what is wrong"}.
#include <string_view>

#include <nlohmann/json.hpp>

#include "floptle/physics/collision_world.h"
#include "floptle/physics/gravity_sampler.h"

namespace floptle::physics {

/// Cast length when a query gives no "max" (m).
inline constexpr float kDefaultMaxDistance = 1.0e4f;

/// Answers one request line. Refits the world when the request's t differs from its last
/// refit time. `gravity` answers the gravity op (null: the op is refused). Never throws.
nlohmann::ordered_json answerQueryLine(CollisionWorld& world, std::string_view line,
                                       const GravitySampler* gravity = nullptr);

/// Same for an already parsed request.
nlohmann::ordered_json answerQuery(CollisionWorld& world, const nlohmann::json& request,
                                   const GravitySampler* gravity = nullptr);

}  // namespace floptle::physics
