#pragma once
// The subcommands of `floptle`. Each takes the arguments after its name and returns the
// process exit code. They parse arguments and print; the work is done by the libraries.
#include <span>
#include <string_view>

namespace floptle::cli {

using Args = std::span<const std::string_view>;

int runValidate(Args args);  // command_validate.cpp
int runRender(Args args);    // command_render.cpp
int runQuery(Args args);     // command_query.cpp
int runImport(Args args);    // command_import.cpp
int runBake(Args args);      // command_bake.cpp
int runSimulate(Args args);  // command_simulate.cpp
int runSweep(Args args);     // command_sweep.cpp

}  // namespace floptle::cli
