// floptle-editor: until the editor module exists, say so clearly.
#include <cstdio>

int main() {
  std::fputs("floptle-editor: the editor is not built yet; use the `floptle` CLI.\n", stderr);
  return 1;
}
