/* Calls g, which nothing defines. */
int g(void);
int main(void) { return g(); }
