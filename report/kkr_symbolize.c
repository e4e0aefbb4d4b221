/* Symbolization: program counters to functions, files, lines and columns,
 * inlined frames included, through llvm-symbolizer (as the sanitizers do).
 *
 * llvm-symbolizer runs as a child process, started at the first report and
 * kept for the next ones.  Without it (not installed, or symbolize=0),
 * frames show the nearest exported symbol and module offset. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kkr_env.h"
#include "kkr_report.h"

#ifndef KKRACE_SYMBOLIZER
#define KKRACE_SYMBOLIZER "/usr/bin/llvm-symbolizer-19"
#endif

extern char **environ;

/* The symbolizer's environment: the program's, without kkrace. */
static char **child_env(void) {
  static char *env[512];
  static int done;
  if (!done) {
    kkr_env_without_kkrace(environ, env, 512);
    done = 1;
  }
  return env;
}
extern char *__cxa_demangle(const char *, char *, size_t *, int *)
    __attribute__((weak));

static kkr_spin sym_lock;
static int sym_in = -1, sym_out = -1, sym_failed;
static pid_t sym_pid;
static char cwd[4096];
static size_t cwd_len;

/* ---- Modules ------------------------------------------------------------ */

typedef struct {
  uintptr_t pc;
  const char *path;
  uintptr_t base;
} module_query;

static char exe_path[4096];

static int find_module(struct dl_phdr_info *info, size_t size, void *arg) {
  (void)size;
  module_query *q = arg;
  for (int i = 0; i < info->dlpi_phnum; i++) {
    const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
    if (ph->p_type != PT_LOAD)
      continue;
    uintptr_t lo = info->dlpi_addr + ph->p_vaddr;
    if (q->pc >= lo && q->pc < lo + ph->p_memsz) {
      q->base = info->dlpi_addr;
      q->path = info->dlpi_name;
      if (!q->path || !*q->path) {
        if (!exe_path[0]) {
          ssize_t n = readlink("/proc/self/exe", exe_path, sizeof exe_path - 1);
          if (n > 0)
            exe_path[n] = 0;
        }
        q->path = exe_path;
      }
      return 1;
    }
  }
  return 0;
}

static int module_of(uintptr_t pc, const char **path, uintptr_t *offset) {
  module_query q = {pc, NULL, 0};
  if (!dl_iterate_phdr(find_module, &q) || !q.path)
    return 0;
  *path = q.path;
  *offset = pc - q.base;
  return 1;
}

static const char *basename_of(const char *path) {
  const char *p = strrchr(path, '/');
  return p ? p + 1 : path;
}

/* ---- The llvm-symbolizer process ---------------------------------------- */

static int start_symbolizer(void) {
  if (sym_in >= 0)
    return 1;
  if (sym_failed || !kkr_flags.symbolize)
    return 0;
  const char *path = kkr_flags.external_symbolizer_path &&
                             kkr_flags.external_symbolizer_path[0]
                         ? kkr_flags.external_symbolizer_path
                         : KKRACE_SYMBOLIZER;
  if (!getcwd(cwd, sizeof cwd))
    cwd[0] = 0;
  cwd_len = strlen(cwd);
  int to_child[2], from_child[2];
  if (access(path, X_OK) != 0 || pipe2(to_child, O_CLOEXEC) != 0) {
    sym_failed = 1;
    return 0;
  }
  if (pipe2(from_child, O_CLOEXEC) != 0) {
    close(to_child[0]);
    close(to_child[1]);
    sym_failed = 1;
    return 0;
  }
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_adddup2(&fa, to_child[0], 0);
  posix_spawn_file_actions_adddup2(&fa, from_child[1], 1);
  char *argv[] = {(char *)path, "--inlines", "--demangle",
                  "--output-style=LLVM", NULL};
  int rc = posix_spawn(&sym_pid, path, &fa, NULL, argv, child_env());
  posix_spawn_file_actions_destroy(&fa);
  close(to_child[0]);
  close(from_child[1]);
  if (rc != 0) {
    close(to_child[1]);
    close(from_child[0]);
    sym_failed = 1;
    return 0;
  }
  sym_in = to_child[1];
  sym_out = from_child[0];
  return 1;
}

