/* libkkrace_cupti: CUDA's work for kkrace, through CUPTI's callback API.
 *
 * Each CUDA call the program makes (runtime API, and driver API calls made
 * by the program itself; kernel launches from the driver's launch, which
 * the runtime's own launch calls, through the module's own launch functions
 * where the process finds them, else through CUPTI's launch callbacks: see
 * "Launches without CUPTI's callbacks") is translated into the runtime's GPU events
 * (rt/kkr_gpu.c, the __kkrace_gpu_* entry points): allocations, kernels,
 * copies and memsets as work items on their streams, events, and the
 * synchronizations that teach the host what the GPU finished.
 *
 * A kernel's footprint is the set of allocations its arguments point to:
 * pointer arguments, and pointers inside arguments passed by value (a Kokkos
 * functor's Views).  An argument of type pointer to const (from the
 * kernel's mangled name) is read only; any other is read and maybe written,
 * which reports call a conservative footprint.
 *
 * It is loaded by the program (kkrace-clang++ links it where the program
 * links the CUDA runtime), by LD_PRELOAD, or by the CUDA driver as an
 * injection library (CUDA_INJECTION64_PATH): all three subscribe once. */
#define _GNU_SOURCE
#include <cuda.h>
#include <cuda_runtime_api.h>
#include <cupti.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kkr_abi.h"
#include "kkr_env.h"
#include "kkr_frames.h"
#include "kkr_bounds.h"
#include "kkr_sass.h"

/* CUPTI and the driver, loaded at run time: the module links neither, so
 * that it loads (and says what is missing) on any machine. */
static CUresult (*p_cuFuncGetName)(const char **, CUfunction);
static CUresult (*p_cuKernelGetName)(const char **, CUkernel);
static CUresult (*p_cuFuncGetParamInfo)(CUfunction, size_t, size_t *,
                                        size_t *);
static CUresult (*p_cuKernelGetParamInfo)(CUkernel, size_t, size_t *,
                                          size_t *);
static CUptiResult (*p_cuptiSubscribe)(CUpti_SubscriberHandle *,
                                       CUpti_CallbackFunc, void *);
static CUptiResult (*p_cuptiEnableDomain)(uint32_t, CUpti_SubscriberHandle,
                                          CUpti_CallbackDomain);
static CUptiResult (*p_cuptiGetResultString)(CUptiResult, const char **);
static CUptiResult (*p_cuptiEnableCallback)(uint32_t, CUpti_SubscriberHandle,
                                            CUpti_CallbackDomain,
                                            CUpti_CallbackId);

/* The runtime's GPU entry points: in the program (built with
 * -fsanitize=kkrace) or in a preloaded runtime. */
#define GPU_FN(ret, name, ...) \
  extern ret __kkrace_gpu_##name(__VA_ARGS__) __attribute__((weak));
KKR_GPU_ENTRIES(GPU_FN)

/* Handles as the runtime's events name them. */
#define LEGACY 0ull
#define PER_THREAD 2ull

static unsigned long long stream_id(cudaStream_t s, int ptsz) {
  uintptr_t h = (uintptr_t)s;
  if (h == 0)
    return ptsz ? PER_THREAD : LEGACY;
  if (h == (uintptr_t)cudaStreamLegacy)
    return LEGACY;
  if (h == (uintptr_t)cudaStreamPerThread)
    return PER_THREAD;
  return (unsigned long long)h;
}

/* ---- Kernel footprints -------------------------------------------------- */

extern char *__cxa_demangle(const char *, char *, size_t *, int *)
    __attribute__((weak));

#define MAX_PARAMS 64

/* Which parameters of the kernel named mangled are pointers to const
 * (bit i: parameter i).  From the demangled signature: "k(float*, float
 * const*, int)". */
static uint64_t const_pointer_params(const char *mangled, char *shortname,
                                     size_t n) {
  snprintf(shortname, n, "%s", mangled ? mangled : "?");
  if (!mangled || !__cxa_demangle)
    return 0;
  int status = 0;
  char *d = __cxa_demangle(mangled, NULL, NULL, &status);
  if (!d || status)
    return 0;
  /* The name without its return type ("void k<int>") and parameters; the
   * parameter list from there to the last top-level parenthesis. */
  size_t len = strlen(d), start, open, close = 0;
  kkr_qualified_span(d, &start, &open);
  int depth = 0;
  for (size_t i = open; i < len; i++) {
    if (d[i] == '<')
      depth++;
    else if (d[i] == '>')
      depth--;
    else if (d[i] == ')' && depth == 0)
      close = i;
  }
  uint64_t bits = 0;
  if (open < len && close > open) {
    snprintf(shortname, n, "%.*s", (int)(open - start), d + start);
    unsigned idx = 0;
    size_t p = open + 1;
    depth = 0;
    for (size_t i = open + 1; i <= close && idx < MAX_PARAMS; i++) {
      char c = d[i];
      if (c == '<' || c == '(')
        depth++;
      else if ((c == '>' || c == ')') && i < close)
        depth--;
      if ((c == ',' && depth == 0) || i == close) {
        /* "float const*", "const float*" (not "float* const"). */
        const char *q = d + p;
        size_t m = i - p;
        while (m && q[m - 1] == ' ')
          m--;
        int ptr = m && q[m - 1] == '*';
        int cst = (m >= 7 && !strncmp(q + m - 7, " const*", 7)) ||
                  (m >= 6 && !strncmp(q, "const ", 6) &&
                   memchr(q, '*', m) == q + m - 1);
        if (ptr && cst)
          bits |= 1ull << idx;
        idx++;
        p = i + 1;
        while (p < close && d[p] == ' ')
          p++;
      }
    }
  }
  free(d);
  return bits;
}

/* What a launch needs of a kernel, found once per function: its name,
 * which parameters are pointers to const, and each parameter's size. */
typedef struct {
  CUfunction f;
  uint64_t consts;
  uint64_t written; /* from its machine code (sass_ok): parameter words it
                       stores through */
  uint64_t atomic;  /* and those it reaches by atomics only */
  int sass_ok;
  uint32_t nparams;
  uint32_t size[MAX_PARAMS], offset[MAX_PARAMS];
  /* A kernel without parameters that reads its functor from Kokkos'
   * __constant__ buffer: per window of 64 words of it, the words it stores
   * through, as its machine code says (c3_n windows; c3_ok[w] 0: unknown). */
  uint32_t c3_n;
  struct c3_window {
    uint64_t written;
    int ok;
  } *c3;
  /* How far its accesses through each pointer reach, from its code
   * (kkr_bounds.c), for a launch's geometry and arguments: the last
   * launch's result is kept, with what it depended on. */
  kkr_bounds_prog *bounds;
  uint32_t bounds_bytes; /* its parameters' size */
  pthread_mutex_t bounds_lock;
  int last_ok;
  uint64_t last_used; /* the words the last bounds depended on */
  unsigned last_dims[6];
  unsigned char *last_inputs;
  kkr_bounds_word last[64];
  char name[256];
} kernel_info;

/* Kokkos' CUDA backend copies a functor too large for a kernel argument to
 * this variable, then launches a kernel without parameters that reads it. */
static const char kokkos_constant_buffer[] =
    "kokkos_impl_cuda_constant_memory_buffer";

/* ---- Machine code: which pointers a kernel writes through --------------- */

/* The modules CUDA loaded (their cubins, from CUPTI), analyzed at the first
 * launch that needs them: nvdisasm prints their SASS, kkr_sass.c reads it. */
typedef struct module {
  char *cubin;
  size_t size;
  struct module *next;
} module;
static module *pending_modules;

typedef struct sass_result {
  char *name;
  uint64_t written, atomic;
  int ok;
  struct sass_result *next;
} sass_result;
static sass_result *sass_results;

/* The modules' code (nvdisasm's output) and where each kernel's parameters
 * lie, kept for the bounds of kernels' accesses (built at a kernel's first
 * launch). */
typedef struct sass_text {
  char *text;
  kkr_sass_bank *banks;
  uint32_t nbanks;
  struct sass_text *next;
} sass_text;
static sass_text *sass_texts;
static pthread_mutex_t sass_lock = PTHREAD_MUTEX_INITIALIZER;
static int no_nvdisasm;

static void module_loaded(const CUpti_ModuleResourceData *m) {
  if (!m || !m->pCubin || !m->cubinSize || no_nvdisasm)
    return;
  module *mod = malloc(sizeof *mod);
  char *copy = malloc(m->cubinSize);
  if (!mod || !copy) {
    free(mod);
    free(copy);
    return;
  }
  memcpy(copy, m->pCubin, m->cubinSize);
  mod->cubin = copy;
  mod->size = m->cubinSize;
  pthread_mutex_lock(&sass_lock);
  mod->next = pending_modules;
  pending_modules = mod;
  pthread_mutex_unlock(&sass_lock);
}

static void keep_result(const char *name, uint64_t written, uint64_t atomic,
                        int ok, void *arg) {
  (void)arg;
  sass_result *r = malloc(sizeof *r);
  if (!r)
    return;
  r->name = strdup(name);
  r->written = written;
  r->atomic = atomic;
  r->ok = ok;
  r->next = sass_results;
  sass_results = r;
}

extern char **environ;

static const char *nvdisasm_path(void) {
  static char path[4096];
  const char *env = getenv("KKRACE_NVDISASM");
  if (env && *env)
    return env;
  const char *dirs = getenv("PATH");
  char buf[8192];
  snprintf(buf, sizeof buf, "%s:%s/bin:/usr/local/cuda/bin", dirs ? dirs : "",
           getenv("CUDA_HOME") ? getenv("CUDA_HOME") : "/usr/local/cuda");
  for (char *save = NULL, *d = strtok_r(buf, ":", &save); d;
       d = strtok_r(NULL, ":", &save)) {
    snprintf(path, sizeof path, "%s/nvdisasm", d);
    if (access(path, X_OK) == 0)
      return path;
  }
  return NULL;
}

/* nvdisasm -c on a cubin: its output, or NULL. */
static char *disassemble(const module *m) {
  const char *tool = nvdisasm_path();
  if (!tool) {
    if (!no_nvdisasm)
      fprintf(stderr, "kkrace: nvdisasm not found (CUDA toolkit's bin, or "
                      "KKRACE_NVDISASM): kernels' pointer arguments are taken "
                      "as maybe written\n");
    no_nvdisasm = 1;
    return NULL;
  }
  char tmpl[] = "/tmp/kkrace-cubin-XXXXXX";
  int fd = mkstemp(tmpl);
  if (fd < 0)
    return NULL;
  size_t off = 0;
  while (off < m->size) {
    ssize_t w = write(fd, m->cubin + off, m->size - off);
    if (w <= 0)
      break;
    off += (size_t)w;
  }
  close(fd);
  int out[2];
  char *text = NULL;
  if (off == m->size && pipe2(out, O_CLOEXEC) == 0) {
    char *env[512];
    kkr_env_without_kkrace(environ, env, 512);
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, out[1], 1);
    posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
    char *argv[] = {(char *)tool, "-c", tmpl, NULL};
    pid_t pid;
    int rc = posix_spawn(&pid, tool, &fa, NULL, argv, env);
    posix_spawn_file_actions_destroy(&fa);
    close(out[1]);
    if (rc == 0) {
      size_t len = 0, cap = 1 << 16;
      text = malloc(cap);
      for (;;) {
        if (!text)
          break;
        if (len + 4096 > cap) {
          char *t = realloc(text, cap *= 2);
          if (!t) {
            free(text);
            text = NULL;
            break;
          }
          text = t;
        }
        ssize_t r = read(out[0], text + len, cap - len - 1);
        if (r < 0 && errno == EINTR)
          continue;
        if (r <= 0)
          break;
        len += (size_t)r;
      }
      if (text)
        text[len] = 0;
      int status = 0;
      waitpid(pid, &status, 0);
      if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        free(text);
        text = NULL;
      }
    }
    close(out[0]);
  }
  unlink(tmpl);
  return text;
}

