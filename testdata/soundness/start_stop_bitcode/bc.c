__attribute__((section("myset"), used)) static int a = 1;
__attribute__((section("myset"))) int b = 2;
__attribute__((section("myset"))) int c = 3;
