/* The access check through the runtime's entry points, as instrumented code
 * calls them: strands, the host, atomics, private memory. */
#include <criterion/criterion.h>
#include <stdlib.h>

#include "kkr_abi.h"
#include "kkr_report.h"
#include "kkr_rt.h"

static unsigned dispatch(unsigned kind) {
  return __kkrace_op_begin(kind, "Kokkos::Serial", NULL, 0);
}

static void strand(long i) { __kkrace_strand_begin(i, 0, 0, 1, NULL, 0); }

static uint64_t reports(void) {
  kkr_report_flush();
  return kkr_reports_total();
}

Test(access, one_strand_reads_its_own_write) {
  double *p = calloc(4, sizeof *p);
  unsigned tok = dispatch(KKR_OP_EXEC_FOR);
  strand(0);
  __kkrace_write8(&p[1], NULL);
  __kkrace_read8(&p[1], NULL);
  __kkrace_strand_end();
  __kkrace_op_end(tok);
  cr_assert_eq(reports(), 0);
}

Test(access, two_strands_write_one_element) {
  double *p = calloc(4, sizeof *p);
  unsigned tok = dispatch(KKR_OP_EXEC_FOR);
  strand(0);
  __kkrace_write8(&p[1], NULL);
  __kkrace_strand_end();
  strand(1);
  __kkrace_write8(&p[1], NULL);
  __kkrace_strand_end();
  __kkrace_op_end(tok);
  cr_assert_eq(reports(), 1);
}

Test(access, neighbouring_ints_are_separate) {
  int *p = calloc(8, sizeof *p);
  unsigned tok = dispatch(KKR_OP_EXEC_FOR);
  for (long i = 0; i < 8; i++) {
    strand(i);
    __kkrace_write4(&p[i], NULL);
    __kkrace_strand_end();
  }
  __kkrace_op_end(tok);
  cr_assert_eq(reports(), 0);
}

Test(access, backend_code_is_ordered_with_strands) {
  double *p = calloc(4, sizeof *p);
  unsigned tok = dispatch(KKR_OP_EXEC_REDUCE);
  __kkrace_write8(&p[0], NULL); /* the backend initializes the result */
  strand(0);
  __kkrace_read8(&p[0], NULL);
  __kkrace_strand_end();
  __kkrace_write8(&p[0], NULL); /* and finalizes it */
  __kkrace_op_end(tok);
  cr_assert_eq(reports(), 0);
}

Test(access, reduction_value_is_private_to_each_strand) {
  double *p = calloc(4, sizeof *p);
  unsigned tok = dispatch(KKR_OP_EXEC_REDUCE);
  for (long i = 0; i < 3; i++) {
    __kkrace_strand_begin(i, 0, 0, 1, &p[2], 8);
    __kkrace_write8(&p[2], NULL);
    __kkrace_strand_end();
  }
  __kkrace_op_end(tok);
  cr_assert_eq(reports(), 0);
}

Test(access, host_before_dispatch_is_ordered) {
  double *p = calloc(4, sizeof *p);
  __kkrace_write8(&p[0], NULL);
  unsigned tok = dispatch(KKR_OP_EXEC_FOR);
  strand(0);
  __kkrace_read8(&p[0], NULL);
  __kkrace_strand_end();
  __kkrace_op_end(tok);
  cr_assert_eq(reports(), 0);
}

Test(access, host_after_dispatch_needs_a_fence) {
  double *p = calloc(4, sizeof *p);
  unsigned tok = dispatch(KKR_OP_EXEC_FOR);
  strand(0);
  __kkrace_write8(&p[0], NULL);
  __kkrace_strand_end();
  __kkrace_op_end(tok);
  __kkrace_read8(&p[0], NULL);
  cr_assert_eq(reports(), 1);
}

Test(access, fence_orders_dispatch_before_host) {
  double *p = calloc(4, sizeof *p);
  unsigned tok = dispatch(KKR_OP_EXEC_FOR);
  strand(0);
  __kkrace_write8(&p[0], NULL);
  __kkrace_strand_end();
  __kkrace_op_end(tok);
  __kkrace_op_end(__kkrace_op_begin(KKR_OP_FENCE_GLOBAL, NULL, NULL, 0));
  __kkrace_read8(&p[0], NULL);
  cr_assert_eq(reports(), 0);
}

