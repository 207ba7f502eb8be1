// Native main linked against an archive of mostly-bitcode members: members are selected through
// the bitcode symbol tables, one member is needed only because a bitcode member refers to it, one
// defines a function called only from this native file, one only data, and one is never needed.
#include <stdio.h>

int lib_entry(int x);               // ent.c (bitcode)
int from_native_only(int x);        // only_native.c (bitcode), called from nowhere else
extern const int lib_table[5];      // data_only.c (bitcode): a data symbol selects the member

int main(void) {
  printf("lib_entry(3) = %d\n", lib_entry(3));
  printf("from_native_only(4) = %d\n", from_native_only(4));
  int s = 0;
  for (int i = 0; i < 5; i++) s += lib_table[i];
  printf("lib_table sum = %d\n", s);
  return 0;
}
