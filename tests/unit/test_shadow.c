/* Shadow memory (rt/kkr_shadow.c): words, chunks, split cells, clearing,
 * read sets. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "kkr_shadow.h"

TestSuite(shadow, .init = kkr_shadow_init);

Test(shadow, one_cell_per_word) {
  static char buf[64] __attribute__((aligned(64)));
  uintptr_t a = (uintptr_t)buf;
  cr_assert_eq(kkr_shadow_cell(a), kkr_shadow_cell(a + 7));
  cr_assert_neq(kkr_shadow_cell(a), kkr_shadow_cell(a + 8));
  cr_assert_eq(kkr_shadow_cell(a + 8), kkr_shadow_cell(a) + 1);
  cr_assert_eq(kkr_shadow_cell(a + 63), kkr_shadow_cell(a) + 7);
  cr_assert_eq(sizeof(kkr_cell), 16); /* twice the memory it shadows */
}

Test(shadow, untouched_chunks_have_no_cells) {
  /* An address in a MiB nobody touched: no cell until one is asked for. */
  char *p = malloc(4 << 20);
  uintptr_t a = ((uintptr_t)p + (2 << 20)) & ~(uintptr_t)((1 << 20) - 1);
  cr_assert_null(kkr_shadow_cell_if_mapped(a));
  kkr_cell *c = kkr_shadow_cell(a);
  cr_assert_not_null(c);
  cr_assert_eq(kkr_shadow_cell_if_mapped(a), c);
  cr_assert_eq(c->w, 0);
  cr_assert_eq(c->r, 0);
  free(p);
}

Test(shadow, clear_forgets_a_range_and_its_halves) {
  static double data[4096];
  uintptr_t a = (uintptr_t)data;
  for (int i = 0; i < 4096; i++) {
    kkr_cell *c = kkr_shadow_cell(a + 8 * i);
    c->w = 0x1230;
    c->r = 0x5670;
  }
  kkr_split *s = kkr_shadow_split(a + 8 * 20);
  s->half[1].w = 0x990;
  kkr_shadow_clear(a + 8 * 10, 8 * 4000);
  cr_assert_eq(kkr_shadow_cell(a + 8 * 9)->w, 0x1230);
  for (int i = 10; i < 4010; i++)
    cr_assert_eq(kkr_shadow_cell(a + 8 * i)->w, 0, "word %d", i);
  cr_assert_eq(kkr_shadow_cell(a + 8 * 4010)->r, 0x5670);
  cr_assert_eq(kkr_shadow_split(a + 8 * 20)->half[1].w, 0);
}

/* A stack slot's clear zeroes its cells and keeps their pages (the slot
 * is used again at once); a free's gives whole pages back. */
Test(shadow, clear_keep_keeps_the_pages) {
  static double data[2][32768] __attribute__((aligned(4096)));
  long page = sysconf(_SC_PAGESIZE);
  unsigned char resident[2] = {0, 0};
  for (int k = 0; k < 2; k++) {
    uintptr_t a = (uintptr_t)data[k];
    for (int i = 0; i < 32768; i++)
      kkr_shadow_cell(a + 8 * i)->w = 0x1230;
    if (k == 0)
      kkr_shadow_clear_keep(a, sizeof data[k]);
    else
      kkr_shadow_clear(a, sizeof data[k]);
    /* (The page of the cells of the middle of the array, before anything
     * reads it again.) */
    uintptr_t c = (uintptr_t)kkr_shadow_cell(a + 8 * 16384);
    cr_assert_eq(mincore((void *)(c & ~(uintptr_t)(page - 1)), 1,
                         &resident[k]), 0);
    for (int i = 0; i < 32768; i++)
      cr_assert_eq(kkr_shadow_cell(a + 8 * i)->w, 0, "word %d", i);
  }
  cr_expect(resident[0] & 1, "the stack slot's cells stay resident");
  cr_expect(!(resident[1] & 1), "a free's cells go back to the system");
}

