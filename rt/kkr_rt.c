/* Runtime start-up and shutdown: options, the main thread, threads created
 * later, the exit status, and the crash paths that must not lose reports. */
#define _GNU_SOURCE
#include <link.h>

#include "kkr_rt.h"

#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "kkr_report.h"

int kkr_inited;
uintptr_t kkr_text_base;
uint32_t kkr_nthreads;
static pid_t kkr_pid;

void kkr_tools_setup(void);

static kkr_spin threads_lock;
static kkr_thread_info *all_threads;

uint32_t kkr_threads_snapshot(kkr_thread_info **out, uint32_t max) {
  uint32_t n = 0;
  kkr_spin_lock(&threads_lock);
  for (kkr_thread_info *i = all_threads; i && n < max; i = i->next)
    if (!__atomic_load_n(&i->finished, __ATOMIC_ACQUIRE))
      out[n++] = i;
  kkr_spin_unlock(&threads_lock);
  return n;
}

uint32_t kkr_thread_created(uint32_t id, uint32_t *creator) {
  uint32_t stack = 0;
  *creator = 0;
  kkr_spin_lock(&threads_lock);
  for (kkr_thread_info *i = all_threads; i; i = i->next)
    if (i->id == id) {
      stack = i->create_stack;
      *creator = i->creator;
      break;
    }
  kkr_spin_unlock(&threads_lock);
  return stack;
}

_Noreturn void kkr_exit_now(int status) {
  syscall(SYS_exit_group, status);
  __builtin_unreachable();
}

kkr_thread_info *kkr_thread_info_of(pthread_t th) {
  kkr_spin_lock(&threads_lock);
  kkr_thread_info *i = all_threads;
  while (i && !pthread_equal(i->self, th))
    i = i->next;
  kkr_spin_unlock(&threads_lock);
  return i;
}

kkr_thread_info *kkr_thread_of_stack(uintptr_t addr) {
  kkr_thread_info *found = NULL;
  kkr_spin_lock(&threads_lock);
  for (kkr_thread_info *i = all_threads; i; i = i->next)
    if (addr >= i->stack_lo && addr < i->stack_hi &&
        (!found || !__atomic_load_n(&i->finished, __ATOMIC_ACQUIRE)))
      found = i;
  kkr_spin_unlock(&threads_lock);
  return found;
}

#ifndef KKRACE_PRELOAD
extern char __executable_start[], etext[];
#endif

uintptr_t kkr_text_end;

/* The main executable's image and the end of its code: linker symbols when
 * the runtime is part of it, else (preloaded) its program headers. */
static int main_image(struct dl_phdr_info *info, size_t size, void *arg) {
  (void)size;
  (void)arg;
  uintptr_t lo = UINTPTR_MAX, hi = 0;
  for (int i = 0; i < info->dlpi_phnum; i++) {
    const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
    if (ph->p_type != PT_LOAD)
      continue;
    uintptr_t a = info->dlpi_addr + ph->p_vaddr;
    if (a < lo)
      lo = a;
    if ((ph->p_flags & PF_X) && a + ph->p_memsz > hi)
      hi = a + ph->p_memsz;
  }
  kkr_text_base = lo;
  kkr_text_end = hi;
  return 1; /* the first object is the program */
}

static void find_program_image(void) {
#ifdef KKRACE_PRELOAD
  dl_iterate_phdr(main_image, NULL);
#else
  (void)main_image;
  kkr_text_base = (uintptr_t)__executable_start;
  kkr_text_end = (uintptr_t)etext;
#endif
}

static void thread_stack_bounds(kkr_thread *t) {
  pthread_attr_t attr;
  void *addr;
  size_t size;
  if (pthread_getattr_np(pthread_self(), &attr) == 0) {
    if (pthread_attr_getstack(&attr, &addr, &size) == 0) {
      t->stack_lo = t->info->stack_lo = (uintptr_t)addr;
      t->stack_hi = t->info->stack_hi = (uintptr_t)addr + size;
    }
    pthread_attr_destroy(&attr);
  }
}

/* A thread that kkrace knows (it saw it created, or it synchronized) but
 * that has not run instrumented code yet: an MPI library's progress thread,
 * say.  Only when a second thread runs instrumented code does the runtime
 * take the locked paths (kkr_mt). */
