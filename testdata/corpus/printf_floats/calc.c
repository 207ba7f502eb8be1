#include <math.h>
double scaled_sum(const double *v, int n, double k) {
    double s = 0;
    for (int i = 0; i < n; ++i)
        s = fma(v[i], k, s);
    return s;
}
