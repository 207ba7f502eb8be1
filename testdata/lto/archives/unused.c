// Never needed: linking this member would print a line and define unused_marker.
#include <stdio.h>
int unused_marker = 1;
int never_called(void) { return unused_marker; }
__attribute__((constructor)) static void announce(void) { puts("unused member was linked!"); }
