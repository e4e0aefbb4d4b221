/* Kokkos Tools: View labels, kernel labels and deep copies, as the Kokkos
 * library reports them.
 *
 * Kokkos dlopens the library named by KOKKOS_TOOLS_LIBS (4.x) or
 * KOKKOS_PROFILE_LIBRARY (3.x).  The runtime lives in the program itself, so
 * kkrace ships a small tools library (kkr_tools_shim.c) whose kokkosp_*
 * functions call the __kkrace_kokkosp_* functions below; kkr_tools_setup
 * points both variables at it before main.  A tool the user already named is
 * chained: the shim forwards every callback to it. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kkr_rt.h"

void kkr_tools_setup(void) {
  void *marker = dlsym(RTLD_DEFAULT, "kkrace_kokkos_tools_marker");
  Dl_info info;
  if (!marker || !dladdr(marker, &info) || !info.dli_fname)
    return; /* not linked with the tools library: no Kokkos labels */
  const char *vars[] = {"KOKKOS_TOOLS_LIBS", "KOKKOS_PROFILE_LIBRARY"};
  const char *chained = NULL;
  for (size_t i = 0; i < KKR_ARRAY_SIZE(vars); i++) {
    const char *old = getenv(vars[i]);
    if (old && *old && !strstr(old, "libkkrace_kokkos_tools"))
      chained = old;
  }
  if (chained)
    setenv("KKRACE_CHAINED_KOKKOS_TOOLS", chained, 1);
  /* Kokkos 4 warns when both are set: name ours in the one it reads. */
  setenv("KOKKOS_TOOLS_LIBS", info.dli_fname, 1);
  setenv("KOKKOS_PROFILE_LIBRARY", info.dli_fname, 1);
}

KKR_EXPORT void __kkrace_kokkosp_begin_parallel(const char *name) {
  kkr_kokkos_label(name);
}

KKR_EXPORT void __kkrace_kokkosp_allocate(const char *space,
                                          const char *label, const void *ptr,
                                          unsigned long long size) {
  if (!ptr || !size)
    return;
  kkr_views_add((uintptr_t)ptr, size, label, space);
}

KKR_EXPORT void __kkrace_kokkosp_deallocate(const char *space,
                                            const char *label,
                                            const void *ptr,
                                            unsigned long long size) {
  (void)space;
  (void)label;
  if (!ptr)
    return;
  kkr_view_alloc v;
  if (kkr_views_take((uintptr_t)ptr, &v))
    kkr_memory_freed(kkr_tls, v.lo, v.hi - v.lo, 0, 0);
  else if (size)
    kkr_memory_freed(kkr_tls, (uintptr_t)ptr, size, 0, 0);
}

KKR_EXPORT void __kkrace_kokkosp_begin_deep_copy(const char *dst_label,
                                                 const char *src_label) {
  kkr_kokkos_deep_copy(dst_label, src_label);
}
