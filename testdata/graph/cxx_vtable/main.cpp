// Bitcode.
#include "widget.h"
#include <cstdio>
void native_live();
int main() {
  native_live();
  std::printf("widget api %d\n", widget_api_version());
  return 0;
}
