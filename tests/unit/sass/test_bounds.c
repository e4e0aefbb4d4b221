/* How far kernels' accesses reach, from their SASS (cupti/kkr_bounds.c),
 * on tests/unit/data/bounds.cu: built for sm_90 (bounds.cubin) and
 * disassembled by nvdisasm -c (bounds.sass).  Parameters lie at 0x210 of
 * constant bank 0; each test gives a launch's geometry and arguments and
 * checks the bytes each pointer parameter reaches. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kkr_bounds.h"
#include "kkr_sass.h"
#include "test_data.h"

static kkr_bounds_word words[64];
static uint32_t nwords;

/* Evaluates kernel on a grid of g blocks of b threads (x, y), with the
 * 32-bit arguments args[k] at parameter bytes offs[k]; 0 if it cannot. */
static int bounds(const char *kernel, unsigned gx, unsigned gy, unsigned bx,
                  unsigned by, const unsigned *offs, const int *args,
                  int nargs) {
  size_t clen, slen;
  char *cubin = slurp("bounds.cubin", &clen);
  char *sass = slurp("bounds.sass", &slen);
  kkr_sass_bank banks[64];
  uint32_t nb = kkr_sass_banks(cubin, clen, banks, 64);
  int ok = 0;
  for (uint32_t i = 0; i < nb; i++) {
    if (strcmp(banks[i].name, kernel))
      continue;
    cr_assert_eq(banks[i].base, 0x210);
    char label[256];
    snprintf(label, sizeof label, ".text.%s:", kernel);
    const char *body = strstr(sass, label);
    cr_assert_not_null(body, "%s not in bounds.sass", kernel);
    kkr_bounds_prog *p = kkr_bounds_build(body, strlen(body), banks[i].base,
                                          banks[i].size);
    if (!p)
      break;
    unsigned char params[256] = {0};
    for (int k = 0; k < nargs; k++)
      memcpy(params + offs[k], &args[k], 4);
    unsigned dims[6] = {gx, gy, 1, bx, by, 1};
    uint64_t used;
    nwords = banks[i].size / 8;
    ok = kkr_bounds_eval(p, dims, params, banks[i].size, words, nwords, &used);
    kkr_bounds_free(p);
    break;
  }
  free(cubin);
  free(sass);
  return ok;
}

static void range(uint32_t w, int64_t lo, int64_t hi) {
  cr_assert_lt(w, nwords);
  cr_assert_eq(words[w].state, KKR_BOUNDS_RANGE, "word %u: state %d", w,
               words[w].state);
  cr_expect_eq(words[w].lo, lo, "word %u from %lld, not %lld", w,
               (long long)words[w].lo, (long long)lo);
  cr_expect_eq(words[w].hi, hi, "word %u to %lld, not %lld", w,
               (long long)words[w].hi, (long long)hi);
}

static void unknown(uint32_t w) {
  cr_assert_lt(w, nwords);
  cr_expect_eq(words[w].state, KKR_BOUNDS_UNKNOWN, "word %u: state %d", w,
               words[w].state);
}

/* a[offset + i] over 64 blocks of 256 threads: a chunk of 16384 floats,
 * past a call of sqrtf's slow path (a subroutine without memory). */
Test(bounds, chunk_by_offset) {
  cr_assert(bounds("_Z12chunk_offsetPfi", 64, 1, 256, 1, (unsigned[]){8},
                   (int[]){16384}, 1));
  range(0, 16384 * 4, 2 * 16384 * 4);
}

/* if (i < n): the guard bounds the grid's threads past n. */
Test(bounds, guarded_chunk) {
  cr_assert(bounds("_Z13chunk_guardedPfPKfi", 4, 1, 256, 1, (unsigned[]){0x10},
                   (int[]){1000}, 1));
  range(0, 0, 4000);
  range(1, 0, 4000);
}

/* A grid-stride loop widens its index to its own guard. */
Test(bounds, grid_stride_loop) {
  cr_assert(bounds("_Z11grid_stridePfPKffi", 8, 1, 256, 1, (unsigned[]){0x14},
                   (int[]){100000}, 1));
  range(0, 0, 400000);
  range(1, 0, 400000);
}

/* Two dimensions, guarded by x < w && y < h (an OR of the failures). */
Test(bounds, two_dimensions) {
  cr_assert(bounds("_Z5two_dPfPKfiii", 4, 4, 16, 16,
                   (unsigned[]){0x10, 0x14, 0x18}, (int[]){60, 50, 64}, 3));
  range(0, 0, (49 * 64 + 59 + 1) * 4);
  range(1, 0, (49 * 64 + 59 + 1) * 4);
}

/* in[i - 1] and in[i + 1] under 0 < i < n - 1. */
Test(bounds, neighbours) {
  cr_assert(bounds("_Z10neighboursPfPKfi", 4, 1, 256, 1, (unsigned[]){0x10},
                   (int[]){1000}, 1));
  range(0, 4, 999 * 4);
  range(1, 0, 1000 * 4);
}

/* What cannot be bounded: an index read from memory, loops whose index
 * the analysis does not relate to the address (in[r * m + k], a counted
 * loop over a pointer it advances), a pointer stored to memory. */
