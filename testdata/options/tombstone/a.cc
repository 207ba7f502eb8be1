// The inline function sq is in both files: the copy of b.cc is discarded, and its debug info
// refers to dead code (tombstone values).
inline int sq(int x){return x*x;}
int f1(int a){return sq(a);}
