#include <cstdio>

#include "commands.h"

namespace floptle::cli {

int runValidate(Args) {
  std::fputs("floptle validate: not built yet\n", stderr);
  return 2;
}

}  // namespace floptle::cli
