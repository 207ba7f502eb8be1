/* Linked -shared with --dynamic-list=lib.list: every symbol is still exported, but only the
   listed ones can be preempted; the others bind locally (as with -Bsymbolic). */
int listed_hook(void) { return 1; }
int unlisted_hook(void) { return 10; }
int lib_calls_hooks(void) { return listed_hook() * 1000 + unlisted_hook(); }
