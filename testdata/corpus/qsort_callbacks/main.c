/* qsort and bsearch with callbacks defined in another TU, an array of strings from .rodata,
   structs, and a comparator that counts its calls through a global. */
#include <stdio.h>
#include <stdlib.h>

struct person {
    const char *name;
    int age;
};
int cmp_int_asc(const void *, const void *);
int cmp_int_desc(const void *, const void *);
int cmp_str(const void *, const void *);
int cmp_person(const void *, const void *);

static int calls;
static int counting_cmp(const void *a, const void *b) {
    calls++;
    return cmp_int_asc(a, b);
}

int main(void) {
    int nums[20];
    unsigned seed = 12345;
    for (int i = 0; i < 20; ++i) {
        seed = seed * 1103515245u + 12345u;
        nums[i] = (int)((seed >> 16) % 1000);
    }
    qsort(nums, 20, sizeof nums[0], cmp_int_desc);
    printf("desc:");
    for (int i = 0; i < 20; ++i)
        printf(" %d", nums[i]);
    printf("\n");
    qsort(nums, 20, sizeof nums[0], counting_cmp);
    printf("asc: ");
    for (int i = 0; i < 20; ++i)
        printf(" %d", nums[i]);
    printf("\ncomparator was called: %s\n", calls > 0 ? "yes" : "no");
    int key = nums[13];
    int *hit = bsearch(&key, nums, 20, sizeof nums[0], cmp_int_asc);
    printf("bsearch(%d) -> index %ld\n", key, hit ? (long)(hit - nums) : -1L);

    const char *words[] = {"pear", "apple", "fig", "banana", "cherry", "date"};
    qsort(words, 6, sizeof words[0], cmp_str);
    for (int i = 0; i < 6; ++i)
        printf("%s%s", words[i], i < 5 ? "," : "\n");

    struct person people[] = {{"Zoe", 30}, {"Adam", 25}, {"Eve", 30}, {"Bob", 25}, {"Cy", 41}};
    qsort(people, 5, sizeof people[0], cmp_person);
    for (int i = 0; i < 5; ++i)
        printf("%s(%d)%s", people[i].name, people[i].age, i < 4 ? " " : "\n");
    int sorted = 1;
    for (int i = 1; i < 20; ++i)
        sorted &= nums[i - 1] <= nums[i];
    return sorted && hit && *hit == key ? 0 : 1;
}
