/* The recorded test data of the SASS tests (tests/unit/data). */
#pragma once
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>

#ifndef KKR_TEST_DATA
#error KKR_TEST_DATA must name tests/unit/data
#endif

/* The whole of tests/unit/data/name, NUL-terminated (*len: its size). */
static inline char *slurp(const char *name, size_t *len) {
  char path[4096];
  snprintf(path, sizeof path, "%s/%s", KKR_TEST_DATA, name);
  FILE *f = fopen(path, "rb");
  cr_assert_not_null(f, "cannot read %s", path);
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *b = malloc((size_t)n + 1);
  cr_assert_eq(fread(b, 1, (size_t)n, f), (size_t)n);
  b[n] = 0;
  fclose(f);
  *len = (size_t)n;
  return b;
}
