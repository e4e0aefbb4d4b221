/* kkrace-report: merges the JSON Lines reports (json_path) of many runs and
 * processes, deduplicates them by fingerprint, prints a summary, compares
 * with a baseline (the CI gate), writes SARIF, JUnit XML and JSON Lines, and
 * draws the computation graph (graph_path) around one report.
 * docs/kkrace-report.md describes it. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kkr_frames.h"
#include "kkr_json.h"
#include "kkr_rules.h"

static void die_oom(void);
#define uthash_fatal(msg) die_oom()
#include <uthash.h>

#ifndef KKRACE_VERSION
#define KKRACE_VERSION "0.1.0"
#endif

#define PROG "kkrace-report"

/* Exit statuses. */
enum { EXIT_CLEAN = 0, EXIT_REPORTS = 1, EXIT_ERROR = 2 };

static const char usage_text[] =
    "Usage: kkrace-report [options] FILE.jsonl...\n"
    "\n"
    "Merges the JSON Lines reports that programs built with -fsanitize=kkrace\n"
    "write (KKRACE_OPTIONS=json_path=FILE), from any number of runs and\n"
    "processes ('-' reads standard input), deduplicates them by fingerprint\n"
    "and prints a summary: tables by kind, by View and by source locations,\n"
    "then one line per distinct report.\n"
    "\n"
    "Options:\n"
    "  --baseline OLD.jsonl  reports whose fingerprint is in OLD.jsonl are not\n"
    "                        new; print the new ones and count the fixed ones\n"
    "                        (repeatable)\n"
    "  --sarif OUT.sarif     write the reports (with --baseline: the new ones)\n"
    "                        as a SARIF 2.1.0 log\n"
    "  --junit OUT.xml       write them as JUnit XML: one failing test case\n"
    "                        per report, or one passing test case 'kkrace'\n"
    "  --json OUT.jsonl      write them as JSON Lines, merged (counts summed)\n"
    "  --graph N --dot G.dot draw the computation graph around the N-th report\n"
    "                        (as numbered in the summary) from G.dot, the\n"
    "                        graph_path file of the process that found it\n"
    "  --depth D             with --graph: keep the nodes within D edges of\n"
    "                        the two racing nodes (default 2)\n"
    "  -o OUT.dot|OUT.svg    with --graph: write there (default: standard\n"
    "                        output); OUT.svg, .png or .pdf runs Graphviz's\n"
    "                        dot, anything else gets DOT\n"
    "  -q, --quiet           print no summary\n"
    "  -h, --help            print this help\n"
    "  --version             print the version\n"
    "\n"
    "Exit status: 0 if there is no report (with --baseline: no new report),\n"
    "1 if there is, 2 on a usage error or unreadable or malformed input.\n";

/* ---- Memory and errors ---------------------------------------------------- */

static void die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
static void die(const char *fmt, ...) {
  fflush(stdout);
  fputs(PROG ": error: ", stderr);
  va_list ap;
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fputc('\n', stderr);
  exit(EXIT_ERROR);
}

static void die_oom(void) { die("out of memory"); }

static void *xmalloc(size_t n) {
  void *p = malloc(n ? n : 1);
  if (!p)
    die_oom();
  return p;
}

static void *xcalloc(size_t n, size_t size) {
  void *p = calloc(n ? n : 1, size ? size : 1);
  if (!p)
    die_oom();
  return p;
}

static void *xrealloc(void *p, size_t n) {
  p = realloc(p, n ? n : 1);
  if (!p)
    die_oom();
  return p;
}

static char *xstrdup(const char *s) {
  size_t n = strlen(s) + 1;
  return memcpy(xmalloc(n), s, n);
}

/* Grows the array p of *cap elements of size elem to hold need: returns it,
 * maybe moved. */
static void *grow(void *p, size_t *cap, size_t need, size_t elem) {
  if (need <= *cap)
    return p;
  size_t nc = *cap ? *cap : 8;
  while (nc < need)
    nc *= 2;
  if (nc > SIZE_MAX / elem)
    die_oom();
  p = xrealloc(p, nc * elem);
  *cap = nc;
  return p;
}

/* A growing string. */
typedef struct {
  char *buf;
  size_t len, cap;
} sbuf;

