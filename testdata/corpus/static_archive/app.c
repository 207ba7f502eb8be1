/* A direct object that depends on archive members. */
int util_gcd(int a, int b);
int util_lcm(int a, int b);
const char *codec_name(void);
int app_compute(void) { return util_lcm(util_gcd(84, 36), 10); }
const char *app_codec(void) { return codec_name(); }
