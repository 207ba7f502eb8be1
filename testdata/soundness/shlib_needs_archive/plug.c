extern int cb_from_archive(void);
int plug(void) { return cb_from_archive() + 1; }
