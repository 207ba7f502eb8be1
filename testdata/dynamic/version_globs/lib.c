int api_open(void) { return 1; }
int api_close(void) { return 2; }
int api_read(void) { return 3; }
int lib_a1(void) { return 4; }
int lib_b2(void) { return 5; }
int lib_ab(void) { return 6; }
int lib_c3(void) { return 7; }
int lib_a12(void) { return 8; }
int internal_x(void) { return 9; }
int api_data = 10;