static void sb_printf(sbuf *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void sb_printf(sbuf *s, const char *fmt, ...) {
  for (;;) {
    size_t room = s->cap - s->len;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(s->buf ? s->buf + s->len : NULL, room, fmt, ap);
    va_end(ap);
    if (n < 0)
      die("cannot format text");
    if ((size_t)n < room) {
      s->len += (size_t)n;
      return;
    }
    s->buf = grow(s->buf, &s->cap, s->len + (size_t)n + 1, 1);
  }
}

static void sb_put(sbuf *s, const char *text) { sb_printf(s, "%s", text); }

static const char *sb_str(sbuf *s) { return s->buf ? s->buf : ""; }

static void sb_free(sbuf *s) {
  free(s->buf);
  s->buf = NULL;
  s->len = s->cap = 0;
}

static FILE *open_out(const char *path) {
  FILE *f = fopen(path, "w");
  if (!f)
    die("cannot write '%s': %s", path, strerror(errno));
  return f;
}

static void close_out(FILE *f, const char *path) {
  int bad = ferror(f);
  if (fclose(f) != 0 || bad)
    die("cannot write '%s': %s", path, strerror(errno ? errno : EIO));
}

/* ---- Paths ------------------------------------------------------------------ */

static char *g_cwd; /* the current directory, for relative paths */

/* file relative to the current directory when it is under it. */
static const char *rel_path(const char *file) {
  if (!file || file[0] != '/' || !g_cwd)
    return file;
  size_t n = strlen(g_cwd);
  if (n == 1) /* "/": keep absolute paths absolute */
    return file;
  if (!strncmp(file, g_cwd, n) && file[n] == '/' && file[n + 1])
    return file + n + 1;
  return file;
}

/* ---- Reports ---------------------------------------------------------------- */

/* One run a report was seen in: a process (pid) writing to one input file. */
typedef struct {
  size_t file;
  int64_t pid;
  int has_pid;
  char *node[2]; /* accesses[].node.graph_node in that run */
  uint64_t line; /* where in the file */
} run_ref;

typedef struct report {
  char fp[17];        /* the fingerprint: the hash key */
  kkr_json *json;     /* the first one found */
  const char *kind, *subkind, *summary; /* in json */
  char *what;         /* "View 'a'", "global 'x'", ... */
  char *loc[2];       /* top frame "file:line" of each access, or NULL */
  uint64_t count;     /* summed over runs */
  size_t order;       /* in the list */
  run_ref *runs;      /* distinct (file, pid) */
  size_t nruns, capruns;
  UT_hash_handle hh;
} report;

typedef struct {
  report *hash;
  report **list; /* in the order first found */
  size_t n, cap;
  char **files;
  size_t nfiles, capfiles;
  struct stat *ids; /* of the files, to read each once */
  size_t capids;
  uint64_t found; /* report lines read */
  /* every (file, pid) pair of any report, for the header */
  size_t nruns_all;
  struct runkey *runs_all;
} report_set;

typedef struct runkey {
  struct {
    size_t file;
    int64_t pid;
  } k;
  UT_hash_handle hh;
} runkey;

static const char *json_str_or(const kkr_json *v, const char *key,
                               const char *dflt) {
  const char *s = kkr_json_string(kkr_json_get(v, key));
  return s ? s : dflt;
}

static int64_t json_int_or(const kkr_json *v, const char *key, int64_t dflt) {
  int64_t x;
  return kkr_json_i64(kkr_json_get(v, key), &x) ? x : dflt;
}

static const kkr_json *access_at(const report *r, size_t i) {
  const kkr_json *a = kkr_json_get(r->json, "accesses");
  return a && i < a->n ? a->items[i] : NULL;
}

static size_t naccesses(const report *r) {
  const kkr_json *a = kkr_json_get(r->json, "accesses");
  return a ? a->n : 0;
}

/* The frame a report is about, as the runtime chooses it
 * (kkr_report_top_frame): the first with a file and a function that is
 * neither Kokkos' nor the C++ library's; else the first with a file that is
 * not Kokkos'; else the first. */
static const kkr_json *top_frame(const kkr_json *stack) {
  if (!stack || stack->type != KKR_JSON_ARRAY || !stack->n)
    return NULL;
  for (size_t i = 0; i < stack->n; i++) {
    const kkr_json *f = stack->items[i];
    const char *file = kkr_json_string(kkr_json_get(f, "file"));
    const char *fn = kkr_json_string(kkr_json_get(f, "function"));
    if (file && fn && !kkr_is_kokkos_function(fn) && !kkr_is_std_frame(fn, file))
      return f;
  }
  for (size_t i = 0; i < stack->n; i++) {
    const kkr_json *f = stack->items[i];
    if (kkr_json_string(kkr_json_get(f, "file")) &&
        !kkr_is_kokkos_function(kkr_json_string(kkr_json_get(f, "function"))))
      return f;
  }
  return stack->items[0];
}

/* "file:line" (with_column: ":column" too) of a frame; NULL if it has no
 * file (then the function or module, if known). */
static void frame_location(sbuf *s, const kkr_json *f, int with_column) {
  const char *file = kkr_json_string(kkr_json_get(f, "file"));
  if (file) {
    sb_printf(s, "%s:%" PRId64, rel_path(file), json_int_or(f, "line", 0));
    int64_t col = json_int_or(f, "column", 0);
    if (with_column && col > 0)
      sb_printf(s, ":%" PRId64, col);
    return;
  }
  const char *fn = kkr_json_string(kkr_json_get(f, "function"));
  const char *mod = kkr_json_string(kkr_json_get(f, "module"));
  if (fn)
    sb_printf(s, "%s", fn);
  else if (mod)
    sb_printf(s, "%s+%s", mod, json_str_or(f, "pc", "?"));
  else
    sb_put(s, "??");
}

/* The top frame's location of access i, or NULL. */
static char *access_location(const kkr_json *access, int with_column) {
  const kkr_json *f = top_frame(kkr_json_get(access, "stack"));
  if (!f)
    return NULL;
  sbuf s = {0};
  frame_location(&s, f, with_column);
  return s.buf;
}

/* The memory a report is about. */
static char *describe_what(const kkr_json *v) {
  sbuf s = {0};
  const char *view = kkr_json_string(kkr_json_get(v, "view"));
  const char *loc = kkr_json_string(kkr_json_get(v, "location"));
  if (view)
    sb_printf(&s, "View '%s'", view);
  else if (loc)
    sb_put(&s, loc);
  else if (!strcmp(json_str_or(v, "kind", ""), "data-race"))
    sb_put(&s, "memory");
  else
    sb_put(&s, "(none)");
  return s.buf;
}

/* The graph node that made an access, in words (as the runtime's text). */
static void describe_node(sbuf *s, const kkr_json *node) {
  const char *type = json_str_or(node, "type", "?");
  if (!strcmp(type, "host")) {
    const char *t = json_str_or(node, "thread", "?");
    if (!strcmp(t, "main"))
      sb_put(s, "main thread");
    else
      sb_printf(s, "thread %s", t);
    return;
  }
  const char *work = json_str_or(node, "work", "");
  const char *kind = json_str_or(node, "work_kind", "work");
  if (!strcmp(type, "strand")) {
    const char *strand = json_str_or(node, "strand", "?");
    const char *sk = json_str_or(node, "strand_kind", "iteration");
    sb_printf(s, "%s '%s' %s ", kind, work, sk);
    sb_printf(s, strchr(strand, ',') ? "(%s)" : "%s", strand);
    const kkr_json *exact = kkr_json_get(node, "strand_exact");
    if (exact && exact->type == KKR_JSON_FALSE)
      sb_put(s, " (approximately)");
  } else if (!strcmp(type, "work")) {
    sb_printf(s, "%s '%s' (its own code, outside the functor)", kind, work);
  } else if (*work) {
    sb_put(s, work); /* copies and fills: already in words */
  } else {
    sb_put(s, type);
  }
}

/* "write", "atomic read", "free", or a deadlock's operation. */
static void describe_op(sbuf *s, const kkr_json *access) {
  const kkr_json *atomic = kkr_json_get(access, "atomic");
  if (atomic && atomic->type == KKR_JSON_TRUE)
    sb_put(s, "atomic ");
  sb_put(s, json_str_or(access, "op", "access"));
}

/* An access (a deadlock's step) in words: its "what" when the runtime
 * wrote one, else prefix, the operation and the node. */
static void describe_access(sbuf *s, const kkr_json *access,
                            const char *prefix) {
  const char *what = kkr_json_string(kkr_json_get(access, "what"));
  if (what) {
    sb_put(s, what);
    return;
  }
  sb_put(s, prefix);
  describe_op(s, access);
  uint64_t size;
  if (kkr_json_u64(kkr_json_get(access, "size"), &size) && size && !*prefix)
    sb_printf(s, " of size %" PRIu64, size);
  sb_put(s, " by ");
  describe_node(s, kkr_json_get(access, "node"));
}

/* Checks that v has what kkrace-report reads; NULL or what is wrong. */
static const char *check_report(const kkr_json *v, char *buf, size_t size) {
  if (v->type != KKR_JSON_OBJECT)
    return "a report must be a JSON object";
  static const char *const strings[] = {"kind", "subkind", "summary",
                                        "fingerprint"};
  for (size_t i = 0; i < sizeof strings / sizeof *strings; i++) {
    const kkr_json *f = kkr_json_get(v, strings[i]);
    if (!f) {
      snprintf(buf, size, "a report without \"%s\"%s", strings[i],
               !strcmp(strings[i], "fingerprint")
                   ? " (written by an older kkrace runtime?)"
                   : "");
      return buf;
    }
    if (f->type != KKR_JSON_STRING || memchr(f->str, 0, f->len)) {
      snprintf(buf, size, "\"%s\" must be a string", strings[i]);
      return buf;
    }
  }
  const char *fp = kkr_json_string(kkr_json_get(v, "fingerprint"));
  if (strlen(fp) != 16 || strspn(fp, "0123456789abcdefABCDEF") != 16)
    return "\"fingerprint\" must be 16 hexadecimal digits";
  uint64_t count;
  if (!kkr_json_u64(kkr_json_get(v, "count"), &count))
    return "\"count\" must be a non-negative integer";
  const kkr_json *pid = kkr_json_get(v, "pid");
  int64_t p;
  if (pid && !kkr_json_i64(pid, &p))
    return "\"pid\" must be an integer";
  const kkr_json *view = kkr_json_get(v, "view");
  if (view && view->type != KKR_JSON_STRING && view->type != KKR_JSON_NULL)
    return "\"view\" must be a string or null";
  const kkr_json *acc = kkr_json_get(v, "accesses");
  if (!acc || acc->type != KKR_JSON_ARRAY || acc->n == 0)
    return "\"accesses\" must be a non-empty array";
  for (size_t i = 0; i < acc->n; i++) {
    const kkr_json *a = acc->items[i];
    if (a->type != KKR_JSON_OBJECT)
      return "each access must be an object";
    const kkr_json *node = kkr_json_get(a, "node");
    if (node && node->type != KKR_JSON_OBJECT)
      return "an access's \"node\" must be an object";
    const kkr_json *gn = kkr_json_get(node, "graph_node");
    if (gn && gn->type != KKR_JSON_STRING)
      return "\"graph_node\" must be a string";
    static const char *const stacks[] = {"stack", "submitted_at"};
    for (size_t k = 0; k < 2; k++) {
      const kkr_json *st = kkr_json_get(k ? node : a, stacks[k]);
      if (!st)
        continue;
      if (st->type != KKR_JSON_ARRAY) {
        snprintf(buf, size, "\"%s\" must be an array of frames", stacks[k]);
        return buf;
      }
      for (size_t j = 0; j < st->n; j++) {
        const kkr_json *f = st->items[j];
        if (f->type != KKR_JSON_OBJECT)
          return "a stack frame must be an object";
        static const char *const fs[] = {"function", "file", "module", "pc"};
        for (size_t m = 0; m < sizeof fs / sizeof *fs; m++) {
          const kkr_json *x = kkr_json_get(f, fs[m]);
          if (x && x->type != KKR_JSON_STRING && x->type != KKR_JSON_NULL) {
            snprintf(buf, size, "a frame's \"%s\" must be a string or null",
                     fs[m]);
            return buf;
          }
        }
        static const char *const ns[] = {"line", "column"};
        for (size_t m = 0; m < 2; m++) {
          const kkr_json *x = kkr_json_get(f, ns[m]);
          uint64_t u;
          if (x && !kkr_json_u64(x, &u)) {
            snprintf(buf, size,
                     "a frame's \"%s\" must be a non-negative integer", ns[m]);
            return buf;
          }
        }
      }
    }
  }
  return NULL;
}

static const char *file_name(const report_set *set, size_t i) {
  return strcmp(set->files[i], "-") ? set->files[i] : "<stdin>";
}

static void add_run(report_set *set, report *r, size_t file, const kkr_json *v,
                    uint64_t line) {
  int64_t pid = 0;
  int has_pid = kkr_json_i64(kkr_json_get(v, "pid"), &pid);
  runkey *k;
  runkey probe;
  memset(&probe, 0, sizeof probe);
  probe.k.file = file;
  probe.k.pid = pid;
  HASH_FIND(hh, set->runs_all, &probe.k, sizeof probe.k, k);
  if (!k) {
    k = xcalloc(1, sizeof *k);
    k->k.file = file;
    k->k.pid = pid;
    HASH_ADD(hh, set->runs_all, k, sizeof k->k, k);
    set->nruns_all++;
  }
  for (size_t i = 0; i < r->nruns; i++)
    if (r->runs[i].file == file && r->runs[i].pid == pid)
      return;
  r->runs = grow(r->runs, &r->capruns, r->nruns + 1, sizeof *r->runs);
  run_ref *rr = &r->runs[r->nruns++];
  memset(rr, 0, sizeof *rr);
  rr->file = file;
  rr->pid = pid;
  rr->has_pid = has_pid;
  rr->line = line;
  const kkr_json *acc = kkr_json_get(v, "accesses");
  for (size_t i = 0; i < 2 && i < acc->n; i++) {
    const char *gn =
        kkr_json_string(kkr_json_get(kkr_json_get(acc->items[i], "node"),
                                     "graph_node"));
    rr->node[i] = gn ? xstrdup(gn) : NULL;
  }
}

/* Adds the report v (read from file:line) to set; takes v. */
static void add_report(report_set *set, kkr_json *v, size_t file,
                       uint64_t line) {
  const char *fp = kkr_json_string(kkr_json_get(v, "fingerprint"));
  char key[17];
  for (size_t i = 0; i < 16; i++) /* hex digits compare case-blind */
    key[i] = (char)(fp[i] >= 'A' && fp[i] <= 'F' ? fp[i] - 'A' + 'a' : fp[i]);
  key[16] = 0;
  uint64_t count = 0;
  kkr_json_u64(kkr_json_get(v, "count"), &count);
  report *r;
  HASH_FIND_STR(set->hash, key, r);
  set->found++;
  if (r) {
    r->count = r->count + count < r->count ? UINT64_MAX : r->count + count;
    add_run(set, r, file, v, line);
    kkr_json_free(v);
    return;
  }
  r = xcalloc(1, sizeof *r);
  memcpy(r->fp, key, sizeof key);
  r->json = v;
  r->kind = kkr_json_string(kkr_json_get(v, "kind"));
  r->subkind = kkr_json_string(kkr_json_get(v, "subkind"));
  r->summary = kkr_json_string(kkr_json_get(v, "summary"));
  r->what = describe_what(v);
  for (size_t i = 0; i < 2; i++)
    r->loc[i] = i < naccesses(r) ? access_location(access_at(r, i), 0) : NULL;
  r->count = count;
  r->order = set->n;
  HASH_ADD_STR(set->hash, fp, r);
  set->list = grow(set->list, &set->cap, set->n + 1, sizeof *set->list);
  set->list[set->n++] = r;
  add_run(set, r, file, v, line);
}

/* Reads one JSON Lines file into set. */
static void load_file(report_set *set, const char *path) {
  FILE *f = strcmp(path, "-") ? fopen(path, "r") : stdin;
  if (!f)
    die("cannot read '%s': %s", path, strerror(errno));
  struct stat st;
  memset(&st, 0, sizeof st);
  if (fstat(fileno(f), &st))
    die("cannot read '%s': %s", path, strerror(errno));
  /* A file named twice (or by two names) is read once. */
  for (size_t i = 0; i < set->nfiles && S_ISREG(st.st_mode); i++) {
    if (set->ids[i].st_dev == st.st_dev && set->ids[i].st_ino == st.st_ino) {
      if (f != stdin)
        fclose(f);
      return;
    }
  }
  set->files = grow(set->files, &set->capfiles, set->nfiles + 1,
                    sizeof *set->files);
  set->ids = grow(set->ids, &set->capids, set->nfiles + 1, sizeof *set->ids);
  size_t fi = set->nfiles;
  set->ids[fi] = st;
  set->files[set->nfiles++] = xstrdup(path);
  const char *name = file_name(set, fi);
  char *line = NULL;
  size_t cap = 0;
  ssize_t len;
  uint64_t lineno = 0;
  errno = 0;
  while ((len = getline(&line, &cap, f)) >= 0) {
    lineno++;
    size_t n = (size_t)len;
    while (n && (line[n - 1] == '\n' || line[n - 1] == '\r'))
      n--;
    const char *text = line;
    if (lineno == 1 && n >= 3 && !memcmp(text, "\xef\xbb\xbf", 3)) {
      text += 3; /* a byte order mark */
      n -= 3;
    }
    if (strspn(text, " \t") >= n)
      continue; /* blank line */
    if (memchr(text, 0, n))
      die("%s:%" PRIu64 ": a NUL byte: not a JSON Lines file", name, lineno);
    kkr_json_error err;
    kkr_json *v = kkr_json_parse(text, n, &err);
    if (!v) {
      free(line);
      die("%s:%" PRIu64 ":%zu: invalid JSON: %s", name, lineno,
          err.offset + 1, err.message);
    }
    char buf[160];
    const char *bad = check_report(v, buf, sizeof buf);
    if (bad) {
      kkr_json_free(v);
      free(line);
      die("%s:%" PRIu64 ": not a kkrace report: %s", name, lineno, bad);
    }
    add_report(set, v, fi, lineno);
    errno = 0;
  }
  int bad = ferror(f);
  int err = errno;
  free(line);
  if (f != stdin)
    fclose(f);
  if (bad)
    die("cannot read '%s': %s", name, strerror(err ? err : EIO));
}

static void free_set(report_set *set) {
  report *r, *tmp;
  HASH_ITER(hh, set->hash, r, tmp) {
    HASH_DEL(set->hash, r);
    kkr_json_free(r->json);
    free(r->what);
    free(r->loc[0]);
    free(r->loc[1]);
    for (size_t i = 0; i < r->nruns; i++) {
      free(r->runs[i].node[0]);
      free(r->runs[i].node[1]);
    }
    free(r->runs);
    free(r);
  }
  runkey *k, *ktmp;
  HASH_ITER(hh, set->runs_all, k, ktmp) {
    HASH_DEL(set->runs_all, k);
    free(k);
  }
  free(set->list);
  for (size_t i = 0; i < set->nfiles; i++)
    free(set->files[i]);
  free(set->files);
  free(set->ids);
  memset(set, 0, sizeof *set);
}

static const char *plural(uint64_t n, const char *one, const char *many) {
  return n == 1 ? one : many;
}

/* ---- The summary ------------------------------------------------------------ */

typedef struct row {
  char *key;
  size_t reports;
  uint64_t count;
  UT_hash_handle hh;
} row;

static void table_add(row **t, const char *key, uint64_t count) {
  row *r;
  HASH_FIND_STR(*t, key, r);
  if (!r) {
    r = xcalloc(1, sizeof *r);
    r->key = xstrdup(key);
    HASH_ADD_KEYPTR(hh, *t, r->key, strlen(r->key), r);
  }
  r->reports++;
  r->count = r->count + count < r->count ? UINT64_MAX : r->count + count;
}

static int row_cmp(const row *a, const row *b) {
  if (a->reports != b->reports)
    return a->reports > b->reports ? -1 : 1;
  if (a->count != b->count)
    return a->count > b->count ? -1 : 1;
  return strcmp(a->key, b->key);
}

/* Prints and frees the table. */
static void table_print(FILE *out, row **t, const char *title,
                        const char *column) {
  HASH_SORT(*t, row_cmp);
  fprintf(out, "\n%s:\n  %7s  %10s  %s\n", title, "reports", "count", column);
  row *r, *tmp;
  HASH_ITER(hh, *t, r, tmp) {
    fprintf(out, "  %7zu  %10" PRIu64 "  %s\n", r->reports, r->count, r->key);
    HASH_DEL(*t, r);
    free(r->key);
    free(r);
  }
}

static void print_tables(FILE *out, report **list, size_t n) {
  row *t = NULL;
  for (size_t i = 0; i < n; i++) {
    sbuf k = {0};
    sb_printf(&k, "%s/%s", list[i]->kind, list[i]->subkind);
    table_add(&t, sb_str(&k), list[i]->count);
    sb_free(&k);
  }
  table_print(out, &t, "By kind", "kind/subkind");
  for (size_t i = 0; i < n; i++)
    table_add(&t, list[i]->what, list[i]->count);
  table_print(out, &t, "By View or object", "View or object");
  for (size_t i = 0; i < n; i++) {
    const report *r = list[i];
    sbuf k = {0};
    sb_put(&k, r->loc[0] ? r->loc[0] : "??");
    if (naccesses(r) > 1)
      sb_printf(&k, " / %s", r->loc[1] ? r->loc[1] : "??");
    table_add(&t, sb_str(&k), r->count);
    sb_free(&k);
  }
  table_print(out, &t, "By source locations (the top frame of each access)",
              "locations");
}

static size_t distinct_files(const report *r) {
  size_t n = 0;
  for (size_t i = 0; i < r->nruns; i++) {
    size_t j = 0;
    while (j < i && r->runs[j].file != r->runs[i].file)
      j++;
    n += j == i;
  }
  return n;
}

/* One line: number, rule, fingerprint, summary, locations, count, runs. */
static void print_report_line(FILE *out, size_t number, const report *r) {
  if (number)
    fprintf(out, "  #%zu ", number);
  else
    fprintf(out, "  ");
  fprintf(out, "%s/%s %s: %s", r->kind, r->subkind, r->fp, r->summary);
  size_t na = naccesses(r);
  for (size_t i = 0; i < na; i++) {
    char *loc = access_location(access_at(r, i), 1);
    fprintf(out, "%s%s", i == 0 ? ", at " : i + 1 == na ? " and " : ", ",
            loc ? loc : "??");
    free(loc);
  }
  size_t files = distinct_files(r);
  fprintf(out, " (count %" PRIu64 ", seen in %zu %s", r->count, r->nruns,
          plural(r->nruns, "run", "runs"));
  if (files > 1)
    fprintf(out, " of %zu files", files);
  fprintf(out, ")\n");
}

/* ---- SARIF ------------------------------------------------------------------- */

static const char *const rule_ids[] = {
#define X(id, text) id,
    KKR_RULES(X)
#undef X
};
static const char *const rule_texts[] = {
#define X(id, text) text,
    KKR_RULES(X)
#undef X
};
#define NRULES (sizeof rule_ids / sizeof *rule_ids)

static int rule_index(const report *r) {
  size_t n = strlen(r->kind);
  for (size_t i = 0; i < NRULES; i++)
    if (!strncmp(rule_ids[i], r->kind, n) && rule_ids[i][n] == '/' &&
        !strcmp(rule_ids[i] + n + 1, r->subkind))
      return (int)i;
  return -1;
}

static void jstr(FILE *f, const char *s) { kkr_json_write_string(f, s, strlen(s)); }

/* A path as a URI reference: bytes other than unreserved, sub-delims, ':',
 * '@' and '/' percent-encoded. */
static void uri_escape(sbuf *s, const char *path) {
  static const char ok[] = "-._~!$&'()*+,;=:@/";
  for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
    if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
        (*p >= '0' && *p <= '9') || (*p && strchr(ok, *p)))
      sb_printf(s, "%c", *p);
    else
      sb_printf(s, "%%%02X", *p);
  }
}

