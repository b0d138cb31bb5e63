#include <cstdio>

#include "commands.h"

namespace floptle::cli {

int runSimulate(Args) {
  std::fputs("floptle simulate: not built yet\n", stderr);
  return 2;
}

}  // namespace floptle::cli