void kkr_symbolizer_close(void) {
  kkr_spin_lock(&sym_lock);
  if (sym_in >= 0) {
    close(sym_in);
    close(sym_out);
    sym_in = sym_out = -1;
    waitpid(sym_pid, NULL, 0);
  }
  kkr_spin_unlock(&sym_lock);
}

static char rbuf[65536];
static size_t rlen, rpos;

/* One line of the symbolizer's answer (without '\n'), or NULL. */
static const char *read_line(void) {
  static char line[8192];
  size_t n = 0;
  for (;;) {
    if (rpos == rlen) {
      ssize_t m = read(sym_out, rbuf, sizeof rbuf);
      if (m < 0 && errno == EINTR)
        continue;
      if (m <= 0)
        return NULL;
      rlen = (size_t)m;
      rpos = 0;
    }
    char c = rbuf[rpos++];
    if (c == '\n')
      break;
    if (n + 1 < sizeof line)
      line[n++] = c;
  }
  line[n] = 0;
  return line;
}

/* Sends one query; collects the answer's lines until the blank one. */
static int query(const char *q, kkr_str *answer) {
  if (!start_symbolizer())
    return 0;
  kkr_write_all(sym_in, q, strlen(q));
  for (;;) {
    const char *l = read_line();
    if (!l) {
      /* The symbolizer died: stop using it. */
      close(sym_in);
      close(sym_out);
      sym_in = sym_out = -1;
      sym_failed = 1;
      return 0;
    }
    if (!*l)
      return 1;
    kkr_str_printf(answer, "%s\n", l);
  }
}

/* Without llvm-symbolizer (a GPU machine with the CUDA toolkit but no LLVM):
 * binutils' addr2line, one process per code address (reports are few and
 * answers are cached), its answer in llvm-symbolizer's form. */
static int addr2line_failed;

