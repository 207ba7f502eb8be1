/* IFUNC: a user-defined ifunc called from another TU, its address compared across TUs (the
   canonical address must be the same everywhere), plus glibc's own IFUNCs (memcpy, strlen,
   strchr, memset, strcmp) called directly and through pointers. */
#include <stdio.h>
#include <string.h>

int my_add(int a, int b);
const char *my_which(void);
int (*my_add_address_from_impl(void))(int, int);

static void *(*volatile memcpy_ptr)(void *, const void *, size_t) = memcpy;
static size_t (*volatile strlen_ptr)(const char *) = strlen;

int main(void) {
    int failures = 0;
    printf("my_add(2, 40) = %d via %s\n", my_add(2, 40), my_which());
    int (*p)(int, int) = my_add;
    printf("through pointer: %d\n", p(20, 3));
    if (p != my_add_address_from_impl()) {
        printf("ifunc address differs between TUs\n");
        failures++;
    }
    char buf[64];
    const char *msg = "indirect functions resolved at startup";
    memcpy_ptr(buf, msg, strlen_ptr(msg) + 1);
    printf("memcpy/strlen through pointers: %s (%zu)\n", buf, strlen(buf));
    memset(buf, 'x', 10);
    buf[10] = 0;
    printf("memset: %s strchr: %s strcmp: %d\n", buf, strchr(msg, 'r'), strcmp("abc", "abd") < 0);
    if (memcpy_ptr != (void *(*)(void *, const void *, size_t))memcpy)
        failures++;
    return failures;
}
