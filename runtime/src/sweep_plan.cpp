// SweepPlan: --set parsing (ranges, lists, their types), the cross product, shards.
#include "floptle/runtime/sweep_plan.h"

#include <charconv>
#include <cmath>

#include "floptle/core/scene/scene_io.h"

namespace floptle::runtime {
namespace {

using Json = nlohmann::ordered_json;

std::vector<std::string_view> split(std::string_view text, char separator) {
  std::vector<std::string_view> parts;
  std::size_t start = 0;
  for (;;) {
    const std::size_t at = text.find(separator, start);
    parts.push_back(text.substr(start, at == std::string_view::npos ? at : at - start));
    if (at == std::string_view::npos) return parts;
    start = at + 1;
  }
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
  while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
  return s;
}

Expected<double> parseNumber(std::string_view text, const std::string& where) {
  const std::string_view t = trim(text);
  double value = 0.0;
  const auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), value);
  if (t.empty() || ec != std::errc() || end != t.data() + t.size() || !std::isfinite(value))
    return Error{where, "'" + std::string(text) + "' is not a finite number"};
  return value;
}

/// A number as the document would hold it: an integer where the present value is one and the
/// number is whole, otherwise a double.
Json numberValue(double value, const Json* present) {
  if (present && present->is_number_integer() && value == std::floor(value) &&
      std::fabs(value) < 9.0e15)
    return Json(static_cast<std::int64_t>(value));
  return Json(value);
}

Expected<std::vector<Json>> rangeValues(std::string_view spec, const Json* present,
                                        const std::string& where) {
  const auto parts = split(spec, ':');
  if (parts.size() != 3)
    return Error{where, "a range is start:step:stop, got '" + std::string(spec) + "'"};
  double bound[3];
  for (int i = 0; i < 3; ++i) {
    auto n = parseNumber(parts[std::size_t(i)], where);
    if (!n) return n.error();
    bound[i] = *n;
  }
  const double start = bound[0], step = bound[1], stop = bound[2];
  if (step == 0.0) return Error{where, "range step must not be 0"};
  const double steps = (stop - start) / step;
  // A whole number of steps within rounding (0:0.1:1 is ten steps) includes stop.
  constexpr double kRounding = 1e-9;
  if (steps < -kRounding)
    return Error{where, "range step " + std::string(trim(parts[1])) + " never reaches stop " +
                            std::string(trim(parts[2])) + " from start " +
                            std::string(trim(parts[0]))};
  const double last = std::floor(steps + kRounding);
  if (last + 1.0 > double(kMaxSweepValues))
    return Error{where, "range gives more than " + std::to_string(kMaxSweepValues) + " values"};
  const auto count = static_cast<std::uint64_t>(last) + 1;
  std::vector<Json> values;
  values.reserve(count);
  for (std::uint64_t i = 0; i < count; ++i) {
    double v = start + double(i) * step;
    // The last value is stop itself when it lands on it within rounding (0.30000000000000004).
    if (i + 1 == count && std::fabs(v - stop) <= kRounding * std::fabs(step)) v = stop;
    values.push_back(numberValue(v, present));
  }
  return values;
}

Expected<std::vector<Json>> listValues(std::string_view spec, const Json* present,
                                       const std::string& where) {
  std::vector<Json> values;
  for (std::string_view item : split(spec, ',')) {
    if (present && present->is_string()) {
      values.emplace_back(std::string(item));
    } else if (present && present->is_boolean()) {
      const std::string_view t = trim(item);
      if (t != "true" && t != "false")
        return Error{where,
                     "'" + std::string(item) + "' is not true or false (the value is a boolean)"};
      values.emplace_back(t == "true");
    } else {
      auto n = parseNumber(item, where);
      if (!n) return n.error();
      values.push_back(numberValue(*n, present));
    }
  }
  return values;
}

std::string valueText(const Json& value) {
  return value.is_string() ? value.get<std::string>() : value.dump();
}

}  // namespace

