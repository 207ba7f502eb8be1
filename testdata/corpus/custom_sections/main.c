/* Custom named sections: data, read-only data, code and zero-initialised data in sections with
   custom names (some C-identifier names, which become their own output sections, some under
   .rodata./.data./.text. prefixes, which are merged into the standard output sections). */
#include <stdio.h>
#include <string.h>

extern int my_data_values[4];
extern int my_data_more;
extern const char my_rodata[];
extern char my_rw[16];
extern int my_zeroes[32];
int in_my_text(int);
int in_hot_text(int);

__attribute__((section("my_data"))) int main_data = 60;
__attribute__((section("my_text"), noinline)) static int main_text(int x) { return x - 1; }

int main(void) {
    int sum = 0;
    for (int i = 0; i < 4; ++i)
        sum += my_data_values[i];
    sum += my_data_more + main_data;
    int zeros = 0;
    for (int i = 0; i < 32; ++i)
        zeros += my_zeroes[i] == 0;
    strcpy(my_rw, "changed");
    printf("my_data sum=%d rodata=\"%s\" rw=\"%s\" zeros=%d\n", sum, my_rodata, my_rw, zeros);
    printf("in_my_text(6)=%d main_text(6)=%d in_hot_text(6)=%d\n", in_my_text(6), main_text(6),
           in_hot_text(6));
    return sum == 210 && zeros == 32 && in_my_text(6) == 42 ? 0 : 1;
}
