/* Comparators in a separate TU, handed to libc as callbacks. */
#include <string.h>

struct person {
    const char *name;
    int age;
};

int cmp_int_asc(const void *a, const void *b) {
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}
int cmp_int_desc(const void *a, const void *b) { return cmp_int_asc(b, a); }
int cmp_str(const void *a, const void *b) {
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}
int cmp_person(const void *a, const void *b) {
    const struct person *p = a, *q = b;
    if (p->age != q->age)
        return p->age - q->age;
    return strcmp(p->name, q->name);
}
