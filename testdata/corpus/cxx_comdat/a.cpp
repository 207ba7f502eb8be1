#include "common.h"
Fn tu_a() {
    Registry<long>::add(twice<long>(3));
    Registry<int>::add(next_id());
    return Fn{"a", &next_id, &shared_name, &twice<long>, &Registry<long>::add, counter_address(),
              &inline_var};
}