/* Results are kept on disk by the cubin's hash ($KKRACE_CACHE_DIR, else
 * $XDG_CACHE_HOME/kkrace, else ~/.cache/kkrace): nvdisasm runs once per
 * module, not once per run. */
static int cache_path(const module *m, char *out, size_t n) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (size_t i = 0; i < m->size; i++) {
    h ^= (unsigned char)m->cubin[i];
    h *= 0x100000001b3ull;
  }
  char dir[3072];
  const char *d = getenv("KKRACE_CACHE_DIR"), *x = getenv("XDG_CACHE_HOME"),
             *home = getenv("HOME");
  if (d && *d)
    snprintf(dir, sizeof dir, "%s", d);
  else if (x && *x)
    snprintf(dir, sizeof dir, "%s/kkrace", x);
  else if (home && *home)
    snprintf(dir, sizeof dir, "%s/.cache/kkrace", home);
  else
    return 0;
  /* Make the folders (mkdir -p). */
  for (char *c = dir + 1; *c; c++)
    if (*c == '/') {
      *c = 0;
      mkdir(dir, 0755);
      *c = '/';
    }
  mkdir(dir, 0755);
  /* (v4: the words reached by atomics only; v3: calls of leaf
   * subroutines followed, the code kept beside, in .sass, for the bounds
   * of accesses.) */
  snprintf(out, n, "%s/sass4-%016llx-%zu.txt", dir, (unsigned long long)h,
           m->size);
  return 1;
}

/* Lines "written atomic ok name". */
static int cache_read(const char *path) {
  FILE *f = fopen(path, "r");
  if (!f)
    return 0;
  char line[2048];
  while (fgets(line, sizeof line, f)) {
    unsigned long long w, a;
    int ok, pos = 0;
    if (sscanf(line, "%llx %llx %d %n", &w, &a, &ok, &pos) >= 3 && pos > 0) {
      line[strcspn(line, "\n")] = 0;
      keep_result(line + pos, w, a, ok, NULL);
    }
  }
  fclose(f);
  return 1;
}

typedef struct {
  FILE *f;
} cache_writer;

static void keep_and_write(const char *name, uint64_t written,
                           uint64_t atomic, int ok, void *arg) {
  keep_result(name, written, atomic, ok, NULL);
  cache_writer *cw = arg;
  if (cw->f)
    fprintf(cw->f, "%llx %llx %d %s\n", (unsigned long long)written,
            (unsigned long long)atomic, ok, name);
}

/* The module's code: from the cache, else from nvdisasm (then cached). */
static char *module_text(const module *m, const char *path) {
  char tpath[4200], tmp[4300];
  if (path) {
    snprintf(tpath, sizeof tpath, "%s.sass", path);
    FILE *f = fopen(tpath, "rb");
    if (f) {
      char *text = NULL;
      if (fseek(f, 0, SEEK_END) == 0) {
        long n = ftell(f);
        if (n > 0 && fseek(f, 0, SEEK_SET) == 0 && (text = malloc((size_t)n + 1))) {
          if (fread(text, 1, (size_t)n, f) == (size_t)n) {
            text[n] = 0;
          } else {
            free(text);
            text = NULL;
          }
        }
      }
      fclose(f);
      if (text)
        return text;
    }
  }
  char *text = disassemble(m);
  if (text && path) {
    snprintf(tmp, sizeof tmp, "%s.sass.%d", path, (int)getpid());
    FILE *f = fopen(tmp, "wb");
    if (f) {
      size_t n = strlen(text);
      int ok = fwrite(text, 1, n, f) == n;
      if (fclose(f) == 0 && ok)
        rename(tmp, tpath);
      else
        unlink(tmp);
    }
  }
  return text;
}

static void analyze_module(const module *m) {
  char path[4096], tmp[4200];
  int cached = cache_path(m, path, sizeof path);
  kkr_sass_bank *banks = malloc(4096 * sizeof *banks);
  if (!banks)
    return;
  uint32_t nb = kkr_sass_banks(m->cubin, m->size, banks, 4096);
  char *text = nb ? module_text(m, cached ? path : NULL) : NULL;
  if (cached && cache_read(path)) {
    /* (results known: the code is for the bounds) */
  } else if (text) {
    cache_writer cw = {NULL};
    if (cached) {
      snprintf(tmp, sizeof tmp, "%s.%d", path, (int)getpid());
      cw.f = fopen(tmp, "w");
    }
    kkr_sass_const c3;
    int has_c3 = kkr_sass_constant(m->cubin, m->size, kokkos_constant_buffer,
                                   &c3.base, &c3.size);
    kkr_sass_parse(text, banks, nb, has_c3 ? &c3 : NULL, keep_and_write,
                   &cw);
    if (cw.f && fclose(cw.f) == 0)
      rename(tmp, path);
  }
  sass_text *t = text ? malloc(sizeof *t) : NULL;
  kkr_sass_bank *kept = t ? realloc(banks, (nb ? nb : 1) * sizeof *banks) : NULL;
  if (t && kept) {
    t->text = text;
    t->banks = kept;
    t->nbanks = nb;
    t->next = sass_texts;
    sass_texts = t;
    return;
  }
  free(t);
  free(text);
  free(kept ? kept : banks);
}

/* The bounds program of the kernel named mangled (analysis run), or NULL;
 * *bytes its parameters' size. */
static kkr_bounds_prog *bounds_of(const char *mangled, uint32_t *bytes) {
  if (!mangled || getenv("KKRACE_NO_BOUNDS"))
    return NULL;
  char label[1100];
  snprintf(label, sizeof label, ".text.%s:", mangled);
  kkr_bounds_prog *p = NULL;
  pthread_mutex_lock(&sass_lock);
  for (sass_text *t = sass_texts; t && !p; t = t->next)
    for (uint32_t i = 0; i < t->nbanks; i++) {
      if (strcmp(t->banks[i].name, mangled))
        continue;
      const char *body = strstr(t->text, label);
      if (body) {
        p = kkr_bounds_build(body, strlen(body), t->banks[i].base,
                             t->banks[i].size);
        *bytes = t->banks[i].size;
      }
      break;
    }
  pthread_mutex_unlock(&sass_lock);
  return p;
}

/* Whether the analysis (already run) has a result for the kernel named
 * mangled. */
static int sass_known(const char *mangled) {
  pthread_mutex_lock(&sass_lock);
  sass_result *r = sass_results;
  while (r && strcmp(r->name, mangled))
    r = r->next;
  pthread_mutex_unlock(&sass_lock);
  return r != NULL;
}

/* What the machine code says of the kernel named mangled: 1, *written and
 * *atomic if it could tell. */
static int sass_written(const char *mangled, uint64_t *written,
                        uint64_t *atomic) {
  if (!mangled)
    return 0;
  pthread_mutex_lock(&sass_lock);
  for (;;) {
    for (sass_result *r = sass_results; r; r = r->next)
      if (!strcmp(r->name, mangled)) {
        int ok = r->ok;
        *written = r->written;
        *atomic = r->atomic;
        pthread_mutex_unlock(&sass_lock);
        return ok;
      }
    module *m = pending_modules;
    if (!m)
      break;
    pending_modules = m->next;
    analyze_module(m);
    free(m->cubin);
    free(m);
  }
  pthread_mutex_unlock(&sass_lock);
  return 0;
}

#define KERNEL_CACHE 1024
static kernel_info *kernel_cache[KERNEL_CACHE];
static pthread_mutex_t kernel_lock = PTHREAD_MUTEX_INITIALIZER;

static kernel_info *kernel_info_of(CUfunction f, const char *symbol) {
  uint32_t slot = (uint32_t)(((uintptr_t)f >> 4) * 2654435761u) % KERNEL_CACHE;
  /* (Entries are only ever added, each published whole: read without the
   * lock, which every launch would take.) */
  for (uint32_t i = 0; i < KERNEL_CACHE; i++) {
    kernel_info *k =
        __atomic_load_n(&kernel_cache[(slot + i) % KERNEL_CACHE], __ATOMIC_ACQUIRE);
    if (!k)
      break;
    if (k->f == f)
      return k;
  }
  kernel_info *k = calloc(1, sizeof *k);
  if (!k)
    return NULL;
  k->f = f;
  const char *mangled = symbol;
  /* (A launch that came through the module's functions has no name from
   * CUPTI: the function's, or the library kernel's that f may be.) */
  if (!mangled && f && p_cuFuncGetName &&
      p_cuFuncGetName(&mangled, f) != CUDA_SUCCESS)
    mangled = NULL;
  if (!mangled && f && p_cuKernelGetName &&
      p_cuKernelGetName(&mangled, (CUkernel)f) != CUDA_SUCCESS)
    mangled = NULL;
  k->consts = const_pointer_params(mangled, k->name, sizeof k->name);
  /* The runtime launches a CUkernel (a library's kernel) as a CUfunction:
   * whichever of the two describes its parameters. */
  int as_kernel = 0;
  for (unsigned i = 0; f && p_cuFuncGetParamInfo && i < MAX_PARAMS; i++) {
    size_t off = 0, size = 0;
    CUresult r = as_kernel ? CUDA_ERROR_INVALID_VALUE
                           : p_cuFuncGetParamInfo(f, i, &off, &size);
    if (r != CUDA_SUCCESS && (i == 0 || as_kernel) && p_cuKernelGetParamInfo) {
      as_kernel = 1;
      r = p_cuKernelGetParamInfo((CUkernel)f, i, &off, &size);
    }
    if (r != CUDA_SUCCESS)
      break;
    k->offset[k->nparams] = (uint32_t)off;
    k->size[k->nparams++] = (uint32_t)size;
  }
  k->sass_ok = sass_written(mangled, &k->written, &k->atomic);
  pthread_mutex_init(&k->bounds_lock, NULL);
  if (k->sass_ok && k->nparams)
    k->bounds = bounds_of(mangled, &k->bounds_bytes);
  if (k->bounds && !(k->last_inputs = calloc(1, k->bounds_bytes + 1))) {
    kkr_bounds_free(k->bounds);
    k->bounds = NULL;
  }
  if (k->nparams == 0 && mangled) {
    /* Its windows of Kokkos' constant buffer, while the analysis has them. */
    struct c3_window w[64];
    char wname[1100];
    uint32_t n = 0;
    for (; n < 64; n++) {
      snprintf(wname, sizeof wname, KKR_SASS_C3_NAME, mangled, n);
      if (!sass_known(wname))
        break;
      uint64_t atomic;
      w[n].ok = sass_written(wname, &w[n].written, &atomic);
    }
    if (n && (k->c3 = malloc(n * sizeof *w))) {
      memcpy(k->c3, w, n * sizeof *w);
      k->c3_n = n;
    }
  }
  pthread_mutex_lock(&kernel_lock);
  for (uint32_t i = 0; i < KERNEL_CACHE; i++) {
    kernel_info **e = &kernel_cache[(slot + i) % KERNEL_CACHE];
    if (*e && (*e)->f == f) { /* another thread was first */
      pthread_mutex_unlock(&kernel_lock);
      free(k->c3);
      kkr_bounds_free(k->bounds);
      free(k->last_inputs);
      free(k);
      return *e;
    }
    if (!*e) {
      __atomic_store_n(e, k, __ATOMIC_RELEASE);
      break;
    }
  }
  pthread_mutex_unlock(&kernel_lock);
  return k; /* (a full cache keeps it uncached) */
}

