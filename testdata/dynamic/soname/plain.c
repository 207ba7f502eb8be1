const char *plain_id(void) { return "libplain"; }