/* A location object; with a message, a related location (its id). */
static void sarif_location(FILE *f, const kkr_json *frame, int id,
                           const char *message) {
  fputc('{', f);
  if (message) {
    fprintf(f, "\"id\":%d,\"message\":{\"text\":", id);
    jstr(f, message);
    fputs("},", f);
  }
  const char *file = rel_path(kkr_json_string(kkr_json_get(frame, "file")));
  sbuf uri = {0};
  fputs("\"physicalLocation\":{\"artifactLocation\":{\"uri\":", f);
  if (file[0] == '/') {
    sb_put(&uri, "file://");
    uri_escape(&uri, file);
    jstr(f, sb_str(&uri));
    fputs("}", f);
  } else {
    uri_escape(&uri, file);
    jstr(f, sb_str(&uri));
    fputs(",\"uriBaseId\":\"%SRCROOT%\"}", f);
  }
  sb_free(&uri);
  int64_t line = json_int_or(frame, "line", 0);
  int64_t col = json_int_or(frame, "column", 0);
  fprintf(f, ",\"region\":{\"startLine\":%" PRId64, line > 0 ? line : 1);
  if (col > 0)
    fprintf(f, ",\"startColumn\":%" PRId64, col);
  fputs("}}}", f);
}

static void write_sarif(const char *path, report **list, size_t n) {
  FILE *f = open_out(path);
  fputs("{\"$schema\":\"https://json.schemastore.org/sarif-2.1.0.json\","
        "\"version\":\"2.1.0\",\"runs\":[{\"tool\":{\"driver\":{\"name\":"
        "\"kkrace\",\"version\":\"" KKRACE_VERSION "\",\"rules\":[",
        f);
  for (size_t i = 0; i < NRULES; i++) {
    fprintf(f, "%s{\"id\":", i ? "," : "");
    jstr(f, rule_ids[i]);
    fputs(",\"shortDescription\":{\"text\":", f);
    jstr(f, rule_texts[i]);
    fputs("},\"defaultConfiguration\":{\"level\":\"error\"}}", f);
  }
  fputs("]}},\"originalUriBaseIds\":{\"%SRCROOT%\":{\"uri\":", f);
  sbuf root = {0};
  sb_put(&root, "file://");
  uri_escape(&root, strcmp(g_cwd, "/") ? g_cwd : "");
  sb_put(&root, "/");
  jstr(f, sb_str(&root));
  sb_free(&root);
  fputs("}},\"results\":[", f);
  for (size_t i = 0; i < n; i++) {
    const report *r = list[i];
    if (i)
      fputc(',', f);
    sbuf rid = {0};
    sb_printf(&rid, "%s/%s", r->kind, r->subkind);
    fputs("{\"ruleId\":", f);
    jstr(f, sb_str(&rid));
    sb_free(&rid);
    int ri = rule_index(r);
    if (ri >= 0)
      fprintf(f, ",\"ruleIndex\":%d", ri);
    fputs(",\"level\":\"error\",\"message\":{\"text\":", f);
    jstr(f, r->summary);
    fputs("}", f);
    const kkr_json *f0 = top_frame(kkr_json_get(access_at(r, 0), "stack"));
    if (f0 && kkr_json_string(kkr_json_get(f0, "file"))) {
      fputs(",\"locations\":[", f);
      sarif_location(f, f0, 0, NULL);
      fputs("]", f);
    }
    /* The other access (a deadlock's other steps) as related locations. */
    int related = 0;
    for (size_t k = 1; k < naccesses(r); k++) {
      const kkr_json *ak = access_at(r, k);
      const kkr_json *fk = top_frame(kkr_json_get(ak, "stack"));
      if (!fk || !kkr_json_string(kkr_json_get(fk, "file")))
        continue;
      sbuf what = {0};
      describe_access(&what, ak, "the other access: ");
      fputs(related ? "," : ",\"relatedLocations\":[", f);
      sarif_location(f, fk, (int)k, sb_str(&what));
      sb_free(&what);
      related = 1;
    }
    if (related)
      fputs("]", f);
    fprintf(f, ",\"partialFingerprints\":{\"kkraceLocationPair/v1\":\"%s\"},"
               "\"properties\":{\"count\":%" PRIu64,
            r->fp, r->count);
    const char *view = kkr_json_string(kkr_json_get(r->json, "view"));
    if (view) {
      fputs(",\"view\":", f);
      jstr(f, view);
    }
    fprintf(f, ",\"runs\":%zu}}", r->nruns);
  }
  fputs("]}]}\n", f);
  close_out(f, path);
}