/* What the program last copied to a __constant__ symbol from the host:
 * Kokkos' CUDA backend copies a functor too large for a kernel argument
 * there, then launches a kernel without arguments that reads it.  The
 * pointers in those bytes are the footprint of the next kernel this thread
 * launches on that stream (on any stream after cudaMemcpyToSymbol). */
#define SYMBOL_BYTES_MAX 0x8000 /* 32 KiB: constant memory's bank */
typedef struct {
  char *bytes;
  size_t n; /* 0: none pending */
  unsigned long long stream;
  int any_stream;
} symbol_copy;
static __thread symbol_copy pending_symbol;
static int device_side(unsigned k);

static void symbol_copied(const void *src, size_t count, int kind,
                          unsigned long long stream, int any_stream) {
  symbol_copy *c = &pending_symbol;
  c->n = 0;
  if (!src || !count || count > SYMBOL_BYTES_MAX ||
      (kind != cudaMemcpyHostToDevice && kind != cudaMemcpyDefault) ||
      !__kkrace_gpu_mem_kind ||
      device_side(__kkrace_gpu_mem_kind(src))) /* (not the host's to read) */
    return;
  if (!c->bytes && !(c->bytes = malloc(SYMBOL_BYTES_MAX)))
    return;
  memcpy(c->bytes, src, count);
  c->n = count;
  c->stream = stream;
  c->any_stream = any_stream;
}

/* The bytes [p + lo, p + hi) of the allocation that the pointer p in a word
 * of a kernel's arguments (or of its constant memory) points into: a
 * bounded footprint, or with hi = REACH_END, from there to the
 * allocation's end (how far a kernel reaches when its code does not say). */
#define REACH_END INT64_MAX
static void pointer_range(const char *word, int64_t lo, int64_t hi,
                          unsigned flags) {
  char *p;
  memcpy(&p, word, sizeof p);
  unsigned long long alo, ahi;
  if (!p || !__kkrace_gpu_alloc_range || !__kkrace_gpu_alloc_range(p, &alo, &ahi))
    return;
  __int128 from = (__int128)(uintptr_t)p + lo, to = (__int128)(uintptr_t)p + hi;
  if (from < (__int128)alo)
    from = alo;
  if (to > (__int128)ahi)
    to = ahi;
  if (from < to)
    __kkrace_gpu_access((void *)(uintptr_t)from, (unsigned long long)(to - from),
                        flags);
}

/* What the launch's bounds say of its parameter words (out[64]): 1 if the
 * analysis could tell.  The last launch's result serves again when the
 * geometry and the parameter words it depended on are the same. */
static int launch_bounds(kernel_info *k, void **args, const unsigned *dims,
                         kkr_bounds_word *out) {
  if (!k->bounds || !dims || !args)
    return 0;
  uint32_t n = k->bounds_bytes;
  unsigned char stack[4096];
  unsigned char *img = n <= sizeof stack ? stack : calloc(1, n);
  if (!img)
    return 0;
  memset(img, 0, n);
  for (uint32_t i = 0; i < k->nparams; i++)
    if (args[i] && k->offset[i] + k->size[i] <= n)
      memcpy(img + k->offset[i], args[i], k->size[i]);
  uint32_t nwords = n / 8 < 64 ? n / 8 : 64;
  pthread_mutex_lock(&k->bounds_lock);
  uint64_t inputs = k->last_used;
  /* (last_ok: 0 nothing kept, 1 bounds kept, 2 the analysis gave up) */
  int hit = k->last_ok && !memcmp(k->last_dims, dims, sizeof k->last_dims);
  for (uint32_t w = 0; hit && w < 64 && w * 8 < n; w++)
    if (inputs >> w & 1) {
      uint32_t len = n - w * 8 < 8 ? n - w * 8 : 8;
      hit = !memcmp(img + w * 8, k->last_inputs + w * 8, len);
    }
  if (!hit) {
    k->last_ok = kkr_bounds_eval(k->bounds, dims, img, n, k->last, nwords,
                                 &k->last_used) ? 1 : 2;
    memcpy(k->last_dims, dims, sizeof k->last_dims);
    memcpy(k->last_inputs, img, n);
  }
  int ok = k->last_ok == 1;
  if (ok)
    memcpy(out, k->last, nwords * sizeof *out);
  for (uint32_t w = nwords; ok && w < 64; w++)
    out[w].state = KKR_BOUNDS_UNKNOWN;
  pthread_mutex_unlock(&k->bounds_lock);
  if (img != stack)
    free(img);
  return ok;
}

/* The grid's and the block's sizes of a driver launch's configuration in
 * dims (NULL without one). */
static const unsigned *config_dims(const CUlaunchConfig *c, unsigned dims[6]) {
  if (!c)
    return NULL;
  unsigned d[6] = {c->gridDimX,  c->gridDimY,  c->gridDimZ,
                   c->blockDimX, c->blockDimY, c->blockDimZ};
  memcpy(dims, d, sizeof d);
  return dims;
}

/* The inputs a launch's footprint follows from, in key: the kernel, its
 * geometry and its parameters' bytes.  Their length, 0 if they do not fit
 * (LAUNCH_KEY bytes) or the footprint depends on more (a kernel without
 * parameters reads a functor copied to constant memory). */
#define LAUNCH_KEY 256
static unsigned launch_key(const kernel_info *k, void **args,
                           const unsigned *dims, unsigned char *key) {
  if (!args || !dims || !k->nparams || pending_symbol.n)
    return 0;
  unsigned n = 0;
  memcpy(key, &k->f, sizeof k->f);
  n += sizeof k->f;
  memcpy(key + n, dims, 6 * sizeof *dims);
  n += 6 * sizeof *dims;
  for (uint32_t i = 0; i < k->nparams; i++) {
    uint32_t size = args[i] ? k->size[i] : 0;
    if (n + 1 + size > LAUNCH_KEY)
      return 0;
    key[n++] = args[i] != NULL;
    memcpy(key + n, args[i], size);
    n += size;
  }
  return n;
}

/* Models a launch of f (its arguments args, its grid and block dims, or
 * NULL) on stream. */
static void launch(CUfunction f, const char *symbol, void **args,
                   const unsigned *dims, unsigned long long stream) {
  if (!__kkrace_gpu_work_begin)
    return;
  kernel_info *k = kernel_info_of(f, symbol);
  if (!k)
    return;
  /* A launch with the inputs of a recent one, nothing between: a repeat,
   * known without computing its footprint again (the runtime keeps the
   * footprint the inputs gave last time). */
  if (__kkrace_gpu_launch_repeat) {
    unsigned char key[LAUNCH_KEY];
    unsigned n = launch_key(k, args, dims, key);
    if (n && __kkrace_gpu_launch_repeat(stream, k->name, key, n))
      return;
  }
  unsigned tok = __kkrace_gpu_work_begin(KKR_GPU_KERNEL, stream, k->name);
  if (!tok)
    return;
  kkr_bounds_word bw[64];
  int bounded = launch_bounds(k, args, dims, bw);
  for (unsigned i = 0; args && i < k->nparams; i++) {
    const char *arg = args[i];
    size_t size = k->size[i];
    if (!arg)
      continue;
    int by_value_struct = size > sizeof(void *);
    for (size_t w = 0; w + sizeof(void *) <= size; w += sizeof(void *)) {
      /* Written: as its machine code says; else pointers to const are
       * read only and the rest maybe written. */
      unsigned flags = KKR_GPU_ACC_READ;
      uint32_t word = (k->offset[i] + (uint32_t)w) / 8;
      if (k->sass_ok) {
        if (word >= 64 || (k->written >> word & 1))
          flags |= KKR_GPU_ACC_WRITE;
        if (word < 64 && (k->atomic >> word & 1))
          flags |= KKR_GPU_ACC_ATOMIC; /* (atomicAdd into a counter) */
      } else if (by_value_struct || !(k->consts >> i & 1)) {
        flags |= KKR_GPU_ACC_WRITE | KKR_GPU_ACC_CONSERVATIVE;
      }
      /* As far as the kernel's code reaches from the pointer, else from
       * there to the end of its allocation. */
      if (bounded && word < 64 && bw[word].state == KKR_BOUNDS_NONE)
        continue; /* not dereferenced */
      if (bounded && word < 64 && bw[word].state == KKR_BOUNDS_RANGE)
        pointer_range(arg + w, bw[word].lo, bw[word].hi, flags);
      else
        pointer_range(arg + w, 0, REACH_END, flags);
    }
  }
  /* A kernel without parameters: the functor it reads from constant
   * memory.  Its pointers are read, and written as the machine code says
   * (per window of Kokkos' buffer); a word past what the code reads is not
   * reached; without the analysis, every pointer is maybe written. */
  symbol_copy *c = &pending_symbol;
  if (k->nparams == 0 && c->n && (c->any_stream || c->stream == stream)) {
    for (size_t w = 0; w + sizeof(void *) <= c->n; w += sizeof(void *)) {
      size_t word = w / 8, win = word / 64;
      unsigned flags = KKR_GPU_ACC_READ;
      if (win < k->c3_n && k->c3[win].ok) {
        if (k->c3[win].written >> (word % 64) & 1)
          flags |= KKR_GPU_ACC_WRITE;
      } else if (k->c3_n && win >= k->c3_n) {
        continue;
      } else {
        flags |= KKR_GPU_ACC_WRITE | KKR_GPU_ACC_CONSERVATIVE;
      }
      pointer_range(c->bytes + w, 0, REACH_END, flags);
    }
  }
  c->n = 0; /* (what it was copied for, if anything, is launched) */
  __kkrace_gpu_work_end(tok, 0);
}

/* A driver API launch: its parameters as an array of pointers, or packed in
 * one buffer (extra: CU_LAUNCH_PARAM_BUFFER_POINTER), each at its offset. */
static void launch_driver(CUfunction f, const char *symbol, void **params,
                          void **extra, const unsigned *dims,
                          unsigned long long stream) {
  if (params || !extra) {
    launch(f, symbol, params, dims, stream);
    return;
  }
  char *buf = NULL;
  for (void **e = extra; *e != CU_LAUNCH_PARAM_END; e += 2)
    if (*e == CU_LAUNCH_PARAM_BUFFER_POINTER)
      buf = e[1];
  const kernel_info *k = buf ? kernel_info_of(f, symbol) : NULL;
  void *args[MAX_PARAMS];
  for (uint32_t i = 0; k && i < k->nparams; i++)
    args[i] = buf + k->offset[i];
  launch(f, symbol, k ? args : NULL, dims, stream);
}

/* ---- Copies and memsets ------------------------------------------------- */

static int device_side(unsigned k) {
  return k == KKR_GPU_MEM_DEVICE || k == KKR_GPU_MEM_ASYNC ||
         k == KKR_GPU_MEM_MANAGED;
}

static const char *direction(unsigned dk, unsigned sk) {
  int d = device_side(dk), s = device_side(sk);
  return d && s ? "DtoD" : d ? "HtoD" : s ? "DtoH" : "HtoH";
}

/* A copy of the dn bytes at dst from the sn bytes at src (cudaMemcpy when
 * sync, else cudaMemcpyAsync on stream), as the CUDA documentation's "API
 * synchronization behavior" describes them. */