Test(shadow, clear_frees_read_sets) {
  static double data[16];
  uint64_t live = kkr_readsets_live;
  kkr_cell *c = kkr_shadow_cell((uintptr_t)data);
  kkr_readset *s = kkr_readset_new(2);
  s = kkr_readset_grow(s);
  cr_assert_eq(s->cap, 4);
  c->r = KKR_REC_SET(s);
  cr_assert_eq(KKR_REC_PTR(c->r), s);
  cr_assert_eq(kkr_readsets_live, live + 1);
  kkr_shadow_clear((uintptr_t)data, sizeof data);
  cr_assert_eq(kkr_readsets_live, live);
  cr_assert_eq(c->r, 0);
}

Test(shadow, record_fields) {
  uint64_t r = (uint64_t)12345 << KKR_REC_NODE_SHIFT |
               (uint64_t)777 << KKR_REC_STRAND_SHIFT |
               (uint64_t)9 << KKR_REC_SITE_SHIFT | 0xF0u << 4 | KKR_R_W;
  cr_assert_eq(KKR_REC_NODE(r), 12345);
  cr_assert_eq(KKR_REC_STRAND(r), 777);
  cr_assert_eq(KKR_REC_SITE(r), 9);
  cr_assert_eq(KKR_REC_MASK(r), 0xF0);
  cr_assert_eq(KKR_REC_HOST_SITE(r), 777u << 6 | 9);
}

Test(shadow, run_exceptions) {
  /* One MiB kept as a run (every word the same write record), with words
   * whose records differ kept as its exceptions. */
  char *p = aligned_alloc(1 << 20, 1 << 20);
  uintptr_t a = (uintptr_t)p;
  uint32_t di = KKR_DIR_INDEX(a);
  kkr_run *r = kkr_runs_take(di, a, a + (1 << 20));
  cr_assert_not_null(r);
  kkr_runrec_set(&r->w, 0x1FF1, 0, 0);
  kkr_runs *rs = kkr_run_dir[di];
  cr_assert_not_null(rs);
  for (uint32_t k = 0; k < 5000; k++) {
    cr_assert_null(kkr_exc_find(rs, 5 * k));
    kkr_exc *e = kkr_exc_add(di, 5 * k);
    cr_assert_not_null(e);
    e->h[0].w = 0x20000 + (uint64_t)k * 16;
  }
  cr_assert_null(kkr_exc_find(rs, 1));
  for (uint32_t k = 0; k < 5000; k++) {
    kkr_exc *e = kkr_exc_find(rs, 5 * k);
    cr_assert_not_null(e, "word %u", 5 * k);
    cr_assert_eq(e->h[0].w, 0x20000 + (uint64_t)k * 16);
    if (k % 2)
      kkr_exc_drop(rs, e);
  }
  /* Dropped ones are gone, the others are still found past their
   * tombstones, and new ones take the free slots. */
  for (uint32_t k = 0; k < 5000; k++)
    cr_assert_eq(kkr_exc_find(rs, 5 * k) != NULL, k % 2 == 0, "word %u",
                 5 * k);
  uint32_t n = 2500, k = 0;
  while (k < 26000 && kkr_exc_add(di, 5 * k + 1))
    n++, k++;
  cr_assert_eq(n, KKR_CELLS_PER_CHUNK / KKR_EXC_RUN_SHARE,
               "a MiB of runs keeps %u exceptions at most", n);
  kkr_exc_find(rs, 10001)->h[0].r = 0x7770;
  /* Cells again: the rule, and the exceptions over it. */
  kkr_cell *c = kkr_shadow_cell(a);
  cr_assert_null(kkr_run_dir[di]);
  cr_assert_eq(c[0].w, 0x20000);
  cr_assert_eq(c[5].w, 0x1FF1);
  cr_assert_eq(c[10].w, 0x20000 + 2 * 16);
  cr_assert_eq(c[10001].r, 0x7770);
  cr_assert_eq(c[10001].w, 0);
  cr_assert_eq(c[12].w, 0x1FF1);
  kkr_shadow_clear(a, 1 << 20);
  free(p);
}

/* Runs of a small array keep exceptions for a share of their words only:
 * past it the chunk is better as cells (kkr_exc_add says no, and the
 * access expands it). */
