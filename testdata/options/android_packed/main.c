/* Every kind of group Android's packed format (APS2) has, as lld forms them:
 * - a run of 12 relative relocations one word apart (`run`),
 * - relative relocations with gaps between them (`sparse`, `odd_places`),
 * - the same symbolic relocation, addend 0, at 4 places (`same_symbol`),
 * - symbolic relocations with addends (`with_addends`) and GLOB_DATs (code's GOT loads). */
extern int ext_counter;
extern int ext_array[8];
int ext_function(int);

static int local_data[16];
int *run[12] = {&local_data[0], &local_data[1], &local_data[2],  &local_data[3],
                &local_data[4], &local_data[5], &local_data[6],  &local_data[7],
                &local_data[8], &local_data[9], &local_data[10], &local_data[11]};
struct spaced {
    int *p;
    long gap[3];
};
struct spaced sparse[4] = {{&local_data[12]}, {&local_data[13]}, {&local_data[14]}, {&local_data[15]}};
int *same_symbol[4] = {&ext_counter, &ext_counter, &ext_counter, &ext_counter};
int *with_addends[3] = {&ext_array[1], &ext_array[3], &ext_array[5]};
int (*function_pointer)(int) = ext_function;

int main(void) {
    int sum = ext_counter + ext_array[2] + ext_function(3);
    for (int i = 0; i < 12; i++)
        sum += *run[i];
    return sum + *sparse[0].p + *same_symbol[2] + *with_addends[1] + function_pointer(1);
}