static void copy_spans(void *dst, size_t dn, const void *src, size_t sn,
                       int sync, unsigned long long stream, const char *api) {
  if (!__kkrace_gpu_work_begin || !dn || !sn)
    return;
  unsigned dk = __kkrace_gpu_mem_kind(dst), sk = __kkrace_gpu_mem_kind(src);
  const char *dir = direction(dk, sk);
  char label[96];
  snprintf(label, sizeof label, "%s(%s)", api, dir);
  int src_pageable = sk == KKR_GPU_MEM_HOST, dst_pageable = dk == KKR_GPU_MEM_HOST;
  if (src_pageable && dst_pageable) { /* host to host: the host does it */
    if (sync)
      __kkrace_gpu_stream_sync(stream);
    __kkrace_gpu_host_access((void *)src, sn, KKR_GPU_ACC_READ);
    __kkrace_gpu_host_access(dst, dn, KKR_GPU_ACC_WRITE);
    return;
  }
  int wait = 0;
  if (src_pageable) {
    /* Staged from pageable memory before the call returns: the host reads
     * the source (after the stream's earlier work, for cudaMemcpy). */
    if (sync)
      __kkrace_gpu_stream_sync(stream);
    __kkrace_gpu_host_access((void *)src, sn, KKR_GPU_ACC_READ);
    src = NULL;
  }
  if (dst_pageable || (sync && !device_side(sk)) || (sync && !device_side(dk)))
    wait = 1; /* returns once the copy is done */
  unsigned tok = __kkrace_gpu_work_begin(KKR_GPU_MEMCPY, stream, label);
  if (!tok)
    return;
  if (src)
    __kkrace_gpu_access((void *)src, sn, KKR_GPU_ACC_READ);
  __kkrace_gpu_access(dst, dn, KKR_GPU_ACC_WRITE);
  __kkrace_gpu_work_end(tok, wait ? KKR_GPU_WAIT : 0);
}

static void copy(void *dst, const void *src, size_t n, int sync,
                 unsigned long long stream, const char *api) {
  copy_spans(dst, n, src, n, sync, stream, api);
}

/* The bytes a pitched region spans: rows of width bytes, pitch apart,
 * height rows a slice, depth slices (ysize rows apart), from pos. */
typedef struct {
  char *p;
  size_t n;
} span;

static span pitched(struct cudaPitchedPtr pp, struct cudaPos pos,
                    struct cudaExtent e) {
  span s = {NULL, 0};
  if (!pp.ptr || !e.width || !e.height || !e.depth)
    return s;
  size_t slice = pp.pitch * pp.ysize;
  s.p = (char *)pp.ptr + pos.z * slice + pos.y * pp.pitch + pos.x;
  s.n = (e.depth - 1) * slice + (e.height - 1) * pp.pitch + e.width;
  return s;
}

/* cudaMemcpy3D(Async): a copy between linear memories (not arrays) over
 * the spans of its source and destination regions. */
static void copy_3d(const struct cudaMemcpy3DParms *p, int sync,
                    unsigned long long stream, const char *api) {
  if (!p || p->srcArray || p->dstArray)
    return; /* (CUDA arrays are not allocations kkrace knows) */
  span d = pitched(p->dstPtr, p->dstPos, p->extent);
  span s = pitched(p->srcPtr, p->srcPos, p->extent);
  if (d.n && s.n)
    copy_spans(d.p, d.n, s.p, s.n, sync, stream, api);
}

/* A copy from a __device__ or __constant__ variable (not an allocation
 * kkrace knows): a work item that writes dst. */
static void copy_from_symbol(void *dst, size_t n, int sync,
                             unsigned long long stream, const char *api) {
  if (!__kkrace_gpu_work_begin || !n)
    return;
  unsigned dk = __kkrace_gpu_mem_kind(dst);
  char label[96];
  snprintf(label, sizeof label, "%s(%s)", api, device_side(dk) ? "DtoD" : "DtoH");
  unsigned tok = __kkrace_gpu_work_begin(KKR_GPU_MEMCPY, stream, label);
  if (!tok)
    return;
  __kkrace_gpu_access(dst, n, KKR_GPU_ACC_WRITE);
  /* (To the host, cudaMemcpyFromSymbol returns once the copy is done.) */
  __kkrace_gpu_work_end(tok, sync && !device_side(dk) ? KKR_GPU_WAIT : 0);
}


static void memset_(void *dst, size_t n, int sync, unsigned long long stream,
                    const char *api) {
  if (!__kkrace_gpu_work_begin || !n)
    return;
  unsigned tok = __kkrace_gpu_work_begin(KKR_GPU_MEMSET, stream, api);
  if (!tok)
    return;
  __kkrace_gpu_access(dst, n, KKR_GPU_ACC_WRITE);
  unsigned k = __kkrace_gpu_mem_kind(dst);
  /* cudaMemset is asynchronous unless it targets pinned host memory. */
  int wait = sync && (k == KKR_GPU_MEM_PINNED || k == KKR_GPU_MEM_REGISTERED);
  __kkrace_gpu_work_end(tok, wait ? KKR_GPU_WAIT : 0);
}

/* cudaMemset2D/3D(Async): the span of the pitched region. */
static void memset_pitched(struct cudaPitchedPtr pp, struct cudaExtent e,
                           int sync, unsigned long long stream,
                           const char *api) {
  struct cudaPos origin = {0, 0, 0};
  span d = pitched(pp, origin, e);
  memset_(d.p, d.n, sync, stream, api);
}

/* ---- Callbacks ---------------------------------------------------------- */

static __thread int in_runtime_api; /* a runtime API call in progress */
static __thread int wrapping; /* a launch of the module's in progress */
/* The function the runtime API call in progress launched (the driver's
 * launch inside it says which). */
static __thread CUfunction inner_func;

#define P(type) ((const type##_params *)cb->functionParams)

