#include "hier.h"
int Left::left_value() const { return l + base_id(); }
int sum_through_left(const Left &l) { return l.left_value() + l.base_id() + l.l; }