/* ---- JUnit XML ---------------------------------------------------------------- */

/* XML text (attr: an attribute value): markup escaped, characters XML 1.0
 * cannot hold and invalid UTF-8 replaced with U+FFFD. */
static void xml_text(FILE *f, const char *s, int attr) {
  const unsigned char *u = (const unsigned char *)s;
  size_t len = strlen(s);
  for (size_t i = 0; i < len;) {
    unsigned char c = u[i];
    if (c >= 0x80) {
      uint32_t cp;
      size_t n = kkr_utf8_decode(u + i, len - i, &cp);
      if (!n || cp == 0xfffe || cp == 0xffff) {
        fputs("\xef\xbf\xbd", f);
        i += n ? n : 1;
      } else {
        fwrite(u + i, 1, n, f);
        i += n;
      }
      continue;
    }
    i++;
    switch (c) {
    case '&': fputs("&amp;", f); continue;
    case '<': fputs("&lt;", f); continue;
    case '>': fputs("&gt;", f); continue;
    case '"': fputs(attr ? "&quot;" : "\"", f); continue;
    case '\'': fputs(attr ? "&apos;" : "'", f); continue;
    case '\n': fputs(attr ? "&#10;" : "\n", f); continue;
    case '\r': fputs("&#13;", f); continue;
    case '\t': fputs(attr ? "&#9;" : "\t", f); continue;
    default:
      if (c < 0x20)
        fputs("\xef\xbf\xbd", f);
      else
        fputc(c, f);
    }
  }
}

static void format_stack(sbuf *s, const kkr_json *stack, const char *indent) {
  if (!stack || stack->type != KKR_JSON_ARRAY)
    return;
  for (size_t i = 0; i < stack->n; i++) {
    const kkr_json *fr = stack->items[i];
    const char *fn = kkr_json_string(kkr_json_get(fr, "function"));
    sb_printf(s, "%s#%zu %s ", indent, i, fn ? fn : "??");
    frame_location(s, fr, 1);
    sb_put(s, "\n");
  }
}

/* A report as text: what JUnit shows under a failure. */
static void format_report(sbuf *s, const report_set *set, const report *r) {
  sb_printf(s, "%s\n", r->summary);
  sb_printf(s, "rule %s/%s, fingerprint %s, count %" PRIu64 ", seen in %zu %s",
            r->kind, r->subkind, r->fp, r->count, r->nruns,
            plural(r->nruns, "run", "runs"));
  if (r->nruns && r->runs[0].has_pid)
    sb_printf(s, " (first: pid %" PRId64 " in %s)", r->runs[0].pid,
              file_name(set, r->runs[0].file));
  sb_put(s, "\n");
  for (size_t i = 0; i < naccesses(r); i++) {
    const kkr_json *a = access_at(r, i);
    const kkr_json *node = kkr_json_get(a, "node");
    describe_access(s, a, "");
    const char *inst = kkr_json_string(kkr_json_get(node, "instance"));
    if (inst && !kkr_json_get(a, "what"))
      sb_printf(s, " on %s", inst);
    sb_put(s, ":\n");
    format_stack(s, kkr_json_get(a, "stack"), "    ");
    const kkr_json *at = kkr_json_get(node, "submitted_at");
    if (at && at->n) {
      const char *by = json_str_or(node, "submitted_by", "?");
      if (!strcmp(by, "main"))
        sb_put(s, "  submitted by main thread at:\n");
      else
        sb_printf(s, "  submitted by thread %s at:\n", by);
      format_stack(s, at, "    ");
    }
  }
}