static void runtime_exit(CUpti_CallbackId id, const CUpti_CallbackData *cb) {
  if (cb->functionReturnValue &&
      *(const cudaError_t *)cb->functionReturnValue != cudaSuccess)
    return; /* a failed call did nothing (queries: not done yet) */
  switch (id) {
  /* Allocations. */
  case CUPTI_RUNTIME_TRACE_CBID_cudaMalloc_v3020:
    __kkrace_gpu_alloc(*P(cudaMalloc_v3020)->devPtr, P(cudaMalloc_v3020)->size,
                       KKR_GPU_MEM_DEVICE);
    break;
  case CUPTI_RUNTIME_TRACE_CBID_cudaMallocPitch_v3020:
    __kkrace_gpu_alloc(*P(cudaMallocPitch_v3020)->devPtr,
                       *P(cudaMallocPitch_v3020)->pitch *
                           P(cudaMallocPitch_v3020)->height,
                       KKR_GPU_MEM_DEVICE);
    break;
  case CUPTI_RUNTIME_TRACE_CBID_cudaMallocManaged_v6000:
    __kkrace_gpu_alloc(*P(cudaMallocManaged_v6000)->devPtr,
                       P(cudaMallocManaged_v6000)->size, KKR_GPU_MEM_MANAGED);
    break;
  case CUPTI_RUNTIME_TRACE_CBID_cudaMallocHost_v3020:
    __kkrace_gpu_alloc(*P(cudaMallocHost_v3020)->ptr,
                       P(cudaMallocHost_v3020)->size, KKR_GPU_MEM_PINNED);
    break;
  case CUPTI_RUNTIME_TRACE_CBID_cudaHostAlloc_v3020:
    __kkrace_gpu_alloc(*P(cudaHostAlloc_v3020)->pHost,
                       P(cudaHostAlloc_v3020)->size, KKR_GPU_MEM_PINNED);
    break;
  case CUPTI_RUNTIME_TRACE_CBID_cudaHostRegister_v4000:
    __kkrace_gpu_alloc(P(cudaHostRegister_v4000)->ptr,
                       P(cudaHostRegister_v4000)->size,
                       KKR_GPU_MEM_REGISTERED);
    break;
  case CUPTI_RUNTIME_TRACE_CBID_cudaMallocAsync_v11020:
  case CUPTI_RUNTIME_TRACE_CBID_cudaMallocAsync_ptsz_v11020:
    /* Stream-ordered: new memory either way, nothing to order. */
    __kkrace_gpu_alloc(*P(cudaMallocAsync_v11020)->devPtr,
                       P(cudaMallocAsync_v11020)->size, KKR_GPU_MEM_ASYNC);
    break;
  case CUPTI_RUNTIME_TRACE_CBID_cudaFreeAsync_v11020:
  case CUPTI_RUNTIME_TRACE_CBID_cudaFreeAsync_ptsz_v11020:
    __kkrace_gpu_free(P(cudaFreeAsync_v11020)->devPtr,
                      stream_id(P(cudaFreeAsync_v11020)->hStream,
                                id == CUPTI_RUNTIME_TRACE_CBID_cudaFreeAsync_ptsz_v11020),
                      KKR_GPU_ASYNC);
    break;
  /* Streams and events. */
  case CUPTI_RUNTIME_TRACE_CBID_cudaStreamCreate_v3020:
    __kkrace_gpu_stream(stream_id(*P(cudaStreamCreate_v3020)->pStream, 0), 0);
    break;
  case CUPTI_RUNTIME_TRACE_CBID_cudaStreamCreateWithFlags_v5000:
  case CUPTI_RUNTIME_TRACE_CBID_cudaStreamCreateWithPriority_v5050:
    __kkrace_gpu_stream(
        stream_id(*P(cudaStreamCreateWithFlags_v5000)->pStream, 0),
        (P(cudaStreamCreateWithFlags_v5000)->flags & cudaStreamNonBlocking)
            ? KKR_GPU_STREAM_NONBLOCKING
            : 0);
    break;
  case CUPTI_RUNTIME_TRACE_CBID_cudaEventRecord_v3020:
  case CUPTI_RUNTIME_TRACE_CBID_cudaEventRecord_ptsz_v7000:
  case CUPTI_RUNTIME_TRACE_CBID_cudaEventRecordWithFlags_v11010:
  case CUPTI_RUNTIME_TRACE_CBID_cudaEventRecordWithFlags_ptsz_v11010:
    __kkrace_gpu_event_record(
        (uintptr_t)P(cudaEventRecord_v3020)->event,
        stream_id(P(cudaEventRecord_v3020)->stream,
                  id == CUPTI_RUNTIME_TRACE_CBID_cudaEventRecord_ptsz_v7000 ||
                      id == CUPTI_RUNTIME_TRACE_CBID_cudaEventRecordWithFlags_ptsz_v11010));
    break;
  case CUPTI_RUNTIME_TRACE_CBID_cudaStreamWaitEvent_v3020:
  case CUPTI_RUNTIME_TRACE_CBID_cudaStreamWaitEvent_ptsz_v7000:
    __kkrace_gpu_stream_wait_event(
        stream_id(P(cudaStreamWaitEvent_v3020)->stream,
                  id == CUPTI_RUNTIME_TRACE_CBID_cudaStreamWaitEvent_ptsz_v7000),
        (uintptr_t)P(cudaStreamWaitEvent_v3020)->event);
    break;
  case CUPTI_RUNTIME_TRACE_CBID_cudaEventSynchronize_v3020:
  case CUPTI_RUNTIME_TRACE_CBID_cudaEventQuery_v3020:
    __kkrace_gpu_event_sync((uintptr_t)P(cudaEventSynchronize_v3020)->event);
    break;
  case CUPTI_RUNTIME_TRACE_CBID_cudaStreamSynchronize_v3020:
  case CUPTI_RUNTIME_TRACE_CBID_cudaStreamQuery_v3020:
    __kkrace_gpu_stream_sync(stream_id(P(cudaStreamSynchronize_v3020)->stream, 0));
    break;
  case CUPTI_RUNTIME_TRACE_CBID_cudaStreamSynchronize_ptsz_v7000:
  case CUPTI_RUNTIME_TRACE_CBID_cudaStreamQuery_ptsz_v7000:
    __kkrace_gpu_stream_sync(stream_id(P(cudaStreamSynchronize_v3020)->stream, 1));
    break;
  case CUPTI_RUNTIME_TRACE_CBID_cudaDeviceSynchronize_v3020:
    __kkrace_gpu_device_sync();
    break;
  /* Stream capture and graphs. */
  case CUPTI_RUNTIME_TRACE_CBID_cudaStreamBeginCapture_v10000:
  case CUPTI_RUNTIME_TRACE_CBID_cudaStreamBeginCapture_ptsz_v10000:
    __kkrace_gpu_capture_begin(stream_id(
        P(cudaStreamBeginCapture_v10000)->stream,
        id == CUPTI_RUNTIME_TRACE_CBID_cudaStreamBeginCapture_ptsz_v10000));
    break;
  case CUPTI_RUNTIME_TRACE_CBID_cudaStreamBeginCaptureToGraph_v12030:
  case CUPTI_RUNTIME_TRACE_CBID_cudaStreamBeginCaptureToGraph_ptsz_v12030:
    __kkrace_gpu_capture_begin(stream_id(
        P(cudaStreamBeginCaptureToGraph_v12030)->stream,
        id == CUPTI_RUNTIME_TRACE_CBID_cudaStreamBeginCaptureToGraph_ptsz_v12030));
    break;
  case CUPTI_RUNTIME_TRACE_CBID_cudaStreamEndCapture_v10000:
  case CUPTI_RUNTIME_TRACE_CBID_cudaStreamEndCapture_ptsz_v10000: {
    const cudaStreamEndCapture_v10000_params *e = P(cudaStreamEndCapture_v10000);
    if (e->pGraph)
      __kkrace_gpu_capture_end(
          stream_id(e->stream,
                    id == CUPTI_RUNTIME_TRACE_CBID_cudaStreamEndCapture_ptsz_v10000),
          (unsigned long long)(uintptr_t)*e->pGraph);
    break;
  }
  case CUPTI_RUNTIME_TRACE_CBID_cudaGraphInstantiate_v10000:
  case CUPTI_RUNTIME_TRACE_CBID_cudaGraphInstantiate_v12000:
  case CUPTI_RUNTIME_TRACE_CBID_cudaGraphInstantiateWithFlags_v11040:
  case CUPTI_RUNTIME_TRACE_CBID_cudaGraphInstantiateWithParams_v12000:
  case CUPTI_RUNTIME_TRACE_CBID_cudaGraphInstantiateWithParams_ptsz_v12000: {
    /* (Every form's parameters begin with the executable graph's address
     * and the graph.) */
    const cudaGraphInstantiate_v12000_params *g = P(cudaGraphInstantiate_v12000);
    if (g->pGraphExec)
      __kkrace_gpu_graph_exec((unsigned long long)(uintptr_t)*g->pGraphExec,
                              (unsigned long long)(uintptr_t)g->graph);
    break;
  }
  case CUPTI_RUNTIME_TRACE_CBID_cudaGraphLaunch_v10000:
  case CUPTI_RUNTIME_TRACE_CBID_cudaGraphLaunch_ptsz_v10000:
    __kkrace_gpu_graph_launch(
        (unsigned long long)(uintptr_t)P(cudaGraphLaunch_v10000)->graphExec,
        stream_id(P(cudaGraphLaunch_v10000)->stream,
                  id == CUPTI_RUNTIME_TRACE_CBID_cudaGraphLaunch_ptsz_v10000));
    break;
  /* Kernels. */
  case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000:
  case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_ptsz_v7000:
  case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernel_v9000:
  case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernel_ptsz_v9000: {
    const cudaLaunchKernel_v7000_params *p = P(cudaLaunchKernel_v7000);
    CUfunction f = inner_func;
    int ptsz = id == CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_ptsz_v7000 ||
               id == CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernel_ptsz_v9000;
    unsigned dims[6] = {p->gridDim.x, p->gridDim.y, p->gridDim.z,
                        p->blockDim.x, p->blockDim.y, p->blockDim.z};
    launch(f, cb->symbolName, p->args, dims, stream_id(p->stream, ptsz));
    break;
  }
  case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_v11060:
  case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_ptsz_v11060: {
    const cudaLaunchKernelExC_v11060_params *p = P(cudaLaunchKernelExC_v11060);
    const cudaLaunchConfig_t *lc = p->config;
    unsigned dims[6] = {lc ? lc->gridDim.x : 0,  lc ? lc->gridDim.y : 0,
                        lc ? lc->gridDim.z : 0,  lc ? lc->blockDim.x : 0,
                        lc ? lc->blockDim.y : 0, lc ? lc->blockDim.z : 0};
    launch(inner_func, cb->symbolName, p->args, lc ? dims : NULL,
           stream_id(p->config ? p->config->stream : 0,
                     id == CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_ptsz_v11060));
    break;
  }
  /* Copies to __constant__ symbols: what the next kernel reads. */
  case CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyToSymbol_v3020:
  case CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyToSymbol_ptds_v7000: {
    const cudaMemcpyToSymbol_v3020_params *p = P(cudaMemcpyToSymbol_v3020);
    symbol_copied(p->src, p->count, p->kind, 0, 1);
    break;
  }
  case CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyToSymbolAsync_v3020:
  case CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyToSymbolAsync_ptsz_v7000: {
    const cudaMemcpyToSymbolAsync_v3020_params *p =
        P(cudaMemcpyToSymbolAsync_v3020);
    symbol_copied(
        p->src, p->count, p->kind,
        stream_id(p->stream,
                  id == CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyToSymbolAsync_ptsz_v7000),
        0);
    break;
  }
  /* Copies and memsets. */
  case CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy_v3020:
  case CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy_ptds_v7000:
    copy(P(cudaMemcpy_v3020)->dst, P(cudaMemcpy_v3020)->src,
         P(cudaMemcpy_v3020)->count, 1,
         id == CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy_ptds_v7000 ? PER_THREAD : LEGACY,
         "cudaMemcpy");
    break;
  case CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyAsync_v3020:
  case CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyAsync_ptsz_v7000:
    copy(P(cudaMemcpyAsync_v3020)->dst, P(cudaMemcpyAsync_v3020)->src,
         P(cudaMemcpyAsync_v3020)->count, 0,
         stream_id(P(cudaMemcpyAsync_v3020)->stream,
                   id == CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyAsync_ptsz_v7000),
         "cudaMemcpyAsync");
    break;
  case CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyPeer_v4000: {
    /* Serialized with all work of the devices, before and after: here the
     * host waits for the device before and after it. */
    const cudaMemcpyPeer_v4000_params *p = P(cudaMemcpyPeer_v4000);
    __kkrace_gpu_device_sync();
    copy(p->dst, p->src, p->count, 1, LEGACY, "cudaMemcpyPeer");
    __kkrace_gpu_device_sync();
    break;
  }
  case CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyPeerAsync_v4000: {
    const cudaMemcpyPeerAsync_v4000_params *p = P(cudaMemcpyPeerAsync_v4000);
    copy(p->dst, p->src, p->count, 0, stream_id(p->stream, 0),
         "cudaMemcpyPeerAsync");
    break;
  }
  case CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy3D_v3020:
  case CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy3D_ptds_v7000:
    copy_3d(P(cudaMemcpy3D_v3020)->p, 1,
            id == CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy3D_ptds_v7000 ? PER_THREAD
                                                                   : LEGACY,
            "cudaMemcpy3D");
    break;
  case CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy3DAsync_v3020:
  case CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy3DAsync_ptsz_v7000:
    copy_3d(P(cudaMemcpy3DAsync_v3020)->p, 0,
            stream_id(P(cudaMemcpy3DAsync_v3020)->stream,
                      id == CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy3DAsync_ptsz_v7000),
            "cudaMemcpy3DAsync");
    break;
  case CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyFromSymbol_v3020:
  case CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyFromSymbol_ptds_v7000:
    copy_from_symbol(P(cudaMemcpyFromSymbol_v3020)->dst,
                     P(cudaMemcpyFromSymbol_v3020)->count, 1,
                     id == CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyFromSymbol_ptds_v7000
                         ? PER_THREAD
                         : LEGACY,
                     "cudaMemcpyFromSymbol");
    break;
  case CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyFromSymbolAsync_v3020:
  case CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyFromSymbolAsync_ptsz_v7000:
    copy_from_symbol(
        P(cudaMemcpyFromSymbolAsync_v3020)->dst,
        P(cudaMemcpyFromSymbolAsync_v3020)->count, 0,
        stream_id(P(cudaMemcpyFromSymbolAsync_v3020)->stream,
                  id == CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyFromSymbolAsync_ptsz_v7000),
        "cudaMemcpyFromSymbolAsync");
    break;
  case CUPTI_RUNTIME_TRACE_CBID_cudaMemset2D_v3020:
  case CUPTI_RUNTIME_TRACE_CBID_cudaMemset2D_ptds_v7000: {
    const cudaMemset2D_v3020_params *p = P(cudaMemset2D_v3020);
    memset_pitched((struct cudaPitchedPtr){p->devPtr, p->pitch, p->width, p->height},
                   (struct cudaExtent){p->width, p->height, 1}, 1,
                   id == CUPTI_RUNTIME_TRACE_CBID_cudaMemset2D_ptds_v7000
                       ? PER_THREAD
                       : LEGACY,
                   "cudaMemset2D");
    break;
  }
  case CUPTI_RUNTIME_TRACE_CBID_cudaMemset2DAsync_v3020:
  case CUPTI_RUNTIME_TRACE_CBID_cudaMemset2DAsync_ptsz_v7000: {
    const cudaMemset2DAsync_v3020_params *p = P(cudaMemset2DAsync_v3020);
    memset_pitched((struct cudaPitchedPtr){p->devPtr, p->pitch, p->width, p->height},
                   (struct cudaExtent){p->width, p->height, 1}, 0,
                   stream_id(p->stream,
                             id == CUPTI_RUNTIME_TRACE_CBID_cudaMemset2DAsync_ptsz_v7000),
                   "cudaMemset2DAsync");
    break;
  }
  case CUPTI_RUNTIME_TRACE_CBID_cudaMemset3D_v3020:
  case CUPTI_RUNTIME_TRACE_CBID_cudaMemset3D_ptds_v7000:
    memset_pitched(P(cudaMemset3D_v3020)->pitchedDevPtr,
                   P(cudaMemset3D_v3020)->extent, 1,
                   id == CUPTI_RUNTIME_TRACE_CBID_cudaMemset3D_ptds_v7000
                       ? PER_THREAD
                       : LEGACY,
                   "cudaMemset3D");
    break;
  case CUPTI_RUNTIME_TRACE_CBID_cudaMemset3DAsync_v3020:
  case CUPTI_RUNTIME_TRACE_CBID_cudaMemset3DAsync_ptsz_v7000:
    memset_pitched(P(cudaMemset3DAsync_v3020)->pitchedDevPtr,
                   P(cudaMemset3DAsync_v3020)->extent, 0,
                   stream_id(P(cudaMemset3DAsync_v3020)->stream,
                             id == CUPTI_RUNTIME_TRACE_CBID_cudaMemset3DAsync_ptsz_v7000),
                   "cudaMemset3DAsync");
    break;
  case CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy2D_v3020: {
    const cudaMemcpy2D_v3020_params *p = P(cudaMemcpy2D_v3020);
    /* The rows' span, gaps included (a bound). */
    size_t h = p->height ? p->height - 1 : 0;
    copy(p->dst, p->src, p->dpitch * h + p->width, 1, LEGACY, "cudaMemcpy2D");
    break;
  }
  case CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy2DAsync_v3020: {
    const cudaMemcpy2DAsync_v3020_params *p = P(cudaMemcpy2DAsync_v3020);
    size_t h = p->height ? p->height - 1 : 0;
    copy(p->dst, p->src, p->dpitch * h + p->width, 0, stream_id(p->stream, 0),
         "cudaMemcpy2DAsync");
    break;
  }
  case CUPTI_RUNTIME_TRACE_CBID_cudaMemset_v3020:
  case CUPTI_RUNTIME_TRACE_CBID_cudaMemset_ptds_v7000:
    memset_(P(cudaMemset_v3020)->devPtr, P(cudaMemset_v3020)->count, 1,
            id == CUPTI_RUNTIME_TRACE_CBID_cudaMemset_ptds_v7000 ? PER_THREAD
                                                                 : LEGACY,
            "cudaMemset");
    break;
  case CUPTI_RUNTIME_TRACE_CBID_cudaMemsetAsync_v3020:
  case CUPTI_RUNTIME_TRACE_CBID_cudaMemsetAsync_ptsz_v7000:
    memset_(P(cudaMemsetAsync_v3020)->devPtr, P(cudaMemsetAsync_v3020)->count,
            0,
            stream_id(P(cudaMemsetAsync_v3020)->stream,
                      id == CUPTI_RUNTIME_TRACE_CBID_cudaMemsetAsync_ptsz_v7000),
            "cudaMemsetAsync");
    break;
  default:
    break;
  }
}

