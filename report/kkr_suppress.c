/* Suppressions: a file of "kind:pattern" lines, as ThreadSanitizer's.
 *
 *   race:<pattern>      a data race with a frame (function, file or module)
 *                       of either access matching the pattern
 *   deadlock:<pattern>  a deadlock with a matching frame
 *   view:<pattern>      a data race on a View whose label matches
 *
 * '*' matches any run of characters; the pattern may match anywhere unless
 * it starts with '^' or ends with '$'.  '#' starts a comment.  A line that is
 * not of this form stops the program before main, naming the line. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "kkr_report.h"

enum { SUP_RACE, SUP_DEADLOCK, SUP_VIEW };

typedef struct {
  int kind;
  const char *text;    /* "race:foo", as written */
  const char *pattern;
  uint64_t hits;
} suppression;

static suppression *sups;
static uint32_t nsups;

/* Glob match of pattern p (with '*') against the start of s; anchored at
 * the end only if p ends with '$'. */
static int match_here(const char *p, const char *s) {
  for (;;) {
    if (*p == 0)
      return 1;
    if (*p == '$' && p[1] == 0)
      return *s == 0;
    if (*p == '*') {
      while (*p == '*')
        p++;
      if (*p == 0)
        return 1;
      for (; *s; s++)
        if (match_here(p, s))
          return 1;
      return match_here(p, s);
    }
    if (*s == 0 || *p != *s)
      return 0;
    p++;
    s++;
  }
}

static int pattern_matches(const char *pattern, const char *s) {
  if (!s)
    return 0;
  if (pattern[0] == '^')
    return match_here(pattern + 1, s);
  for (const char *q = s;; q++) {
    if (match_here(pattern, q))
      return 1;
    if (!*q)
      return 0;
  }
}

void kkr_suppressions_init(const char *path) {
  if (!path || !*path)
    return;
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    kkr_die("cannot read suppressions file '%s': %s", path, strerror(errno));
  kkr_str text = {0};
  char buf[4096];
  ssize_t n;
  while ((n = read(fd, buf, sizeof buf)) > 0)
    kkr_str_printf(&text, "%.*s", (int)n, buf);
  if (n < 0) /* (a directory, say) */
    kkr_die("cannot read suppressions file '%s': %s", path, strerror(errno));
  close(fd);
  uint32_t cap = 16, lineno = 0;
  sups = kkr_alloc(cap * sizeof *sups);
  char *save = NULL;
  for (char *line = text.buf ? strtok_r(text.buf, "\n", &save) : NULL; line;
       line = strtok_r(NULL, "\n", &save)) {
    lineno++;
    char *hash = strchr(line, '#');
    if (hash)
      *hash = 0;
    while (*line == ' ' || *line == '\t')
      line++;
    size_t len = strlen(line);
    while (len && (line[len - 1] == ' ' || line[len - 1] == '\t' ||
                   line[len - 1] == '\r'))
      line[--len] = 0;
    if (!len)
      continue;
    char *colon = strchr(line, ':');
    if (!colon || colon[1] == 0)
      kkr_die("suppressions file '%s' line %u: expected kind:pattern, got "
              "'%s'",
              path, lineno, line);
    *colon = 0;
    int kind;
    if (!strcmp(line, "race"))
      kind = SUP_RACE;
    else if (!strcmp(line, "deadlock"))
      kind = SUP_DEADLOCK;
    else if (!strcmp(line, "view"))
      kind = SUP_VIEW;
    else
      kkr_die("suppressions file '%s' line %u: unknown kind '%s' (expected "
              "race, deadlock or view)",
              path, lineno, line);
    *colon = ':';
    if (nsups == cap) {
      sups = kkr_realloc(sups, cap * sizeof *sups, 2 * cap * sizeof *sups);
      cap *= 2;
    }
    sups[nsups].kind = kind;
    sups[nsups].text = kkr_intern(line);
    sups[nsups].pattern = kkr_intern(colon + 1);
    sups[nsups].hits = 0;
    nsups++;
  }
  kkr_str_free(&text);
}

/* A demangled function name without the return type that the names of
 * template functions begin with ("void ns::f<int>(int)": "ns::f<int>(int)"),
 * so that "^ns::f" matches them; the name itself if it has none. */
static const char *without_return_type(const char *name) {
  if (!name)
    return NULL;
  int depth = 0;
  for (const char *c = name; *c; c++) {
    if (*c == '<' || *c == '(' || *c == '[')
      depth++;
    else if (*c == '>' || *c == ')' || *c == ']')
      depth--;
    if (depth == 1 && *c == '(')
      return name; /* the parameters (or "(anonymous namespace)") first */
    if (depth == 0 && *c == ' ') {
      if (c - name >= 8 && !strncmp(c - 8, "operator", 8))
        return name; /* "operator new(...)" */
      return c[1] ? c + 1 : name;
    }
  }
  return name;
}

static int stack_matches(const kkr_sym_stack *st, const char *pattern) {
  for (uint32_t i = 0; i < st->n; i++) {
    const kkr_frame *f = &st->frames[i];
    const char *fn = without_return_type(f->function);
    if (pattern_matches(pattern, f->function) ||
        (fn != f->function && pattern_matches(pattern, fn)) ||
        pattern_matches(pattern, f->file) ||
        pattern_matches(pattern, f->module))
      return 1;
  }
  return 0;
}

const char *kkr_suppressed(const kkr_report *r) {
  for (uint32_t i = 0; i < nsups; i++) {
    suppression *s = &sups[i];
    int hit = 0;
    switch (s->kind) {
    case SUP_VIEW:
      hit = r->kind == KKR_REPORT_DATA_RACE && r->has_view &&
            pattern_matches(s->pattern, r->view.label);
      break;
    case SUP_RACE:
    case SUP_DEADLOCK:
      if ((s->kind == SUP_RACE) != (r->kind == KKR_REPORT_DATA_RACE))
        break;
      for (uint32_t j = 0; j < r->naccess && !hit; j++)
        hit = stack_matches(&r->acc[j].sym, s->pattern);
      for (uint32_t j = 0; j < r->nsteps && !hit; j++)
        hit = stack_matches(&r->steps[j].sym, s->pattern);
      break;
    }
    if (hit) {
      s->hits++; /* (reports, as ThreadSanitizer counts) */
      return s->text;
    }
  }
  return NULL;
}

void kkr_suppressions_summary(int fd) {
  uint32_t matched = 0;
  for (uint32_t i = 0; i < nsups; i++)
    matched += sups[i].hits > 0;
  if (!matched)
    return;
  kkr_str s = {0};
  kkr_str_printf(&s, "kkrace: Matched %u suppression%s:\n", matched,
                 matched == 1 ? "" : "s");
  for (uint32_t i = 0; i < nsups; i++)
    if (sups[i].hits)
      kkr_str_printf(&s, "  %llu %s\n", (unsigned long long)sups[i].hits,
                     sups[i].text);
  kkr_write_all(fd, s.buf, s.len);
  kkr_str_free(&s);
}
