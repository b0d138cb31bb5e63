// floptle: the headless command-line tool (no Qt).
#include <cstdio>
#include <string_view>
#include <vector>

#include "commands.h"
#include "floptle/build_version.h"

namespace {

constexpr const char* kUsage =
    "floptle: the Floptle command-line tool\n"
    "\n"
    "usage:\n"
    "  floptle validate SCENE [--warnings]\n"
    "  floptle render SCENE --out FILE.png [--width W --height H]\n"
    "                 [--camera NAME | --look-from x,y,z --look-at x,y,z] [--fov DEGREES] [--t "
    "SECONDS]\n"
    "  floptle query SCENE            (one JSON query per line on stdin, one answer per line)\n"
    "  floptle import MESH --out FILE.json\n"
    "  floptle bake MESH_OR_SCENE --out FILE.vdb [--cell 0.25] [--band 3] [--node NAME]\n"
    "  floptle simulate SCENE --ticks N [--inputs FILE] [--trace FILE.csv|FILE ...]\n"
    "  floptle sweep SCENE --set POINTER=start:step:stop|a,b,c [--set ...] --ticks N\n"
    "                [--inputs FILE] --out FILE.csv [--jobs J] [--shard K/N]\n"
    "  floptle --version\n";

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string_view> args(argv + 1, argv + argc);
  if (args.empty() || args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
    std::fputs(kUsage, args.empty() ? stderr : stdout);
    return args.empty() ? 2 : 0;
  }
  if (args[0] == "--version") {
    std::printf("floptle %s (commit %s)\n", floptle::kVersion, floptle::kGitCommit);
    return 0;
  }
  const std::string_view command = args[0];
  floptle::cli::Args rest(args.data() + 1, args.size() - 1);
  if (command == "validate") return floptle::cli::runValidate(rest);
  if (command == "render") return floptle::cli::runRender(rest);
  if (command == "query") return floptle::cli::runQuery(rest);
  if (command == "import") return floptle::cli::runImport(rest);
  if (command == "bake") return floptle::cli::runBake(rest);
  if (command == "simulate") return floptle::cli::runSimulate(rest);
  if (command == "sweep") return floptle::cli::runSweep(rest);
  std::fprintf(stderr, "floptle: unknown command '%.*s'\n\n%s", static_cast<int>(command.size()),
               command.data(), kUsage);
  return 2;
}
