/* Host synchronization (rt/kkr_sync.c): which callers' locks the graph
 * follows. */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <dlfcn.h>
#include <link.h>

#include "kkr_rt.h"

static void program_function(void) {}

/* An address inside the library that handle names: its ELF header. */
static uintptr_t inside(void *handle) {
  struct link_map *map = NULL;
  cr_assert_eq(dlinfo(handle, RTLD_DI_LINKMAP, &map), 0, "%s", dlerror());
  return (uintptr_t)map->l_addr + 16;
}

/* Locks taken by the program order its threads; those that the CUDA
 * libraries or kkrace's own modules take inside their calls do not (a
 * module is known by its file name). */
Test(sync, foreign_callers) {
  cr_assert_eq(kkr_sync_caller((uintptr_t)program_function), KKR_CALLER_PROGRAM);
  /* (Asked twice: the second answer comes from the table.) */
  cr_assert_eq(kkr_sync_caller((uintptr_t)program_function), KKR_CALLER_PROGRAM);
  void *h = dlopen(KKR_TEST_FOREIGN_LIB, RTLD_NOW);
  cr_assert_not_null(h, "%s", dlerror());
  void *in_lib = dlsym(h, "kokkosp_init_library");
  cr_assert_not_null(in_lib);
  cr_assert_eq(kkr_sync_caller((uintptr_t)in_lib), KKR_CALLER_FOREIGN);
  cr_assert_eq(kkr_sync_caller((uintptr_t)in_lib), KKR_CALLER_FOREIGN);
  void *libc = dlopen("libc.so.6", RTLD_NOW);
  cr_assert_not_null(libc);
  cr_assert_eq(kkr_sync_caller((uintptr_t)dlsym(libc, "qsort")),
               KKR_CALLER_PROGRAM);
}

/* Kokkos' own library (Kokkos 4's list of Serial instances, under one
 * mutex): its locks are tracked but order nothing. */
Test(sync, kokkos_library_callers) {
  void *h = dlopen(KKR_TEST_KOKKOS_LIB, RTLD_NOW | RTLD_LOCAL);
  cr_assert_not_null(h, "%s", dlerror());
  uintptr_t pc = inside(h);
  cr_assert_eq(kkr_sync_caller(pc), KKR_CALLER_KOKKOS);
  cr_assert_eq(kkr_sync_caller(pc), KKR_CALLER_KOKKOS);
}
