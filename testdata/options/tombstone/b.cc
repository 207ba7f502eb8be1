// The second copy of the inline sq (see a.cc).
inline int sq(int x){return x*x;}
int f2(int a){return sq(a)+1;}
int main(){return f2(1)-2;}
