#include <cstdio>

#include "commands.h"

namespace floptle::cli {

int runQuery(Args) {
  std::fputs("floptle query: not built yet\n", stderr);
  return 2;
}

}  // namespace floptle::cli
