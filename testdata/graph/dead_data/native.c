/* Native, -fdata-sections. dead_ptr is dead data: the only reference to bc.o's bc_var. */
extern int bc_var;
extern int bc_live_var;
int *dead_ptr = &bc_var;
int *live_ptr = &bc_live_var;
