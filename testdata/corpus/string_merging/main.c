/* String merging: identical literals in three TUs read back correctly whether or not they were
   merged (pointer equality is never assumed), wide strings (.rodata.str4.4), merged floating-point
   constants (.rodata.cst8), an embedded NUL, and the empty string. */
#include <stdio.h>
#include <string.h>
#include <wchar.h>

const char *a_hello(void), *a_world(void), *a_long(void);
const char *b_hello(void), *b_world(void), *b_long(void), *b_embedded_nul(void), *b_empty(void);
const wchar_t *a_wide(void), *b_wide(void);
double a_constant(void), b_constant(void);
extern const char a_array[];

int main(void) {
    int failures = 0;
    const char *mine = "hello world";
    const char *strs[][2] = {{a_hello(), b_hello()}, {a_world(), b_world()}, {a_long(), b_long()}};
    for (int i = 0; i < 3; ++i) {
        printf("%d: \"%s\" / \"%s\" equal=%d\n", i, strs[i][0], strs[i][1],
               strcmp(strs[i][0], strs[i][1]) == 0);
        failures += strcmp(strs[i][0], strs[i][1]) != 0;
    }
    failures += strcmp(mine, a_hello()) != 0 || strlen(a_world()) != 5;
    printf("wide: %ls (%zu) equal=%d\n", a_wide(), wcslen(b_wide()), wcscmp(a_wide(), b_wide()) == 0);
    failures += wcscmp(a_wide(), L"wide literal") != 0;
    printf("constants: %.15f %.15f\n", a_constant(), b_constant());
    failures += a_constant() != b_constant();
    const char *e = b_embedded_nul();
    printf("embedded: \"%s\" then \"%s\"; empty length %zu; array \"%s\"\n", e, e + 7,
           strlen(b_empty()), a_array);
    failures += strcmp(e + 7, "after") != 0;
    return failures;
}
