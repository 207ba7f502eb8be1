/* References a symbol the library hides: the link must fail. */
int internal_fn(void);
int main(void) { return internal_fn(); }