static int query_addr2line(const char *module, uintptr_t offset,
                           kkr_str *answer) {
  if (addr2line_failed || !kkr_flags.symbolize)
    return 0;
  int from_child[2];
  if (pipe2(from_child, O_CLOEXEC) != 0)
    return 0;
  char addr[32];
  snprintf(addr, sizeof addr, "0x%lx", (unsigned long)offset);
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_adddup2(&fa, from_child[1], 1);
  posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
  char *argv[] = {"addr2line", "-f", "-i", "-C", "-e", (char *)module, addr,
                  NULL};
  pid_t pid;
  int rc = posix_spawnp(&pid, "addr2line", &fa, NULL, argv, child_env());
  posix_spawn_file_actions_destroy(&fa);
  close(from_child[1]);
  if (rc != 0) {
    close(from_child[0]);
    addr2line_failed = 1;
    return 0;
  }
  kkr_str out = {0};
  char buf[4096];
  for (;;) {
    ssize_t m = read(from_child[0], buf, sizeof buf - 1);
    if (m < 0 && errno == EINTR)
      continue;
    if (m <= 0)
      break;
    buf[m] = 0;
    kkr_str_printf(&out, "%s", buf);
  }
  close(from_child[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || !out.buf) {
    kkr_str_free(&out);
    return 0;
  }
  /* "function\nfile:line (discriminator n)\n" per frame: as
   * "function\nfile:line:0\n". */
  char *save = NULL;
  int odd = 0;
  for (char *l = strtok_r(out.buf, "\n", &save); l;
       l = strtok_r(NULL, "\n", &save), odd = !odd) {
    if (!odd) {
      kkr_str_printf(answer, "%s\n", l);
      continue;
    }
    char *sp = strchr(l, ' ');
    if (sp)
      *sp = 0;
    kkr_str_printf(answer, "%s:0\n", l);
  }
  kkr_str_free(&out);
  return 1;
}

static const char *display_path(const char *file) {
  if (cwd_len && !strncmp(file, cwd, cwd_len) && file[cwd_len] == '/')
    return file + cwd_len + 1;
  return file;
}

/* ---- Source lines ---------------------------------------------------------
 * A report's fingerprint takes the text of its source lines rather than
 * their numbers, so that lines added above a known race leave it known. */
#define SRC_CACHE 4
#define SRC_MAX (16u << 20)
static struct {
  const char *path; /* interned */
  char *text;
  size_t len, cap;
} src_cache[SRC_CACHE];
static uint32_t src_next;

static const char *source_text(const char *file, size_t *len) {
  for (uint32_t i = 0; i < SRC_CACHE; i++)
    if (src_cache[i].path && !strcmp(src_cache[i].path, file)) {
      *len = src_cache[i].len;
      return src_cache[i].text;
    }
  char path[4096];
  if (file[0] != '/' && cwd_len)
    snprintf(path, sizeof path, "%s/%s", cwd, file);
  else
    snprintf(path, sizeof path, "%s", file);
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return NULL;
  struct stat st;
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size > SRC_MAX) {
    close(fd);
    return NULL;
  }
  size_t cap = (size_t)st.st_size + 1;
  char *text = kkr_alloc(cap);
  size_t n = 0;
  ssize_t got;
  while (text && n < (size_t)st.st_size &&
         (got = read(fd, text + n, (size_t)st.st_size - n)) > 0)
    n += (size_t)got;
  close(fd);
  if (!text)
    return NULL;
  uint32_t k = src_next++ % SRC_CACHE;
  if (src_cache[k].text)
    kkr_free(src_cache[k].text, src_cache[k].cap);
  src_cache[k].path = kkr_intern(file);
  src_cache[k].text = text;
  src_cache[k].cap = cap;
  src_cache[k].len = n;
  *len = n;
  return text;
}

uint64_t kkr_source_line_hash(const char *file, uint32_t line) {
  size_t len;
  const char *text = file && line ? source_text(file, &len) : NULL;
  if (!text)
    return 0;
  const char *c = text, *end = text + len;
  for (uint32_t l = 1; l < line && c < end; c++)
    if (*c == '\n')
      l++;
  if (c >= end)
    return 0;
  uint64_t h = 0xcbf29ce484222325ull;
  for (; c < end && *c != '\n'; c++)
    if (*c != ' ' && *c != '\t' && *c != '\r')
      h = (h ^ (uint8_t)*c) * 0x100000001b3ull;
  return h ? h : 1;
}

/* Parses "file:line:col"; file may contain ':'. */
static void parse_location(const char *s, kkr_frame *f) {
  const char *c2 = strrchr(s, ':');
  if (!c2)
    return;
  const char *c1 = c2;
  while (c1 > s && *--c1 != ':')
    ;
  if (c1 == s || *c1 != ':')
    return;
  char file[4096];
  size_t n = (size_t)(c1 - s);
  if (n >= sizeof file)
    return;
  memcpy(file, s, n);
  file[n] = 0;
  f->line = (uint32_t)strtoul(c1 + 1, NULL, 10);
  f->column = (uint32_t)strtoul(c2 + 1, NULL, 10);
  if (strcmp(file, "??") != 0)
    f->file = kkr_intern(display_path(file));
}

/* ---- Cache of answers --------------------------------------------------- */

typedef struct {
  UT_hash_handle hh;
  uintptr_t pc;
  uint32_t n;
  kkr_frame frames[];
} sym_entry;

static sym_entry *sym_cache;

static const char *demangle(const char *name) {
  if (!name)
    return NULL;
  if (__cxa_demangle && name[0] == '_' && name[1] == 'Z') {
    int status = 0;
    char *d = __cxa_demangle(name, NULL, NULL, &status);
    if (d && status == 0) {
      const char *r = kkr_intern(d);
      free(d);
      return r;
    }
  }
  return kkr_intern(name);
}

