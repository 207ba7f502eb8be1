const int lib_table[5] = {1, 1, 2, 3, 5};
