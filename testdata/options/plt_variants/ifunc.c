/* Two IFUNCs: `fa` is called (an .iplt entry), `fb`'s address is taken (a canonical .iplt
   entry). The resolvers pick the implementation at startup. */
static int fa_impl(void) { return 11; }
static int fb_impl(void) { return 22; }
static void *fa_resolver(void) { return (void *)fa_impl; }
static void *fb_resolver(void) { return (void *)fb_impl; }
int fa(void) __attribute__((ifunc("fa_resolver")));
int fb(void) __attribute__((ifunc("fb_resolver")));
