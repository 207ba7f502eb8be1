extern int bc_cb(int);
extern int result;
void native_helper(void) { result = bc_cb(14); }
