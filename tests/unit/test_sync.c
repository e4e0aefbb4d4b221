/* Host synchronization (rt/kkr_sync.c): which callers' locks the graph
 * follows. */
#include <criterion/criterion.h>
#include <dlfcn.h>

#include "kkr_rt.h"

static void program_function(void) {}

/* Locks taken by the program order its threads; those that the CUDA
 * libraries or kkrace's own modules take inside their calls do not (a
 * module is known by its file name). */
Test(sync, foreign_callers) {
  cr_assert_eq(kkr_sync_foreign_pc((uintptr_t)program_function), 0);
  /* (Asked twice: the second answer comes from the table.) */
  cr_assert_eq(kkr_sync_foreign_pc((uintptr_t)program_function), 0);
  void *h = dlopen(KKR_TEST_FOREIGN_LIB, RTLD_NOW);
  cr_assert_not_null(h, "%s", dlerror());
  void *in_lib = dlsym(h, "kokkosp_init_library");
  cr_assert_not_null(in_lib);
  cr_assert_eq(kkr_sync_foreign_pc((uintptr_t)in_lib), 1);
  cr_assert_eq(kkr_sync_foreign_pc((uintptr_t)in_lib), 1);
  void *libc = dlopen("libc.so.6", RTLD_NOW);
  cr_assert_not_null(libc);
  cr_assert_eq(kkr_sync_foreign_pc((uintptr_t)dlsym(libc, "qsort")), 0);
}
