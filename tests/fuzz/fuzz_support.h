#pragma once
// Helpers shared by the libFuzzer harnesses: reading a fixture of the source tree, and handing
// an input to a reader that takes only a path.
#include <unistd.h>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <string_view>

namespace floptle::fuzz {

/// The bytes of a file of the source tree (a scene the harness loads once); aborts when it
/// is missing, since the harness would then test nothing.
inline std::string readSourceFile(const char* relative) {
  const std::filesystem::path path = std::filesystem::path(FLOPTLE_SOURCE_DIR) / relative;
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "fuzz harness: cannot read %s\n", path.c_str());
    std::abort();
  }
  return std::string(std::istreambuf_iterator<char>(in), {});
}

/// A file of this process's own temporary folder ($TMPDIR or /tmp, one folder per process so
/// that parallel fuzzing jobs never share it), rewritten with each input; the folder is removed
/// when the process exits normally.
class ScratchFile {
 public:
  /// `extension` with its dot (".vdb"): the readers pick the format by it.
  explicit ScratchFile(std::string_view extension) {
    const char* tmp = std::getenv("TMPDIR");
    dir_ = std::filesystem::path(tmp && *tmp ? tmp : "/tmp") /
           ("floptle-fuzz-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir_);
    path_ = dir_ / ("input" + std::string(extension));
  }
  ~ScratchFile() {
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
  }
  ScratchFile(const ScratchFile&) = delete;
  ScratchFile& operator=(const ScratchFile&) = delete;

  /// Replaces the file's bytes with the input's; aborts when the write fails (a full disk
  /// would otherwise look like a reader bug).
  const std::filesystem::path& write(const std::uint8_t* data, std::size_t size) {
    std::ofstream out(path_, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
    out.close();
    if (!out) {
      std::fprintf(stderr, "fuzz harness: cannot write %s\n", path_.c_str());
      std::abort();
    }
    return path_;
  }

 private:
  std::filesystem::path dir_;
  std::filesystem::path path_;
};

}  // namespace floptle::fuzz
