/* printf of floating point and libm: every input goes through a volatile so both compilers call
   libm at run time (no constant folding), and results are printed in several formats. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static volatile double inputs[] = {0.5, 1.0, 2.0, 3.141592653589793, 10.0, -7.25, 1e-10, 12345.678};

double scaled_sum(const double *v, int n, double k); /* calc.c */

int main(void) {
    double v[8];
    for (int i = 0; i < 8; ++i)
        v[i] = inputs[i];
    for (int i = 0; i < 8; ++i) {
        double x = v[i];
        printf("x=%-12g sin=%.9f cos=%.9f exp=%.6e sqrt|x|=%.9f\n", x, sin(x), cos(x), exp(x / 10),
               sqrt(fabs(x)));
    }
    printf("pow(2,0.5)=%.15f log(10)=%.15f atan2(1,1)*4=%.15f\n", pow(v[2], v[0]), log(v[4]),
           atan2(v[1], v[1]) * 4);
    printf("floor=%.1f ceil=%.1f round=%.1f trunc=%.1f fmod=%.4f hypot=%.6f\n", floor(v[5]),
           ceil(v[5]), round(v[5]), trunc(v[5]), fmod(v[7], v[3]), hypot(v[2], v[4]));
    printf("formats: %e %E %g %G %a %.0f %+08.3f %-8.2f|\n", v[7], v[6], v[6], v[7], v[0], v[5],
           v[3], v[5]);
    float f = (float)v[3];
    long double ld = (long double)v[3] * 2;
    printf("float=%.7f long double=%.18Lf\n", (double)f, ld);
    printf("strtod=%.17g atof=%.3f\n", strtod("0.1", NULL), atof("-2.5e3"));
    printf("nan=%f inf=%f -inf=%f isnan=%d\n", NAN, INFINITY, -INFINITY, isnan(v[0] / 0.0 * 0.0));
    double s = scaled_sum(v, 8, 0.5);
    printf("scaled_sum=%.10f\n", s);
    return fabs(s - 6177.534796326845) < 1e-6 ? 0 : 1;
}