Test(bounds, unbounded) {
  cr_assert(bounds("_Z6gatherPfPKfPKii", 4, 1, 256, 1, (unsigned[]){0x18},
                   (int[]){1000}, 1));
  range(0, 0, 4000);
  unknown(1);
  range(2, 0, 4000);
  cr_assert(bounds("_Z4rowsPfPKfii", 4, 1, 256, 1, (unsigned[]){0x10, 0x14},
                   (int[]){1000, 8}, 2));
  range(0, 0, 4000);
  unknown(1);
  /* A signed [begin, end) loop that nvcc counts (a 64-bit division for
   * its trip count) and unrolls, advancing the pointer itself. */
  cr_assert(bounds("_Z10wide_rangePdll", 8, 1, 128, 1,
                   (unsigned[]){0x8, 0x10}, (int[]){5000, 9000}, 2));
  unknown(0);
  cr_assert(bounds("_Z6escapePPfS_", 1, 1, 32, 1, NULL, NULL, 0));
  range(0, 0, 8);
  unknown(1);
}

/* A 64-bit index (size_t i < n): its comparison is two instructions, its
 * address a 64-bit shift and a 64-bit sum, each in two halves. */
Test(bounds, wide_index) {
  cr_assert(bounds("_Z10wide_indexPdPKdm", 4, 1, 256, 1, (unsigned[]){0x10},
                   (int[]){1000}, 1));
  range(0, 0, 8000);
  range(1, 0, 8000);
  /* More threads than the high half of n lets through: 2^32 + 1000. */
  cr_assert(bounds("_Z10wide_indexPdPKdm", 4, 1, 256, 1,
                   (unsigned[]){0x10, 0x14}, (int[]){1000, 1}, 2));
  range(0, 0, 1024 * 8);
  range(1, 0, 1024 * 8);
}

/* A grid-stride loop over size_t: the index a pair of registers that are
 * not neighbours, its increment's high half an IMAD.X whose carry the
 * sum's range decides. */
Test(bounds, wide_loop) {
  cr_assert(bounds("_Z11wide_stridePfPKfm", 8, 1, 128, 1, (unsigned[]){0x10},
                   (int[]){100000}, 1));
  range(0, 0, 400000);
  range(1, 0, 400000);
}

/* sinf and cosf reduce large arguments in local memory (an array of the
 * thread's own, stored and loaded in a loop): a chunk all the same. */
Test(bounds, local_memory) {
  cr_assert(bounds("_Z10chunk_trigPfi", 64, 1, 256, 1, (unsigned[]){8},
                   (int[]){16384}, 1));
  range(0, 16384 * 4, 2 * 16384 * 4);
  /* Pointers stored to a local array and loaded back escape. */
  cr_assert(bounds("_Z14local_pointersPfS_i", 1, 1, 32, 1, (unsigned[]){0x10},
                   (int[]){3}, 1));
  unknown(0);
  unknown(1);
}

/* out[i] through LEA / LEA.HI.X, i in [offset, offset + len); in[i + 1]
 * one element further. */
Test(bounds, lea_pair) {
  cr_assert(bounds("_Z4haloPfPKfiii", 256, 1, 256, 1,
                   (unsigned[]){0x10, 0x14, 0x18},
                   (int[]){65536, 65536, 131072}, 3));
  range(0, 65536 * 4, 2 * 65536 * 4);
  range(1, 65536 * 4, 2 * 65536 * 4 + 4);
}

/* The written-pointer analysis follows a call of a leaf subroutine, and
 * pointers through local memory. */
static int chunk_ok, trig_ok, local_ok, count_ok, count_read_ok;
static uint64_t chunk_written, trig_written, local_written;
static uint64_t count_written, count_atomic, count_read_atomic;
static void collect(const char *name, uint64_t written, uint64_t atomic,
                    int ok, void *arg) {
  (void)arg;
  if (!strcmp(name, "_Z5countPiPKfi")) {
    count_ok = ok;
    count_written = written;
    count_atomic = atomic;
  } else if (!strcmp(name, "_Z10count_readPii")) {
    count_read_ok = ok;
    count_read_atomic = atomic;
  }
  if (!strcmp(name, "_Z12chunk_offsetPfi")) {
    chunk_ok = ok;
    chunk_written = written;
  } else if (!strcmp(name, "_Z10chunk_trigPfi")) {
    trig_ok = ok;
    trig_written = written;
  } else if (!strcmp(name, "_Z14local_pointersPfS_i")) {
    local_ok = ok;
    local_written = written;
  }
}
Test(bounds, written_through_calls_and_local_memory) {
  size_t clen, slen;
  char *cubin = slurp("bounds.cubin", &clen);
  char *sass = slurp("bounds.sass", &slen);
  kkr_sass_bank banks[64];
  uint32_t nb = kkr_sass_banks(cubin, clen, banks, 64);
  kkr_sass_parse(sass, banks, nb, NULL, collect, NULL);
  cr_expect(chunk_ok, "the call of sqrtf's slow path was not followed");
  cr_expect(chunk_written & 1, "the pointer is written through");
  cr_expect(trig_ok, "sinf's local memory was not followed");
  cr_expect(trig_written & 1, "the pointer is written through");
  cr_expect(local_ok, "the local array was not followed");
  cr_expect_eq(local_written & 3, 3, "both pointers go through the local array");
  /* A counter reached by atomics only; one also read plainly is not. */
  cr_expect(count_ok && count_read_ok);
  cr_expect_eq(count_written & 3, 1, "the counter, not the input, is written");
  cr_expect_eq(count_atomic & 3, 1, "the counter is reached by atomics only");
  cr_expect_eq(count_read_atomic & 1, 0, "a counter read plainly too");
  free(cubin);
  free(sass);
}
