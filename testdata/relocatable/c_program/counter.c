/* -fcommon: `counter` is common here and in main.c; `big` only here. */
int counter;
int big[64];
void count_more(int n) {
  counter += n;
  big[63] = n;
  counter += big[63] - n;
}
