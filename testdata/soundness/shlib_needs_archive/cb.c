int cb_from_archive(void) { return 41; }