/* Frees: before the call, while the allocation is still the program's. */
static void runtime_enter(CUpti_CallbackId id, const CUpti_CallbackData *cb) {
  switch (id) {
  case CUPTI_RUNTIME_TRACE_CBID_cudaFree_v3020:
    /* cudaFree waits for the device first. */
    __kkrace_gpu_free(P(cudaFree_v3020)->devPtr, 0, KKR_GPU_WAIT);
    break;
  case CUPTI_RUNTIME_TRACE_CBID_cudaFreeHost_v3020:
    __kkrace_gpu_free(P(cudaFreeHost_v3020)->ptr, 0, KKR_GPU_WAIT);
    break;
  case CUPTI_RUNTIME_TRACE_CBID_cudaHostUnregister_v4000:
    __kkrace_gpu_free(P(cudaHostUnregister_v4000)->ptr, 0, 0);
    break;
  default:
    break;
  }
}

/* The driver API, where the program calls it itself, and every kernel
 * launch (the runtime's launch calls are not followed: debug mode aside,
 * in_runtime_api is 0 in the driver's launch they make). */
static void driver_exit(CUpti_CallbackId id, const CUpti_CallbackData *cb) {
  if (wrapping)
    return; /* (a launch of the module's functions, which model it) */
  if (cb->functionReturnValue &&
      *(const CUresult *)cb->functionReturnValue != CUDA_SUCCESS)
    return;
  switch (id) {
  case CUPTI_DRIVER_TRACE_CBID_cuMemAlloc_v2:
    __kkrace_gpu_alloc((void *)(uintptr_t)*P(cuMemAlloc_v2)->dptr,
                       P(cuMemAlloc_v2)->bytesize, KKR_GPU_MEM_DEVICE);
    break;
  case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel:
  case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz: {
    const cuLaunchKernel_params *p = P(cuLaunchKernel);
    unsigned dims[6] = {p->gridDimX, p->gridDimY, p->gridDimZ,
                        p->blockDimX, p->blockDimY, p->blockDimZ};
    launch_driver(p->f, cb->symbolName, p->kernelParams, p->extra, dims,
                  stream_id((cudaStream_t)p->hStream,
                            id == CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz));
    break;
  }
  case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel:
  case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz: {
    const cuLaunchCooperativeKernel_params *p = P(cuLaunchCooperativeKernel);
    unsigned dims[6] = {p->gridDimX, p->gridDimY, p->gridDimZ,
                        p->blockDimX, p->blockDimY, p->blockDimZ};
    launch(p->f, cb->symbolName, p->kernelParams, dims,
           stream_id((cudaStream_t)p->hStream,
                     id == CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz));
    break;
  }
  case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx:
  case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz: {
    const cuLaunchKernelEx_params *p = P(cuLaunchKernelEx);
    unsigned dims[6];
    launch_driver(p->f, cb->symbolName, p->kernelParams, p->extra,
                  config_dims(p->config, dims),
                  stream_id((cudaStream_t)(p->config ? p->config->hStream : 0),
                            id == CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz));
    break;
  }
  case CUPTI_DRIVER_TRACE_CBID_cuStreamSynchronize:
    __kkrace_gpu_stream_sync(stream_id((cudaStream_t)P(cuStreamSynchronize)->hStream, 0));
    break;
  case CUPTI_DRIVER_TRACE_CBID_cuCtxSynchronize:
    __kkrace_gpu_device_sync();
    break;
  default:
    break;
  }
}

static int debug;

static void CUPTIAPI callback(void *userdata, CUpti_CallbackDomain domain,
                              CUpti_CallbackId id, const void *data) {
  (void)userdata;
  if (domain == CUPTI_CB_DOMAIN_RESOURCE) {
    if (id == CUPTI_CBID_RESOURCE_MODULE_LOADED)
      module_loaded(((const CUpti_ResourceData *)data)->resourceDescriptor);
    return;
  }
  const CUpti_CallbackData *cb = data;
  if (debug)
    fprintf(stderr, "kkrace-cupti: %s %s %s (depth %d)\n",
            domain == CUPTI_CB_DOMAIN_RUNTIME_API ? "runtime" : "driver",
            cb->functionName ? cb->functionName : "?",
            cb->callbackSite == CUPTI_API_ENTER ? "enter" : "exit",
            in_runtime_api);
  if (domain == CUPTI_CB_DOMAIN_RUNTIME_API) {
    if (cb->callbackSite == CUPTI_API_ENTER) {
      if (in_runtime_api++ == 0) {
        inner_func = NULL;
        runtime_enter(id, cb);
      }
    } else {
      if (--in_runtime_api == 0)
        runtime_exit(id, cb);
    }
  } else if (domain == CUPTI_CB_DOMAIN_DRIVER_API) {
    if (cb->callbackSite == CUPTI_API_EXIT && in_runtime_api == 0)
      driver_exit(id, cb);
    else if (cb->callbackSite == CUPTI_API_ENTER && in_runtime_api)
      switch (id) {
      case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel:
      case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz:
        inner_func = P(cuLaunchKernel)->f;
        break;
      case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel:
      case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz:
        inner_func = P(cuLaunchCooperativeKernel)->f;
        break;
      case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx:
      case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz:
        inner_func = P(cuLaunchKernelEx)->f;
        break;
      default:
        break;
      }
  }
}

/* ---- Launches without CUPTI's callbacks ---------------------------------- */

/* CUPTI's launch callbacks alone make a loop of small launches 1.1x to 1.2x
 * slower (bench/gpu: cupti_floor.so).  The module hands out launch functions
 * of its own where the program and the CUDA runtime look for the driver's:
 *  - the runtime finds cuGetProcAddress_v2 with dlsym, asks it for
 *    cuGetProcAddress, and asks that one for every driver function it
 *    calls: the module's dlsym wraps the first, whose answer wraps the
 *    second, whose answers for the launch functions are the module's;
 *  - a program that calls the driver's launch functions itself calls the
 *    module's, exported under the driver's names (kkrace-clang++ links the
 *    module before libcuda), and so does one that finds them with dlsym.
 * Each calls the driver's function, then models the launch as the launch
 * callback would.  When both hold in the process (the module's dlsym and
 * cuLaunchKernel are the ones the process finds), the launch callbacks are
 * not enabled; otherwise (the module injected by CUDA_INJECTION64_PATH, or
 * loaded after libcuda) they are, and a launch that came through the module
 * is not modelled twice. */

enum {
  L_KERNEL,
  L_KERNEL_PTSZ,
  L_EX,
  L_EX_PTSZ,
  L_COOP,
  L_COOP_PTSZ,
  L_N
};
static const char *const launch_names[L_N] = {
    "cuLaunchKernel",   "cuLaunchKernel_ptsz",
    "cuLaunchKernelEx", "cuLaunchKernelEx_ptsz",
    "cuLaunchCooperativeKernel", "cuLaunchCooperativeKernel_ptsz"};

typedef CUresult (*launch_kernel_fn)(CUfunction, unsigned, unsigned,
                                     unsigned, unsigned, unsigned, unsigned,
                                     unsigned, CUstream, void **, void **);
typedef CUresult (*launch_ex_fn)(const CUlaunchConfig *, CUfunction, void **,
                                 void **);
typedef CUresult (*launch_coop_fn)(CUfunction, unsigned, unsigned, unsigned,
                                   unsigned, unsigned, unsigned, unsigned,
                                   CUstream, void **);
typedef CUresult (*gpa2_fn)(const char *, void **, int, cuuint64_t,
                            CUdriverProcAddressQueryResult *);
typedef CUresult (*gpa1_fn)(const char *, void **, int, cuuint64_t);

/* The driver's functions behind the module's: those that cuGetProcAddress
 * answered (gpa_real) and those of the exported names (export_real). */
static void *gpa_real[L_N], *export_real[L_N];
static void *real_gpa1, *real_gpa2, *inner_gpa1, *inner_gpa2;
static void *(*real_dlsym)(void *, const char *);
static int launch_cbs_on;     /* the launch callbacks are enabled */
static int launch_cbs_wanted; /* ... or must be once subscribed */
static int subscribed;
static CUpti_SubscriberHandle sub;
static const CUpti_CallbackId launch_ids[] = {
    CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz,
};

/* Kernel launches through CUPTI's callbacks (from now on, or once
 * subscribed). */
static void launch_cbs_enable(void) {
  __atomic_store_n(&launch_cbs_wanted, 1, __ATOMIC_RELEASE);
  if (!__atomic_load_n(&subscribed, __ATOMIC_ACQUIRE) ||
      __atomic_exchange_n(&launch_cbs_on, 1, __ATOMIC_ACQ_REL))
    return;
  for (size_t i = 0; i < sizeof launch_ids / sizeof *launch_ids; i++)
    p_cuptiEnableCallback(1, sub, CUPTI_CB_DOMAIN_DRIVER_API, launch_ids[i]);
}

static void *libc_dlsym(void *handle, const char *name) {
  void *(*f)(void *, const char *) =
      __atomic_load_n(&real_dlsym, __ATOMIC_ACQUIRE);
  if (!f) {
    f = (void *(*)(void *, const char *))dlvsym(RTLD_NEXT, "dlsym",
                                                "GLIBC_2.34");
    if (!f)
      f = (void *(*)(void *, const char *))dlvsym(RTLD_NEXT, "dlsym",
                                                  "GLIBC_2.2.5");
    __atomic_store_n(&real_dlsym, f, __ATOMIC_RELEASE);
  }
  return f && name ? f(handle, name) : NULL;
}

/* The driver's function of an exported name. */
static void *export_target(int i) {
  void *f = __atomic_load_n(&export_real[i], __ATOMIC_ACQUIRE);
  if (!f) {
    void *h = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
    if (!h)
      h = dlopen("libcuda.so.1", RTLD_NOW | RTLD_GLOBAL);
    f = h ? libc_dlsym(h, launch_names[i]) : NULL;
    __atomic_store_n(&export_real[i], f, __ATOMIC_RELEASE);
  }
  return f;
}

/* After the driver's launch: the launch, as driver_exit models it (in the
 * debug mode the runtime's callbacks model the runtime's launches). */
static void launched(CUresult r, CUfunction f, void **params, void **extra,
                     const unsigned *dims, CUstream s, int ptsz) {
  if (r == CUDA_SUCCESS && subscribed && !in_runtime_api)
    launch_driver(f, NULL, params, extra, dims,
                  stream_id((cudaStream_t)s, ptsz));
}