static void write_junit(const char *path, const report_set *set, report **list,
                        size_t n) {
  FILE *f = open_out(path);
  size_t tests = n ? n : 1;
  fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
             "<testsuites name=\"kkrace\" tests=\"%zu\" failures=\"%zu\" "
             "errors=\"0\">\n"
             "  <testsuite name=\"kkrace\" tests=\"%zu\" failures=\"%zu\" "
             "errors=\"0\" skipped=\"0\">\n",
          tests, n, tests, n);
  if (!n)
    fputs("    <testcase classname=\"kkrace\" name=\"kkrace\"/>\n", f);
  for (size_t i = 0; i < n; i++) {
    const report *r = list[i];
    sbuf name = {0}, cls = {0}, body = {0};
    sb_printf(&name, "%s [%s]", r->summary, r->fp);
    sb_printf(&cls, "kkrace.%s.%s", r->kind, r->subkind);
    fputs("    <testcase classname=\"", f);
    xml_text(f, sb_str(&cls), 1);
    fputs("\" name=\"", f);
    xml_text(f, sb_str(&name), 1);
    fputc('"', f);
    const kkr_json *f0 = top_frame(kkr_json_get(access_at(r, 0), "stack"));
    const char *file = kkr_json_string(kkr_json_get(f0, "file"));
    if (file) {
      fputs(" file=\"", f);
      xml_text(f, rel_path(file), 1);
      fprintf(f, "\" line=\"%" PRId64 "\"", json_int_or(f0, "line", 0));
    }
    fputs(">\n      <failure type=\"", f);
    sb_free(&cls);
    sb_printf(&cls, "%s/%s", r->kind, r->subkind);
    xml_text(f, sb_str(&cls), 1);
    fputs("\" message=\"", f);
    xml_text(f, r->summary, 1);
    fputs("\">", f);
    format_report(&body, set, r);
    xml_text(f, sb_str(&body), 0);
    fputs("</failure>\n    </testcase>\n", f);
    sb_free(&name);
    sb_free(&cls);
    sb_free(&body);
  }
  fputs("  </testsuite>\n</testsuites>\n", f);
  close_out(f, path);
}

/* ---- JSON Lines ---------------------------------------------------------------- */

/* The first report found, with the summed count and the runs it was seen in. */
static void write_jsonl(const char *path, report **list, size_t n) {
  FILE *f = open_out(path);
  for (size_t i = 0; i < n; i++) {
    const kkr_json *v = list[i]->json;
    fputc('{', f);
    int first = 1;
    for (size_t k = 0; k < v->n; k++) {
      if (!strcmp(v->keys[k], "runs"))
        continue;
      if (!first)
        fputc(',', f);
      first = 0;
      jstr(f, v->keys[k]);
      fputc(':', f);
      if (!strcmp(v->keys[k], "count"))
        fprintf(f, "%" PRIu64, list[i]->count);
      else if (!strcmp(v->keys[k], "fingerprint"))
        jstr(f, list[i]->fp);
      else
        kkr_json_write(f, v->items[k]);
    }
    fprintf(f, "%s\"runs\":%zu}\n", first ? "" : ",", list[i]->nruns);
  }
  close_out(f, path);
}

/* ---- The graph around a report --------------------------------------------------- */

typedef struct {
  uint32_t id;
  long cluster; /* -1: outside any */
  char *text;   /* the statement, without indentation */
} gnode;

typedef struct {
  size_t from, to; /* node indices */
  uint32_t from_id, to_id;
  uint64_t line;
  char *text;
  int race;
} gedge;

typedef struct {
  char *head; /* "subgraph cluster_1 {" */
  sbuf attrs; /* its other lines */
} gcluster;

typedef struct gmap {
  uint32_t id;
  size_t index;
  UT_hash_handle hh;
} gmap;

typedef struct {
  int64_t pid;
  char **header;
  size_t nheader, capheader;
  gnode *nodes;
  size_t nn, capn;
  gedge *edges;
  size_t ne, cape;
  gcluster *cl;
  size_t ncl, capcl;
  gmap *map;
  /* happens-before edges (not races), both ways, as adjacency arrays */
  size_t *out_off, *out_adj, *in_off, *in_adj;
} graph;

static char *trim(char *s) {
  while (*s == ' ' || *s == '\t')
    s++;
  size_t n = strlen(s);
  while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\n' ||
               s[n - 1] == '\r'))
    s[--n] = 0;
  return s;
}

/* "nNNN" at *p: the number, *p moved past it; 0 if not. */
static int parse_node_name(const char **p, uint32_t *id) {
  const char *s = *p;
  if (*s != 'n' || s[1] < '0' || s[1] > '9')
    return 0;
  s++;
  uint64_t v = 0;
  while (*s >= '0' && *s <= '9') {
    v = v * 10 + (uint64_t)(*s - '0');
    if (v > UINT32_MAX)
      return 0;
    s++;
  }
  *id = (uint32_t)v;
  *p = s;
  return 1;
}

/* A statement "... [attributes];". */
static int has_attr_list(const char *s) {
  size_t n = strlen(s);
  return (n >= 2 && s[n - 2] == ']' && s[n - 1] == ';') ||
         (n >= 1 && s[n - 1] == ']');
}

static size_t node_index(graph *g, uint32_t id, int *found) {
  gmap *m;
  HASH_FIND(hh, g->map, &id, sizeof id, m);
  *found = m != NULL;
  return m ? m->index : 0;
}

static void load_graph(graph *g, const char *path) {
  memset(g, 0, sizeof *g);
  FILE *f = fopen(path, "r");
  if (!f)
    die("cannot read '%s': %s", path, strerror(errno));
  char *line = NULL;
  size_t cap = 0;
  uint64_t lineno = 0;
  enum { BEFORE, IN_GRAPH, IN_CLUSTER, AFTER } state = BEFORE;
  while (getline(&line, &cap, f) >= 0) {
    lineno++;
    char *s = trim(line);
    if (lineno == 1) {
      static const char head[] = "// The computation graph of pid ";
      char *end = NULL;
      long long pid = 0;
      if (!strncmp(s, head, sizeof head - 1)) {
        errno = 0;
        pid = strtoll(s + sizeof head - 1, &end, 10);
      }
      if (!end || end == s + sizeof head - 1 || errno ||
          strcmp(end, ", drawn by kkrace.")) {
        free(line);
        fclose(f);
        die("%s:1: not a graph written by kkrace (graph_path): the first "
            "line should be '// The computation graph of pid N, drawn by "
            "kkrace.'",
            path);
      }
      g->pid = pid;
      continue;
    }
    if (!*s || !strncmp(s, "//", 2))
      continue;
    const char *p = s;
    uint32_t a, b;
    const char *bad = NULL;
    switch (state) {
    case BEFORE:
      if (!strcmp(s, "digraph kkrace {"))
        state = IN_GRAPH;
      else
        bad = "expected 'digraph kkrace {'";
      break;
    case AFTER:
      bad = "text after the end of the graph";
      break;
    case IN_GRAPH:
    case IN_CLUSTER:
      if (!strcmp(s, "}")) {
        state = state == IN_CLUSTER ? IN_GRAPH : AFTER;
      } else if (parse_node_name(&p, &a) && !strncmp(p, " -> ", 4) &&
                 (p += 4, parse_node_name(&p, &b)) &&
                 (*p == ' ' || *p == '[' || *p == ';' || !*p)) {
        if (state == IN_CLUSTER) {
          bad = "an edge inside a cluster";
          break;
        }
        g->edges = grow(g->edges, &g->cape, g->ne + 1, sizeof *g->edges);
        gedge *e = &g->edges[g->ne++];
        memset(e, 0, sizeof *e);
        e->from_id = a;
        e->to_id = b;
        e->line = lineno;
        e->text = xstrdup(s);
        /* kkr_dot.c draws races red, dashed and both ways. */
        e->race = strstr(s, "[color=red,") && strstr(s, "dir=both");
      } else if ((p = s, parse_node_name(&p, &a)) &&
                 (*p == ' ' || *p == '[' || *p == ';') &&
                 (has_attr_list(s) || *p == ';')) {
        int found;
        node_index(g, a, &found);
        if (found) {
          bad = "a node declared twice";
          break;
        }
        g->nodes = grow(g->nodes, &g->capn, g->nn + 1, sizeof *g->nodes);
        gnode *n = &g->nodes[g->nn];
        n->id = a;
        n->cluster = state == IN_CLUSTER ? (long)g->ncl - 1 : -1;
        n->text = xstrdup(s);
        gmap *m = xcalloc(1, sizeof *m);
        m->id = a;
        m->index = g->nn++;
        HASH_ADD(hh, g->map, id, sizeof m->id, m);
      } else if (!strncmp(s, "subgraph ", 9) && s[strlen(s) - 1] == '{') {
        if (state == IN_CLUSTER) {
          bad = "a cluster inside a cluster";
          break;
        }
        g->cl = grow(g->cl, &g->capcl, g->ncl + 1, sizeof *g->cl);
        gcluster *c = &g->cl[g->ncl++];
        memset(c, 0, sizeof *c);
        c->head = xstrdup(s);
        state = IN_CLUSTER;
      } else if (state == IN_CLUSTER) {
        sb_printf(&g->cl[g->ncl - 1].attrs, "    %s\n", s);
      } else {
        g->header = grow(g->header, &g->capheader, g->nheader + 1, sizeof *g->header);
        g->header[g->nheader++] = xstrdup(s);
      }
      break;
    }
    if (bad) {
      free(line);
      fclose(f);
      die("%s:%" PRIu64 ": not a graph written by kkrace (graph_path): %s",
          path, lineno, bad);
    }
  }
  int err = ferror(f) ? errno : 0;
  free(line);
  fclose(f);
  if (err)
    die("cannot read '%s': %s", path, strerror(err));
  if (lineno == 0)
    die("%s: empty: not a graph written by kkrace (graph_path)", path);
  if (state != AFTER)
    die("%s:%" PRIu64 ": the graph does not end (a truncated file?)", path,
        lineno);
  /* Edges to nodes, and the happens-before adjacency. */
  g->out_off = xcalloc(g->nn + 1, sizeof *g->out_off);
  g->in_off = xcalloc(g->nn + 1, sizeof *g->in_off);
  size_t hb = 0;
  for (size_t i = 0; i < g->ne; i++) {
    gedge *e = &g->edges[i];
    int fa, fb;
    e->from = node_index(g, e->from_id, &fa);
    e->to = node_index(g, e->to_id, &fb);
    if (!fa || !fb)
      die("%s:%" PRIu64 ": an edge from or to n%" PRIu32
          ", which the graph does not declare",
          path, e->line, fa ? e->to_id : e->from_id);
    if (e->race)
      continue;
    g->out_off[e->from + 1]++;
    g->in_off[e->to + 1]++;
    hb++;
  }
  for (size_t i = 0; i < g->nn; i++) {
    g->out_off[i + 1] += g->out_off[i];
    g->in_off[i + 1] += g->in_off[i];
  }
  g->out_adj = xcalloc(hb, sizeof *g->out_adj);
  g->in_adj = xcalloc(hb, sizeof *g->in_adj);
  size_t *fo = xcalloc(g->nn + 1, sizeof *fo), *fi = xcalloc(g->nn + 1, sizeof *fi);
  for (size_t i = 0; i < g->ne; i++) {
    const gedge *e = &g->edges[i];
    if (e->race)
      continue;
    g->out_adj[g->out_off[e->from] + fo[e->from]++] = e->to;
    g->in_adj[g->in_off[e->to] + fi[e->to]++] = e->from;
  }
  free(fo);
  free(fi);
}

