/* Kokkos Tools: View labels, kernel labels and deep copies, as the Kokkos
 * library reports them.
 *
 * Kokkos dlopens the library named by KOKKOS_TOOLS_LIBS (4.x) or
 * KOKKOS_PROFILE_LIBRARY (3.x).  The runtime lives in the program itself, so
 * kkrace ships a small tools library (kkr_tools_shim.c) whose kokkosp_*
 * functions call the __kkrace_kokkosp_* functions below; kkr_tools_setup
 * points both variables at it before main (the one beside libkkrace.so when
 * the runtime is preloaded into a Kokkos program not built with kkrace).  A
 * tool the user already named is chained: the shim forwards every callback
 * to it. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kkr_rt.h"

/* Kokkos 3 reads KOKKOS_PROFILE_LIBRARY; Kokkos 4 reads KOKKOS_TOOLS_LIBS and
 * warns about the other.  Which one this process's Kokkos reads is in its
 * read-only data: look for the new name in the objects that hold Kokkos (a
 * shared libkokkoscore, or the program itself when Kokkos is linked
 * statically). */
static const char tools_libs_var[] = "KOKKOS_TOOLS_LIBS";

/* Whether the object holds the name outside kkrace's own copy of it. */
static int has_string(struct dl_phdr_info *info, const char *needle) {
  size_t nlen = strlen(needle);
  for (int i = 0; i < info->dlpi_phnum; i++) {
    const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
    if (ph->p_type != PT_LOAD || (ph->p_flags & PF_W))
      continue;
    const char *p = (const char *)(info->dlpi_addr + ph->p_vaddr);
    const char *end = p + ph->p_filesz;
    while (p < end) {
      const char *m = memmem(p, (size_t)(end - p), needle, nlen);
      if (!m)
        break;
      if (m != needle)
        return 1;
      p = m + 1;
    }
  }
  return 0;
}

/* Which variables the process's Kokkos reads: KOKKOS_TOOLS_LIBS (bit 1),
 * KOKKOS_PROFILE_LIBRARY (bit 2); 0 without Kokkos. */
static int find_tools_libs(struct dl_phdr_info *info, size_t size, void *arg) {
  (void)size;
  const char *name = info->dlpi_name;
  int is_program = !name || !*name;
  if (!is_program && !strstr(name, "kokkoscore"))
    return 0;
  if (has_string(info, tools_libs_var))
    *(int *)arg |= 1;
  if (has_string(info, "KOKKOS_PROFILE_LIBRARY"))
    *(int *)arg |= 2;
  return 0;
}

/* The runtime preloaded into a program not built with kkrace (a Kokkos
 * program built for CUDA): the tools library beside libkkrace.so, if the
 * program holds Kokkos. */
static const char *preloaded_tools_library(int kokkos, char *buf, size_t n) {
  Dl_info self;
  if (!kokkos || !dladdr((void *)preloaded_tools_library, &self) ||
      !self.dli_fname)
    return NULL;
  const char *slash = strrchr(self.dli_fname, '/');
  if (!slash || strncmp(slash + 1, "libkkrace", 9))
    return NULL; /* the runtime is in the program */
  snprintf(buf, n, "%.*s/libkkrace_kokkos_tools.so",
           (int)(slash - self.dli_fname), self.dli_fname);
  return access(buf, R_OK) == 0 ? buf : NULL;
}

void kkr_tools_setup(void) {
  int tools_libs = 0;
  dl_iterate_phdr(find_tools_libs, &tools_libs);
  void *marker = dlsym(RTLD_DEFAULT, "kkrace_kokkos_tools_marker");
  Dl_info info;
  char preloaded[4096];
  const char *lib =
      marker && dladdr(marker, &info) && info.dli_fname
          ? info.dli_fname
          : preloaded_tools_library(tools_libs, preloaded, sizeof preloaded);
  if (!lib)
    return; /* not linked with the tools library: no Kokkos labels */
  const char *vars[] = {tools_libs_var, "KOKKOS_PROFILE_LIBRARY"};
  const char *chained = NULL;
  for (size_t i = 0; i < KKR_ARRAY_SIZE(vars); i++) {
    const char *old = getenv(vars[i]);
    if (old && *old && !strstr(old, "libkkrace_kokkos_tools"))
      chained = old;
  }
  if (chained)
    setenv("KKRACE_CHAINED_KOKKOS_TOOLS", chained, 1);
  if (tools_libs & 1) {
    setenv(tools_libs_var, lib, 1);
    unsetenv("KOKKOS_PROFILE_LIBRARY");
  } else {
    setenv("KOKKOS_PROFILE_LIBRARY", lib, 1);
  }
}

KKR_EXPORT void __kkrace_kokkosp_begin_parallel(const char *name) {
  kkr_kokkos_label(name);
  kkr_gpu_kokkos_dispatch(name);
}

KKR_EXPORT void __kkrace_kokkosp_end_parallel(void) {
  kkr_gpu_kokkos_dispatch(NULL);
}

/* The Kokkos Tools interface version tells Kokkos releases apart: from
 * 3.6 on (20211015), HostSpace deallocation fences globally first. */
static uint64_t tools_version;

KKR_EXPORT void __kkrace_kokkosp_init(uint64_t version) {
  tools_version = version;
}

KKR_EXPORT void __kkrace_kokkosp_allocate(const char *space,
                                          const char *label, const void *ptr,
                                          unsigned long long size) {
  if (!ptr || !size)
    return;
  /* Device memory (Kokkos' CUDA, HIP, SYCL spaces) is not the host's to
   * read: no looking for the header there; the allocation is named from
   * where it may start (the header) to where its data may end. */
  static const char *const device_spaces[] = {"Cuda", "HIP", "SYCLDeviceUSM",
                                              "OpenMPTarget", "OpenACC"};
  for (size_t i = 0; space && i < KKR_ARRAY_SIZE(device_spaces); i++)
    if (!strcmp(space, device_spaces[i])) {
      kkr_views_add_raw((uintptr_t)ptr, size + 128, label, space);
      kkr_gpu_trace_view(space, label, (uintptr_t)ptr, size);
      return;
    }
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
  /* Check the free while the View is still known, so that its report names
   * the View; then forget the allocation. */
  if (tools_version >= 20211015 && space && !strcmp(space, "Host"))
    kkr_kokkos_fence_all_now(kkr_tls);
  kkr_view_alloc v;
  if (kkr_views_find((uintptr_t)ptr + 128, &v) || kkr_views_find((uintptr_t)ptr, &v))
    kkr_memory_freed(kkr_tls, v.lo, v.hi - v.lo, 0, 0);
  else if (size)
    kkr_memory_freed(kkr_tls, (uintptr_t)ptr, size, 0, 0);
  kkr_views_take((uintptr_t)ptr, &v);
}

KKR_EXPORT void __kkrace_kokkosp_begin_deep_copy(const char *dst_label,
                                                 const char *src_label,
                                                 const void *dst,
                                                 const void *src,
                                                 uint64_t size) {
  kkr_kokkos_deep_copy(dst_label, src_label, (uintptr_t)dst, (uintptr_t)src,
                       size);
}
