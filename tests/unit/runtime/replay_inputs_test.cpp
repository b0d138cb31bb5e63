// The inputs file of `floptle simulate --inputs`: text that is not a usable JSON document is
// refused with an error naming the file, never an exception or a stack overflow. The inputs
// here are the fuzzers' findings (tests/fuzz/fuzz_simulate_inputs.cpp).
#include <string>

#include <gtest/gtest.h>

#include "floptle/runtime/replay.h"

namespace floptle::runtime {
namespace {

std::string nested(int depth) {
  return std::string(depth, '[') + std::string(depth, ']');
}

TEST(ReplayInputsText, AValidFileParses) {
  auto inputs = parseInputsText(R"([{"tick": 5, "place": [-1.2, 0.3]}])", "inputs.json");
  ASSERT_TRUE(inputs) << inputs.error().message();
  EXPECT_EQ((*inputs)[0]["tick"], 5);
}

TEST(ReplayInputsText, InvalidJsonNamesTheFileAndTheByte) {
  auto inputs = parseInputsText("[{\"tick\": 5,]", "inputs.json");
  ASSERT_FALSE(inputs);
  EXPECT_EQ(inputs.error().where, "inputs.json: byte 13");
  EXPECT_NE(inputs.error().what.find("invalid JSON"), std::string::npos) << inputs.error().what;
}

TEST(ReplayInputsText, ANumberBeyondDoubleRangeIsRefusedNotThrown) {
  // nlohmann throws out_of_range for it, not parse_error.
  auto inputs = parseInputsText(R"([{"tick": 0, "place": [1e400, 0]}])", "inputs.json");
  ASSERT_FALSE(inputs);
  EXPECT_EQ(inputs.error().where, "inputs.json");
  EXPECT_NE(inputs.error().what.find("1e400"), std::string::npos) << inputs.error().what;
}

TEST(ReplayInputsText, NestingPastTheLimitIsRefused) {
  EXPECT_TRUE(parseInputsText(nested(kMaxInputsDepth), "inputs.json"));
  auto deeper = parseInputsText(nested(kMaxInputsDepth + 1), "inputs.json");
  ASSERT_FALSE(deeper);
  EXPECT_EQ(deeper.error().where, "inputs.json");
  EXPECT_NE(deeper.error().what.find("nesting deeper than 64"), std::string::npos)
      << deeper.error().what;
  // Deep enough to overflow the stack of a recursive copy or dump, had it been accepted.
  EXPECT_FALSE(parseInputsText(nested(200000), "inputs.json"));
}

}  // namespace
}  // namespace floptle::runtime
