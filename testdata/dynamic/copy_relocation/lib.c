/* Data that a non-PIE program uses directly (copy relocations). */
int lib_array[8] = {1, 2, 3, 4, 5, 6, 7, 8};
const char lib_message[] = "hello from the library";
struct point {
  int x, y;
} lib_point = {3, 4};

int lib_sum(void) {
  int s = 0;
  for (int i = 0; i < 8; i++)
    s += lib_array[i];
  return s;
}
void lib_set(int i, int v) { lib_array[i] = v; }
int *lib_array_address(void) { return lib_array; }
const char *lib_message_address(void) { return lib_message; }
int lib_point_sum(void) { return lib_point.x + lib_point.y; }
