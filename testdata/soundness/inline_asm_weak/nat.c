extern int bc_cb(int) __attribute__((weak));
extern int result;
void native_helper(void) { result = bc_cb ? bc_cb(14) : -1; }
