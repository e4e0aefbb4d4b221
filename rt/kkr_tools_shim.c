/* libkkrace_kokkos_tools.so: the Kokkos Tools library that Kokkos loads.
 *
 * The kkrace runtime is linked into the program; Kokkos looks its callbacks
 * up with dlsym in the library it loads, so this library defines them and
 * forwards to the runtime (__kkrace_kokkosp_*, exported by the program).  A
 * tool named by the user before kkrace took the variable
 * (KKRACE_CHAINED_KOKKOS_TOOLS) still gets every callback.
 *
 * Ground rule: this file includes no kkrace header; it is loaded into
 * programs built without kkrace too, where the runtime symbols are absent
 * (weak) and it does nothing. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define EXPORT __attribute__((visibility("default")))

typedef struct {
  char name[64];
} SpaceHandle;

typedef struct {
  bool requires_global_fencing;
  bool padding[255];
} ToolSettings;

EXPORT int kkrace_kokkos_tools_marker;

/* The runtime, in the program or preloaded. */
extern void __kkrace_kokkosp_begin_parallel(const char *name)
    __attribute__((weak));
extern void __kkrace_kokkosp_end_parallel(void) __attribute__((weak));
extern void __kkrace_kokkosp_allocate(const char *space, const char *label,
                                      const void *ptr, unsigned long long size)
    __attribute__((weak));
extern void __kkrace_kokkosp_deallocate(const char *space, const char *label,
                                        const void *ptr,
                                        unsigned long long size)
    __attribute__((weak));
extern void __kkrace_kokkosp_init(uint64_t version) __attribute__((weak));
extern void __kkrace_kokkosp_begin_deep_copy(const char *dst_label,
                                             const char *src_label,
                                             const void *dst, const void *src,
                                             uint64_t size)
    __attribute__((weak));

/* ---- The chained tool --------------------------------------------------- */

static void *chained;

static void *next_fn(const char *name) {
  return chained ? dlsym(chained, name) : NULL;
}

#define FORWARD(name, sig, ...)          \
  do {                                   \
    static int looked;                   \
    static void *fn;                     \
    if (!looked) {                       \
      fn = next_fn(name);                \
      looked = 1;                        \
    }                                    \
    if (fn)                              \
      ((void(*) sig)fn)(__VA_ARGS__);    \
  } while (0)

EXPORT void kokkosp_init_library(int load_seq, uint64_t version,
                                 uint32_t ndevices, void *devices) {
  if (__kkrace_kokkosp_init)
    __kkrace_kokkosp_init(version);
  const char *list = getenv("KKRACE_CHAINED_KOKKOS_TOOLS");
  if (list && *list) {
    char first[4096];
    size_t n = strcspn(list, ";");
    if (n < sizeof first) {
      memcpy(first, list, n);
      first[n] = 0;
      chained = dlopen(first, RTLD_NOW | RTLD_LOCAL);
    }
  }
  FORWARD("kokkosp_init_library", (int, uint64_t, uint32_t, void *),
          load_seq + 1, version, ndevices, devices);
}

EXPORT void kokkosp_finalize_library(void) {
  FORWARD("kokkosp_finalize_library", (void));
}

EXPORT void kokkosp_request_tool_settings(uint32_t num_actions,
                                          ToolSettings *settings) {
  /* kkrace models fences itself; Kokkos need not fence around kernels. */
  if (settings)
    settings->requires_global_fencing = false;
  FORWARD("kokkosp_request_tool_settings", (uint32_t, ToolSettings *),
          num_actions, settings);
}

#define PARALLEL(kind)                                                     \
  EXPORT void kokkosp_begin_parallel_##kind(const char *name,              \
                                            uint32_t dev, uint64_t *kid) { \
    if (__kkrace_kokkosp_begin_parallel)                                   \
      __kkrace_kokkosp_begin_parallel(name);                               \
    FORWARD("kokkosp_begin_parallel_" #kind,                               \
            (const char *, uint32_t, uint64_t *), name, dev, kid);         \
  }                                                                        \
  EXPORT void kokkosp_end_parallel_##kind(uint64_t kid) {                  \
    if (__kkrace_kokkosp_end_parallel)                                     \
      __kkrace_kokkosp_end_parallel();                                     \
    FORWARD("kokkosp_end_parallel_" #kind, (uint64_t), kid);               \
  }
PARALLEL(for)
PARALLEL(reduce)
PARALLEL(scan)

EXPORT void kokkosp_allocate_data(SpaceHandle space, const char *label,
                                  const void *ptr, uint64_t size) {
  if (__kkrace_kokkosp_allocate)
    __kkrace_kokkosp_allocate(space.name, label, ptr, size);
  FORWARD("kokkosp_allocate_data",
          (SpaceHandle, const char *, const void *, uint64_t), space, label,
          ptr, size);
}

EXPORT void kokkosp_deallocate_data(SpaceHandle space, const char *label,
                                    const void *ptr, uint64_t size) {
  if (__kkrace_kokkosp_deallocate)
    __kkrace_kokkosp_deallocate(space.name, label, ptr, size);
  FORWARD("kokkosp_deallocate_data",
          (SpaceHandle, const char *, const void *, uint64_t), space, label,
          ptr, size);
}

EXPORT void kokkosp_begin_deep_copy(SpaceHandle dst_space,
                                    const char *dst_label, const void *dst,
                                    SpaceHandle src_space,
                                    const char *src_label, const void *src,
                                    uint64_t size) {
  if (__kkrace_kokkosp_begin_deep_copy)
    __kkrace_kokkosp_begin_deep_copy(dst_label, src_label, dst, src, size);
  FORWARD("kokkosp_begin_deep_copy",
          (SpaceHandle, const char *, const void *, SpaceHandle, const char *,
           const void *, uint64_t),
          dst_space, dst_label, dst, src_space, src_label, src, size);
}

EXPORT void kokkosp_end_deep_copy(void) {
  FORWARD("kokkosp_end_deep_copy", (void));
}
