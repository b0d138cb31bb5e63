#pragma once
// Shared fixture for tests that run the built `floptle` as a process: a fresh temporary
// folder per test, a runner that captures exit code, stdout and stderr, and a file writer.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <sys/wait.h>
#include <unistd.h>

namespace floptle::cli_test {

struct RunResult {
  int exitCode = -1;
  std::string out;
  std::string err;
};

/// Runs the built `floptle` with `arguments` (a shell command line: redirections allowed), its
/// stderr to `errFile`; returns the exit code (-1 when it did not exit).
inline int runCli(const std::string& arguments, const std::filesystem::path& errFile) {
  const std::string command =
      std::string(FLOPTLE_CLI) + " " + arguments + " 2> \"" + errFile.string() + "\"";
  const int status = std::system(command.c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

inline std::string slurp(const std::filesystem::path& path) {
  std::ifstream file(path, std::ios::binary);
  std::ostringstream text;
  text << file.rdbuf();
  return text.str();
}

/// Derive, then call run("ARGS") to execute `floptle <subcommand> ARGS` (shell-quoted by you).
class CliTest : public ::testing::Test {
 protected:
  explicit CliTest(std::string subcommand) : subcommand_(std::move(subcommand)) {}

  void SetUp() override {
    std::string pattern =
        (std::filesystem::temp_directory_path() / ("floptle-" + subcommand_ + "-XXXXXX")).string();
    ASSERT_NE(::mkdtemp(pattern.data()), nullptr);
    dir_ = pattern;
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  RunResult run(const std::string& arguments) {
    const auto out = dir_ / "stdout.txt";
    const auto err = dir_ / "stderr.txt";
    const std::string command = std::string("'") + FLOPTLE_CLI + "' " + subcommand_ + " " +
                                arguments + " >'" + out.string() + "' 2>'" + err.string() + "'";
    const int status = std::system(command.c_str());
    RunResult result;
    result.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    result.out = slurp(out);
    result.err = slurp(err);
    return result;
  }

  /// Runs `arguments` twice (a deterministic command): both must exit 0 with JSON on stdout and
  /// agree on its "hash". Returns the first answer (a discarded value on failure).
  nlohmann::json runTwiceAgreeing(const std::string& arguments) {
    const RunResult a = run(arguments);
    EXPECT_EQ(a.exitCode, 0) << a.err;
    const RunResult b = run(arguments);
    const auto ja = nlohmann::json::parse(a.out, nullptr, false);
    const auto jb = nlohmann::json::parse(b.out, nullptr, false);
    EXPECT_FALSE(ja.is_discarded()) << a.out << a.err;
    EXPECT_FALSE(jb.is_discarded()) << b.out << b.err;
    if (!ja.is_discarded() && !jb.is_discarded()) {
      EXPECT_EQ(ja.value("hash", ""), jb.value("hash", ""));
    }
    return ja;
  }

  std::string write(const std::string& name, const std::string& text) {
    const auto path = dir_ / name;
    std::ofstream(path, std::ios::binary) << text;
    return path.string();
  }

  std::filesystem::path dir_;

 private:
  std::string subcommand_;
};

}  // namespace floptle::cli_test
