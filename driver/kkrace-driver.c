/* kkrace-clang and kkrace-clang++: clang with -fsanitize=kkrace.
 *
 * Clang cannot register a new sanitizer name, so the driver takes kkrace out
 * of -fsanitize= lists (-fsanitize=kkrace,undefined keeps undefined), and
 * when it was asked for, adds what the sanitizer needs:
 *   compiling: the pass plugin, line tables (unless -g was given), frame
 *              pointers and no sibling-call optimization (for stacks), and
 *              the macro __SANITIZE_KKRACE__;
 *   linking:   the runtime (whole archive, its interceptors exported), the
 *              Kokkos Tools library kkrace loads, and what they need.
 * Without -fsanitize=kkrace every argument goes to clang unchanged.
 *
 * The clang it runs is the one kkrace was built for (KKRACE_CLANG /
 * KKRACE_CLANGXX at build time), or $KKRACE_CC / $KKRACE_CXX.  The pass and
 * the runtime are found next to the driver: <prefix>/bin/kkrace-clang and
 * <prefix>/lib/kkrace/, in the build tree as after installation. */
#define _GNU_SOURCE
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef KKRACE_CLANG
#define KKRACE_CLANG "clang-19"
#endif
#ifndef KKRACE_CLANGXX
#define KKRACE_CLANGXX "clang++-19"
#endif

static void die(const char *fmt, const char *arg) {
  fprintf(stderr, "kkrace-clang: error: ");
  fprintf(stderr, fmt, arg);
  fputc('\n', stderr);
  exit(1);
}

/* Removes "kkrace" from a comma-separated list in place; returns whether it
 * was there. */
static int take_kkrace(char *list) {
  int found = 0;
  char out[4096] = "";
  char *save = NULL;
  for (char *tok = strtok_r(list, ",", &save); tok;
       tok = strtok_r(NULL, ",", &save)) {
    if (!strcmp(tok, "kkrace")) {
      found = 1;
      continue;
    }
    if (out[0])
      strncat(out, ",", sizeof out - strlen(out) - 1);
    strncat(out, tok, sizeof out - strlen(out) - 1);
  }
  strcpy(list, out);
  return found;
}

static int has_in_list(const char *list, const char *name) {
  char buf[4096];
  snprintf(buf, sizeof buf, "%s", list);
  char *save = NULL;
  for (char *tok = strtok_r(buf, ",", &save); tok;
       tok = strtok_r(NULL, ",", &save))
    if (!strcmp(tok, name))
      return 1;
  return 0;
}

static char libdir[PATH_MAX];