static void free_graph(graph *g) {
  for (size_t i = 0; i < g->nheader; i++)
    free(g->header[i]);
  free(g->header);
  for (size_t i = 0; i < g->nn; i++)
    free(g->nodes[i].text);
  free(g->nodes);
  for (size_t i = 0; i < g->ne; i++)
    free(g->edges[i].text);
  free(g->edges);
  for (size_t i = 0; i < g->ncl; i++) {
    free(g->cl[i].head);
    sb_free(&g->cl[i].attrs);
  }
  free(g->cl);
  gmap *m, *tmp;
  HASH_ITER(hh, g->map, m, tmp) {
    HASH_DEL(g->map, m);
    free(m);
  }
  free(g->out_off);
  free(g->out_adj);
  free(g->in_off);
  free(g->in_adj);
}

/* Breadth-first search from start over happens-before edges: forward
 * (dir > 0), backward (dir < 0) or both (dir == 0), at most max_depth edges
 * (-1: any).  dist[i] (filled with -1 first) gets the distance. */
static void bfs(const graph *g, const size_t *start, size_t nstart, int dir,
                long max_depth, long *dist, size_t *queue) {
  for (size_t i = 0; i < g->nn; i++)
    dist[i] = -1;
  size_t head = 0, tail = 0;
  for (size_t i = 0; i < nstart; i++)
    if (dist[start[i]] < 0) {
      dist[start[i]] = 0;
      queue[tail++] = start[i];
    }
  while (head < tail) {
    size_t u = queue[head++];
    if (max_depth >= 0 && dist[u] >= max_depth)
      continue;
    for (int way = 0; way < 2; way++) {
      if ((way == 0 && dir < 0) || (way == 1 && dir > 0))
        continue;
      const size_t *off = way == 0 ? g->out_off : g->in_off;
      const size_t *adj = way == 0 ? g->out_adj : g->in_adj;
      for (size_t k = off[u]; k < off[u + 1]; k++) {
        size_t v = adj[k];
        if (dist[v] < 0) {
          dist[v] = dist[u] + 1;
          queue[tail++] = v;
        }
      }
    }
  }
}

/* An edge of the picture --graph draws. */
typedef struct {
  size_t u, v;
  int elided; /* stands for a path through nodes not drawn */
  int drop;   /* implied by other edges of the picture */
} dedge;

/* DOT string contents: quotes and backslashes escaped, no line breaks. */
static void dot_escape(sbuf *s, const char *text) {
  for (const char *p = text; *p; p++) {
    if (*p == '"' || *p == '\\')
      sb_printf(s, "\\%c", *p);
    else if (*p == '\n' || *p == '\r')
      sb_put(s, " ");
    else
      sb_printf(s, "%c", *p);
  }
}

/* The nodes on paths from the nearest common ancestors to A and B are drawn
 * when there are at most this many; else the picture elides them. */
#define GRAPH_PATH_LIMIT 40

