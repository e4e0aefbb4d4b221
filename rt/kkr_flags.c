/* KKRACE_OPTIONS parsing: one table (kkr_flags.inc), values validated once. */
#include "kkr_flags.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "kkr_common.h"

kkr_flags_t kkr_flags;

enum kkr_flag_type { FT_BOOL, FT_INT, FT_STRING, FT_MODEL };

typedef struct {
  const char *name;
  enum kkr_flag_type type;
  const char *def;
  long min, max;
  const char *desc;
  size_t offset;
} kkr_flag_desc;

static const kkr_flag_desc flag_table[] = {
#define KKR_FLAG(type, name, def, min, max, desc) \
  {#name, FT_##type, def, min, max, desc, offsetof(kkr_flags_t, name)},
#include "kkr_flags.inc"
#undef KKR_FLAG
};

static const kkr_flag_desc *find_flag(const char *name, size_t len) {
  for (size_t i = 0; i < KKR_ARRAY_SIZE(flag_table); i++)
    if (strlen(flag_table[i].name) == len &&
        memcmp(flag_table[i].name, name, len) == 0)
      return &flag_table[i];
  return NULL;
}

/* Stores value (NUL-terminated) into the flag; 0 or -1 with err set. */
static int set_flag(kkr_flags_t *f, const kkr_flag_desc *d, const char *value,
                    char *err, size_t errlen) {
  char *field = (char *)f + d->offset;
  switch (d->type) {
  case FT_BOOL: {
    int v;
    if (!strcmp(value, "1") || !strcasecmp(value, "true") ||
        !strcasecmp(value, "yes"))
      v = 1;
    else if (!strcmp(value, "0") || !strcasecmp(value, "false") ||
             !strcasecmp(value, "no"))
      v = 0;
    else {
      snprintf(err, errlen,
               "bad value '%s' for option '%s' in KKRACE_OPTIONS "
               "(expected 0 or 1)",
               value, d->name);
      return -1;
    }
    *(int *)field = v;
    return 0;
  }
  case FT_INT: {
    char *end;
    errno = 0;
    long v = strtol(value, &end, 10);
    if (!*value || *end || errno || v < d->min || v > d->max) {
      snprintf(err, errlen,
               "bad value '%s' for option '%s' in KKRACE_OPTIONS "
               "(expected an integer from %ld to %ld)",
               value, d->name, d->min, d->max);
      return -1;
    }
    *(long *)field = v;
    return 0;
  }
  case FT_MODEL:
    if (!strcmp(value, "kokkos"))
      *(int *)field = KKR_MODEL_KOKKOS;
    else if (!strcmp(value, "minikokkos"))
      *(int *)field = KKR_MODEL_MINIKOKKOS;
    else {
      snprintf(err, errlen,
               "bad value '%s' for option '%s' in KKRACE_OPTIONS "
               "(expected kokkos or minikokkos)",
               value, d->name);
      return -1;
    }
    return 0;
  case FT_STRING:
    *(const char **)field = kkr_intern(value);
    return 0;
  }
  return -1;
}

void kkr_flags_defaults(kkr_flags_t *f) {
  char err[256];
  for (size_t i = 0; i < KKR_ARRAY_SIZE(flag_table); i++)
    KKR_CHECK(set_flag(f, &flag_table[i], flag_table[i].def, err,
                       sizeof err) == 0);
}

static int is_sep(char c) {
  return c == ':' || c == ' ' || c == '\t' || c == '\n';
}

int kkr_flags_parse(kkr_flags_t *f, const char *text, char *err,
                    size_t errlen) {
  const char *p = text;
  char value[4096];
  for (;;) {
    while (*p && is_sep(*p))
      p++;
    if (!*p)
      return 0;
    const char *name = p;
    while (*p && *p != '=' && !is_sep(*p))
      p++;
    size_t nlen = (size_t)(p - name);
    if (*p != '=') {
      snprintf(err, errlen,
               "option '%.*s' in KKRACE_OPTIONS has no value "
               "(write name=value)",
               (int)nlen, name);
      return -1;
    }
    const kkr_flag_desc *d = find_flag(name, nlen);
    if (!d) {
      snprintf(err, errlen,
               "unknown option '%.*s' in KKRACE_OPTIONS "
               "(KKRACE_OPTIONS=help=1 lists them)",
               (int)nlen, name);
      return -1;
    }
    p++; /* '=' */
    size_t vlen = 0;
    if (*p == '"' || *p == '\'') {
      char q = *p++;
      while (*p && *p != q && vlen + 1 < sizeof value)
        value[vlen++] = *p++;
      if (*p != q) {
        snprintf(err, errlen,
                 "unterminated quote in the value of option '%s' in "
                 "KKRACE_OPTIONS",
                 d->name);
        return -1;
      }
      p++;
    } else {
      while (*p && !is_sep(*p) && vlen + 1 < sizeof value)
        value[vlen++] = *p++;
    }
    value[vlen] = 0;
    if (set_flag(f, d, value, err, errlen))
      return -1;
  }
}

void kkr_flags_print_help(int fd) {
  kkr_str s = {0};
  kkr_str_printf(&s, "kkrace options (KKRACE_OPTIONS=\"name=value:name=value\"):\n");
  for (size_t i = 0; i < KKR_ARRAY_SIZE(flag_table); i++) {
    const kkr_flag_desc *d = &flag_table[i];
    char head[80];
    snprintf(head, sizeof head, "%s=%s", d->name, d->def);
    kkr_str_printf(&s, "  %-28s %s\n", head, d->desc);
  }
  kkr_write_all(fd, s.buf, s.len);
  kkr_str_free(&s);
}
