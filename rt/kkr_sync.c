/* Host threads and their synchronization, ordered as ThreadSanitizer orders
 * them (SEMANTICS.md, last row of the table): thread creation and join,
 * mutexes (plain, recursive, try, timed), reader-writer locks, condition
 * variables, barriers, semaphores, pthread_once (std::call_once), and
 * atomics with release and acquire semantics in host code.
 *
 * A release stores (or joins) the releasing thread's clock in the sync
 * object at that address, and the thread starts a new segment; an acquire
 * joins the object's clock into the acquiring thread's.  The interceptors
 * replace libc's for the whole process (kkrace.dynlist): std::thread,
 * std::mutex and std::condition_variable go through them.
 *
 * A lock orders host segments, not the work they submit: a kernel
 * dispatched inside a critical section is ordered for another thread only
 * by a fence (SEMANTICS.md). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <link.h>
#include <pthread.h>
#include <semaphore.h>
#include <string.h>
#include <time.h>

#include "kkr_dot.h"
#include "kkr_hash.h"
#include "kkr_rt.h"

/* ---- Sync objects ------------------------------------------------------- */

typedef struct {
  uintptr_t addr;
  kkr_spin lock;
  kkr_vc vc;
  uint32_t last_node; /* the segment that released last (for pictures) */
  const char *what;   /* "mutex", ... (for pictures) */
  UT_hash_handle hh;
} sync_obj;

static kkr_spin sync_lock;
static sync_obj *sync_table;

static sync_obj *sync_get(uintptr_t addr, int create) {
  kkr_spin_lock(&sync_lock);
  sync_obj *s;
  HASH_FIND(hh, sync_table, &addr, sizeof addr, s);
  if (!s && create) {
    s = kkr_alloc(sizeof *s);
    s->addr = addr;
    HASH_ADD(hh, sync_table, addr, sizeof addr, s);
  }
  kkr_spin_unlock(&sync_lock);
  return s;
}

static void sync_forget(uintptr_t addr) {
  kkr_spin_lock(&sync_lock);
  sync_obj *s;
  HASH_FIND(hh, sync_table, &addr, sizeof addr, s);
  if (s) {
    HASH_DEL(sync_table, s);
    kkr_vc_free(&s->vc);
    kkr_free(s, sizeof *s);
  }
  kkr_spin_unlock(&sync_lock);
}

/* The thread's state, when it is a host segment the runtime follows. */
static kkr_thread *host_thread(void) {
  if (!kkr_inited)
    return NULL;
  kkr_thread *t = kkr_thread_any();
  /* Inside a Kokkos operation, synchronization is Kokkos' own (the locks
   * of an instance, of a fence): the graph says what the operation orders,
   * not how this Kokkos build implements it.  Inside a kernel, strands are
   * ordered by the graph, not by real threads. */
  if (t->ignore || t->nops || t->abi.strand_depth || t->item_op)
    return NULL;
  return t;
}

/* The thread publishes what it knows at addr (store: replace the object's
 * clock; else join it), then starts a new segment. */
static void release_as(uintptr_t addr, int store, const char *what) {
  kkr_thread *t = host_thread();
  if (!t)
    return;
  sync_obj *s = sync_get(addr, 1);
  kkr_spin_lock(&s->lock);
  if (store)
    kkr_vc_assign(&s->vc, &t->vc);
  else
    kkr_vc_join(&s->vc, &t->vc);
  s->last_node = t->host_node;
  s->what = what;
  kkr_spin_unlock(&s->lock);
  kkr_host_tick(t);
}

static void release(uintptr_t addr, int store) {
  release_as(addr, store, NULL);
}

/* The thread learns what was published at addr. */
static void acquire(uintptr_t addr) {
  kkr_thread *t = host_thread();
  if (!t)
    return;
  sync_obj *s = sync_get(addr, 0);
  if (!s)
    return;
  kkr_spin_lock(&s->lock);
  kkr_vc_join(&t->vc, &s->vc);
  uint32_t from = s->last_node;
  const char *what = s->what;
  kkr_spin_unlock(&s->lock);
  kkr_horizon_host(t);
  kkr_dot_edge(from, t->host_node, KKR_DOT_SYNC, what ? what : "sync");
}

void kkr_sync_release(uintptr_t addr, int store) { release(addr, store); }
void kkr_sync_acquire(uintptr_t addr) { acquire(addr); }

