/* Strong definitions override the weak ones in defaults.c regardless of link order. */
const char *greeting(void) { return "strong greeting"; }
int config_level = 3;