Test(access, atomics_do_not_race_with_atomics) {
  int *p = calloc(4, sizeof *p);
  unsigned tok = dispatch(KKR_OP_EXEC_FOR);
  for (long i = 0; i < 4; i++) {
    strand(i);
    __kkrace_atomic(&p[0], 4, KKR_AF_READ | KKR_AF_WRITE, NULL);
    __kkrace_atomic_enter(); /* a Kokkos atomic compiled to plain code */
    __kkrace_read4(&p[0], NULL);
    __kkrace_write4(&p[0], NULL);
    __kkrace_atomic_exit();
    __kkrace_strand_end();
  }
  __kkrace_op_end(tok);
  cr_assert_eq(reports(), 0);
}

Test(access, atomic_and_plain_race) {
  int *p = calloc(4, sizeof *p);
  unsigned tok = dispatch(KKR_OP_EXEC_FOR);
  strand(0);
  __kkrace_atomic(&p[0], 4, KKR_AF_READ | KKR_AF_WRITE, NULL);
  __kkrace_strand_end();
  strand(1);
  __kkrace_write4(&p[0], NULL);
  __kkrace_strand_end();
  __kkrace_op_end(tok);
  cr_assert_eq(reports(), 1);
}

Test(access, reads_by_many_strands_then_a_write) {
  double *p = calloc(4, sizeof *p);
  unsigned tok = dispatch(KKR_OP_EXEC_FOR);
  for (long i = 0; i < 3; i++) {
    strand(i);
    __kkrace_read8(&p[0], NULL);
    __kkrace_strand_end();
  }
  strand(0); /* one of the readers writes: it races with the others */
  __kkrace_write8(&p[0], NULL);
  __kkrace_strand_end();
  __kkrace_op_end(tok);
  cr_assert_eq(reports(), 1);
}

Test(access, unordered_readers_are_all_kept) {
  /* A kernel and the host both read; the host's later write races with the
   * kernel's read, not only with its own. */
  double *p = calloc(4, sizeof *p);
  unsigned tok = dispatch(KKR_OP_EXEC_FOR);
  strand(0);
  __kkrace_read8(&p[0], NULL);
  __kkrace_strand_end();
  __kkrace_op_end(tok);
  __kkrace_read8(&p[0], NULL);
  __kkrace_write8(&p[0], NULL);
  cr_assert_eq(reports(), 1);
}

Test(access, freed_memory_starts_fresh) {
  double *p = malloc(64);
  unsigned tok = dispatch(KKR_OP_EXEC_FOR);
  strand(0);
  __kkrace_write8(&p[0], NULL);
  __kkrace_strand_end();
  __kkrace_op_end(tok);
  __kkrace_op_end(__kkrace_op_begin(KKR_OP_FENCE_GLOBAL, NULL, NULL, 0));
  free(p);
  double *q = malloc(64);
  __kkrace_write8(&q[0], NULL);
  cr_assert_eq(reports(), 0);
  free(q);
}

Test(access, halves_of_a_word_stay_exact) {
  /* Neighbouring ints written by different strands split their word's
   * cell; a later write by yet another strand races with exactly the strand
   * that wrote that int. */
  int *p = calloc(8, sizeof *p);
  unsigned tok = dispatch(KKR_OP_EXEC_FOR);
  for (long i = 0; i < 8; i++) {
    strand(i);
    __kkrace_read4(&p[i], NULL);
    __kkrace_write4(&p[i], NULL);
    __kkrace_strand_end();
  }
  strand(100);
  __kkrace_write4(&p[5], NULL);
  __kkrace_strand_end();
  __kkrace_op_end(tok);
  cr_assert_eq(reports(), 1);
}

Test(access, neighbouring_int_reads_do_not_race_with_own_writes) {
  int *p = calloc(8, sizeof *p);
  unsigned tok = dispatch(KKR_OP_EXEC_FOR);
  for (long i = 0; i < 8; i++) { /* all read their left neighbour */
    strand(i);
    if (i)
      __kkrace_read4(&p[i - 1], NULL);
    __kkrace_strand_end();
  }
  __kkrace_op_end(tok);
  __kkrace_op_end(__kkrace_op_begin(KKR_OP_FENCE_GLOBAL, NULL, NULL, 0));
  __kkrace_write4(&p[3], NULL); /* the host, after a fence */
  cr_assert_eq(reports(), 0);
}

