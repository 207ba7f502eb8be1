/* Helpers with locals, loops and a few types, for `.debug_info`, `.debug_line` and friends. */
struct point {
    long x, y;
    const char *label;
};

enum shape { SQUARE, RECTANGLE, TRIANGLE, CIRCLE, POLYGON };

struct figure {
    enum shape kind;
    struct point corners[4];
    double weight;
    unsigned flags;
};

static int step(int i, int acc) {
    if (i % 3 == 0)
        return acc + i * 2;
    if (i % 3 == 1)
        return acc - i;
    return acc ^ i;
}

int compute(int n) {
    int acc = 0;
    for (int i = 0; i < n; i++)
        acc = step(i, acc);
    return acc;
}

long area(const struct point *a, const struct point *b) {
    struct figure f = {RECTANGLE, {{a->x, a->y, a->label}, {b->x, b->y, b->label}}, 1.5, 3};
    long w = f.corners[1].x - f.corners[0].x;
    long h = f.corners[1].y - f.corners[0].y;
    return w * h;
}
