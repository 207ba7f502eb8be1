const char *where(void) { return "found through the run path"; }
