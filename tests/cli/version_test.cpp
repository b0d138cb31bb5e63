// floptle --version: the project's version (CMake's project VERSION) and the build's commit.
#include <regex>

#include "cli_test_support.h"

namespace floptle::cli_test {
namespace {

class Version : public CliTest {
 protected:
  Version() : CliTest("--version") {}
};

TEST_F(Version, PrintsTheProjectVersionAndTheCommit) {
  const RunResult r = run("");
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(r.out.rfind(std::string("floptle ") + FLOPTLE_VERSION + " (commit ", 0), 0u) << r.out;
  // A commit is 12 hex digits, or "unknown" for a build from outside git.
  EXPECT_TRUE(std::regex_search(r.out, std::regex(R"(\(commit ([0-9a-f]{12}|unknown)\)\n$)")))
      << r.out;
}

}  // namespace
}  // namespace floptle::cli_test