Expected<SweepParameter> SweepPlan::parseSet(std::string_view text, const Json& document) {
  const std::size_t eq = text.find('=');
  if (eq == std::string_view::npos)
    return Error{std::string(text), "--set needs POINTER=VALUES (start:step:stop or a,b,c)"};
  SweepParameter out;
  out.pointer = std::string(text.substr(0, eq));
  const std::string_view spec = text.substr(eq + 1);
  const std::string& where = out.pointer;
  if (out.pointer.empty() || out.pointer.front() != '/')
    return Error{
        where.empty() ? std::string(text) : where,
        "not a JSON pointer into the scene (one starts with '/', e.g. /materials/0/friction)"};
  if (spec.empty()) return Error{where, "no values after '='"};
  Json::json_pointer pointer;
  try {
    pointer = Json::json_pointer(out.pointer);
  } catch (const nlohmann::json::exception& e) {
    return Error{where, "not a valid JSON pointer: " + std::string(e.what())};
  }
  const Json* present = nullptr;
  if (document.contains(pointer)) {
    present = &document.at(pointer);
    if (!present->is_primitive() || present->is_null())
      return Error{where, std::string("is ") +
                              (present->is_object()  ? "an object"
                               : present->is_array() ? "an array"
                                                     : "null") +
                              " in the scene; a sweep sets numbers, strings or booleans"};
  } else {
    const Json::json_pointer parent = pointer.parent_pointer();
    if (!document.contains(parent) || !document.at(parent).is_object())
      return Error{where, "no such value in the scene (" +
                              (parent.empty() ? std::string("the document") : parent.to_string()) +
                              " is not an object of it)"};
  }
  const bool range = spec.find(':') != std::string_view::npos;
  if (range && present && !present->is_number())
    return Error{where, "a range needs a number, the scene's value is " + present->dump()};
  auto values = range ? rangeValues(spec, present, where) : listValues(spec, present, where);
  if (!values) return values.error();
  out.values = std::move(*values);
  // Each value alone must give a valid scene: a bad value is refused before any run.
  for (const Json& value : out.values) {
    Json edited = document;
    edited[pointer] = value;
    const std::vector<Error> problems = scene::checkSceneDocument(edited);
    if (!problems.empty())
      return Error{where, "value " + valueText(value) + " makes the scene invalid: " +
                              scene::joinProblems(problems).message()};
  }
  return out;
}

Expected<SweepPlan> SweepPlan::make(std::vector<SweepParameter> parameters) {
  if (parameters.empty()) return Error{"--set", "a sweep needs at least one --set"};
  SweepPlan plan;
  plan.runCount_ = 1;
  for (std::size_t i = 0; i < parameters.size(); ++i) {
    for (std::size_t j = 0; j < i; ++j) {
      if (parameters[j].pointer == parameters[i].pointer)
        return Error{parameters[i].pointer, "set twice"};
    }
    const std::uint64_t count = parameters[i].values.size();
    if (count == 0) return Error{parameters[i].pointer, "no values"};
    if (plan.runCount_ > kMaxSweepRuns / count)
      return Error{"--set",
                   "the cross product has more than " + std::to_string(kMaxSweepRuns) + " runs"};
    plan.runCount_ *= count;
  }
  plan.parameters_ = std::move(parameters);
  return plan;
}

std::vector<nlohmann::ordered_json> SweepPlan::values(std::uint64_t run) const {
  std::vector<Json> out(parameters_.size());
  for (std::size_t p = parameters_.size(); p-- > 0;) {
    const std::uint64_t count = parameters_[p].values.size();
    out[p] = parameters_[p].values[run % count];
    run /= count;
  }
  return out;
}

nlohmann::ordered_json SweepPlan::edited(const Json& document, std::uint64_t run) const {
  Json out = document;
  const std::vector<Json> v = values(run);
  for (std::size_t p = 0; p < parameters_.size(); ++p)
    out[Json::json_pointer(parameters_[p].pointer)] = v[p];
  return out;
}

Expected<SweepShard> parseShard(std::string_view text, std::uint64_t runCount) {
  const std::string where = "--shard";
  const std::size_t slash = text.find('/');
  std::uint64_t k = 0, n = 0;
  auto whole = [](std::string_view s, std::uint64_t& value) {
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
    return !s.empty() && ec == std::errc() && end == s.data() + s.size();
  };
  if (slash == std::string_view::npos || !whole(text.substr(0, slash), k) ||
      !whole(text.substr(slash + 1), n))
    return Error{where,
                 "must be K/N with whole numbers 0 <= K < N, got '" + std::string(text) + "'"};
  if (n == 0 || n > kMaxSweepRuns)
    return Error{where,
                 "N must be in 1.." + std::to_string(kMaxSweepRuns) + ", got " + std::to_string(n)};
  if (k >= n) return Error{where, "K counts from 0 and must be < N, got " + std::string(text)};
  if (n > runCount)
    return Error{where, "N = " + std::to_string(n) + " is more shards than the sweep's " +
                            std::to_string(runCount) + " runs"};
  // runCount and n are both <= 1e9, so the products fit in 64 bits.
  return SweepShard{runCount * k / n, runCount * (k + 1) / n};
}

}  // namespace floptle::runtime
