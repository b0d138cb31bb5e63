#include <cstdio>

#include "commands.h"

namespace floptle::cli {

int runRender(Args) {
  std::fputs("floptle render: not built yet\n", stderr);
  return 2;
}

}  // namespace floptle::cli
