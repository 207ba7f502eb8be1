/* An archive member nothing needs (loaded only by --whole-archive); also the shared library of
   the error cases (-fPIC). */
int never_called(int x) { return x * 17; }