Test(shadow, run_exceptions_of_small_runs) {
  char *p = aligned_alloc(1 << 20, 1 << 20);
  uintptr_t a = (uintptr_t)p;
  uint32_t di = KKR_DIR_INDEX(a);
  const uint32_t words = 12000;
  kkr_run *r = kkr_runs_take(di, a, a + words * 8);
  cr_assert_not_null(r);
  kkr_runrec_set(&r->w, 0x1FF1, 0, 0);
  uint32_t n = 0;
  while (n < words && kkr_exc_add(di, n))
    n++;
  cr_assert_eq(n, words / KKR_EXC_RUN_SHARE, "%u exceptions", n);
  kkr_shadow_clear(a, 1 << 20);
  free(p);
}

/* Compact halves (kkr_shadow.h): the one record that stands for a half's
 * two, when there is one. */
Test(shadow, compact_record_of_a_half) {
  const uint64_t node5 = (uint64_t)5 << KKR_REC_NODE_SHIFT;
  const uint64_t node9 = (uint64_t)9 << KKR_REC_NODE_SHIFT;
  const uint64_t w5 = node5 | 0x0F0 | KKR_R_W, r9 = node9 | 0x0F0;
  uint64_t v = 123;
  cr_assert(kkr_compact_of(0, 0, 0, &v));
  cr_assert_eq(v, 0);
  cr_assert(kkr_compact_of(w5, 0, 0, &v)); /* a write, no read since */
  cr_assert_eq(v, w5);
  cr_assert(kkr_compact_of(0, r9, 0, &v)); /* reads, no write */
  cr_assert_eq(v, r9);
  /* Reads after a write: one record only once the write is settled. */
  v = 123;
  cr_assert_not(kkr_compact_of(w5, r9, 5, &v));
  cr_assert_eq(v, 123);
  cr_assert(kkr_compact_of(w5, r9, 6, &v));
  cr_assert_eq(v, r9);
  /* Sets (KKR_R_X) and a write record without KKR_R_W never. */
  cr_assert_not(kkr_compact_of(0, KKR_REC_SET((void *)0x1000), 0, &v));
  cr_assert_not(kkr_compact_of(node5 | 0x0F0, 0, 0, &v));
}

/* A fresh chunk made compact halves for 4-byte elements: records per half;
 * kkr_half_chunk makes them whole (each record its half's write or reads);
 * a clear of the whole chunk ends them. */
Test(shadow, compact_halves_made_whole_and_cleared) {
  char *p = malloc(4 << 20);
  uintptr_t a = ((uintptr_t)p + (2 << 20)) & ~(uintptr_t)((1 << 20) - 1);
  uint32_t di = KKR_DIR_INDEX(a);
  kkr_split *hc = kkr_halves_fresh(di);
  cr_assert_not_null(hc);
  cr_assert((uintptr_t)hc & KKR_HC_COMPACT);
  cr_assert_eq(kkr_half_any(di), hc);
  cr_assert_null(kkr_half_full(di)); /* (not whole) */
  cr_assert(kkr_half_is(di));
  uint64_t *cc = (uint64_t *)((uintptr_t)hc & ~KKR_HC_COMPACT);
  const uint64_t w = ((uint64_t)7 << KKR_REC_NODE_SHIFT) | 0x0F0 | KKR_R_W;
  const uint64_t r = ((uint64_t)8 << KKR_REC_NODE_SHIFT) | 0xF00;
  *kkr_compact_rec(cc, a + 16) = w;     /* word 2, low half */
  *kkr_compact_rec(cc, a + 20) = r;     /* word 2, high half */
  cr_assert_eq(kkr_compact_rec(cc, a + 20), &cc[5]);
  kkr_split *s = kkr_half_chunk(di); /* made whole */
  cr_assert_not_null(s);
  cr_assert_eq(kkr_half_full(di), s);
  cr_assert_eq(s[2].half[0].w, w);
  cr_assert_eq(s[2].half[0].r, 0);
  cr_assert_eq(s[2].half[1].w, 0);
  cr_assert_eq(s[2].half[1].r, r);
  cr_assert_eq(s[3].half[0].w | s[3].half[0].r, 0);
  cr_assert_eq(cc[4] | cc[5], 0); /* (the compact records are gone) */
  kkr_shadow_clear(a, (uintptr_t)1 << 20);
  cr_assert_not(kkr_half_is(di));
  free(p);
}
