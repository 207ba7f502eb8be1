extern void bc_hook(void);
unsigned __int128 __udivti3(unsigned __int128 n, unsigned __int128 d) {
  bc_hook();
  unsigned __int128 q = 0, r = 0;
  for (int i = 127; i >= 0; i--) {
    r = (r << 1) | ((n >> i) & 1);
    if (r >= d) { r -= d; q |= (unsigned __int128)1 << i; }
  }
  return q;
}
