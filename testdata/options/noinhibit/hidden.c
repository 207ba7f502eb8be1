/* Uses a hidden, a protected and an internal symbol nothing defines: lld names the visibility
   and refuses them even where it only warns about default-visibility ones. */
__attribute__((visibility("hidden"))) int h(void);
__attribute__((visibility("protected"))) extern int p;
__attribute__((visibility("internal"))) int in(void);
int use_hidden(void) { return h() + p + in(); }
