struct item {
  const char *name;
  int value;
};
extern struct item __start_gc_items[], __stop_gc_items[];
