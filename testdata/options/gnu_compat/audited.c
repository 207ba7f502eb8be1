/* A library carrying DT_AUDIT (linked by GNU ld with --audit), which GNU ld passes on to what
   links against it as DT_DEPAUDIT. */
int audited(void) { return 7; }
