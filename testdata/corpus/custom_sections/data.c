/* Data and code placed in custom named sections from a second TU. */
__attribute__((section("my_data"))) int my_data_values[4] = {10, 20, 30, 40};
__attribute__((section("my_data"))) int my_data_more = 50;
__attribute__((section(".rodata.my_table"))) const char my_rodata[] = "read-only custom";
__attribute__((section(".data.my_rw"))) char my_rw[16] = "writable custom";
__attribute__((section("my_text"), noinline)) int in_my_text(int x) { return x * 7; }
__attribute__((section(".text.hot_path"), noinline)) int in_hot_text(int x) { return x + 1000; }
__attribute__((section("my_bss"))) int my_zeroes[32];
