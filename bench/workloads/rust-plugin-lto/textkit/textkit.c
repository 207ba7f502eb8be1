/* textkit: a small C text-processing library, linked as a native static library (no LTO,
 * -ffunction-sections) into the `rust-plugin-lto` workload of scripts/bench.
 *
 * Like many C libraries it leaves allocation, output and reporting to its host: the program
 * that links it must define the host_* functions below. bench-textkit defines them in Rust
 * (crate textkit-host), so they are LLVM bitcode at link time. The program calls only some
 * of the library's entry points; the others are dead in the link, and so are the host
 * functions only they call.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* The host interface. */
extern void *host_alloc(size_t size);
extern void host_free(void *ptr, size_t size);
extern void host_emit(const char *text, size_t len);
extern void host_sort_lines(const char **lines, size_t *lens, size_t count);
extern int host_parse_number(const char *text, size_t len, double *out);
extern void host_histogram_report(const uint64_t *buckets, size_t count, double low,
                                  double width);
extern uint64_t host_hash(const char *text, size_t len);
extern void host_table_report(const char *const *keys, const size_t *key_lens,
                              const uint64_t *counts, size_t count);

static int is_word_char(unsigned char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           c == '_' || c >= 0x80;
}

/* Number of words (runs of letters, digits, '_' and non-ASCII bytes). */
size_t tk_word_count(const char *text, size_t len) {
    size_t words = 0;
    int in_word = 0;
    for (size_t i = 0; i < len; i++) {
        int w = is_word_char((unsigned char)text[i]);
        if (w && !in_word)
            words++;
        in_word = w;
    }
    return words;
}

/* Number of lines (a last line without '\n' counts). */
size_t tk_line_count(const char *text, size_t len) {
    size_t lines = 0;
    for (size_t i = 0; i < len; i++)
        if (text[i] == '\n')
            lines++;
    return lines + (len > 0 && text[len - 1] != '\n');
}

static const char B64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/* Emits the base64 encoding of data, in lines of at most 76 characters. */
void tk_base64_emit(const unsigned char *data, size_t len) {
    size_t out_len = (len + 2) / 3 * 4;
    char *out = host_alloc(out_len + out_len / 76 + 2);
    size_t o = 0, col = 0;
    for (size_t i = 0; i < len; i += 3) {
        uint32_t v = (uint32_t)data[i] << 16;
        if (i + 1 < len)
            v |= (uint32_t)data[i + 1] << 8;
        if (i + 2 < len)
            v |= data[i + 2];
        out[o++] = B64[(v >> 18) & 63];
        out[o++] = B64[(v >> 12) & 63];
        out[o++] = i + 1 < len ? B64[(v >> 6) & 63] : '=';
        out[o++] = i + 2 < len ? B64[v & 63] : '=';
        col += 4;
        if (col == 76) {
            out[o++] = '\n';
            col = 0;
        }
    }
    if (col)
        out[o++] = '\n';
    host_emit(out, o);
    host_free(out, out_len + out_len / 76 + 2);
}

/* Emits a classic hex dump (offset, 16 bytes in hex, printable characters). */
void tk_hexdump(const unsigned char *data, size_t len) {
    static const char hex[] = "0123456789abcdef";
    char line[80];
    for (size_t off = 0; off < len; off += 16) {
        size_t n = len - off < 16 ? len - off : 16, p = 0;
        for (int s = 28; s >= 0; s -= 4)
            line[p++] = hex[(off >> s) & 15];
        line[p++] = ' ';
        for (size_t i = 0; i < 16; i++) {
            line[p++] = ' ';
            line[p++] = i < n ? hex[data[off + i] >> 4] : ' ';
            line[p++] = i < n ? hex[data[off + i] & 15] : ' ';
        }
        line[p++] = ' ';
        line[p++] = ' ';
        for (size_t i = 0; i < n; i++)
            line[p++] = data[off + i] >= 32 && data[off + i] < 127 ? (char)data[off + i] : '.';
        line[p++] = '\n';
        host_emit(line, p);
    }
}

/* Splits text into lines; the caller frees *lines and *lens with host_free. */
static size_t split_lines(const char *text, size_t len, const char ***lines, size_t **lens) {
    size_t n = tk_line_count(text, len), k = 0, start = 0;
    *lines = host_alloc(n * sizeof **lines + 1);
    *lens = host_alloc(n * sizeof **lens + 1);
    for (size_t i = 0; i <= len && k < n; i++) {
        if (i == len || text[i] == '\n') {
            (*lines)[k] = text + start;
            (*lens)[k] = i - start;
            k++;
            start = i + 1;
        }
    }
    return k;
}

