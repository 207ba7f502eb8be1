#include "hier.h"
int Right::right_value() const { return r + base_id(); }
int sum_through_right(const Right &r) { return r.right_value() + r.base_id() + r.r; }
