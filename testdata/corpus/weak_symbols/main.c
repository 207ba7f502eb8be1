/* Weak symbols: weak definitions overridden by strong ones from another TU, weak definitions that
   stay, undefined weak references that resolve to NULL (functions and data), and a weak reference
   that must not pull its definition out of an archive. */
#include <stdio.h>

const char *greeting(void);
const char *farewell(void);
const char *default_greeting_address_check(void);
extern int config_level, config_limit;

extern int missing_function(void) __attribute__((weak));
extern int missing_data __attribute__((weak));
extern int optional_feature(void) __attribute__((weak));

int main(void) {
    int failures = 0;
    printf("greeting: %s\n", greeting());
    printf("greeting seen from defaults.c: %s\n", default_greeting_address_check());
    printf("farewell: %s\n", farewell());
    printf("config_level=%d config_limit=%d\n", config_level, config_limit);
    printf("missing_function is %s\n", missing_function ? "defined" : "NULL");
    printf("&missing_data is %s\n", &missing_data ? "non-NULL" : "NULL");
    printf("optional_feature is %s\n", optional_feature ? "linked" : "NULL");
    if (missing_function || &missing_data || optional_feature)
        failures++;
    if (config_level != 3 || config_limit != 10)
        failures++;
    return failures;
}