/* Emits the lines of text in the host's order (sort -V style in bench-textkit). */
void tk_sort_lines(const char *text, size_t len) {
    const char **lines;
    size_t *lens;
    size_t n = split_lines(text, len, &lines, &lens);
    host_sort_lines(lines, lens, n);
    for (size_t i = 0; i < n; i++) {
        host_emit(lines[i], lens[i]);
        host_emit("\n", 1);
    }
    host_free(lines, n * sizeof *lines + 1);
    host_free(lens, n * sizeof *lens + 1);
}

/* Histogram of one comma-separated column's numbers over `buckets` equal-width buckets;
 * returns how many values were counted, -1 if there are none. */
long tk_csv_histogram(const char *text, size_t len, size_t column, size_t buckets) {
    const char **lines;
    size_t *lens;
    size_t n = split_lines(text, len, &lines, &lens);
    double *values = host_alloc(n * sizeof *values + 1);
    size_t count = 0;
    for (size_t i = 0; i < n; i++) {
        const char *f = lines[i], *end = lines[i] + lens[i];
        for (size_t c = 0; c < column && f < end; c++) {
            const char *comma = memchr(f, ',', (size_t)(end - f));
            f = comma ? comma + 1 : end;
        }
        const char *comma = memchr(f, ',', (size_t)(end - f));
        double v;
        if (host_parse_number(f, (size_t)((comma ? comma : end) - f), &v))
            values[count++] = v;
    }
    long result = -1;
    if (count > 0 && buckets > 0) {
        double lo = values[0], hi = values[0];
        for (size_t i = 1; i < count; i++) {
            lo = values[i] < lo ? values[i] : lo;
            hi = values[i] > hi ? values[i] : hi;
        }
        double width = hi > lo ? (hi - lo) / (double)buckets : 1.0;
        uint64_t *hist = host_alloc(buckets * sizeof *hist);
        memset(hist, 0, buckets * sizeof *hist);
        for (size_t i = 0; i < count; i++) {
            size_t b = (size_t)((values[i] - lo) / width);
            hist[b < buckets ? b : buckets - 1]++;
        }
        host_histogram_report(hist, buckets, lo, width);
        host_free(hist, buckets * sizeof *hist);
        result = (long)count;
    }
    host_free(values, n * sizeof *values + 1);
    host_free(lines, n * sizeof *lines + 1);
    host_free(lens, n * sizeof *lens + 1);
    return result;
}

/* Counts distinct words with an open-addressing hash table (hashes from the host) and has
 * the host report them; returns the number of distinct words. */
size_t tk_word_table(const char *text, size_t len) {
    size_t cap = 64, used = 0;
    const char **keys = host_alloc(cap * sizeof *keys);
    size_t *klens = host_alloc(cap * sizeof *klens);
    uint64_t *counts = host_alloc(cap * sizeof *counts);
    memset(keys, 0, cap * sizeof *keys);
    for (size_t i = 0; i < len;) {
        while (i < len && !is_word_char((unsigned char)text[i]))
            i++;
        size_t s = i;
        while (i < len && is_word_char((unsigned char)text[i]))
            i++;
        if (i == s)
            break;
        if (2 * (used + 1) > cap) {
            size_t ncap = cap * 2;
            const char **nk = host_alloc(ncap * sizeof *nk);
            size_t *nl = host_alloc(ncap * sizeof *nl);
            uint64_t *nc = host_alloc(ncap * sizeof *nc);
            memset(nk, 0, ncap * sizeof *nk);
            for (size_t j = 0; j < cap; j++) {
                if (!keys[j])
                    continue;
                size_t h = (size_t)host_hash(keys[j], klens[j]) & (ncap - 1);
                while (nk[h])
                    h = (h + 1) & (ncap - 1);
                nk[h] = keys[j], nl[h] = klens[j], nc[h] = counts[j];
            }
            host_free(keys, cap * sizeof *keys);
            host_free(klens, cap * sizeof *klens);
            host_free(counts, cap * sizeof *counts);
            keys = nk, klens = nl, counts = nc, cap = ncap;
        }
        size_t h = (size_t)host_hash(text + s, i - s) & (cap - 1);
        while (keys[h] && !(klens[h] == i - s && memcmp(keys[h], text + s, i - s) == 0))
            h = (h + 1) & (cap - 1);
        if (!keys[h]) {
            keys[h] = text + s, klens[h] = i - s, counts[h] = 0;
            used++;
        }
        counts[h]++;
    }
    size_t k = 0;
    for (size_t j = 0; j < cap; j++)
        if (keys[j])
            keys[k] = keys[j], klens[k] = klens[j], counts[k] = counts[j], k++;
    host_table_report(keys, klens, counts, k);
    host_free(keys, cap * sizeof *keys);
    host_free(klens, cap * sizeof *klens);
    host_free(counts, cap * sizeof *counts);
    return used;
}
