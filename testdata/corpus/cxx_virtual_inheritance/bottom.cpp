#include "hier.h"
int Bottom::left_value() const { return l + b + base_id(); }
Bottom *make_bottom() { return new Bottom(); }
