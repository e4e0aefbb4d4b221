/* The registry of large heap blocks (kkr_alloc.c): the bounds that rows in
 * malloc'ed memory take (kkr_access.c, rows_fresh). */
#include <criterion/criterion.h>
#include <stdint.h>
#include <stdlib.h>

#include "kkr_rt.h"

static int found(const void *p, uintptr_t lo, uintptr_t hi) {
  kkr_view_alloc v;
  return kkr_heap_find((uintptr_t)p, &v) && v.lo == lo && v.hi == hi;
}

Test(heap, large_blocks_and_their_interior) {
  char *p = malloc(64 << 10);
  cr_assert(found(p, (uintptr_t)p, (uintptr_t)p + (64 << 10)));
  cr_assert(found(p + 1000, (uintptr_t)p, (uintptr_t)p + (64 << 10)));
  cr_assert(found(p + (64 << 10) - 1, (uintptr_t)p, (uintptr_t)p + (64 << 10)));
  kkr_view_alloc v;
  cr_assert(!kkr_heap_find((uintptr_t)p + (64 << 10), &v) ||
            v.lo == (uintptr_t)p + (64 << 10));
  free(p);
  cr_assert(!kkr_heap_find((uintptr_t)p + 1000, &v));
}

Test(heap, small_blocks_are_not_kept) {
  char *p = malloc(100);
  kkr_view_alloc v;
  cr_assert(!kkr_heap_find((uintptr_t)p + 10, &v));
  free(p);
}

Test(heap, calloc_and_realloc) {
  char *p = calloc(1000, 64);
  cr_assert(found(p + 5, (uintptr_t)p, (uintptr_t)p + 64000));
  char *q = malloc(1000);
  q = realloc(q, 1 << 20);
  cr_assert(found(q + 12345, (uintptr_t)q, (uintptr_t)q + (1 << 20)));
  char *r = realloc(q, 200 << 10);
  kkr_view_alloc v;
  if (r != q)
    cr_assert(!kkr_heap_find((uintptr_t)q + 12345, &v) ||
              v.lo != (uintptr_t)q);
  cr_assert(found(r + 100, (uintptr_t)r, (uintptr_t)r + (200 << 10)));
  r = realloc(r, 10);
  cr_assert(!kkr_heap_find((uintptr_t)r, &v));
  free(r);
  free(p);
  cr_assert(!kkr_heap_find((uintptr_t)p + 5, &v));
}

/* A View's data inside a heap block (Kokkos allocates Views with malloc)
 * is the View's; the rest of the block, and all of it once the View is
 * gone, the block's. */
Test(heap, views_first) {
  char *p = malloc(64 << 10);
  kkr_views_add_raw((uintptr_t)p + 4096, 8192, "w", "Host");
  kkr_view_alloc v;
  cr_assert(kkr_array_find((uintptr_t)p + 5000, &v));
  cr_assert_str_eq(v.label, "w");
  cr_assert_eq(v.lo, (uintptr_t)p + 4096);
  cr_assert(kkr_array_find((uintptr_t)p + 200, &v));
  cr_assert_eq(v.lo, (uintptr_t)p);
  kkr_views_take((uintptr_t)p + 4096, &v);
  cr_assert(kkr_array_find((uintptr_t)p + 5000, &v));
  cr_assert_eq(v.lo, (uintptr_t)p);
  cr_assert_null(v.label);
  free(p);
}