static void find_libdir(void) {
  const char *env = getenv("KKRACE_LIBDIR");
  if (env && *env) {
    snprintf(libdir, sizeof libdir, "%s", env);
    return;
  }
  char exe[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (n <= 0)
    die("cannot find where kkrace is installed (%s)", strerror(errno));
  exe[n] = 0;
  char *bindir = dirname(exe);
  snprintf(libdir, sizeof libdir, "%s/../lib/kkrace", bindir);
  char real[PATH_MAX];
  if (realpath(libdir, real))
    snprintf(libdir, sizeof libdir, "%s", real);
}

static char *lib(const char *name) {
  size_t n = strlen(libdir) + strlen(name) + 2;
  char *p = malloc(n);
  snprintf(p, n, "%s/%s", libdir, name);
  if (access(p, R_OK) != 0)
    die("missing kkrace file %s (is kkrace built or installed?)", p);
  return p;
}

static char *concat(const char *a, const char *b) {
  char *p = malloc(strlen(a) + strlen(b) + 1);
  strcpy(p, a);
  strcat(p, b);
  return p;
}

/* The MPI library on a link line. */
static int is_mpi_lib(const char *a) {
  return !strncmp(a, "-lmpi", 5) ||
         (strlen(a) > 9 && strstr(a, "libmpi") && strstr(a, ".so"));
}

/* The CUDA runtime or driver on a link line. */
static int is_cuda_lib(const char *a) {
  return !strcmp(a, "-lcudart") || !strcmp(a, "-lcudart_static") ||
         !strcmp(a, "-lcuda") || strstr(a, "libcudart");
}

/* A layer of kkrace's (if installed) linked just before the first argument
 * of args[1..n) that names the library it stands in front of; the new
 * count of arguments. */
static int link_before(char **args, int n, int (*names_lib)(const char *),
                       const char *layer) {
  for (int i = 1; i < n; i++)
    if (names_lib(args[i])) {
      if (access(layer, R_OK) == 0) {
        memmove(&args[i + 1], &args[i], (size_t)(n - i) * sizeof *args);
        args[i] = (char *)layer;
        n++;
      }
      break;
    }
  return n;
}

int main(int argc, char **argv) {
  const char *self = strrchr(argv[0], '/');
  self = self ? self + 1 : argv[0];
  int cxx = strstr(self, "++") != NULL;
  const char *cc = getenv(cxx ? "KKRACE_CXX" : "KKRACE_CC");
  if (!cc || !*cc)
    cc = cxx ? KKRACE_CLANGXX : KKRACE_CLANG;

  char **args = calloc((size_t)argc + 32, sizeof(char *));
  int n = 0, enabled = 0, compile_only = 0, shared = 0, has_debug = 0;
  int inputs_or_link = 0;
  int vectorize = -1; /* -fvectorize (1), -fno-vectorize (0), neither */
  args[n++] = (char *)cc;
  for (int i = 1; i < argc; i++) {
    char *a = argv[i];
    if (!strncmp(a, "-fsanitize=", 11)) {
      char *list = strdup(a + 11);
      if (take_kkrace(list)) {
        enabled = 1;
        if (has_in_list(list, "thread") || has_in_list(list, "address") ||
            has_in_list(list, "memory"))
          die("-fsanitize=kkrace cannot be combined with -fsanitize=%s",
              has_in_list(list, "thread")    ? "thread"
              : has_in_list(list, "address") ? "address"
                                             : "memory");
        if (!*list)
          continue;
        a = concat("-fsanitize=", list);
      }
    } else if (!strncmp(a, "-fno-sanitize=", 14)) {
      char *list = strdup(a + 14);
      int all = has_in_list(list, "all");
      if (take_kkrace(list) || all)
        enabled = 0;
      if (!*list && !all)
        continue;
      if (!all)
        a = concat("-fno-sanitize=", list);
    } else if (!strcmp(a, "-c") || !strcmp(a, "-S") || !strcmp(a, "-E") ||
               !strcmp(a, "-fsyntax-only") || !strcmp(a, "-M") ||
               !strcmp(a, "-MM")) {
      compile_only = 1;
    } else if (!strcmp(a, "-shared")) {
      shared = 1;
    } else if (!strcmp(a, "-fvectorize") || !strcmp(a, "-fno-vectorize")) {
      vectorize = a[2] != 'n';
    } else if (!strncmp(a, "-g", 2)) {
      has_debug = strcmp(a, "-g0") != 0;
    } else if (a[0] != '-') {
      inputs_or_link = 1;
    }
    args[n++] = a;
  }

  if (enabled) {
    find_libdir();
    args[n++] = concat("-fpass-plugin=", lib("KKRacePass.so"));
    /* The pass vectorizes the loops that its checks leave free as clang
     * would: it is told what the command line says. */
    if (vectorize >= 0)
      setenv("KKRACE_PASS_VECTORIZE", vectorize ? "1" : "0", 1);
    if (!has_debug) {
      /* Line tables, plus the linkage names of inlined functions, so that
       * frames inlined into kernels are named in full. */
      args[n++] = "-gline-tables-only";
      args[n++] = "-fdebug-info-for-profiling";
    }
    args[n++] = "-fno-omit-frame-pointer";
    args[n++] = "-mno-omit-leaf-frame-pointer";
    args[n++] = "-fno-optimize-sibling-calls";
    args[n++] = "-D__SANITIZE_KKRACE__=1";
    if (!compile_only && !shared && inputs_or_link) {
      args[n++] = "-Wl,--whole-archive";
      args[n++] = lib("libkkrace_rt.a");
      args[n++] = "-Wl,--no-whole-archive";
      args[n++] = concat("-Wl,--dynamic-list=", lib("kkrace.dynlist"));
      args[n++] = lib("libkkrace_kokkos_tools.so");
      args[n++] = concat("-Wl,-rpath,", libdir);
      args[n++] = "-lpthread";
      args[n++] = "-ldl";
      args[n++] = "-lm";
      /* An MPI program: kkrace's MPI layer goes before the MPI library, so
       * that its MPI_* functions are the ones the program calls. */
      n = link_before(args, n, is_mpi_lib, lib("libkkrace_mpi.so"));
      /* A CUDA program: kkrace's CUPTI module, which reports its GPU work,
       * before the CUDA libraries, so that the launch functions the
       * program calls are the module's (cupti/kkr_cupti.c). */
      n = link_before(args, n, is_cuda_lib, lib("libkkrace_cupti.so"));
    }
  }
  args[n] = NULL;
  if (getenv("KKRACE_DRIVER_VERBOSE")) {
    for (int i = 0; i < n; i++)
      fprintf(stderr, "%s%s", i ? " " : "", args[i]);
    fputc('\n', stderr);
  }
  execvp(cc, args);
  die("cannot run %s", cc);
  return 1;
}
