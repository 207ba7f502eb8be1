/* foo goes to V1, bar to V2 (which inherits V1); baz and baz_data are hidden by `local: *`. */
int foo(void) { return 1; }
int bar(void) { return 2; }
int baz(void) { return 3; }
int baz_data = 4;
