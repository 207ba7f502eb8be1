/* libext.so: the symbols main.c's data points at, so that its dynamic relocations name them. */
int ext_counter = 1;
int ext_array[8] = {1, 2, 3, 4, 5, 6, 7, 8};
int ext_function(int x) { return x + ext_counter; }
