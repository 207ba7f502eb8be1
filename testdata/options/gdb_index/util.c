/* gdb_index: a second unit (compiled -ffunction-sections), with a static function, a
   typedef and a function nothing calls, which --gc-sections removes (its range goes too). */
typedef unsigned long word;

static word twice(word v) { return v * 2; }

int scale(int v) { return (int)twice((word)v) + 2; }

int unused_helper(int v) { return v * 7 + (int)twice(3); }
