#include "floptle/core/field/animated_scalar.h"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace floptle::field {

float AnimatedScalar::at(double t) const {
  switch (driver) {
    case Driver::Constant:
      return base;
    case Driver::Sine:
      return base + amplitude * static_cast<float>(
                                    std::sin(2.0 * std::numbers::pi * frequency * t + phase));
    case Driver::Keys: {
      if (keys.empty()) return base;
      if (keys.size() == 1) return keys.front().value;
      const double t0 = keys.front().time, t1 = keys.back().time;
      if (loop && t1 > t0) {
        t = t0 + std::fmod(t - t0, t1 - t0);
        if (t < t0) t += t1 - t0;
      }
      if (t <= t0) return keys.front().value;
      if (t >= t1) return keys.back().value;
      auto it = std::upper_bound(keys.begin(), keys.end(), t,
                                 [](double v, const Key& k) { return v < k.time; });
      const Key& b = *it;
      const Key& a = *(it - 1);
      double s = (b.time > a.time) ? (t - a.time) / (b.time - a.time) : 1.0;
      if (interpolation == Interpolation::Smoothstep) s = s * s * (3.0 - 2.0 * s);
      return static_cast<float>(a.value + (b.value - a.value) * s);
    }
  }
  return base;
}

float AnimatedScalar::minValue() const {
  switch (driver) {
    case Driver::Constant:
      return base;
    case Driver::Sine:
      return base - std::abs(amplitude);
    case Driver::Keys: {
      float m = keys.empty() ? base : keys.front().value;
      for (const Key& k : keys) m = std::min(m, k.value);
      return m;
    }
  }
  return base;
}

float AnimatedScalar::maxValue() const {
  switch (driver) {
    case Driver::Constant:
      return base;
    case Driver::Sine:
      return base + std::abs(amplitude);
    case Driver::Keys: {
      float m = keys.empty() ? base : keys.front().value;
      for (const Key& k : keys) m = std::max(m, k.value);
      return m;
    }
  }
  return base;
}

}  // namespace floptle::field
