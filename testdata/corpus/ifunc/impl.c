/* IFUNC symbols: the resolvers run before main (IRELATIVE relocations applied by the static
   startup code) and pick an implementation from a table chosen by a constant. */
#include <stddef.h>

static int add_generic(int a, int b) { return a + b; }
static int add_fancy(int a, int b) { return (a + b) * 1; }
static const char *which_generic(void) { return "generic"; }
static const char *which_fancy(void) { return "fancy"; }

/* Plain data a resolver may read: it is initialised in the file, not at run time. It is volatile
   so that the compiler cannot evaluate the resolver itself: clang -O1 otherwise replaces uses of
   an ifunc with a constant resolver by the implementation (and &my_add in this TU would then
   differ from the canonical address other TUs see). */
static volatile int prefer_fancy = 1;

typedef int (*add_fn)(int, int);
typedef const char *(*which_fn)(void);

static add_fn resolve_add(void) { return prefer_fancy ? add_fancy : add_generic; }
static which_fn resolve_which(void) { return prefer_fancy ? which_fancy : which_generic; }

int my_add(int a, int b) __attribute__((ifunc("resolve_add")));
const char *my_which(void) __attribute__((ifunc("resolve_which")));

/* Address of the IFUNC taken in this TU; main.c compares with its own. */
add_fn my_add_address_from_impl(void) { return my_add; }
