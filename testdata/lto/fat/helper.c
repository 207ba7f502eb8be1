int fat_data[8] = {1, 2, 3, 4, 5, 6, 7, 8};
int fat_helper(int x) { return x * 3 + 1; }
