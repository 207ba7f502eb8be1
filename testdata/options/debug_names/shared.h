/* Inline functions in a header: each unit that uses one has its own copy (a COMDAT
   member), and its own name-index entry. */
static inline int twice(int x) { return 2 * x; }
inline int square(int x) { return x * x; }
extern int counter;
int helper(int x);
