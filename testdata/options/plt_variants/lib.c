/* libpv.so: functions the programs call through their PLT. */
int pv_add(int a, int b) { return a + b; }
int pv_mul(int a, int b) { return a * b; }
