/* Compiled with -gz=zstd (clang) or -gz=zlib (gcc). */
struct rect {
    int w, h;
};

int area(const struct rect *r) { return r->w * r->h; }

const char *shape_name(int sides) {
    switch (sides) {
    case 3:
        return "triangle";
    case 4:
        return "rectangle";
    default:
        return "polygon";
    }
}
