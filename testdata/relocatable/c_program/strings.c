/* String literals (SHF_MERGE|SHF_STRINGS), a static table and statics of the same name as
   another file's. */
static const char *const words[] = {"hello", "relocatable world", "hello"};
static int table[] = {3, 1, 4, 1, 5, 9, 2, 6};
static int helper(int i) { return table[i] * 2; }

const char *greeting(int i) { return words[i]; }

int table_sum(void) {
  int s = 0;
  for (unsigned i = 0; i < sizeof table / sizeof table[0]; i++)
    s += helper(i);
  return s;
}
