/* Bitcode. bc_var is referenced only by native.o's dead dead_ptr. */
int bc_var = 42;
int bc_live_var = 7;