/* ---- The real functions --------------------------------------------------- */

#define REAL(name) real_##name
#define DECLARE_REAL(ret, name, ...)                                          \
  static ret (*real_##name)(__VA_ARGS__);
#define RESOLVE(name)                                                         \
  do {                                                                        \
    if (!real_##name) {                                                       \
      real_##name = dlsym(RTLD_NEXT, #name);                                  \
      if (!real_##name)                                                       \
        kkr_die("cannot find libc's " #name);                                 \
    }                                                                         \
  } while (0)

DECLARE_REAL(int, pthread_create, pthread_t *, const pthread_attr_t *,
             void *(*)(void *), void *)
DECLARE_REAL(int, pthread_join, pthread_t, void **)
DECLARE_REAL(int, pthread_timedjoin_np, pthread_t, void **,
             const struct timespec *)
DECLARE_REAL(int, pthread_tryjoin_np, pthread_t, void **)
DECLARE_REAL(void, pthread_exit, void *)
DECLARE_REAL(int, pthread_mutex_lock, pthread_mutex_t *)
DECLARE_REAL(int, pthread_mutex_trylock, pthread_mutex_t *)
DECLARE_REAL(int, pthread_mutex_timedlock, pthread_mutex_t *,
             const struct timespec *)
DECLARE_REAL(int, pthread_mutex_clocklock, pthread_mutex_t *, clockid_t,
             const struct timespec *)
DECLARE_REAL(int, pthread_mutex_unlock, pthread_mutex_t *)
DECLARE_REAL(int, pthread_mutex_destroy, pthread_mutex_t *)
DECLARE_REAL(int, pthread_rwlock_rdlock, pthread_rwlock_t *)
DECLARE_REAL(int, pthread_rwlock_tryrdlock, pthread_rwlock_t *)
DECLARE_REAL(int, pthread_rwlock_timedrdlock, pthread_rwlock_t *,
             const struct timespec *)
DECLARE_REAL(int, pthread_rwlock_wrlock, pthread_rwlock_t *)
DECLARE_REAL(int, pthread_rwlock_trywrlock, pthread_rwlock_t *)
DECLARE_REAL(int, pthread_rwlock_timedwrlock, pthread_rwlock_t *,
             const struct timespec *)
DECLARE_REAL(int, pthread_rwlock_clockrdlock, pthread_rwlock_t *, clockid_t,
             const struct timespec *)
DECLARE_REAL(int, pthread_rwlock_clockwrlock, pthread_rwlock_t *, clockid_t,
             const struct timespec *)
DECLARE_REAL(int, pthread_rwlock_unlock, pthread_rwlock_t *)
DECLARE_REAL(int, pthread_cond_wait, pthread_cond_t *, pthread_mutex_t *)
DECLARE_REAL(int, pthread_cond_timedwait, pthread_cond_t *, pthread_mutex_t *,
             const struct timespec *)
DECLARE_REAL(int, pthread_cond_clockwait, pthread_cond_t *, pthread_mutex_t *,
             clockid_t, const struct timespec *)
DECLARE_REAL(int, pthread_barrier_wait, pthread_barrier_t *)
DECLARE_REAL(int, pthread_once, pthread_once_t *, void (*)(void))
DECLARE_REAL(int, pthread_spin_lock, pthread_spinlock_t *)
DECLARE_REAL(int, pthread_spin_trylock, pthread_spinlock_t *)
DECLARE_REAL(int, pthread_spin_unlock, pthread_spinlock_t *)
DECLARE_REAL(int, sem_post, sem_t *)
DECLARE_REAL(int, sem_wait, sem_t *)
DECLARE_REAL(int, sem_trywait, sem_t *)
DECLARE_REAL(int, sem_timedwait, sem_t *, const struct timespec *)
DECLARE_REAL(int, sem_clockwait, sem_t *, clockid_t, const struct timespec *)

/* ---- Libraries whose synchronization is their own ------------------------
 * The CUDA driver and runtime, CUPTI and kkrace's own modules lock mutexes
 * on every call (about five per kernel launch in the driver).  Those locks
 * are no synchronization the program may rely on: what CUDA orders, kkrace
 * models from its calls (cupti/), and an edge through a driver lock would
 * hide a race between two threads that both call CUDA.  Their calls go
 * straight to libc: no order, no lock graph, no wait for the watchdog.
 * Known by the library of the caller's return address (kkr_sync_caller). */

int kkr_pc_in_libraries(uintptr_t pc, const char *const *prefixes,
                        size_t n) {
  Dl_info info;
  if (!dladdr((void *)pc, &info) || !info.dli_fname)
    return 0;
  const char *base = strrchr(info.dli_fname, '/');
  base = base ? base + 1 : info.dli_fname;
  for (size_t i = 0; i < n; i++)
    if (!strncmp(base, prefixes[i], strlen(prefixes[i])))
      return 1;
  return 0;
}

int kkr_foreign_library_pc(uintptr_t pc) {
  static const char *const libs[] = {"libcuda.", "libcudart", "libcupti",
                                     "libnvidia-", "libkkrace"};
  return kkr_pc_in_libraries(pc, libs, KKR_ARRAY_SIZE(libs));
}

/* Kokkos' own library locks mutexes too: Kokkos 4's Serial keeps its
 * instances in a list under one mutex, which every Serial(NewInstance)
 * and every instance's destruction takes.  That lock is how this build of
 * Kokkos keeps its list, not an order the program may rely on (on CUDA or
 * OpenMP two threads' instances share no lock): an edge through it would
 * order one thread's kernels before another's only because the first
 * thread happened to be done before the second began.  Those calls lock
 * for real and the watchdog and the lock graph see them, but they order
 * nothing.  (The locks that Kokkos' headers take inside a dispatch or a
 * fence, in the program's own code, order nothing either: they come
 * inside a Kokkos operation, host_thread.) */
static int kokkos_library_pc(uintptr_t pc) {
  static const char *const libs[] = {"libkokkos", "libtrilinos_kokkos"};
  return kkr_pc_in_libraries(pc, libs, KKR_ARRAY_SIZE(libs));
}

/* Answered from the code segments of the libraries seen so far, each with
 * its answer, and the last few a thread asked about first: a kernel launch
 * locks about five of the driver's mutexes from libcuda's code, and a CUDA
 * runtime linked into the program passes three pthread_once from the
 * program's. */
#define CALLER_RECENT 4
#define CALLER_RANGES 64
typedef struct {
  uintptr_t lo, hi;
  int caller;
} caller_range;
static caller_range caller_ranges[CALLER_RANGES];
static uint32_t ncaller_ranges;
static kkr_spin caller_ranges_lock;
static __thread caller_range last_ranges[CALLER_RECENT]
    __attribute__((tls_model("initial-exec")));

static void caller_seen(const caller_range *r) {
  memmove(&last_ranges[1], &last_ranges[0],
          (CALLER_RECENT - 1) * sizeof last_ranges[0]);
  last_ranges[0] = *r;
}

typedef struct {
  uintptr_t pc, lo, hi;
} segment_find;

static int find_segment(struct dl_phdr_info *info, size_t size, void *arg) {
  (void)size;
  segment_find *f = arg;
  for (int i = 0; i < info->dlpi_phnum; i++) {
    const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
    uintptr_t lo = info->dlpi_addr + ph->p_vaddr;
    if (ph->p_type == PT_LOAD && f->pc - lo < ph->p_memsz) {
      f->lo = lo;
      f->hi = lo + ph->p_memsz;
      return 1;
    }
  }
  return 0;
}

static KKR_NOINLINE int caller_slow(uintptr_t pc) {
  uint32_t n = __atomic_load_n(&ncaller_ranges, __ATOMIC_ACQUIRE);
  for (uint32_t i = 0; i < n; i++)
    if (pc - caller_ranges[i].lo < caller_ranges[i].hi - caller_ranges[i].lo) {
      caller_seen(&caller_ranges[i]);
      return caller_ranges[i].caller;
    }
  int c = kkr_foreign_library_pc(pc) ? KKR_CALLER_FOREIGN
          : kokkos_library_pc(pc)    ? KKR_CALLER_KOKKOS
                                     : KKR_CALLER_PROGRAM;
  segment_find f = {pc, 0, 0};
  if (!dl_iterate_phdr(find_segment, &f))
    return c; /* (code outside any object: asked again next time) */
  caller_range r = {f.lo, f.hi, c};
  caller_seen(&r);
  kkr_spin_lock(&caller_ranges_lock);
  n = ncaller_ranges;
  if (n < CALLER_RANGES) {
    caller_ranges[n] = r;
    __atomic_store_n(&ncaller_ranges, n + 1, __ATOMIC_RELEASE);
  }
  kkr_spin_unlock(&caller_ranges_lock);
  return c;
}

int kkr_sync_caller(uintptr_t pc) {
  for (int i = 0; i < CALLER_RECENT; i++)
    if (pc - last_ranges[i].lo < last_ranges[i].hi - last_ranges[i].lo)
      return last_ranges[i].caller;
  return caller_slow(pc);
}

/* The interceptor's first line: a foreign caller's call goes to libc, and
 * so does Kokkos' own library's call of anything but a lock. */
#define FOREIGN_GOES_TO_LIBC(name, ...)                                       \
  do {                                                                        \
    RESOLVE(name);                                                            \
    if (kkr_sync_caller((uintptr_t)__builtin_return_address(0)) !=            \
        KKR_CALLER_PROGRAM)                                                   \
      return REAL(name)(__VA_ARGS__);                                         \
  } while (0)

/* The same for a lock or an unlock, which sets ordered: 0 when Kokkos'
 * library calls it (the lock is taken for real, and tracked, but orders
 * nothing). */
#define LOCK_CALLER(name, ordered, ...)                                       \
  RESOLVE(name);                                                              \
  int caller_ = kkr_sync_caller((uintptr_t)__builtin_return_address(0));      \
  if (caller_ == KKR_CALLER_FOREIGN)                                          \
    return REAL(name)(__VA_ARGS__);                                           \
  const int ordered = caller_ == KKR_CALLER_PROGRAM

/* ---- Threads -------------------------------------------------------------- */

typedef struct {
  void *(*fn)(void *);
  void *arg;
  kkr_vc vc;             /* the creator's clock at creation */
  uint32_t create_stack;
  uint32_t creator_node; /* the creating segment (for pictures) */
  uint32_t creator;      /* the creating thread's id */
} start_arg;

/* A thread ends: what it did is published for pthread_join. */
static void thread_finish(void) {
  kkr_thread *t = kkr_inited ? kkr_thread_any() : NULL;
  if (!t || t->info->finished)
    return;
  kkr_vc_assign(&t->info->final_vc, &t->vc);
  t->info->final_node = t->host_node;
  __atomic_store_n(&t->info->finished, 1, __ATOMIC_RELEASE);
}

static void *thread_start(void *p) {
  start_arg *sa = p;
  kkr_thread *t = kkr_thread_any();
  t->info->self = pthread_self();
  t->info->create_stack = sa->create_stack;
  t->info->creator = sa->creator;
  kkr_vc_join(&t->vc, &sa->vc);
  kkr_horizon_host(t);
  kkr_retire_unhold();
  kkr_dot_edge(sa->creator_node, t->host_node, KKR_DOT_SYNC, "create");
  void *(*fn)(void *) = sa->fn;
  void *arg = sa->arg;
  kkr_vc_free(&sa->vc);
  kkr_free(sa, sizeof *sa);
  void *ret = fn(arg);
  thread_finish();
  return ret;
}

int kkr_spawned;

int kkr_real_pthread_create(pthread_t *th, const pthread_attr_t *attr,
                            void *(*fn)(void *), void *arg) {
  RESOLVE(pthread_create);
  return REAL(pthread_create)(th, attr, fn, arg);
}

KKR_EXPORT int pthread_create(pthread_t *th, const pthread_attr_t *attr,
                              void *(*fn)(void *), void *arg) {
  RESOLVE(pthread_create);
  if (!kkr_inited)
    return REAL(pthread_create)(th, attr, fn, arg);
  kkr_thread *t = kkr_thread_any();
  start_arg *sa = kkr_alloc(sizeof *sa);
  sa->fn = fn;
  sa->arg = arg;
  uintptr_t pcs[64];
  /* (libunwind where it is: through libstdc++'s std::thread, which keeps
   * no frame pointers, to the program's frame.) */
  uint32_t n = kkr_unwind_here(t, (uintptr_t)__builtin_return_address(0),
                               (uintptr_t)__builtin_frame_address(0), pcs, 64);
  sa->create_stack = kkr_stack_put(pcs, n);
  kkr_vc_assign(&sa->vc, &t->vc);
  sa->creator_node = t->host_node;
  sa->creator = t->info->id;
  /* (kkr_mt: when the new thread runs instrumented code, if it does.
   * From now on, release and acquire atomics order threads.) */
  __atomic_store_n(&kkr_spawned, 1, __ATOMIC_RELEASE);
  if (!t->item_op)
    kkr_host_tick(t); /* the creator's later accesses are not the child's past */
  kkr_retire_hold(t->host_h);
  int r = REAL(pthread_create)(th, attr, thread_start, sa);
  if (r != 0) {
    kkr_retire_unhold();
    kkr_vc_free(&sa->vc);
    kkr_free(sa, sizeof *sa);
  }
  return r;
}

/* The joined thread's last clock, learned by the joiner. */
static void joined(pthread_t th) {
  kkr_thread *t = host_thread();
  if (!t)
    return;
  kkr_thread_info *ti = kkr_thread_info_of(th);
  if (!ti || !__atomic_load_n(&ti->finished, __ATOMIC_ACQUIRE))
    return;
  kkr_vc_join(&t->vc, &ti->final_vc);
  kkr_host_tick(t);
  kkr_dot_edge(ti->final_node, t->host_node, KKR_DOT_SYNC, "join");
}

static void join_wait_begin(pthread_t th, uintptr_t pc, uintptr_t fp) {
  if (!kkr_watchdog_enabled())
    return;
  /* The thread may not have started yet: the watchdog finds it later. */
  kkr_wait_begin(KKR_WAIT_JOIN, (uintptr_t)th, 0, pc, fp);
}

KKR_EXPORT int pthread_join(pthread_t th, void **ret) {
  RESOLVE(pthread_join);
  join_wait_begin(th, (uintptr_t)__builtin_return_address(0),
                  *(uintptr_t *)__builtin_frame_address(0));
  int r = REAL(pthread_join)(th, ret);
  kkr_wait_end();
  if (r == 0)
    joined(th);
  return r;
}

KKR_EXPORT int pthread_timedjoin_np(pthread_t th, void **ret,
                                    const struct timespec *abstime) {
  RESOLVE(pthread_timedjoin_np);
  join_wait_begin(th, (uintptr_t)__builtin_return_address(0),
                  *(uintptr_t *)__builtin_frame_address(0));
  int r = REAL(pthread_timedjoin_np)(th, ret, abstime);
  kkr_wait_end();
  if (r == 0)
    joined(th);
  return r;
}

KKR_EXPORT int pthread_tryjoin_np(pthread_t th, void **ret) {
  RESOLVE(pthread_tryjoin_np);
  int r = REAL(pthread_tryjoin_np)(th, ret);
  if (r == 0)
    joined(th);
  return r;
}

KKR_EXPORT void pthread_exit(void *ret) {
  RESOLVE(pthread_exit);
  thread_finish();
  REAL(pthread_exit)(ret);
  __builtin_unreachable();
}

/* ---- Mutexes and friends -------------------------------------------------- */

/* Each lock call: the lock graph before it (blocking calls), the wait the
 * watchdog sees while it blocks, and after it succeeds the order (acquire),
 * the locks the thread holds and the owner. */
#define LOCK_LIKE(name, type, what, blocking, wait)                           \
  KKR_EXPORT int name(type *m KKR_EXTRA_PARAMS_##name) {                      \
    LOCK_CALLER(name, ordered, m KKR_EXTRA_ARGS_##name);                      \
    uintptr_t pc = (uintptr_t)__builtin_return_address(0);                    \
    uintptr_t fp = *(uintptr_t *)__builtin_frame_address(0);                  \
    uint32_t st = kkr_dl_before_lock((uintptr_t)m, what, blocking, pc, fp);   \
    if (wait)                                                                 \
      kkr_wait_begin(wait, (uintptr_t)m, 0, pc, fp);                          \
    int r = REAL(name)(m KKR_EXTRA_ARGS_##name);                              \
    if (wait)                                                                 \
      kkr_wait_end();                                                         \
    if (r == 0) {                                                             \
      if (ordered)                                                            \
        acquire((uintptr_t)m);                                                \
      kkr_dl_locked((uintptr_t)m, st);                                        \
      kkr_owner_set((uintptr_t)m, what, pc, fp);                              \
    }                                                                         \
    return r;                                                                 \
  }
#define KKR_EXTRA_PARAMS_pthread_mutex_lock
#define KKR_EXTRA_ARGS_pthread_mutex_lock
#define KKR_EXTRA_PARAMS_pthread_mutex_trylock
#define KKR_EXTRA_ARGS_pthread_mutex_trylock
#define KKR_EXTRA_PARAMS_pthread_mutex_timedlock , const struct timespec *ts
#define KKR_EXTRA_ARGS_pthread_mutex_timedlock , ts
#define KKR_EXTRA_PARAMS_pthread_mutex_clocklock                               \
  , clockid_t clk, const struct timespec *ts
#define KKR_EXTRA_ARGS_pthread_mutex_clocklock , clk, ts
#define KKR_EXTRA_PARAMS_pthread_rwlock_rdlock
#define KKR_EXTRA_ARGS_pthread_rwlock_rdlock
#define KKR_EXTRA_PARAMS_pthread_rwlock_tryrdlock
#define KKR_EXTRA_ARGS_pthread_rwlock_tryrdlock
#define KKR_EXTRA_PARAMS_pthread_rwlock_timedrdlock , const struct timespec *ts
#define KKR_EXTRA_ARGS_pthread_rwlock_timedrdlock , ts
#define KKR_EXTRA_PARAMS_pthread_rwlock_wrlock
#define KKR_EXTRA_ARGS_pthread_rwlock_wrlock
#define KKR_EXTRA_PARAMS_pthread_rwlock_trywrlock
#define KKR_EXTRA_ARGS_pthread_rwlock_trywrlock
#define KKR_EXTRA_PARAMS_pthread_rwlock_timedwrlock , const struct timespec *ts
#define KKR_EXTRA_ARGS_pthread_rwlock_timedwrlock , ts
#define KKR_EXTRA_PARAMS_pthread_rwlock_clockrdlock                          \
  , clockid_t clk, const struct timespec *ts
#define KKR_EXTRA_ARGS_pthread_rwlock_clockrdlock , clk, ts
#define KKR_EXTRA_PARAMS_pthread_rwlock_clockwrlock                          \
  , clockid_t clk, const struct timespec *ts
#define KKR_EXTRA_ARGS_pthread_rwlock_clockwrlock , clk, ts
#define KKR_EXTRA_PARAMS_pthread_spin_lock
#define KKR_EXTRA_ARGS_pthread_spin_lock
#define KKR_EXTRA_PARAMS_pthread_spin_trylock
#define KKR_EXTRA_ARGS_pthread_spin_trylock

LOCK_LIKE(pthread_mutex_lock, pthread_mutex_t, "mutex", 1, KKR_WAIT_MUTEX)
LOCK_LIKE(pthread_mutex_trylock, pthread_mutex_t, "mutex", 0, 0)
LOCK_LIKE(pthread_mutex_timedlock, pthread_mutex_t, "mutex", 1, KKR_WAIT_MUTEX)
LOCK_LIKE(pthread_mutex_clocklock, pthread_mutex_t, "mutex", 1, KKR_WAIT_MUTEX)
LOCK_LIKE(pthread_rwlock_rdlock, pthread_rwlock_t, "rwlock", 1, KKR_WAIT_RDLOCK)
LOCK_LIKE(pthread_rwlock_tryrdlock, pthread_rwlock_t, "rwlock", 0, 0)
LOCK_LIKE(pthread_rwlock_timedrdlock, pthread_rwlock_t, "rwlock", 1,
          KKR_WAIT_RDLOCK)
LOCK_LIKE(pthread_rwlock_wrlock, pthread_rwlock_t, "rwlock", 1, KKR_WAIT_WRLOCK)
LOCK_LIKE(pthread_rwlock_trywrlock, pthread_rwlock_t, "rwlock", 0, 0)
LOCK_LIKE(pthread_rwlock_timedwrlock, pthread_rwlock_t, "rwlock", 1,
          KKR_WAIT_WRLOCK)
LOCK_LIKE(pthread_rwlock_clockrdlock, pthread_rwlock_t, "rwlock", 1,
          KKR_WAIT_RDLOCK)
LOCK_LIKE(pthread_rwlock_clockwrlock, pthread_rwlock_t, "rwlock", 1,
          KKR_WAIT_WRLOCK)
LOCK_LIKE(pthread_spin_lock, pthread_spinlock_t, "spin lock", 1, 0)
LOCK_LIKE(pthread_spin_trylock, pthread_spinlock_t, "spin lock", 0, 0)

KKR_EXPORT int pthread_mutex_unlock(pthread_mutex_t *m) {
  LOCK_CALLER(pthread_mutex_unlock, ordered, m);
  if (ordered)
    release_as((uintptr_t)m, 1, "mutex");
  kkr_dl_unlock((uintptr_t)m);
  kkr_owner_clear((uintptr_t)m);
  return REAL(pthread_mutex_unlock)(m);
}

KKR_EXPORT int pthread_mutex_destroy(pthread_mutex_t *m) {
  RESOLVE(pthread_mutex_destroy);
  int r = REAL(pthread_mutex_destroy)(m);
  if (r == 0 && kkr_inited) {
    sync_forget((uintptr_t)m);
    kkr_dl_forget((uintptr_t)m, (uintptr_t)m + 1);
  }
  return r;
}

/* Readers release by joining (several may hold the lock); a writer's
 * release replaces. */
KKR_EXPORT int pthread_rwlock_unlock(pthread_rwlock_t *l) {
  LOCK_CALLER(pthread_rwlock_unlock, ordered, l);
  if (ordered)
    release_as((uintptr_t)l, 0, "rwlock");
  kkr_dl_unlock((uintptr_t)l);
  kkr_owner_clear((uintptr_t)l);
  return REAL(pthread_rwlock_unlock)(l);
}

KKR_EXPORT int pthread_spin_unlock(pthread_spinlock_t *l) {
  LOCK_CALLER(pthread_spin_unlock, ordered, l);
  if (ordered)
    release((uintptr_t)l, 1);
  kkr_dl_unlock((uintptr_t)l);
  kkr_owner_clear((uintptr_t)l);
  return REAL(pthread_spin_unlock)(l);
}

/* ---- Condition variables --------------------------------------------------
 * Waiting unlocks the mutex and locks it again: a release and an acquire of
 * the mutex.  The signal itself orders nothing (as in ThreadSanitizer); the
 * mutex the waiter relocks does. */

/* While it waits, the thread does not hold the mutex. */
#define COND_WAIT_BEGIN()                                                     \
  uintptr_t pc = (uintptr_t)__builtin_return_address(0);                      \
  uintptr_t fp = *(uintptr_t *)__builtin_frame_address(0);                    \
  kkr_owner_clear((uintptr_t)m);                                              \
  kkr_wait_begin(KKR_WAIT_COND, (uintptr_t)c, 0, pc, fp)
#define COND_WAIT_END()                                                       \
  kkr_wait_end();                                                             \
  kkr_owner_set((uintptr_t)m, "mutex", pc, fp)

KKR_EXPORT int pthread_cond_wait(pthread_cond_t *c, pthread_mutex_t *m) {
  FOREIGN_GOES_TO_LIBC(pthread_cond_wait, c, m);
  release((uintptr_t)m, 1);
  COND_WAIT_BEGIN();
  int r = REAL(pthread_cond_wait)(c, m);
  COND_WAIT_END();
  acquire((uintptr_t)m);
  return r;
}

KKR_EXPORT int pthread_cond_timedwait(pthread_cond_t *c, pthread_mutex_t *m,
                                      const struct timespec *ts) {
  FOREIGN_GOES_TO_LIBC(pthread_cond_timedwait, c, m, ts);
  release((uintptr_t)m, 1);
  COND_WAIT_BEGIN();
  int r = REAL(pthread_cond_timedwait)(c, m, ts);
  COND_WAIT_END();
  acquire((uintptr_t)m);
  return r;
}

KKR_EXPORT int pthread_cond_clockwait(pthread_cond_t *c, pthread_mutex_t *m,
                                      clockid_t clk, const struct timespec *ts) {
  FOREIGN_GOES_TO_LIBC(pthread_cond_clockwait, c, m, clk, ts);
  release((uintptr_t)m, 1);
  COND_WAIT_BEGIN();
  int r = REAL(pthread_cond_clockwait)(c, m, clk, ts);
  COND_WAIT_END();
  acquire((uintptr_t)m);
  return r;
}

/* ---- Barriers, semaphores, once ------------------------------------------- */

KKR_EXPORT int pthread_barrier_wait(pthread_barrier_t *b) {
  FOREIGN_GOES_TO_LIBC(pthread_barrier_wait, b);
  release_as((uintptr_t)b, 0, "barrier");
  kkr_wait_begin(KKR_WAIT_BARRIER, (uintptr_t)b, 0,
                 (uintptr_t)__builtin_return_address(0),
                 *(uintptr_t *)__builtin_frame_address(0));
  int r = REAL(pthread_barrier_wait)(b);
  kkr_wait_end();
  acquire((uintptr_t)b);
  return r;
}

KKR_EXPORT int sem_post(sem_t *s) {
  FOREIGN_GOES_TO_LIBC(sem_post, s);
  release_as((uintptr_t)s, 0, "semaphore");
  return REAL(sem_post)(s);
}

KKR_EXPORT int sem_wait(sem_t *s) {
  FOREIGN_GOES_TO_LIBC(sem_wait, s);
  kkr_wait_begin(KKR_WAIT_SEM, (uintptr_t)s, 0,
                 (uintptr_t)__builtin_return_address(0),
                 *(uintptr_t *)__builtin_frame_address(0));
  int r = REAL(sem_wait)(s);
  kkr_wait_end();
  if (r == 0)
    acquire((uintptr_t)s);
  return r;
}

KKR_EXPORT int sem_trywait(sem_t *s) {
  FOREIGN_GOES_TO_LIBC(sem_trywait, s);
  int r = REAL(sem_trywait)(s);
  if (r == 0)
    acquire((uintptr_t)s);
  return r;
}

KKR_EXPORT int sem_timedwait(sem_t *s, const struct timespec *ts) {
  FOREIGN_GOES_TO_LIBC(sem_timedwait, s, ts);
  int r = REAL(sem_timedwait)(s, ts);
  if (r == 0)
    acquire((uintptr_t)s);
  return r;
}

KKR_EXPORT int sem_clockwait(sem_t *s, clockid_t clk, const struct timespec *ts) {
  FOREIGN_GOES_TO_LIBC(sem_clockwait, s, clk, ts);
  int r = REAL(sem_clockwait)(s, clk, ts);
  if (r == 0)
    acquire((uintptr_t)s);
  return r;
}

/* pthread_once (and std::call_once, which uses it): the thread that ran
 * the routine releases when it returns; every caller acquires. */
static __thread pthread_once_t *once_current;
static __thread void (*once_routine)(void);

static void once_trampoline(void) {
  pthread_once_t *o = once_current;
  void (*fn)(void) = once_routine;
  fn();
  release((uintptr_t)o, 0);
}

/* The once objects this thread passed after their routine had run (it
 * acquired their release then): passing one again learns nothing new, as
 * its routine runs once.  A statically linked CUDA runtime passes three
 * per kernel launch.  (glibc: bit 1 of the object is set once done; a
 * reinitialized object at the same address reads 0 and takes the full
 * path.) */
#define ONCE_SEEN 16
static __thread pthread_once_t *once_seen[ONCE_SEEN];
/* (Hashed: objects 64 bytes apart, as a runtime's may be, would share the
 * slots of their low bits.) */
#define ONCE_SLOT(o) (((uint64_t)(uintptr_t)(o) * 0x9E3779B97F4A7C15ull) >> 60)
_Static_assert(ONCE_SEEN == 16, "ONCE_SLOT takes 4 bits");

KKR_EXPORT int pthread_once(pthread_once_t *o, void (*fn)(void)) {
  FOREIGN_GOES_TO_LIBC(pthread_once, o, fn);
#ifdef __GLIBC__
  if (once_seen[ONCE_SLOT(o)] == o &&
      (__atomic_load_n((const int *)o, __ATOMIC_ACQUIRE) & 2))
    return 0;
#endif
  pthread_once_t *saved_o = once_current;
  void (*saved_fn)(void) = once_routine;
  once_current = o;
  once_routine = fn;
  int r = REAL(pthread_once)(o, once_trampoline);
  once_current = saved_o;
  once_routine = saved_fn;
  if (r == 0) {
    acquire((uintptr_t)o);
    once_seen[ONCE_SLOT(o)] = o;
  }
  return r;
}

/* ---- Atomics in host code -------------------------------------------------
 * Called by the access check for atomic instructions with release or
 * acquire ordering (kkr_abi.h KKR_AF_*): relaxed atomics order nothing. */
void kkr_sync_atomic(uintptr_t addr, uint32_t aflags) {
  if (aflags & KKR_AF_RELEASE)
    release(addr, !(aflags & KKR_AF_READ));
}

KKR_EXPORT void __kkrace_atomic_acquire(void *p) {
  if (__atomic_load_n(&kkr_spawned, __ATOMIC_ACQUIRE))
    acquire((uintptr_t)p);
}