#define LAUNCH_KERNEL(name, table, i, ptsz)                                   \
  static CUresult name(CUfunction f, unsigned gx, unsigned gy, unsigned gz,   \
                       unsigned bx, unsigned by, unsigned bz, unsigned shm,   \
                       CUstream s, void **params, void **extra) {             \
    launch_kernel_fn real = (launch_kernel_fn)table(i);                       \
    if (!real)                                                                \
      return CUDA_ERROR_NOT_INITIALIZED;                                      \
    wrapping = 1;                                                             \
    CUresult r = real(f, gx, gy, gz, bx, by, bz, shm, s, params, extra);      \
    wrapping = 0;                                                             \
    unsigned dims[6] = {gx, gy, gz, bx, by, bz};                              \
    launched(r, f, params, extra, dims, s, ptsz);                             \
    return r;                                                                 \
  }
#define LAUNCH_EX(name, table, i, ptsz)                                       \
  static CUresult name(const CUlaunchConfig *c, CUfunction f, void **params,  \
                       void **extra) {                                        \
    launch_ex_fn real = (launch_ex_fn)table(i);                               \
    if (!real)                                                                \
      return CUDA_ERROR_NOT_INITIALIZED;                                      \
    wrapping = 1;                                                             \
    CUresult r = real(c, f, params, extra);                                   \
    wrapping = 0;                                                             \
    unsigned dims[6];                                                         \
    launched(r, f, params, extra, config_dims(c, dims), c ? c->hStream : 0,   \
             ptsz);                                                           \
    return r;                                                                 \
  }
#define LAUNCH_COOP(name, table, i, ptsz)                                     \
  static CUresult name(CUfunction f, unsigned gx, unsigned gy, unsigned gz,   \
                       unsigned bx, unsigned by, unsigned bz, unsigned shm,   \
                       CUstream s, void **params) {                           \
    launch_coop_fn real = (launch_coop_fn)table(i);                           \
    if (!real)                                                                \
      return CUDA_ERROR_NOT_INITIALIZED;                                      \
    wrapping = 1;                                                             \
    CUresult r = real(f, gx, gy, gz, bx, by, bz, shm, s, params);             \
    wrapping = 0;                                                             \
    unsigned dims[6] = {gx, gy, gz, bx, by, bz};                              \
    launched(r, f, params, NULL, dims, s, ptsz);                              \
    return r;                                                                 \
  }
#define GPA_TARGET(i) __atomic_load_n(&gpa_real[i], __ATOMIC_ACQUIRE)
LAUNCH_KERNEL(gpa_kernel, GPA_TARGET, L_KERNEL, 0)
LAUNCH_KERNEL(gpa_kernel_ptsz, GPA_TARGET, L_KERNEL_PTSZ, 1)
LAUNCH_EX(gpa_ex, GPA_TARGET, L_EX, 0)
LAUNCH_EX(gpa_ex_ptsz, GPA_TARGET, L_EX_PTSZ, 1)
LAUNCH_COOP(gpa_coop, GPA_TARGET, L_COOP, 0)
LAUNCH_COOP(gpa_coop_ptsz, GPA_TARGET, L_COOP_PTSZ, 1)
LAUNCH_KERNEL(x_kernel, export_target, L_KERNEL, 0)
LAUNCH_KERNEL(x_kernel_ptsz, export_target, L_KERNEL_PTSZ, 1)
LAUNCH_EX(x_ex, export_target, L_EX, 0)
LAUNCH_EX(x_ex_ptsz, export_target, L_EX_PTSZ, 1)
LAUNCH_COOP(x_coop, export_target, L_COOP, 0)
LAUNCH_COOP(x_coop_ptsz, export_target, L_COOP_PTSZ, 1)
static void *const gpa_wrap[L_N] = {
    (void *)gpa_kernel, (void *)gpa_kernel_ptsz, (void *)gpa_ex,
    (void *)gpa_ex_ptsz, (void *)gpa_coop, (void *)gpa_coop_ptsz};
static void *const export_wrap[L_N] = {
    (void *)x_kernel, (void *)x_kernel_ptsz, (void *)x_ex,
    (void *)x_ex_ptsz, (void *)x_coop, (void *)x_coop_ptsz};

/* The driver's launch functions under their own names. */
#define EXPORT_AS(sym) __attribute__((visibility("default"), alias(#sym)))
CUresult kkr_export_cuLaunchKernel(CUfunction, unsigned, unsigned, unsigned,
                                   unsigned, unsigned, unsigned, unsigned,
                                   CUstream, void **, void **)
    __asm__("cuLaunchKernel") EXPORT_AS(x_kernel);
CUresult kkr_export_cuLaunchKernel_ptsz(CUfunction, unsigned, unsigned,
                                        unsigned, unsigned, unsigned,
                                        unsigned, unsigned, CUstream, void **,
                                        void **)
    __asm__("cuLaunchKernel_ptsz") EXPORT_AS(x_kernel_ptsz);
CUresult kkr_export_cuLaunchKernelEx(const CUlaunchConfig *, CUfunction,
                                     void **, void **)
    __asm__("cuLaunchKernelEx") EXPORT_AS(x_ex);
CUresult kkr_export_cuLaunchKernelEx_ptsz(const CUlaunchConfig *, CUfunction,
                                          void **, void **)
    __asm__("cuLaunchKernelEx_ptsz") EXPORT_AS(x_ex_ptsz);
CUresult kkr_export_cuLaunchCooperativeKernel(CUfunction, unsigned, unsigned,
                                              unsigned, unsigned, unsigned,
                                              unsigned, unsigned, CUstream,
                                              void **)
    __asm__("cuLaunchCooperativeKernel") EXPORT_AS(x_coop);
CUresult kkr_export_cuLaunchCooperativeKernel_ptsz(CUfunction, unsigned,
                                                   unsigned, unsigned,
                                                   unsigned, unsigned,
                                                   unsigned, unsigned,
                                                   CUstream, void **)
    __asm__("cuLaunchCooperativeKernel_ptsz") EXPORT_AS(x_coop_ptsz);

static int launch_index(const char *name) {
  for (int i = 0; i < L_N; i++)
    if (!strcmp(name, launch_names[i]))
      return i;
  return -1;
}

/* What cuGetProcAddress answered for symbol: the module's function where it
 * is a launch function (the per-thread stream's when flags ask for it). */
static void *gpa_answer(const char *symbol, void *f, int version,
                        cuuint64_t flags);

/* The driver's lookup functions, wrapped: each answers through gpa_answer
 * (real: the driver's function behind it). */
#define GPA2(name, real)                                                      \
  static CUresult name(const char *symbol, void **pfn, int version,          \
                       cuuint64_t flags, CUdriverProcAddressQueryResult *st) {\
    CUresult r = ((gpa2_fn)real)(symbol, pfn, version, flags, st);           \
    if (r == CUDA_SUCCESS && pfn && *pfn && symbol)                          \
      *pfn = gpa_answer(symbol, *pfn, version, flags);                       \
    return r;                                                                \
  }
#define GPA1(name, real)                                                      \
  static CUresult name(const char *symbol, void **pfn, int version,          \
                       cuuint64_t flags) {                                   \
    CUresult r = ((gpa1_fn)real)(symbol, pfn, version, flags);               \
    if (r == CUDA_SUCCESS && pfn && *pfn && symbol)                          \
      *pfn = gpa_answer(symbol, *pfn, version, flags);                       \
    return r;                                                                \
  }
GPA2(outer2, real_gpa2) /* dlsym's cuGetProcAddress_v2 */
GPA1(outer1, real_gpa1) /* dlsym's cuGetProcAddress (before CUDA 12) */
GPA2(inner2, inner_gpa2) /* what those answer for cuGetProcAddress */
GPA1(inner1, inner_gpa1)

/* Keeps f as the function behind *slot, and answers wrap: unless another
 * function is there already (NULL). */
static void *take(void **slot, void *f, void *wrap) {
  void *old = NULL;
  if (__atomic_compare_exchange_n(slot, &old, f, 0, __ATOMIC_ACQ_REL,
                                  __ATOMIC_ACQUIRE) ||
      old == f)
    return wrap;
  return NULL;
}

static void *gpa_answer(const char *symbol, void *f, int version,
                        cuuint64_t flags) {
  if (strncmp(symbol, "cu", 2) != 0)
    return f;
  if (!strcmp(symbol, "cuGetProcAddress")) {
    /* (Its signature is that of the version asked for.) */
    void *w = version >= 12000 ? take(&inner_gpa2, f, (void *)inner2)
                               : take(&inner_gpa1, f, (void *)inner1);
    return w ? w : f;
  }
  int i = launch_index(symbol);
  if (i < 0)
    return f;
  if ((flags & CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM) && !(i & 1))
    i++; /* (the per-thread default stream's variant) */
  void *w = take(&gpa_real[i], f, gpa_wrap[i]);
  if (!w) {
    /* Two driver functions for one launch: the callbacks see the other. */
    launch_cbs_enable();
    return f;
  }
  return w;
}

/* dlsym: the driver's lookup function and launch functions are answered
 * with the module's; every other lookup goes straight to libc's (a tail
 * call, so that RTLD_NEXT still means the caller's next object). */
__attribute__((visibility("default"))) void *dlsym(void *handle,
                                                   const char *name) {
  if (name[0] != 'c' || name[1] != 'u' || handle == RTLD_NEXT) {
    void *(*f)(void *, const char *) =
        __atomic_load_n(&real_dlsym, __ATOMIC_ACQUIRE);
    if (!f) {
      libc_dlsym(NULL, NULL); /* (finds it) */
      if (!(f = __atomic_load_n(&real_dlsym, __ATOMIC_ACQUIRE)))
        return NULL;
    }
#if defined(__clang__)
    __attribute__((musttail))
#endif
    return f(handle, name);
  }
  void *f = libc_dlsym(handle, name);
  if (!f)
    return NULL;
  if (!strcmp(name, "cuGetProcAddress_v2")) {
    void *w = take(&real_gpa2, f, (void *)outer2);
    return w ? w : f;
  }
  if (!strcmp(name, "cuGetProcAddress")) {
    void *w = take(&real_gpa1, f, (void *)outer1);
    return w ? w : f;
  }
  int i = launch_index(name);
  if (i >= 0) {
    void *w = take(&export_real[i], f, export_wrap[i]);
    if (w)
      return w;
    launch_cbs_enable();
  }
  return f;
}

/* Whether every launch reaches the module's functions: the process finds
 * the module's dlsym and launch functions first. */
static int launches_wrapped(void) {
  return libc_dlsym(RTLD_DEFAULT, "dlsym") == (void *)dlsym &&
         libc_dlsym(RTLD_DEFAULT, "cuLaunchKernel") == (void *)x_kernel &&
         libc_dlsym(RTLD_DEFAULT, "cuLaunchKernelEx") == (void *)x_ex;
}

/* ---- Setup -------------------------------------------------------------- */

static pthread_once_t once = PTHREAD_ONCE_INIT;

static void *load(const char *const *names) {
  for (; *names; names++) {
    void *h = dlopen(*names, RTLD_NOW | RTLD_GLOBAL);
    if (h)
      return h;
  }
  return NULL;
}

