#pragma once
struct stats { int count; long sum; int min, max; };
void stats_add(struct stats *s, int v);
double stats_mean(const struct stats *s);
int table_value(int i);
const unsigned char *table_bytes(void);
int table_size(void);
unsigned checksum(const unsigned char *p, int n);
