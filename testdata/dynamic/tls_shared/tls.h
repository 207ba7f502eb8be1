/* TLS defined in libtlsdemo.so and used from the program and from a dlopen'ed plugin. */
#pragma once
#ifdef __cplusplus
#include <string>
extern "C" {
#endif

extern __thread int lib_tls_int;           /* .tdata */
extern __thread char lib_tls_buf[256];     /* .tbss */
extern __thread long lib_tls_arr[4];       /* .tdata, 64-byte aligned */
int *lib_tls_int_addr(void);
int lib_tls_private_next(void);            /* a static (local-dynamic) TLS variable */
long lib_tls_sum(void);
int lib_tracker_uses(void);
int lib_trackers_constructed(void);

/* gd.c (global-dynamic) and desc.c (TLS descriptors), both built -fPIC into the program */
int *gd_addr(void);
void gd_add(int v);
int *desc_addr(void);
void desc_add(int v);

#ifdef __cplusplus
}
struct Tracker {
  std::string name;
  int uses;
  Tracker();
  ~Tracker();
};
extern thread_local Tracker lib_tracker; /* dynamic initialisation: TLS wrapper and init */
#endif