static void subscribe(void) {
  if (!__kkrace_gpu_work_begin) {
    fprintf(stderr, "kkrace: libkkrace_cupti is loaded without the kkrace "
                    "runtime: build the program with -fsanitize=kkrace, or "
                    "preload libkkrace.so too; CUDA work is not checked\n");
    return;
  }
  static const char *const cupti_names[] = {
      "libcupti.so", "libcupti.so.13", "libcupti.so.12",
      KKRACE_CUPTI_PATH, NULL};
  static const char *const cuda_names[] = {"libcuda.so.1", "libcuda.so",
                                           NULL};
  void *cupti = load(cupti_names), *cuda = load(cuda_names);
  if (!cupti || !cuda) {
    if (!cuda)
      fprintf(stderr, "kkrace: no CUDA driver (libcuda.so.1): CUDA work is "
                      "not checked\n");
    else
      fprintf(stderr, "kkrace: cannot load CUPTI (libcupti.so): CUDA work "
                      "is not checked; add CUPTI's directory (in the CUDA "
                      "toolkit) to LD_LIBRARY_PATH\n");
    return;
  }
  p_cuptiSubscribe = (__typeof__(p_cuptiSubscribe))dlsym(cupti, "cuptiSubscribe");
  p_cuptiEnableDomain =
      (__typeof__(p_cuptiEnableDomain))dlsym(cupti, "cuptiEnableDomain");
  p_cuptiGetResultString =
      (__typeof__(p_cuptiGetResultString))dlsym(cupti, "cuptiGetResultString");
  p_cuptiEnableCallback =
      (__typeof__(p_cuptiEnableCallback))dlsym(cupti, "cuptiEnableCallback");
  p_cuFuncGetName = (__typeof__(p_cuFuncGetName))dlsym(cuda, "cuFuncGetName");
  p_cuKernelGetName =
      (__typeof__(p_cuKernelGetName))dlsym(cuda, "cuKernelGetName");
  p_cuFuncGetParamInfo =
      (__typeof__(p_cuFuncGetParamInfo))dlsym(cuda, "cuFuncGetParamInfo");
  p_cuKernelGetParamInfo =
      (__typeof__(p_cuKernelGetParamInfo))dlsym(cuda, "cuKernelGetParamInfo");
  if (!p_cuptiSubscribe || !p_cuptiEnableDomain) {
    fprintf(stderr, "kkrace: this CUPTI has no callback API: CUDA work is "
                    "not checked\n");
    return;
  }
  debug = getenv("KKRACE_CUPTI_DEBUG") != NULL;
  if (!p_cuFuncGetParamInfo)
    fprintf(stderr, "kkrace: this CUDA driver cannot describe kernel "
                    "parameters (cuFuncGetParamInfo, CUDA 12.4): kernels' "
                    "footprints are not known\n");
  CUptiResult r = p_cuptiSubscribe(&sub, (CUpti_CallbackFunc)callback, NULL);
  if (r != CUPTI_SUCCESS) {
    const char *msg = "?";
    if (p_cuptiGetResultString)
      p_cuptiGetResultString(r, &msg);
    fprintf(stderr, "kkrace: cannot subscribe to CUPTI (%s): CUDA work is "
                    "not checked\n", msg);
    return;
  }
  /* Only the calls the module models: every call of the domain costs a
   * callback otherwise (Kokkos asks cudaGetLastError and cudaGetDevice
   * around each kernel, say). */
  static const CUpti_CallbackId runtime_ids[] = {
      CUPTI_RUNTIME_TRACE_CBID_cudaDeviceSynchronize_v3020,
      CUPTI_RUNTIME_TRACE_CBID_cudaEventQuery_v3020,
      CUPTI_RUNTIME_TRACE_CBID_cudaEventRecordWithFlags_ptsz_v11010,
      CUPTI_RUNTIME_TRACE_CBID_cudaEventRecordWithFlags_v11010,
      CUPTI_RUNTIME_TRACE_CBID_cudaEventRecord_ptsz_v7000,
      CUPTI_RUNTIME_TRACE_CBID_cudaEventRecord_v3020,
      CUPTI_RUNTIME_TRACE_CBID_cudaEventSynchronize_v3020,
      CUPTI_RUNTIME_TRACE_CBID_cudaFreeAsync_ptsz_v11020,
      CUPTI_RUNTIME_TRACE_CBID_cudaFreeAsync_v11020,
      CUPTI_RUNTIME_TRACE_CBID_cudaFreeHost_v3020,
      CUPTI_RUNTIME_TRACE_CBID_cudaFree_v3020,
      CUPTI_RUNTIME_TRACE_CBID_cudaHostAlloc_v3020,
      CUPTI_RUNTIME_TRACE_CBID_cudaHostRegister_v4000,
      CUPTI_RUNTIME_TRACE_CBID_cudaHostUnregister_v4000,
      CUPTI_RUNTIME_TRACE_CBID_cudaMallocAsync_ptsz_v11020,
      CUPTI_RUNTIME_TRACE_CBID_cudaMallocAsync_v11020,
      CUPTI_RUNTIME_TRACE_CBID_cudaMallocHost_v3020,
      CUPTI_RUNTIME_TRACE_CBID_cudaMallocManaged_v6000,
      CUPTI_RUNTIME_TRACE_CBID_cudaMallocPitch_v3020,
      CUPTI_RUNTIME_TRACE_CBID_cudaMalloc_v3020,
      CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyPeer_v4000,
      CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyPeerAsync_v4000,
      CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy3D_v3020,
      CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy3D_ptds_v7000,
      CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy3DAsync_v3020,
      CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy3DAsync_ptsz_v7000,
      CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyFromSymbol_v3020,
      CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyFromSymbol_ptds_v7000,
      CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyFromSymbolAsync_v3020,
      CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyFromSymbolAsync_ptsz_v7000,
      CUPTI_RUNTIME_TRACE_CBID_cudaMemset2D_v3020,
      CUPTI_RUNTIME_TRACE_CBID_cudaMemset2D_ptds_v7000,
      CUPTI_RUNTIME_TRACE_CBID_cudaMemset2DAsync_v3020,
      CUPTI_RUNTIME_TRACE_CBID_cudaMemset2DAsync_ptsz_v7000,
      CUPTI_RUNTIME_TRACE_CBID_cudaMemset3D_v3020,
      CUPTI_RUNTIME_TRACE_CBID_cudaMemset3D_ptds_v7000,
      CUPTI_RUNTIME_TRACE_CBID_cudaMemset3DAsync_v3020,
      CUPTI_RUNTIME_TRACE_CBID_cudaMemset3DAsync_ptsz_v7000,
      CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy2DAsync_v3020,
      CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy2D_v3020,
      CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyToSymbolAsync_ptsz_v7000,
      CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyToSymbolAsync_v3020,
      CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyToSymbol_ptds_v7000,
      CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyToSymbol_v3020,
      CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyAsync_ptsz_v7000,
      CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyAsync_v3020,
      CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy_ptds_v7000,
      CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy_v3020,
      CUPTI_RUNTIME_TRACE_CBID_cudaMemsetAsync_ptsz_v7000,
      CUPTI_RUNTIME_TRACE_CBID_cudaMemsetAsync_v3020,
      CUPTI_RUNTIME_TRACE_CBID_cudaMemset_ptds_v7000,
      CUPTI_RUNTIME_TRACE_CBID_cudaMemset_v3020,
      CUPTI_RUNTIME_TRACE_CBID_cudaStreamCreateWithFlags_v5000,
      CUPTI_RUNTIME_TRACE_CBID_cudaStreamCreateWithPriority_v5050,
      CUPTI_RUNTIME_TRACE_CBID_cudaStreamCreate_v3020,
      CUPTI_RUNTIME_TRACE_CBID_cudaStreamQuery_ptsz_v7000,
      CUPTI_RUNTIME_TRACE_CBID_cudaStreamQuery_v3020,
      CUPTI_RUNTIME_TRACE_CBID_cudaStreamSynchronize_ptsz_v7000,
      CUPTI_RUNTIME_TRACE_CBID_cudaStreamSynchronize_v3020,
      CUPTI_RUNTIME_TRACE_CBID_cudaStreamWaitEvent_ptsz_v7000,
      CUPTI_RUNTIME_TRACE_CBID_cudaStreamWaitEvent_v3020,
      CUPTI_RUNTIME_TRACE_CBID_cudaStreamBeginCapture_v10000,
      CUPTI_RUNTIME_TRACE_CBID_cudaStreamBeginCapture_ptsz_v10000,
      CUPTI_RUNTIME_TRACE_CBID_cudaStreamBeginCaptureToGraph_v12030,
      CUPTI_RUNTIME_TRACE_CBID_cudaStreamBeginCaptureToGraph_ptsz_v12030,
      CUPTI_RUNTIME_TRACE_CBID_cudaStreamEndCapture_v10000,
      CUPTI_RUNTIME_TRACE_CBID_cudaStreamEndCapture_ptsz_v10000,
      CUPTI_RUNTIME_TRACE_CBID_cudaGraphInstantiate_v10000,
      CUPTI_RUNTIME_TRACE_CBID_cudaGraphInstantiate_v12000,
      CUPTI_RUNTIME_TRACE_CBID_cudaGraphInstantiateWithFlags_v11040,
      CUPTI_RUNTIME_TRACE_CBID_cudaGraphInstantiateWithParams_v12000,
      CUPTI_RUNTIME_TRACE_CBID_cudaGraphInstantiateWithParams_ptsz_v12000,
      CUPTI_RUNTIME_TRACE_CBID_cudaGraphLaunch_v10000,
      CUPTI_RUNTIME_TRACE_CBID_cudaGraphLaunch_ptsz_v10000,
  };
  if (p_cuptiEnableCallback && !debug) {
    for (size_t i = 0; i < sizeof runtime_ids / sizeof *runtime_ids; i++)
      p_cuptiEnableCallback(1, sub, CUPTI_CB_DOMAIN_RUNTIME_API,
                            runtime_ids[i]);
  } else {
    p_cuptiEnableDomain(1, sub, CUPTI_CB_DOMAIN_RUNTIME_API);
  }
  /* Of the driver API, likewise.  Kernel launches are taken from the
   * driver's launch calls only, whether the program or the runtime makes
   * them (a launch of the runtime API makes one): the runtime's launch
   * callbacks would cost two more callbacks per launch, 0.7 us on an H100
   * machine.  Those come through the module's own launch functions when
   * every launch reaches them (above), else through the driver's launch
   * callbacks. */
  static const CUpti_CallbackId driver_ids[] = {
      CUPTI_DRIVER_TRACE_CBID_cuMemAlloc_v2,
      CUPTI_DRIVER_TRACE_CBID_cuStreamSynchronize,
      CUPTI_DRIVER_TRACE_CBID_cuCtxSynchronize,
  };
  if (p_cuptiEnableCallback && !debug) {
    for (size_t i = 0; i < sizeof driver_ids / sizeof *driver_ids; i++)
      p_cuptiEnableCallback(1, sub, CUPTI_CB_DOMAIN_DRIVER_API, driver_ids[i]);
  } else {
    p_cuptiEnableDomain(1, sub, CUPTI_CB_DOMAIN_DRIVER_API);
    launch_cbs_on = 1;
  }
  if (p_cuptiEnableCallback)
    p_cuptiEnableCallback(1, sub, CUPTI_CB_DOMAIN_RESOURCE,
                          CUPTI_CBID_RESOURCE_MODULE_LOADED);
  __atomic_store_n(&subscribed, 1, __ATOMIC_RELEASE);
  if (__atomic_load_n(&launch_cbs_wanted, __ATOMIC_ACQUIRE) ||
      !launches_wrapped() || getenv("KKRACE_CUPTI_LAUNCH_CALLBACKS"))
    launch_cbs_enable();

}

/* CUDA_INJECTION64_PATH: the driver calls this at its initialization. */
__attribute__((visibility("default"))) int InitializeInjection(void) {
  pthread_once(&once, subscribe);
  return subscribed;
}

/* Linked or preloaded: subscribe before the program's first CUDA call. */
__attribute__((constructor)) static void kkr_cupti_init(void) {
  if (getenv("KKRACE_NO_CUPTI"))
    return;
  pthread_once(&once, subscribe);
}

/* Marks the library for the runtime. */
__attribute__((visibility("default"))) const char kkrace_cupti_marker[] =
    "kkrace CUPTI module";