static sym_entry *symbolize_pc(uintptr_t pc) {
  sym_entry *e;
  HASH_FIND(hh, sym_cache, &pc, sizeof pc, e);
  if (e)
    return e;
  kkr_frame fr[16];
  uint32_t n = 0;
  const char *path = NULL;
  uintptr_t offset = 0;
  int have_module = module_of(pc - 1, &path, &offset);
  if (have_module) {
    char q[4200];
    snprintf(q, sizeof q, "CODE \"%s\" 0x%lx\n", path,
             (unsigned long)(offset - 1));
    kkr_str ans = {0};
    int ok = query(q, &ans) ||
             query_addr2line(path, offset - 1, &ans);
    if (ok && ans.buf) {
      char *save = NULL;
      char *line = strtok_r(ans.buf, "\n", &save);
      while (line && n < KKR_ARRAY_SIZE(fr)) {
        kkr_frame *f = &fr[n];
        memset(f, 0, sizeof *f);
        f->pc = pc;
        f->module = kkr_intern(basename_of(path));
        f->offset = offset;
        if (strcmp(line, "??") != 0)
          f->function = kkr_intern(line);
        line = strtok_r(NULL, "\n", &save);
        if (line) {
          parse_location(line, f);
          line = strtok_r(NULL, "\n", &save);
        }
        n++;
      }
    }
    kkr_str_free(&ans);
  }
  if (n == 0) {
    kkr_frame *f = &fr[0];
    memset(f, 0, sizeof *f);
    f->pc = pc;
    Dl_info info;
    if (dladdr((void *)(pc - 1), &info)) {
      f->function = demangle(info.dli_sname);
      if (info.dli_fname)
        f->module = kkr_intern(basename_of(info.dli_fname));
      f->offset = pc - (uintptr_t)info.dli_fbase;
    }
    n = 1;
  }
  e = kkr_alloc(sizeof *e + n * sizeof(kkr_frame));
  e->pc = pc;
  e->n = n;
  memcpy(e->frames, fr, n * sizeof(kkr_frame));
  HASH_ADD(hh, sym_cache, pc, sizeof pc, e);
  return e;
}

void kkr_symbolize(const uintptr_t *pcs, uint32_t n, int first_is_exact,
                   kkr_sym_stack *out) {
  (void)first_is_exact; /* every pc kkrace keeps is a return address */
  kkr_spin_lock(&sym_lock);
  uint32_t total = 0;
  for (uint32_t i = 0; i < n; i++)
    total += symbolize_pc(pcs[i])->n;
  out->frames = kkr_alloc((total ? total : 1) * sizeof(kkr_frame));
  out->n = 0;
  for (uint32_t i = 0; i < n; i++) {
    sym_entry *e = symbolize_pc(pcs[i]);
    memcpy(out->frames + out->n, e->frames, e->n * sizeof(kkr_frame));
    out->n += e->n;
  }
  kkr_spin_unlock(&sym_lock);
}

const char *kkr_symbolize_data(uintptr_t addr, uintptr_t *start) {
  const char *path = NULL;
  uintptr_t offset = 0;
  const char *name = NULL;
  kkr_spin_lock(&sym_lock);
  if (module_of(addr, &path, &offset)) {
    char q[4200];
    snprintf(q, sizeof q, "DATA \"%s\" 0x%lx\n", path, (unsigned long)offset);
    kkr_str ans = {0};
    if (query(q, &ans) && ans.buf) {
      char *save = NULL;
      char *line = strtok_r(ans.buf, "\n", &save);
      char *range = line ? strtok_r(NULL, "\n", &save) : NULL;
      if (line && strcmp(line, "??") != 0 && *line) {
        name = kkr_intern(line);
        if (range)
          *start = strtoul(range, NULL, 10) + (addr - offset);
      }
    }
    kkr_str_free(&ans);
  }
  kkr_spin_unlock(&sym_lock);
  return name;
}
