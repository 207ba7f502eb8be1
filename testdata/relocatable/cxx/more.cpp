// Linked after text.cpp in the `-r` output, so that its `.eh_frame` records follow ones from
// which a discarded COMDAT copy's FDE was dropped; throws through a template.
#include "tmpl.h"

int more_checked(int v) {
  try {
    return Box<int>(v).checked(10) + static_cast<int>(sum(std::vector<long>{1, 2}));
  } catch (const std::out_of_range &) {
    return -1;
  }
}
