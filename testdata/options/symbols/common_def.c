/* The real definition of x, in an archive member nothing else needs. */
int x = 5;

int other(void) { return 1; }
