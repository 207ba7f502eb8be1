__thread short tls_other_tu = 5;
short *other_tu_addr(void) { return &tls_other_tu; }
