#pragma once
// A scalar parameter that may be animated by simulation time t (s).
//   Constant:  value
//   Sine:      base + amplitude * sin(2*pi*frequency*t + phase)
//   Keys:      piecewise curve through (time, value) keys, linear or smoothstep between keys,
//              held constant before the first and after the last key, or looped over the
//              keys' span when `loop` is set.
#include <vector>

namespace floptle::field {

struct Key {
  /// Time (s).
  double time = 0.0;
  float value = 0.0f;
  bool operator==(const Key&) const = default;
};

struct AnimatedScalar {
  enum class Driver { Constant, Sine, Keys };
  enum class Interpolation { Linear, Smoothstep };

  Driver driver = Driver::Constant;
  /// The constant value, or the sine's centre.
  float base = 0.0f;
  float amplitude = 0.0f;
  /// (Hz)
  float frequency = 0.0f;
  /// (rad)
  float phase = 0.0f;
  std::vector<Key> keys;  ///< sorted by time, at least one when driver == Keys
  Interpolation interpolation = Interpolation::Linear;
  bool loop = false;

  AnimatedScalar() = default;
  AnimatedScalar(float constant) : base(constant) {}  // NOLINT: a number is a constant

  bool operator==(const AnimatedScalar&) const = default;

  bool animated() const { return driver != Driver::Constant; }
  /// Value at time t (s).
  float at(double t) const;
  /// Smallest and largest value the driver can take (for bounds and validation).
  float minValue() const;
  float maxValue() const;
};

}  // namespace floptle::field
