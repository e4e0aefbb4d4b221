/* KKRACE_OPTIONS parsing (rt/kkr_flags.c). */
#include <criterion/criterion.h>
#include <string.h>
#include <unistd.h>

#include "kkr_flags.h"

static kkr_flags_t f;
static char err[512];

static void setup(void) {
  kkr_flags_defaults(&f);
  err[0] = 0;
}

TestSuite(flags, .init = setup);

Test(flags, defaults) {
  cr_assert_eq(f.model, KKR_MODEL_KOKKOS);
  cr_assert_eq(f.exitcode, 66);
  cr_assert_eq(f.halt_on_error, 0);
  cr_assert_eq(f.detect_deadlocks, 1);
  cr_assert_eq(f.hang_timeout_ms, 0);
  cr_assert_str_eq(f.log_path, "stderr");
  cr_assert_str_eq(f.json_path, "");
}

Test(flags, colon_and_space_separated) {
  cr_assert_eq(kkr_flags_parse(&f, "exitcode=3:halt_on_error=1 model=minikokkos",
                               err, sizeof err), 0, "%s", err);
  cr_assert_eq(f.exitcode, 3);
  cr_assert_eq(f.halt_on_error, 1);
  cr_assert_eq(f.model, KKR_MODEL_MINIKOKKOS);
}

Test(flags, bool_spellings) {
  cr_assert_eq(kkr_flags_parse(&f, "halt_on_error=true detect_deadlocks=no",
                               err, sizeof err), 0);
  cr_assert_eq(f.halt_on_error, 1);
  cr_assert_eq(f.detect_deadlocks, 0);
}

Test(flags, quoted_values_keep_separators) {
  cr_assert_eq(kkr_flags_parse(&f, "json_path='/tmp/a b:c.jsonl':exitcode=1",
                               err, sizeof err), 0, "%s", err);
  cr_assert_str_eq(f.json_path, "/tmp/a b:c.jsonl");
  cr_assert_eq(f.exitcode, 1);
}

Test(flags, unknown_option_is_named) {
  cr_assert_eq(kkr_flags_parse(&f, "exitcode=2:no_such=1", err, sizeof err), -1);
  cr_assert(strstr(err, "unknown option 'no_such'"), "%s", err);
}

Test(flags, bad_bool_names_option_and_value) {
  cr_assert_eq(kkr_flags_parse(&f, "halt_on_error=perhaps", err, sizeof err), -1);
  cr_assert(strstr(err, "'perhaps'") && strstr(err, "'halt_on_error'"), "%s", err);
}

Test(flags, int_range_checked) {
  cr_assert_eq(kkr_flags_parse(&f, "exitcode=256", err, sizeof err), -1);
  cr_assert(strstr(err, "from 0 to 255"), "%s", err);
  cr_assert_eq(kkr_flags_parse(&f, "exitcode=12x", err, sizeof err), -1);
  cr_assert_eq(kkr_flags_parse(&f, "hang_timeout_ms=-5", err, sizeof err), -1);
}

Test(flags, missing_value) {
  cr_assert_eq(kkr_flags_parse(&f, "exitcode", err, sizeof err), -1);
  cr_assert(strstr(err, "has no value"), "%s", err);
}

Test(flags, bad_model) {
  cr_assert_eq(kkr_flags_parse(&f, "model=cuda", err, sizeof err), -1);
  cr_assert(strstr(err, "kokkos or minikokkos"), "%s", err);
}

Test(flags, empty_is_fine) {
  cr_assert_eq(kkr_flags_parse(&f, " :: ", err, sizeof err), 0);
  cr_assert_eq(f.exitcode, 66);
}

Test(flags, help_lists_every_option) {
  int p[2];
  cr_assert_eq(pipe(p), 0);
  kkr_flags_print_help(p[1]);
  close(p[1]);
  char buf[16384];
  ssize_t n = read(p[0], buf, sizeof buf - 1);
  cr_assert_gt(n, 0);
  buf[n] = 0;
  const char *names[] = {"model=kokkos", "log_path=stderr", "json_path=",
                         "sarif_path=", "exitcode=66", "halt_on_error=0",
                         "suppressions=", "detect_deadlocks=1",
                         "hang_timeout_ms=0", "help=0"};
  for (size_t i = 0; i < sizeof names / sizeof *names; i++)
    cr_assert(strstr(buf, names[i]), "help lacks %s", names[i]);
}
