int bar(void);
int main(void) { return bar(); }
