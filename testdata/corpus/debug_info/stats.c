/* C with debug info: a struct, an enum, a static function, a loop with locals. */
enum kind { KIND_EVEN, KIND_ODD };
struct stats {
    long sum;
    int count;
    enum kind last;
};

static enum kind classify(int v) { return v % 2 ? KIND_ODD : KIND_EVEN; }

void stats_add(struct stats *s, int v) {
    s->sum += v;
    s->count++;
    s->last = classify(v);
}
