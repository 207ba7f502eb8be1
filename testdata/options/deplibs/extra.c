/* libextra.a */
int extra(void) { return 11; }
