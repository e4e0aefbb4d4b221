/* KKRACE_OPTIONS: the options struct and its parser (kkr_flags.inc lists the
 * options). */
#ifndef KKR_FLAGS_H
#define KKR_FLAGS_H

#include <stddef.h>

#include "kkr_common.h"

enum kkr_model { KKR_MODEL_KOKKOS = 0, KKR_MODEL_MINIKOKKOS = 1 };

#define KKR_FLAGTYPE_BOOL int
#define KKR_FLAGTYPE_INT long
#define KKR_FLAGTYPE_STRING const char *
#define KKR_FLAGTYPE_MODEL int

typedef struct {
#define KKR_FLAG(type, name, def, min, max, desc) KKR_FLAGTYPE_##type name;
#include "kkr_flags.inc"
#undef KKR_FLAG
} kkr_flags_t;

/* The options in force, set once at start-up. */
KKR_HIDDEN extern kkr_flags_t kkr_flags;

/* Sets every option to its default. */
void kkr_flags_defaults(kkr_flags_t *f);

/* Parses "name=value" pairs separated by ':' or white space; a value may be
 * quoted with ' or ".  Returns 0, or -1 with a one-line message in err (it
 * names the option and the bad value). Options not named keep their value. */
int kkr_flags_parse(kkr_flags_t *f, const char *text, char *err,
                    size_t errlen);

/* Writes the list of options, defaults and meanings to fd. */
void kkr_flags_print_help(int fd);

#endif /* KKR_FLAGS_H */
