/* libcodec.a comes after libutil.a on the command line but needs util_upper from it: this only
   links because util_str.o was already loaded from libutil.a for main.c. */
void util_upper(char *s);
static char name[] = "rle codec";
const char *codec_name(void) {
    util_upper(name);
    return name;
}
