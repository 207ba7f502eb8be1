int from_native_only(int x) { return x * x * x; }