static void draw_graph(sbuf *out, const graph *g, const report *r, size_t number,
                       const char *dot_path, size_t a, size_t b, long depth) {
  size_t nn = g->nn;
  long *da = xmalloc(nn * sizeof *da), *db = xmalloc(nn * sizeof *db);
  long *d = xmalloc(nn * sizeof *d);
  size_t *queue = xmalloc((nn + 1) * sizeof *queue);
  unsigned char *keep = xcalloc(nn, 1), *nca = xcalloc(nn, 1);
  size_t *start = xmalloc((nn + 2) * sizeof *start);

  /* Common ancestors, and the nearest ones. */
  bfs(g, &a, 1, -1, -1, da, queue);
  bfs(g, &b, 1, -1, -1, db, queue);
  unsigned char *common = xcalloc(nn, 1);
  for (size_t i = 0; i < nn; i++)
    common[i] = da[i] > 0 && db[i] > 0;
  if (a == b)
    for (size_t i = 0; i < nn; i++)
      common[i] = da[i] > 0;
  size_t nnca = 0;
  for (size_t i = 0; i < nn; i++) {
    if (!common[i])
      continue;
    int nearest = 1;
    for (size_t k = g->out_off[i]; k < g->out_off[i + 1] && nearest; k++)
      nearest = !common[g->out_adj[k]];
    if (nearest) {
      nca[i] = keep[i] = 1;
      start[nnca++] = i;
    }
  }
  /* The nodes on paths from them to A or B. */
  if (nnca) {
    bfs(g, start, nnca, 1, -1, d, queue);
    size_t npath = 0;
    for (size_t i = 0; i < nn; i++)
      npath += d[i] > 0 && (da[i] > 0 || db[i] > 0);
    if (npath <= GRAPH_PATH_LIMIT)
      for (size_t i = 0; i < nn; i++)
        if (d[i] > 0 && (da[i] > 0 || db[i] > 0))
          keep[i] = 1;
  }
  /* The neighborhood of A and B. */
  start[0] = a;
  start[1] = b;
  bfs(g, start, 2, 0, depth, d, queue);
  for (size_t i = 0; i < nn; i++)
    if (d[i] >= 0)
      keep[i] = 1;

  sbuf esc = {0};
  const char *view = kkr_json_string(kkr_json_get(r->json, "view"));
  dot_escape(&esc, r->summary);
  sb_printf(out, "// Report #%zu (%s/%s %s): %s\n", number, r->kind, r->subkind,
            r->fp, sb_str(&esc));
  sb_free(&esc);
  sb_printf(out, "// From %s, the computation graph of pid %" PRId64
                 ": the two racing nodes, their nearest common ancestors, the "
                 "nodes between, and the nodes within %ld edges.  A dotted "
                 "edge stands for a path through nodes not drawn.\n",
            dot_path, g->pid, depth);
  sb_put(out, "digraph kkrace {\n");
  for (size_t i = 0; i < g->nheader; i++)
    sb_printf(out, "  %s\n", g->header[i]);
  dot_escape(&esc, r->summary);
  sb_printf(out, "  label=\"#%zu: %s\"; labelloc=t; fontname=\"Helvetica\";\n",
            number, sb_str(&esc));
  sb_free(&esc);
  /* Clusters with their kept nodes, then the kept nodes outside any. */
  for (long c = -1; c < (long)g->ncl; c++) {
    int any = 0;
    for (size_t i = 0; i < nn; i++) {
      if (!keep[i] || g->nodes[i].cluster != c)
        continue;
      if (!any && c >= 0)
        sb_printf(out, "  %s\n%s", g->cl[c].head, sb_str(&g->cl[c].attrs));
      any = 1;
      const char *text = g->nodes[i].text;
      const char *indent = c >= 0 ? "    " : "  ";
      if (i == a || i == b || nca[i]) {
        /* Insert the emphasis before the closing bracket. */
        const char *extra = nca[i] && i != a && i != b
                                ? ", penwidth=2, xlabel=\"common ancestor\""
                                : ", color=red, penwidth=2.5";
        const char *br = strrchr(text, ']');
        if (br)
          sb_printf(out, "%s%.*s%s%s\n", indent, (int)(br - text), text, extra,
                    br);
        else
          sb_printf(out, "%s%.*s [%s];\n", indent, (int)strcspn(text, ";"),
                    text, extra + 2);
      } else {
        sb_printf(out, "%s%s\n", indent, text);
      }
    }
    if (any && c >= 0)
      sb_put(out, "  }\n");
  }
  /* Edges among kept nodes; the race between A and B is drawn below. */
  for (size_t i = 0; i < g->ne; i++) {
    const gedge *e = &g->edges[i];
    if (!keep[e->from] || !keep[e->to])
      continue;
    if (e->race && ((e->from == a && e->to == b) || (e->from == b && e->to == a)))
      continue;
    sb_printf(out, "  %s\n", e->text);
  }
  /* Paths through nodes not drawn, as dotted edges: from each kept node,
   * the kept nodes it reaches through nodes not drawn only. */
  dedge *de = NULL;
  size_t nde = 0, capde = 0;
  for (size_t i = 0; i < g->ne; i++) {
    const gedge *e = &g->edges[i];
    if (!e->race && keep[e->from] && keep[e->to]) {
      de = grow(de, &capde, nde + 1, sizeof *de);
      de[nde++] = (dedge){e->from, e->to, 0, 0};
    }
  }
  unsigned char *direct = xcalloc(nn, 1), *done = xcalloc(nn, 1);
  for (size_t u = 0; u < nn; u++) {
    if (!keep[u])
      continue;
    memset(direct, 0, nn);
    memset(done, 0, nn);
    size_t head = 0, tail = 0;
    for (size_t k = g->out_off[u]; k < g->out_off[u + 1]; k++) {
      size_t v = g->out_adj[k];
      if (keep[v])
        direct[v] = 1;
      else if (!done[v]) {
        done[v] = 1;
        queue[tail++] = v;
      }
    }
    while (head < tail) {
      size_t x = queue[head++];
      for (size_t k = g->out_off[x]; k < g->out_off[x + 1]; k++) {
        size_t v = g->out_adj[k];
        if (done[v])
          continue;
        done[v] = 1;
        if (!keep[v]) {
          queue[tail++] = v;
        } else if (!direct[v]) {
          de = grow(de, &capde, nde + 1, sizeof *de);
          de[nde++] = (dedge){u, v, 1, 0};
        }
      }
    }
  }
  free(direct);
  free(done);
  /* A dotted edge that another path of the picture implies is left out
   * (the graph is acyclic: they can all be judged on the full picture). */
  size_t *off = xcalloc(nn + 1, sizeof *off), *adj = xcalloc(nde + 1, sizeof *adj);
  size_t *fill = xcalloc(nn + 1, sizeof *fill);
  for (size_t i = 0; i < nde; i++)
    off[de[i].u + 1]++;
  for (size_t i = 0; i < nn; i++)
    off[i + 1] += off[i];
  for (size_t i = 0; i < nde; i++)
    adj[off[de[i].u] + fill[de[i].u]++] = i;
  for (size_t i = 0; i < nde; i++) {
    if (!de[i].elided)
      continue;
    for (size_t k = 0; k < nn; k++)
      d[k] = -1;
    size_t head = 0, tail = 0;
    queue[tail++] = de[i].u;
    d[de[i].u] = 0;
    while (head < tail && d[de[i].v] < 0) {
      size_t x = queue[head++];
      for (size_t k = off[x]; k < off[x + 1]; k++) {
        size_t e = adj[k];
        if (e == i || d[de[e].v] >= 0)
          continue;
        d[de[e].v] = 0;
        queue[tail++] = de[e].v;
      }
    }
    de[i].drop = d[de[i].v] >= 0;
  }
  for (size_t i = 0; i < nde; i++)
    if (de[i].elided && !de[i].drop)
      sb_printf(out, "  n%" PRIu32 " -> n%" PRIu32
                     " [style=dotted, color=gray50, label=\"...\"];\n",
                g->nodes[de[i].u].id, g->nodes[de[i].v].id);
  free(off);
  free(adj);
  free(fill);
  free(de);
  /* The race: where the missing happens-before edge would be. */
  dot_escape(&esc, view ? view : r->what);
  sb_printf(out, "  n%" PRIu32 " -> n%" PRIu32
                 " [color=red, fontcolor=red, style=dashed, penwidth=3, "
                 "dir=both, constraint=false, label=\"no path: %s\"];\n",
            g->nodes[a].id, g->nodes[b].id, sb_str(&esc));
  sb_free(&esc);
  sb_put(out, "}\n");
  free(da);
  free(db);
  free(d);
  free(queue);
  free(keep);
  free(nca);
  free(common);
  free(start);
}

/* Runs dot -T<format> -o out with the DOT text on its standard input. */
static void run_dot(const char *text, size_t len, const char *format,
                    const char *out) {
  int data[2], status_pipe[2];
  if (pipe2(data, O_CLOEXEC) || pipe2(status_pipe, O_CLOEXEC))
    die("cannot run dot: %s", strerror(errno));
  fflush(stdout);
  fflush(stderr);
  pid_t pid = fork();
  if (pid < 0)
    die("cannot run dot: %s", strerror(errno));
  if (pid == 0) {
    if (dup2(data[0], 0) < 0)
      _exit(127);
    char flag[16];
    snprintf(flag, sizeof flag, "-T%s", format);
    char *argv[] = {"dot", flag, "-o", (char *)out, NULL};
    execvp("dot", argv);
    int e = errno;
    ssize_t w = write(status_pipe[1], &e, sizeof e);
    (void)w;
    _exit(127);
  }
  close(data[0]);
  close(status_pipe[1]);
  int child_errno = 0;
  ssize_t got;
  do
    got = read(status_pipe[0], &child_errno, sizeof child_errno);
  while (got < 0 && errno == EINTR);
  close(status_pipe[0]);
  if (got == (ssize_t)sizeof child_errno) {
    close(data[1]);
    waitpid(pid, NULL, 0);
    die("cannot run 'dot' to draw '%s': %s (it is Graphviz's: apt-get install "
        "graphviz, or write DOT with -o FILE.dot)",
        out, strerror(child_errno));
  }
  signal(SIGPIPE, SIG_IGN);
  size_t off = 0;
  while (off < len) {
    ssize_t w = write(data[1], text + off, len - off);
    if (w < 0 && errno == EINTR)
      continue;
    if (w <= 0)
      break; /* dot stopped reading: its status says why */
    off += (size_t)w;
  }
  close(data[1]);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0)
    if (errno != EINTR)
      die("cannot wait for dot: %s", strerror(errno));
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
    die("dot -T%s failed to draw '%s' (%s %d)", format, out,
        WIFEXITED(status) ? "exit status" : "signal",
        WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
}

static int ends_with(const char *s, const char *suffix) {
  size_t n = strlen(s), m = strlen(suffix);
  return n >= m && !strcmp(s + n - m, suffix);
}

static void graph_command(report **list, size_t n,
                          size_t number, const char *dot_path, const char *out,
                          long depth) {
  if (number == 0 || number > n) {
    if (!n)
      die("--graph %zu: there is no report to draw", number);
    die("--graph %zu: there %s %zu %s (numbered from 1)", number,
        n == 1 ? "is" : "are", n, plural(n, "report", "reports"));
  }
  const report *r = list[number - 1];
  if (strcmp(r->kind, "data-race") || naccesses(r) < 2)
    die("--graph %zu: the report is a %s (%s): --graph draws the two nodes "
        "of a data race",
        number, r->kind, r->subkind);
  graph g;
  load_graph(&g, dot_path);
  const run_ref *run = NULL;
  for (size_t i = 0; i < r->nruns && !run; i++)
    if (r->runs[i].has_pid && r->runs[i].pid == g.pid)
      run = &r->runs[i];
  if (!run) {
    sbuf pids = {0};
    for (size_t i = 0; i < r->nruns && i < 8; i++) {
      if (r->runs[i].has_pid)
        sb_printf(&pids, "%s%" PRId64, pids.len ? ", " : "", r->runs[i].pid);
    }
    if (r->nruns > 8)
      sb_put(&pids, ", ...");
    fprintf(stderr,
            PROG ": error: '%s' is the graph of pid %" PRId64
                 ", but report #%zu was found by pid %s: give --dot the "
                 "graph_path file of that process\n",
            dot_path, g.pid, number, pids.len ? sb_str(&pids) : "(unknown)");
    sb_free(&pids);
    free_graph(&g);
    exit(EXIT_ERROR);
  }
  size_t idx[2];
  for (int k = 0; k < 2; k++) {
    const char *name = run->node[k];
    const char *p = name;
    uint32_t id;
    int found = 0;
    if (!name)
      die("--graph %zu: the report does not name its graph nodes "
          "(accesses[].node.graph_node): written by an older kkrace runtime?",
          number);
    if (parse_node_name(&p, &id) && !*p)
      idx[k] = node_index(&g, id, &found);
    if (!found)
      die("--graph %zu: node %s is not in '%s' (graph_max_edges may have "
          "dropped its edges; see the comment at the top of the file)",
          number, name, dot_path);
  }
  sbuf dot = {0};
  draw_graph(&dot, &g, r, number, dot_path, idx[0], idx[1], depth);
  free_graph(&g);
  /* OUT.svg, .png, .pdf: drawn by Graphviz; anything else gets DOT. */
  static const char *const formats[] = {"svg", "png", "pdf"};
  const char *format = NULL;
  for (size_t i = 0; out && i < sizeof formats / sizeof *formats; i++) {
    char suffix[8];
    snprintf(suffix, sizeof suffix, ".%s", formats[i]);
    if (ends_with(out, suffix))
      format = formats[i];
  }
  if (format) {
    run_dot(sb_str(&dot), dot.len, format, out);
  } else if (out && strcmp(out, "-")) {
    FILE *f = open_out(out);
    fwrite(sb_str(&dot), 1, dot.len, f);
    close_out(f, out);
  } else {
    fwrite(sb_str(&dot), 1, dot.len, stdout);
  }
  sb_free(&dot);
}

