#include <cstdio>

#include "commands.h"

namespace floptle::cli {

int runImport(Args) {
  std::fputs("floptle import: not built yet\n", stderr);
  return 2;
}

}  // namespace floptle::cli
