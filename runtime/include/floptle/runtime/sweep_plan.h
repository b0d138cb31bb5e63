#pragma once
// SweepPlan: the runs of a tuning sweep, `floptle sweep SCENE --set POINTER=VALUES ...`.
//
// Each --set names a value of the scene document by JSON pointer ("/materials/2/friction")
// and the values it takes: a range "start:step:stop" (stop included when it is a whole number
// of steps away; the i-th value is start + i x step, never a running sum) or a list "a,b,c".
// Numbers by default; strings or booleans where the pointer's present value is one. A pointer
// may name a key the document leaves out (its parent object must exist); it then takes numbers.
//
// The runs are the cross product, in nested-loop order of the --set options as written: the
// last varies fastest. Run r takes value (r / stride_p) mod count_p of parameter p, where
// stride_p is the product of the counts of the parameters after p.
//
// A shard K/N (0 <= K < N) is the K-th of N contiguous slices of the run list,
// [floor(R K / N), floor(R (K + 1) / N)): the shards in K order cover every run once, in order.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "floptle/core/expected.h"

namespace floptle::runtime {

struct SweepParameter {
  /// JSON pointer into the scene document (RFC 6901).
  std::string pointer;
  /// The values it takes, in order (numbers, strings or booleans).
  std::vector<nlohmann::ordered_json> values;
};

/// Most values one range may give, and most runs a sweep may have (-).
inline constexpr std::uint64_t kMaxSweepValues = 1'000'000;
inline constexpr std::uint64_t kMaxSweepRuns = 1'000'000'000;

class SweepPlan {
 public:
  /// Reads one --set argument, "POINTER=VALUES", against `document` (the scene it edits).
  /// Every value is set alone into a copy of the document, which must then pass
  /// scene::checkSceneDocument; errors name the pointer (and the value).
  static Expected<SweepParameter> parseSet(std::string_view text,
                                           const nlohmann::ordered_json& document);

  /// The plan over `parameters` (at least one; no pointer twice).
  static Expected<SweepPlan> make(std::vector<SweepParameter> parameters);

  const std::vector<SweepParameter>& parameters() const { return parameters_; }
  /// Number of runs (-): the product of the value counts.
  std::uint64_t runCount() const { return runCount_; }
  /// The value of each parameter in run `run` (< runCount), in parameter order.
  std::vector<nlohmann::ordered_json> values(std::uint64_t run) const;
  /// `document` with run `run`'s values set.
  nlohmann::ordered_json edited(const nlohmann::ordered_json& document, std::uint64_t run) const;

 private:
  std::vector<SweepParameter> parameters_;
  std::uint64_t runCount_ = 0;
};

/// A slice of the run list: runs [begin, end).
struct SweepShard {
  std::uint64_t begin = 0, end = 0;
};

/// Reads "K/N" (whole numbers, 0 <= K < N <= runCount, so every shard has a run) and slices
/// `runCount` runs.
Expected<SweepShard> parseShard(std::string_view text, std::uint64_t runCount);

}  // namespace floptle::runtime