/* ---- Runs: loops over large arrays, one record rule per chunk ------------ */

#define MIB ((uintptr_t)1 << 20)

/* n doubles whose first one starts a chunk of the shadow. */
static double *chunk_aligned(size_t n) {
  char *p = malloc(n * sizeof(double) + MIB);
  return (double *)(((uintptr_t)p + MIB - 1) & ~(MIB - 1));
}

static void range_loop(double *p, unsigned long long n, int write,
                       unsigned long long first) {
  unsigned packed = 8 | (write ? KKR_LOOP_WRITE : 0) |
                    1u << KKR_LOOP_NIDX_SHIFT;
  __kkrace_loop(p, 8, n, packed, first, 0, 0, 1, NULL);
}

static void fence(void) {
  __kkrace_op_end(__kkrace_op_begin(KKR_OP_FENCE_GLOBAL, NULL, NULL, 0));
}

Test(access, loops_over_a_large_array_keep_runs_not_cells) {
  const size_t n = 2 * MIB / 8; /* two chunks */
  double *p = chunk_aligned(n);
  uint32_t di = KKR_DIR_INDEX((uintptr_t)p);
  for (int k = 0; k < 3; k++) {
    unsigned tok = dispatch(KKR_OP_EXEC_FOR);
    range_loop(p, n, 0, 0);
    range_loop(p, n, 1, 0);
    __kkrace_op_end(tok);
  }
  cr_assert_null(kkr_dir[di]);
  cr_assert_null(kkr_dir[di + 1]);
  cr_assert_not_null(kkr_run_dir[di]);
  cr_assert_eq(kkr_run_dir[di]->n, 1);
  /* One element by itself: the chunk's cells, as the run said. */
  fence();
  __kkrace_read8(&p[100], NULL);
  cr_assert_not_null(kkr_dir[di]);
  cr_assert_null(kkr_run_dir[di]);
  kkr_cell *c = kkr_shadow_cell((uintptr_t)&p[7]);
  cr_assert_eq(KKR_REC_STRAND(c->w), 7 + 2);
  cr_assert(c->w & KKR_R_W);
  cr_assert_eq(KKR_REC_MASK(c->w), 0xFF);
  cr_assert_null(kkr_dir[di + 1]); /* the other chunk is still a run */
  cr_assert_eq(reports(), 0);
}

Test(access, runs_of_unordered_strands_race) {
  /* Iteration i writes element i, then iteration i + 1 writes element i:
   * the same words by other strands of the same kernel. */
  const size_t n = MIB / 8;
  double *p = chunk_aligned(n + 1);
  unsigned tok = dispatch(KKR_OP_EXEC_FOR);
  range_loop(p, n, 1, 0);
  range_loop(p, n, 1, 1);
  __kkrace_op_end(tok);
  cr_assert_geq(reports(), 1);
}

Test(access, a_missing_fence_is_found_through_runs) {
  const size_t n = MIB / 8;
  double *p = chunk_aligned(n);
  unsigned tok = dispatch(KKR_OP_EXEC_FOR);
  range_loop(p, n, 1, 0);
  __kkrace_op_end(tok);
  uint64_t before = reports();
  /* The host reads all of it, before any fence. */
  __kkrace_read_range(p, n * 8, NULL);
  cr_assert_eq(reports(), before + 1);
}

Test(access, cells_that_follow_a_rule_become_a_run) {
  const size_t n = MIB / 8;
  double *p = chunk_aligned(n);
  uint32_t di = KKR_DIR_INDEX((uintptr_t)p);
  for (size_t i = 0; i < n; i++) /* the host, one element at a time */
    __kkrace_write8(&p[i], NULL);
  cr_assert_not_null(kkr_dir[di]);
  kkr_cell before = *kkr_shadow_cell((uintptr_t)&p[9]);
  unsigned tok = dispatch(KKR_OP_EXEC_FOR);
  range_loop(p, n, 0, 0); /* decided by the cells, then a run */
  __kkrace_op_end(tok);
  cr_assert_null(kkr_dir[di]);
  cr_assert_not_null(kkr_run_dir[di]);
  const kkr_run *r = &kkr_run_dir[di]->run[0];
  cr_assert_eq(r->w.rec, before.w);
  cr_assert_eq(r->w.step, 0);
  cr_assert_eq(r->r.step, 1);
  /* Expanded again: the same records. */
  kkr_cell *c = kkr_shadow_cell((uintptr_t)&p[9]);
  cr_assert_eq(c->w, before.w);
  cr_assert_eq(KKR_REC_STRAND(c->r), 9 + 2);
  cr_assert_eq(reports(), 0);
}

