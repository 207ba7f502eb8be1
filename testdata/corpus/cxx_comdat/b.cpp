#include "common.h"
Fn tu_b() {
    Registry<long>::add(twice<long>(5));
    Registry<int>::add(next_id());
    return Fn{"b", &next_id, &shared_name, &twice<long>, &Registry<long>::add, counter_address(),
              &inline_var};
}
