#include "opts.h"
void stats_add(struct stats *s, int v) {
  if (s->count == 0 || v < s->min) s->min = v;
  if (s->count == 0 || v > s->max) s->max = v;
  s->count++;
  s->sum += v;
}
double stats_mean(const struct stats *s) { return s->count ? (double)s->sum / s->count : 0.0; }
unsigned checksum(const unsigned char *p, int n) {
  unsigned h = 2166136261u;
  for (int i = 0; i < n; i++) h = (h ^ p[i]) * 16777619u;
  return h;
}
