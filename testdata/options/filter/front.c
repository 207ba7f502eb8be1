/* The filter library: linked with DT_FILTER libimpl.so and libimpl2.so (and DT_AUXILIARY
   entries naming libraries that do not exist). The filtee's answer() replaces this one. */
int answer(void) { return 1; }
