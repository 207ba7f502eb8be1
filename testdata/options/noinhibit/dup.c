/* A second main. */
int main(void) { return 0; }