static __thread kkr_thread *kkr_tls_idle;
static uint32_t active_threads;

static void activate(kkr_thread *t) {
  (void)t;
  if (__atomic_fetch_add(&active_threads, 1, __ATOMIC_ACQ_REL) >= 1)
    __atomic_store_n(&kkr_mt, 1, __ATOMIC_RELEASE);
}

static kkr_thread *thread_new(void);

kkr_thread *kkr_thread_any(void) {
  if (kkr_tls)
    return kkr_tls;
  if (kkr_tls_idle)
    return kkr_tls_idle;
  if (!kkr_inited && !kkr_dir)
    kkr_init();
  if (kkr_tls)
    return kkr_tls;
  kkr_thread *t = thread_new();
  kkr_tls = NULL;
  kkr_tls_idle = t;
  return t;
}

/* A thread's state, made at its first event.  Threads that kkrace saw being
 * created inherit their creator's clock in kkr_sync.c. */
kkr_thread *kkr_thread_slow(void) {
  if (kkr_tls)
    return kkr_tls;
  if (kkr_tls_idle) { /* its first instrumented code */
    kkr_thread *t = kkr_tls_idle;
    kkr_tls_idle = NULL;
    kkr_tls = t;
    activate(t);
    return t;
  }
  if (!kkr_inited && !kkr_dir)
    kkr_init();
  if (kkr_tls)
    return kkr_tls;
  kkr_thread *t = thread_new();
  activate(t);
  return t;
}

static kkr_thread *thread_new(void) {
  kkr_thread *t = kkr_alloc(sizeof *t);
  t->ignore = 1; /* getattr may allocate and free */
  kkr_tls = t;
  t->info = kkr_alloc(sizeof(kkr_thread_info));
  t->info->id = __atomic_fetch_add(&kkr_nthreads, 1, __ATOMIC_RELAXED);
  t->info->self = pthread_self();
  t->info->tid = (int)syscall(SYS_gettid);
  t->info->has_cpu_clock =
      pthread_getcpuclockid(pthread_self(), &t->info->cpu_clock) == 0;
  kkr_spin_lock(&threads_lock);
  t->info->next = all_threads;
  all_threads = t->info;
  kkr_spin_unlock(&threads_lock);
  kkr_timeline *tl = kkr_timeline_new(KKR_TL_HOST, t->info, NULL);
  t->info->tl = tl->id;
  t->info->sites = kkr_host_sites();
  kkr_vc_set(&t->vc, tl->id, 1);
  t->host_node = kkr_node_new(tl->id, 1);
  thread_stack_bounds(t);
  kkr_node_host(t);
  t->ignore = 0;
  return t;
}

static void atexit_handler(void) {
  kkr_finalize();
  if (getpid() == kkr_pid && kkr_reports_total() > 0 &&
      kkr_flags.exitcode != 0) {
    fflush(NULL);
    syscall(SYS_exit_group, (int)kkr_flags.exitcode);
  }
}

void kkr_finalize(void) {
  if (!kkr_inited || getpid() != kkr_pid)
    return;
  kkr_thread *t = kkr_tls;
  if (t)
    t->ignore++;
  kkr_report_finish(); /* once per process */
}

/* The program is dying of a signal (a crash, or killed: a CI job's timeout
 * sends SIGTERM, a user's Ctrl-C SIGINT): print what is pending and write
 * the report files, then die as it would have. */
static struct sigaction old_actions[32];
static const int crash_signals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT,
                                    SIGTERM, SIGINT, SIGHUP};

static void crash_handler(int sig, siginfo_t *info, void *ctx) {
  (void)info;
  (void)ctx;
  static int in_handler;
  if (!__atomic_exchange_n(&in_handler, 1, __ATOMIC_ACQ_REL)) {
    /* (Ended from outside, by mpirun's or a CI job's SIGTERM, say: no
     * word unless there is something to print.) */
    int ended = sig == SIGTERM || sig == SIGINT || sig == SIGHUP;
    /* A thread printing reports (the hang watchdog, as mpirun ends the
     * job) finishes them first: text and files whole. */
    for (int i = 0; ended && i < 300 && kkr_report_busy(); i++) {
      struct timespec ts = {0, 10000000};
      nanosleep(&ts, NULL);
    }
    if (!ended || kkr_reports_pending)
      kkr_warn("the program received signal %d (%s); printing the reports "
               "found so far",
               sig, strsignal(sig));
    kkr_finalize();
  }
  sigaction(sig, &old_actions[sig], NULL);
  raise(sig);
}