/* ---- Main ------------------------------------------------------------------------ */

typedef struct {
  const char **inputs;
  size_t ninputs, capinputs;
  const char **baselines;
  size_t nbaselines, capbaselines;
  const char *sarif, *junit, *json, *dot, *out;
  size_t graph; /* 0: none */
  long depth;
  int quiet;
} options;

static int parse_number(const char *s, unsigned long long max,
                        unsigned long long *out) {
  if (!*s || *s < '0' || *s > '9')
    return 0;
  char *end;
  errno = 0;
  unsigned long long v = strtoull(s, &end, 10);
  if (*end || errno || v > max)
    return 0;
  *out = v;
  return 1;
}

static void parse_args(int argc, char **argv, options *o) {
  memset(o, 0, sizeof *o);
  o->depth = 2;
  int only_files = 0;
  for (int i = 1; i < argc; i++) {
    const char *arg = argv[i];
    if (only_files || arg[0] != '-' || !strcmp(arg, "-")) {
      o->inputs = grow(o->inputs, &o->capinputs, o->ninputs + 1, sizeof *o->inputs);
      o->inputs[o->ninputs++] = arg;
      continue;
    }
    if (!strcmp(arg, "--")) {
      only_files = 1;
      continue;
    }
    if (!strcmp(arg, "-h") || !strcmp(arg, "--help")) {
      fputs(usage_text, stdout);
      exit(EXIT_CLEAN);
    }
    if (!strcmp(arg, "--version")) {
      printf("kkrace-report %s\n", KKRACE_VERSION);
      exit(EXIT_CLEAN);
    }
    if (!strcmp(arg, "-q") || !strcmp(arg, "--quiet")) {
      o->quiet = 1;
      continue;
    }
    /* Options with a value: "--opt VALUE" or "--opt=VALUE" ("-o VALUE"). */
    static const char *const with_value[] = {"--baseline", "--sarif", "--junit",
                                             "--json",     "--graph", "--dot",
                                             "--depth",    "-o"};
    const char *name = NULL, *value = NULL;
    size_t len = strcspn(arg, "=");
    for (size_t k = 0; k < sizeof with_value / sizeof *with_value; k++) {
      if (strlen(with_value[k]) == len && !strncmp(arg, with_value[k], len) &&
          (arg[len] != '=' || arg[1] == '-')) {
        name = with_value[k];
        break;
      }
    }
    if (!name)
      die("unknown option '%s' (kkrace-report --help lists them)", arg);
    if (arg[len] == '=') {
      value = arg + len + 1;
    } else {
      if (i + 1 >= argc)
        die("option '%s' needs a value (kkrace-report --help)", name);
      value = argv[++i];
    }
    if (!*value)
      die("option '%s' needs a value (kkrace-report --help)", name);
    unsigned long long num;
    if (!strcmp(name, "--baseline")) {
      o->baselines = grow(o->baselines, &o->capbaselines, o->nbaselines + 1,
           sizeof *o->baselines);
      o->baselines[o->nbaselines++] = value;
    } else if (!strcmp(name, "--sarif")) {
      o->sarif = value;
    } else if (!strcmp(name, "--junit")) {
      o->junit = value;
    } else if (!strcmp(name, "--json")) {
      o->json = value;
    } else if (!strcmp(name, "--dot")) {
      o->dot = value;
    } else if (!strcmp(name, "-o")) {
      o->out = value;
    } else if (!strcmp(name, "--graph")) {
      if (!parse_number(value, SIZE_MAX, &num) || num == 0)
        die("--graph '%s': a report number (1, 2, ...) expected", value);
      o->graph = (size_t)num;
    } else if (!strcmp(name, "--depth")) {
      if (!parse_number(value, 1000, &num))
        die("--depth '%s': a number of edges (0 to 1000) expected", value);
      o->depth = (long)num;
    }
  }
  if (!o->ninputs)
    die("no input files (kkrace-report --help; '-' reads standard input)");
  if (o->graph && !o->dot)
    die("--graph needs --dot G.dot, the graph_path file of the process that "
        "found the report");
  if (!o->graph && (o->dot || o->out))
    die("%s goes with --graph N", o->dot ? "--dot" : "-o");
}

int main(int argc, char **argv) {
  options o;
  parse_args(argc, argv, &o);
  g_cwd = getcwd(NULL, 0);
  if (!g_cwd)
    g_cwd = xstrdup("/");

  report_set cur = {0}, base = {0};
  for (size_t i = 0; i < o.ninputs; i++)
    load_file(&cur, o.inputs[i]);
  for (size_t i = 0; i < o.nbaselines; i++)
    load_file(&base, o.baselines[i]);

  /* The reports that count: all, or with a baseline the new ones. */
  report **sel = xcalloc(cur.n, sizeof *sel);
  size_t nsel = 0, nold = 0, nfixed = 0;
  for (size_t i = 0; i < cur.n; i++) {
    report *b = NULL;
    if (o.nbaselines)
      HASH_FIND_STR(base.hash, cur.list[i]->fp, b);
    if (b)
      nold++;
    else
      sel[nsel++] = cur.list[i];
  }
  report **fixed = xcalloc(base.n, sizeof *fixed);
  for (size_t i = 0; i < base.n; i++) {
    report *c;
    HASH_FIND_STR(cur.hash, base.list[i]->fp, c);
    if (!c)
      fixed[nfixed++] = base.list[i];
  }

  int graph_to_stdout = o.graph && (!o.out || !strcmp(o.out, "-"));
  if (!o.quiet && !graph_to_stdout) {
    FILE *out = stdout;
    printf("kkrace-report: ");
    if (cur.n)
      printf("%zu distinct %s (%" PRIu64 " %s from %zu %s in %zu %s)", cur.n,
             plural(cur.n, "report", "reports"), cur.found,
             plural(cur.found, "report", "reports"), cur.nruns_all,
             plural(cur.nruns_all, "run", "runs"), cur.nfiles,
             plural(cur.nfiles, "file", "files"));
    else
      printf("no reports (%zu %s read)", cur.nfiles,
             plural(cur.nfiles, "file", "files"));
    if (o.nbaselines)
      printf(": %zu new, %zu in the baseline; %zu baseline %s fixed (not "
             "seen any more)",
             nsel, nold, nfixed, plural(nfixed, "report", "reports"));
    printf("\n");
    if (nsel) {
      print_tables(out, sel, nsel);
      printf("\n%s:\n", o.nbaselines ? "New reports" : "Reports");
      for (size_t i = 0; i < nsel; i++)
        print_report_line(out, i + 1, sel[i]);
    } else if (o.nbaselines) {
      printf("\nNo new reports.\n");
    }
    if (nfixed) {
      printf("\nFixed (in the baseline, not seen any more):\n");
      for (size_t i = 0; i < nfixed; i++)
        print_report_line(out, 0, fixed[i]);
    }
  }
  if (o.sarif)
    write_sarif(o.sarif, sel, nsel);
  if (o.junit)
    write_junit(o.junit, &cur, sel, nsel);
  if (o.json)
    write_jsonl(o.json, sel, nsel);
  if (o.graph)
    graph_command(sel, nsel, o.graph, o.dot, o.out, o.depth);

  int status = nsel ? EXIT_REPORTS : EXIT_CLEAN;
  free(sel);
  free(fixed);
  free_set(&cur);
  free_set(&base);
  free(o.inputs);
  free(o.baselines);
  free(g_cwd);
  if (fflush(stdout) || ferror(stdout))
    die("cannot write the standard output: %s", strerror(errno ? errno : EIO));
  return status;
}
