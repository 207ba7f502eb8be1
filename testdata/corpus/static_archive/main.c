/* Static archives made with `ar rcs`: members are loaded only when they define a needed symbol
   (transitively, in command-line order), unreferenced members are not loaded (their constructors
   do not run), and a later archive can use members already loaded from an earlier one. */
#include <stdio.h>

int app_compute(void);
const char *app_codec(void);
void util_upper(char *s);

int main(void) {
    char word[] = "archive";
    util_upper(word);
    int v = app_compute();
    printf("%s %d %s\n", word, v, app_codec());
    return v == 60 ? 0 : 1;
}
