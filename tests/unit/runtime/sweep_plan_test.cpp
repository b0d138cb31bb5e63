// SweepPlan: the values of ranges and lists (their count and arithmetic, their types), the
// cross product's order, and shards that cover the run list once, in order.
#include <gtest/gtest.h>

#include "floptle/runtime/sweep_plan.h"

namespace floptle::runtime {
namespace {

using Json = nlohmann::ordered_json;

const Json kDoc = Json::parse(R"({"format": "floptle.scene", "version": 1,
  "materials": [{"id": "rock", "color": [1, 1, 1], "density": 100, "friction": 0.5,
                 "restitution": 0, "bulk_modulus": 1e9, "yield_strength": 1e6},
                {"id": "ice", "color": [1, 1, 1], "density": 900, "friction": 0.1,
                 "restitution": 0, "bulk_modulus": 1e9, "yield_strength": 1e6}],
  "interactions": [],
  "settings": {},
  "nodes": [{"name": "ball", "material": "rock", "shape": {"type": "sphere", "radius": 1},
             "collider": {"body": "dynamic", "collidable": true}}]})");

SweepParameter parsed(const std::string& text) {
  auto p = SweepPlan::parseSet(text, kDoc);
  EXPECT_TRUE(p.ok()) << (p.ok() ? "" : p.error().message());
  return p.ok() ? *p : SweepParameter{};
}

TEST(SweepPlan, ARangeIsStartPlusIStepWithStopIncluded) {
  const SweepParameter p = parsed("/materials/0/friction=0:0.1:1.0");
  ASSERT_EQ(p.values.size(), 11u);  // a running sum reaches 0.9999999999999999 and drops 1.0
  for (std::size_t i = 0; i + 1 < p.values.size(); ++i)
    EXPECT_EQ(p.values[i].get<double>(), 0.0 + double(i) * 0.1) << i;
  EXPECT_EQ(p.values.back().get<double>(), 1.0);
  // The last value lands on stop itself, not 0.30000000000000004.
  EXPECT_EQ(parsed("/materials/0/friction=0:0.1:0.3").values.back().get<double>(), 0.3);
  // Stop that is no whole number of steps away is not reached: 0, 0.4, 0.8.
  EXPECT_EQ(parsed("/materials/0/friction=0:0.4:1").values.size(), 3u);
  // Downwards.
  EXPECT_EQ(parsed("/materials/0/friction=1:-0.5:0").values.back().get<double>(), 0.0);
}

TEST(SweepPlan, ValuesTakeTheTypeOfThePresentValue) {
  const SweepParameter flags = parsed("/nodes/0/collider/collidable=true,false");
  ASSERT_EQ(flags.values.size(), 2u);
  EXPECT_TRUE(flags.values[0].is_boolean());
  const SweepParameter bodies = parsed("/nodes/0/collider/body=dynamic,kinematic");
  EXPECT_EQ(bodies.values[1], "kinematic");
  // A key the document leaves out (its parent exists) takes numbers.
  const SweepParameter missing = parsed("/settings/fixed_dt=0.01,0.02");
  EXPECT_EQ(missing.values[1].get<double>(), 0.02);
  // An integer stays an integer where it is whole.
  EXPECT_TRUE(parsed("/version=1").values[0].is_number_integer());
  EXPECT_FALSE(SweepPlan::parseSet("/nodes/0/collider/collidable=yes", kDoc).ok());
}

TEST(SweepPlan, BadPointersAndValuesAreNamed) {
  for (const char* text : {"/materials/5/friction=1", "/materials/0=1", "/nodes/0/shape/radius=-1",
                           "/materials/0/friction=0:1", "friction=1", "/materials/0/friction"}) {
    auto p = SweepPlan::parseSet(text, kDoc);
    ASSERT_FALSE(p.ok()) << text;
    const std::string pointer = std::string(text).substr(0, std::string(text).find('='));
    EXPECT_NE(p.error().message().find(pointer), std::string::npos) << p.error().message();
  }
}

TEST(SweepPlan, TheCrossProductVariesTheLastFastest) {
  auto plan = SweepPlan::make(
      {parsed("/materials/0/friction=0,1"), parsed("/materials/0/density=10:10:30")});
  ASSERT_TRUE(plan.ok());
  ASSERT_EQ(plan->runCount(), 6u);
  EXPECT_EQ(plan->values(1), (std::vector<Json>{0.0, 20.0}));
  EXPECT_EQ(plan->values(3), (std::vector<Json>{1.0, 10.0}));
  const Json edited = plan->edited(kDoc, 5);
  EXPECT_EQ(edited["materials"][0]["friction"], 1.0);
  EXPECT_EQ(edited["materials"][0]["density"], 30.0);
  EXPECT_FALSE(
      SweepPlan::make({parsed("/materials/0/friction=0"), parsed("/materials/0/friction=1")}).ok());
  EXPECT_FALSE(SweepPlan::make({}).ok());
}

TEST(SweepPlan, ShardsCoverTheRunsOnceInOrder) {
  for (std::uint64_t runs : {1u, 7u, 10u, 1000u}) {
    for (std::uint64_t n = 1; n <= std::min<std::uint64_t>(runs, 9); ++n) {
      std::uint64_t expected = 0;
      for (std::uint64_t k = 0; k < n; ++k) {
        auto s = parseShard(std::to_string(k) + "/" + std::to_string(n), runs);
        ASSERT_TRUE(s.ok());
        EXPECT_EQ(s->begin, expected);
        EXPECT_GT(s->end, s->begin) << "every shard has a run";
        expected = s->end;
      }
      EXPECT_EQ(expected, runs);
    }
  }
  for (const char* bad : {"3/3", "-1/3", "1/0", "1", "a/b", "0/8"})
    EXPECT_FALSE(parseShard(bad, 7).ok()) << bad;
}

}  // namespace
}  // namespace floptle::runtime
