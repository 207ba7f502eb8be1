/* Native, -ffunction-sections. A constructor (in .init_array, a root) calls bc.o's
   bc_from_ctor(); nothing else refers to it. */
void bc_from_ctor(void);
__attribute__((constructor)) static void native_ctor(void) { bc_from_ctor(); }
