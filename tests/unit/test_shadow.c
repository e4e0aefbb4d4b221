/* Shadow memory (rt/kkr_shadow.c): granules, chunks, clearing, read sets. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "kkr_shadow.h"

TestSuite(shadow, .init = kkr_shadow_init);

Test(shadow, granules_of_four_bytes) {
  static char buf[64] __attribute__((aligned(64)));
  uintptr_t a = (uintptr_t)buf;
  cr_assert_eq(kkr_shadow_cell(a), kkr_shadow_cell(a + 3));
  cr_assert_neq(kkr_shadow_cell(a), kkr_shadow_cell(a + 4));
  cr_assert_eq(kkr_shadow_cell(a + 4), kkr_shadow_cell(a) + 1);
  cr_assert_eq(kkr_shadow_cell(a + 63), kkr_shadow_cell(a) + 15);
}

Test(shadow, untouched_chunks_have_no_cells) {
  /* An address in a MiB nobody touched: no cell until one is asked for. */
  char *p = malloc(4 << 20);
  uintptr_t a = ((uintptr_t)p + (2 << 20)) & ~(uintptr_t)((1 << 20) - 1);
  cr_assert_null(kkr_shadow_cell_if_mapped(a));
  kkr_cell *c = kkr_shadow_cell(a);
  cr_assert_not_null(c);
  cr_assert_eq(kkr_shadow_cell_if_mapped(a), c);
  cr_assert_eq(c->w.a, 0);
  cr_assert_eq(c->r.a, 0);
  free(p);
}

Test(shadow, clear_forgets_a_range) {
  static int data[4096];
  uintptr_t a = (uintptr_t)data;
  for (int i = 0; i < 4096; i++) {
    kkr_cell *c = kkr_shadow_cell(a + 4 * i);
    c->w.a = 0x1234;
    c->r.a = 0x5678;
  }
  kkr_shadow_clear(a + 4 * 10, 4 * 4000);
  cr_assert_eq(kkr_shadow_cell(a + 4 * 9)->w.a, 0x1234);
  for (int i = 10; i < 4010; i++)
    cr_assert_eq(kkr_shadow_cell(a + 4 * i)->w.a, 0, "granule %d", i);
  cr_assert_eq(kkr_shadow_cell(a + 4 * 4010)->r.a, 0x5678);
}

Test(shadow, clear_frees_read_sets) {
  static int data[16];
  uint64_t live = kkr_readsets_live;
  kkr_cell *c = kkr_shadow_cell((uintptr_t)data);
  kkr_readset *s = kkr_readset_new(2);
  s = kkr_readset_grow(s);
  cr_assert_eq(s->cap, 4);
  c->r.a = KKR_F_SET;
  c->r.b = (uint64_t)(uintptr_t)s;
  cr_assert_eq(kkr_readsets_live, live + 1);
  kkr_shadow_clear((uintptr_t)data, sizeof data);
  cr_assert_eq(kkr_readsets_live, live);
  cr_assert_eq(c->r.a, 0);
}

Test(shadow, record_fields) {
  uint64_t a = (uint64_t)7 << 32 | (uint64_t)3 << 16 | 3u << 12 | 0x5u << 8 |
               KKR_F_WRITE;
  cr_assert_eq(KKR_REC_MASK(a), 0x5);
  cr_assert_eq(KKR_REC_SIZE(a), 8);
}