void kkr_install_crash_handlers(void) {
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_sigaction = crash_handler;
  sa.sa_flags = SA_SIGINFO | SA_RESETHAND | SA_NODEFER;
  sigemptyset(&sa.sa_mask);
  for (size_t i = 0; i < KKR_ARRAY_SIZE(crash_signals); i++) {
    int sig = crash_signals[i];
    struct sigaction cur;
    if (sigaction(sig, NULL, &cur) == 0 && cur.sa_handler == SIG_DFL &&
        !(cur.sa_flags & SA_SIGINFO)) {
      old_actions[sig] = cur;
      sigaction(sig, &sa, NULL);
    }
  }
}

/* _exit skips the exit handlers: report first. */
KKR_EXPORT void _exit(int status) {
  kkr_finalize();
  if (kkr_inited && getpid() == kkr_pid && kkr_reports_total() > 0 &&
      kkr_flags.exitcode != 0)
    status = (int)kkr_flags.exitcode;
  syscall(SYS_exit_group, status);
  __builtin_unreachable();
}

KKR_EXPORT void _Exit(int status) { _exit(status); }

/* A forked child is a process of its own: it reports what it finds and its
 * exit status says whether it found anything. */
int kkr_rank = -1;

/* The process's rank when an MPI launcher started it (-1: none). */
static int detect_rank(void) {
  static const char *const vars[] = {"OMPI_COMM_WORLD_RANK", "PMIX_RANK",
                                     "PMI_RANK", "MV2_COMM_WORLD_RANK",
                                     "SLURM_PROCID"};
  for (size_t i = 0; i < KKR_ARRAY_SIZE(vars); i++) {
    const char *v = getenv(vars[i]);
    if (v && *v)
      return atoi(v);
  }
  return -1;
}

/* Output paths: %p is the process id, %r the MPI rank (0 without MPI), so
 * that several processes of one run write files of their own. */
static const char *expand_path(const char *path) {
  if (!path || !strchr(path, '%'))
    return path;
  char out[4096];
  size_t n = 0;
  for (const char *c = path; *c && n + 24 < sizeof out; c++) {
    if (c[0] == '%' && c[1] == 'p') {
      n += (size_t)snprintf(out + n, sizeof out - n, "%d", (int)getpid());
      c++;
    } else if (c[0] == '%' && c[1] == 'r') {
      n += (size_t)snprintf(out + n, sizeof out - n, "%d",
                            kkr_rank < 0 ? 0 : kkr_rank);
      c++;
    } else {
      out[n++] = *c;
    }
  }
  out[n] = 0;
  return kkr_intern(out);
}

static void after_fork_child(void) {
  kkr_pid = getpid();
  kkr_report_forget_counts();
}

/* Runs before the program's own constructors. */
__attribute__((constructor(101))) void kkr_init(void) {
  if (kkr_inited || kkr_dir)
    return;
  kkr_shadow_init();
  kkr_flags_defaults(&kkr_flags);
  const char *env = getenv("KKRACE_OPTIONS");
  char err[512];
  if (env && kkr_flags_parse(&kkr_flags, env, err, sizeof err))
    kkr_die("%s", err);
  if (kkr_flags.help)
    kkr_flags_print_help(2);
  kkr_rank = detect_rank();
  kkr_flags.json_path = expand_path(kkr_flags.json_path);
  kkr_flags.sarif_path = expand_path(kkr_flags.sarif_path);
  kkr_flags.graph_path = expand_path(kkr_flags.graph_path);
  kkr_flags.gpu_trace = expand_path(kkr_flags.gpu_trace);
  find_program_image();
  kkr_pid = getpid();
  kkr_report_init();
  kkr_tools_setup();
  kkr_gpu_init();
  if (kkr_flags.handle_crash)
    kkr_install_crash_handlers();
  atexit(atexit_handler);
  at_quick_exit(atexit_handler);
  pthread_atfork(NULL, NULL, after_fork_child);
  kkr_inited = 1;
  kkr_thread_slow();
  kkr_watchdog_start();
}
