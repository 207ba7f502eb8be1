/* A static and a hidden variable: in an executable both are locals of this file. */
static int first_static = 1;
__attribute__((visibility("hidden"))) int first_hidden = 2;
int first(void) { return first_static + first_hidden; }
