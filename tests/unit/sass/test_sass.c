/* Which parameters kernels write through, from their SASS (cupti/kkr_sass.c),
 * on tests/unit/data/kernels.cu: built for sm_90 (kernels.cubin) and
 * disassembled by nvdisasm -c (kernels.sass). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kkr_sass.h"
#include "test_data.h"


typedef struct {
  char name[128];
  uint64_t written, atomic;
  int ok;
} result;

static result results[64];
static int nresults;

static void collect(const char *name, uint64_t written, uint64_t atomic,
                    int ok, void *arg) {
  (void)arg;
  if (nresults < 64) {
    snprintf(results[nresults].name, sizeof results[0].name, "%s", name);
    results[nresults].written = written;
    results[nresults].atomic = atomic;
    results[nresults].ok = ok;
    nresults++;
  }
}

static const result *find(const char *name) {
  for (int i = 0; i < nresults; i++)
    if (!strcmp(results[i].name, name))
      return &results[i];
  return NULL;
}

static void setup(void) {
  size_t clen, slen;
  char *cubin = slurp("kernels.cubin", &clen);
  char *sass = slurp("kernels.sass", &slen);
  kkr_sass_bank banks[64];
  uint32_t n = kkr_sass_banks(cubin, clen, banks, 64);
  cr_assert_gt(n, 4, "parameter banks found: %u", n);
  nresults = 0;
  kkr_sass_parse(sass, banks, n, NULL, collect, NULL);
  free(cubin);
  free(sass);
}

TestSuite(sass, .init = setup);

Test(sass, banks_are_sm90s) {
  size_t clen;
  char *cubin = slurp("kernels.cubin", &clen);
  kkr_sass_bank banks[64];
  uint32_t n = kkr_sass_banks(cubin, clen, banks, 64);
  int found = 0;
  for (uint32_t i = 0; i < n; i++)
    if (!strcmp(banks[i].name, "_Z5applyI4AxpyEvT_")) {
      cr_assert_eq(banks[i].base, 0x210);
      cr_assert_eq(banks[i].size, 0x20);
      found = 1;
    }
  cr_assert(found);
  free(cubin);
}

/* readonly2(float *in, float *out, int n): reads in, writes out. */
Test(sass, non_const_pointer_only_read) {
  const result *r = find("_Z9readonly2PfS_i");
  cr_assert_not_null(r);
  cr_assert(r->ok);
  cr_assert_eq(r->written & 1, 0, "in is only read");
  cr_assert_neq(r->written & 2, 0, "out is written");
}

/* apply<Axpy>: the functor {float a; const float *x; float *y; int n} by
 * value: y (bytes 16-23) written, x (bytes 8-15) read. */
Test(sass, pointers_inside_a_struct) {
  const result *r = find("_Z5applyI4AxpyEvT_");
  cr_assert_not_null(r);
  cr_assert(r->ok);
  cr_assert_eq(r->written & 2, 0, "x is only read");
  cr_assert_neq(r->written & 4, 0, "y is written");
}

/* fill(float *a, float v, int n) stores; sum(const float *, float *out, int)
 * writes out by an atomic reduction. */
Test(sass, stores_and_reductions) {
  const result *f = find("_Z4fillPffi");
  cr_assert_not_null(f);
  cr_assert(f->ok);
  cr_assert_neq(f->written & 1, 0);
  const result *s = find("_Z3sumPKfPfi");
  cr_assert_not_null(s);
  cr_assert(s->ok);
  cr_assert_eq(s->written & 1, 0, "src is only read");
  cr_assert_neq(s->written & 2, 0, "out is written by RED");
}

/* wide_from_constant() reads its functor {const double *in[70]; double
 * *out; int n;} from Kokkos' __constant__ buffer: window 0 (words 0-63)
 * only read; window 1 has out (word 70, bit 6) written, in[64..69] read. */
Test(sass, functor_in_constant_memory) {
  size_t clen, slen;
  char *cubin = slurp("kernels.cubin", &clen);
  char *sass = slurp("kernels.sass", &slen);
  kkr_sass_const c3;
  cr_assert(kkr_sass_constant(cubin, clen,
                              "kokkos_impl_cuda_constant_memory_buffer",
                              &c3.base, &c3.size));
  cr_assert_eq(c3.size, 4096 * 8);
  kkr_sass_bank banks[64];
  uint32_t n = kkr_sass_banks(cubin, clen, banks, 64);
  nresults = 0;
  kkr_sass_parse(sass, banks, n, &c3, collect, NULL);
  const result *k = find("_Z18wide_from_constantv");
  cr_assert_not_null(k);
  cr_assert_not(k->ok, "no parameters to follow");
  const result *w0 = find("_Z18wide_from_constantv@c3:0");
  const result *w1 = find("_Z18wide_from_constantv@c3:1");
  cr_assert_not_null(w0);
  cr_assert_not_null(w1);
  cr_assert(w0->ok && w1->ok);
  cr_assert_eq(w0->written, 0, "in[0..63] only read");
  cr_assert_eq(w1->written & 0x3f, 0, "in[64..69] only read");
  cr_assert_neq(w1->written & 0x40, 0, "out is written");
  cr_assert_null(find("_Z18wide_from_constantv@c3:2"), "nothing read past");
  cr_assert_null(find("_Z9readonly2PfS_i@c3:0"), "only kernels without "
                                                 "parameters");
  free(cubin);
  free(sass);
}