/* ---- Gathers: loops through index arrays ---------------------------------- */

static unsigned range_packed(int write) {
  return 8 | (write ? KKR_LOOP_WRITE : 0) | 1u << KKR_LOOP_NIDX_SHIFT;
}

Test(access, gathers_read_their_indices) {
  double *x = calloc(64, sizeof *x);
  int *ix = malloc(64 * sizeof *ix);
  for (int i = 0; i < 64; i++)
    ix[i] = 63 - i;
  unsigned tok = dispatch(KKR_OP_EXEC_FOR);
  __kkrace_gather(x, 8, ix, 64, range_packed(0), 0, 0, 1, NULL);
  __kkrace_op_end(tok);
  /* Element 63 - i read by iteration i. */
  cr_assert_eq(KKR_REC_STRAND(kkr_shadow_cell((uintptr_t)&x[60])->r), 3 + 2);
  /* Every other index (a loop unrolled twice), unsigned. */
  unsigned *ux = (unsigned *)ix;
  tok = dispatch(KKR_OP_EXEC_FOR);
  __kkrace_gather(x, 8, ux, 32,
                  range_packed(1) | KKR_GATHER_UNSIGNED |
                      1u << KKR_GATHER_SKIP_SHIFT,
                  0, 0, 1, NULL);
  __kkrace_op_end(tok);
  kkr_cell *c = kkr_shadow_cell((uintptr_t)&x[63 - 2 * 5]);
  cr_assert(c->w & KKR_R_W);
  cr_assert_eq(KKR_REC_STRAND(c->w), 5 + 2);
  cr_assert_eq(reports(), 0);
  /* Indices that repeat: two iterations write one element. */
  for (int i = 0; i < 64; i++)
    ix[i] = i / 2;
  tok = dispatch(KKR_OP_EXEC_FOR);
  __kkrace_gather(x, 8, ix, 64, range_packed(1), 0, 0, 1, NULL);
  __kkrace_op_end(tok);
  cr_assert_eq(reports(), 1);
}

/* A gather with a companion (val(k) beside x(col(k))): the k-th element of
 * the companion is read by the k-th iteration, and one that another
 * iteration writes races. */
Test(access, gathers_check_their_companions) {
  double *x = calloc(64, sizeof *x), *val = calloc(64, sizeof *val);
  int *ix = malloc(64 * sizeof *ix), *wi = calloc(64, sizeof *wi);
  for (int i = 0; i < 64; i++)
    ix[i] = (5 * i) % 64;
  unsigned tok = dispatch(KKR_OP_EXEC_FOR);
  __kkrace_gather_with(x, 8, ix, 64, range_packed(0) | KKR_GATHER_WITH8, 0, 0,
                       1, NULL, val, NULL);
  __kkrace_op_end(tok);
  cr_assert_eq(KKR_REC_STRAND(kkr_shadow_cell((uintptr_t)&val[17])->r),
               17 + 2);
  cr_assert_eq(KKR_REC_STRAND(kkr_shadow_cell((uintptr_t)&x[(5 * 9) % 64])->r),
               9 + 2);
  cr_assert_eq(reports(), 0);
  /* 4-byte elements; iteration 3 wrote element 40 first. */
  tok = dispatch(KKR_OP_EXEC_FOR);
  __kkrace_loop(&wi[40], 4, 1, 4 | KKR_LOOP_WRITE | 1u << KKR_LOOP_NIDX_SHIFT,
                3, 0, 0, 1, NULL);
  __kkrace_gather_with(x, 8, ix, 64, range_packed(0), 0, 0, 1, NULL, wi,
                       NULL);
  __kkrace_op_end(tok);
  cr_assert_eq(reports(), 1);
}
