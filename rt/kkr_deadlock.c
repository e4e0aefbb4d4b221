/* Deadlocks (SEMANTICS.md, "Deadlocks"), found before they hang where
 * possible, diagnosed when they do:
 *
 * - Team collectives (team_barrier, team_reduce, ...) that not every thread
 *   of a team reaches: inside a nested loop or single (kkr_kokkos.c), or
 *   behind a branch on team_rank() (the pass finds those branches).
 *
 * - Fences and dispatches inside kernels.  The MiniKokkos calculus is
 *   deadlock-free only because fences may not run inside parallel regions;
 *   Kokkos forbids them too, and the host backends of Kokkos 4.4 and later
 *   lock the instance during a kernel, so a fence inside one waits forever.
 *
 * - Lock-order inversions.  The lock graph has an edge A -> B when a thread
 *   acquires B while holding A; a cycle is a potential deadlock, reported
 *   when the edge that closes it is added (before the lock blocks), with
 *   the stacks where each edge was made, as ThreadSanitizer does.  An
 *   instance's pending work is a node too: a kernel on Q that takes L adds
 *   Q -> L (the kernel holds Q's fence back while it waits for L), and a
 *   thread that fences Q while holding L adds L -> Q.  A global fence waits
 *   for every instance: "all instances" is one more node.
 *
 * - Hangs (hang_timeout_ms).  Each thread says what it waits for while it
 *   blocks in a call kkrace intercepts; a watchdog thread declares a hang
 *   when no thread has made progress for the timeout (every thread blocked,
 *   or using no CPU time), prints the wait-for graph and its cycle, and
 *   exits with exitcode. */
#define _GNU_SOURCE
#include <pthread.h>
#include <sys/stat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "kkr_hash.h"
#include "kkr_report.h"
#include <fcntl.h>
#include <sys/syscall.h>
#include "kkr_rt.h"

/* ---- Fences inside kernels ---------------------------------------------- */

void kkr_deadlock_fence_in_kernel(kkr_thread *t, kkr_op *op,
                                  const char *subkind) {
  if (!kkr_flags.detect_deadlocks)
    return;
  kkr_report_fence_in_kernel(t, op, op->pc, op->fp, subkind);
}

/* ---- Divergent team barriers --------------------------------------------- */

/* The pass calls this before a branch on the thread's team_rank() that
 * sends the threads of a team different ways to a team collective (a
 * barrier inside a nested loop or a single is found where it is called,
 * kkr_kokkos.c).  Serial runs one thread per team, which takes one of the
 * ways; the others never run, so the branch itself is the report. */
KKR_EXPORT void __kkrace_team_branch(void *name, void *where) {
  kkr_thread *t = kkr_tls;
  if (!t || t->ignore || !t->abi.strand_depth || !kkr_in_team_item(t) ||
      !kkr_flags.detect_deadlocks)
    return;
  kkr_report_divergent_branch(t, (uintptr_t)__builtin_return_address(0),
                              *(uintptr_t *)__builtin_frame_address(0),
                              name, where);
}

/* ---- The lock graph ------------------------------------------------------ */

enum { DL_LOCK, DL_INSTANCE, DL_ALL };

struct dl_node;
typedef struct dl_edge {
  struct dl_node *to;
  uint32_t held_stack; /* where the source was acquired (or the kernel
                          submitted) */
  uint32_t acq_stack;  /* where the target was acquired (or fenced) */
  uint32_t thread;
  struct dl_edge *next;
} dl_edge;

typedef struct dl_node {
  uintptr_t addr; /* the lock; instances: the kkr_instance | 1; all: 1 */
  uint8_t kind;   /* DL_* */
  const char *what; /* "mutex", ... */
  kkr_instance *inst;
  dl_edge *out;
  uint32_t name;  /* M<name> in reports, in order of first use */
  uint32_t owner; /* thread id + 1 of the holder (watchdog); 0: free */
  uint32_t owner_stack;
  uint32_t visit;
  dl_edge *via;   /* DFS: the edge that reached it */
  UT_hash_handle hh;
} dl_node;

static kkr_spin dl_lock;
static __thread int dl_busy; /* this thread holds dl_lock */
static dl_node *dl_nodes;

static void dl_acquire(void) {
  kkr_spin_lock(&dl_lock);
  dl_busy = 1;
}

static void dl_release(void) {
  dl_busy = 0;
  kkr_spin_unlock(&dl_lock);
}
static uint32_t dl_count, dl_visit;

typedef struct {
  uintptr_t addr;
  uint32_t stack;
  uint32_t count;
} dl_held;

#define DL_MAX_HELD 32
static __thread dl_held held[DL_MAX_HELD];
static __thread uint32_t nheld;

/* Locks the program takes (on the host or in a kernel), not Kokkos'. */
static kkr_thread *user_thread(void) {
  if (!kkr_inited)
    return NULL;
  kkr_thread *t = kkr_thread_any();
  if (!t || t->ignore)
    return NULL;
  if (t->abi.strand_depth)
    return t->item_op && t->nops && &t->ops[t->nops - 1] == t->item_op ? t
                                                                       : NULL;
  return t->nops || t->item_op ? NULL : t;
}

static dl_node *node_get(uintptr_t addr, uint8_t kind, const char *what) {
  dl_node *n;
  HASH_FIND(hh, dl_nodes, &addr, sizeof addr, n);
  if (!n) {
    n = kkr_alloc(sizeof *n);
    n->addr = addr;
    n->kind = kind;
    n->what = what;
    n->name = ++dl_count;
    HASH_ADD(hh, dl_nodes, addr, sizeof addr, n);
  }
  return n;
}

static uint32_t here(kkr_thread *t, uintptr_t pc, uintptr_t fp) {
  uintptr_t pcs[32];
  uint32_t n = kkr_unwind_fp(t, pc, fp, pcs, 32);
  return kkr_stack_put(pcs, n);
}

/* The same through libunwind, which crosses libraries built without frame
 * pointers (std::thread::join is in libstdc++): for waits, which block
 * anyway. */
static uint32_t here_unwind(kkr_thread *t, uintptr_t pc, uintptr_t fp) {
  uintptr_t pcs[32];
  uint32_t n = kkr_unwind_here(t, pc, fp, pcs, 32);
  return kkr_stack_put(pcs, n);
}

static void describe(kkr_str *s, const dl_node *n) {
  if (n->kind == DL_ALL) {
    kkr_str_printf(s, "the work of every instance");
    return;
  }
  if (n->kind == DL_INSTANCE) {
    kkr_str_printf(s, "the work on %s instance %u", n->inst->space,
                   n->inst->index);
    return;
  }
  uintptr_t start = 0;
  const char *global = kkr_symbolize_data(n->addr, &start);
  kkr_str_printf(s, "%s M%u (0x%lx", n->what ? n->what : "lock", n->name,
                 (unsigned long)n->addr);
  if (global && start == n->addr)
    kkr_str_printf(s, ", '%s'", global);
  kkr_str_putc(s, ')');
}

static void thread_name(kkr_str *s, uint32_t id) {
  if (id == 0)
    kkr_str_printf(s, "main thread");
  else
    kkr_str_printf(s, "thread T%u", id);
}

static void step_from_stack(kkr_step *st, uint32_t stack) {
  st->pcs = kkr_stack_get(stack, &st->npcs);
  if (!st->pcs)
    st->npcs = 0;
}

/* The path to -> ... -> from closes a cycle with the edge from -> to just
 * added: report it.  Called with dl_lock held. */
static void report_cycle(dl_node *from, dl_edge *closing) {
  dl_edge *path[16];
  uint32_t len = 0;
  path[len++] = closing;
  /* Walk back from 'from' along the DFS tree to closing->to. */
  dl_edge *rev[16];
  uint32_t nrev = 0;
  for (dl_node *n = from; n != closing->to && nrev < 15; ) {
    dl_edge *e = n->via;
    rev[nrev++] = e;
    /* e leads into n; find its source */
    dl_node *src = NULL;
    for (dl_node *m = dl_nodes; m && !src; m = m->hh.next)
      for (dl_edge *x = m->out; x; x = x->next)
        if (x == e) {
          src = m;
          break;
        }
    if (!src)
      return;
    n = src;
  }
  while (nrev && len < 16)
    path[len++] = rev[--nrev];
  /* path: from -> closing->to -> ... -> from; the nodes in order. */
  dl_node *nodes[17];
  nodes[0] = from;
  for (uint32_t i = 0; i < len; i++)
    nodes[i + 1] = path[i]->to;

  kkr_str cycle = {0}, title = {0};
  int instance = 0;
  for (uint32_t i = 0; i <= len; i++) {
    if (i)
      kkr_str_printf(&cycle, " => ");
    if (nodes[i]->kind == DL_LOCK)
      kkr_str_printf(&cycle, "M%u", nodes[i]->name);
    else {
      describe(&cycle, nodes[i]);
      instance = 1;
    }
  }
  kkr_str_printf(&title, "lock-order inversion (potential deadlock)");
  kkr_str detail = {0};
  kkr_str_printf(&detail, "Cycle in lock order graph: %s", cycle.buf);

  kkr_step steps[32];
  kkr_str texts[32];
  memset(texts, 0, sizeof texts);
  uint32_t ns = 0;
  uint64_t key = 0;
  for (uint32_t i = 0; i < len && ns + 2 <= 32; i++) {
    dl_node *a = nodes[i], *b = nodes[i + 1];
    dl_edge *e = path[i];
    key += kkr_mix64(((uint64_t)e->held_stack << 32) | e->acq_stack);
    kkr_str *w = &texts[ns];
    if (b->kind != DL_LOCK) { /* fencing while holding a */
      kkr_str_printf(w, "%s waits for ", b->kind == DL_ALL ? "A global fence"
                                                           : "A fence");
      describe(w, b);
      kkr_str_printf(w, " while holding ");
      describe(w, a);
      kkr_str_printf(w, " in ");
      thread_name(w, e->thread);
      steps[ns].op = KKR_STEP_FENCE;
    } else if (a->kind != DL_LOCK) { /* a kernel takes b */
      describe(w, b);
      kkr_str_printf(w, " acquired here by a kernel (");
      describe(w, a);
      kkr_str_printf(w, " cannot finish until it gets it)");
      steps[ns].op = KKR_STEP_LOCK;
    } else {
      kkr_str_printf(w, "Mutex M%u acquired here while holding mutex M%u in ",
                     b->name, a->name);
      thread_name(w, e->thread);
      steps[ns].op = KKR_STEP_LOCK;
    }
    steps[ns].what = w->buf;
    steps[ns].thread = e->thread;
    step_from_stack(&steps[ns], e->acq_stack);
    ns++;
    w = &texts[ns];
    if (a->kind == DL_LOCK) {
      kkr_str_printf(w, "Mutex M%u previously acquired by the same thread here",
                     a->name);
      steps[ns].op = KKR_STEP_LOCK;
    } else {
      kkr_str_printf(w, "The kernel was submitted here");
      steps[ns].op = KKR_STEP_SUBMIT;
    }
    steps[ns].what = w->buf;
    steps[ns].thread = e->thread;
    step_from_stack(&steps[ns], e->held_stack);
    ns++;
  }
  kkr_str explain = {0};
  for (uint32_t i = 0; i < len; i++) {
    if (nodes[i]->kind != DL_LOCK)
      continue;
    kkr_str_printf(&explain, "%s", explain.len ? ", " : "Mutexes: ");
    describe(&explain, nodes[i]);
  }
  kkr_str_printf(&explain, "%s", explain.len ? ".  " : "");
  if (instance)
    kkr_str_printf(&explain,
                   "A fence waits for the kernels submitted before it: a "
                   "kernel that needs a lock the fencing thread holds never "
                   "finishes on a backend that runs kernels asynchronously.");
  else
    kkr_str_printf(&explain,
                   "Threads that take these locks in these orders at the "
                   "same time wait for each other forever.");
  dl_release();
  kkr_report_deadlock("lock-order-inversion", title.buf, detail.buf,
                      explain.buf, key, steps, ns);
  dl_acquire();
  for (uint32_t i = 0; i < 32; i++)
    kkr_str_free(&texts[i]);
  kkr_str_free(&cycle);
  kkr_str_free(&title);
  kkr_str_free(&detail);
  kkr_str_free(&explain);
}

/* Is there a path start -> ... -> goal?  Marks the DFS tree in via. */
static int reaches(dl_node *start, dl_node *goal) {
  dl_node *stack[256];
  uint32_t sp = 0;
  uint32_t v = ++dl_visit;
  start->visit = v;
  start->via = NULL;
  stack[sp++] = start;
  while (sp) {
    dl_node *n = stack[--sp];
    if (n == goal)
      return 1;
    for (dl_edge *e = n->out; e; e = e->next)
      if (e->to->visit != v && sp < 256) {
        e->to->visit = v;
        e->to->via = e;
        stack[sp++] = e->to;
      }
  }
  return 0;
}

/* Adds from -> to; reports the cycle it closes, if any.  dl_lock held. */
static void add_edge(dl_node *from, dl_node *to, uint32_t held_stack,
                     uint32_t acq_stack, uint32_t thread) {
  if (from == to)
    return;
  for (dl_edge *e = from->out; e; e = e->next)
    if (e->to == to)
      return;
  dl_edge *e = kkr_alloc(sizeof *e);
  e->to = to;
  e->held_stack = held_stack;
  e->acq_stack = acq_stack;
  e->thread = thread;
  e->next = from->out;
  from->out = e;
  if (reaches(to, from))
    report_cycle(from, e);
}

static int dl_on(void) {
  return kkr_flags.detect_deadlocks || kkr_flags.hang_timeout_ms;
}

/* The work item a kernel's lock belongs to, as a node of the graph. */
static void kernel_edges(kkr_thread *t, dl_node *lock, uint32_t acq_stack) {
  kkr_op *op = t->item_op;
  if (!op || !op->inst)
    return;
  uintptr_t key = (uintptr_t)op->inst | 1;
  dl_node *q = node_get(key, DL_INSTANCE, NULL);
  q->inst = op->inst;
  dl_node *all = node_get(1, DL_ALL, NULL);
  uint32_t submitted = op->item ? op->item->stack : 0;
  add_edge(q, lock, submitted, acq_stack, t->info->id);
  add_edge(all, lock, submitted, acq_stack, t->info->id);
}

uint32_t kkr_dl_before_lock(uintptr_t addr, const char *what, int blocking,
                            uintptr_t pc, uintptr_t fp) {
  if (!dl_on())
    return 0;
  kkr_thread *t = user_thread();
  if (!t)
    return 0;
  for (uint32_t i = 0; i < nheld; i++)
    if (held[i].addr == addr)
      return held[i].stack; /* recursive: no new order */
  int in_kernel = t->abi.strand_depth != 0;
  if (!nheld && !in_kernel && !kkr_flags.hang_timeout_ms)
    return 0;
  t->ignore++;
  uint32_t stack = here(t, pc, fp);
  if (kkr_flags.detect_deadlocks && blocking && (nheld || in_kernel)) {
    dl_acquire();
    dl_node *to = node_get(addr, DL_LOCK, what);
    for (uint32_t i = 0; i < nheld; i++)
      add_edge(node_get(held[i].addr, DL_LOCK, what), to, held[i].stack,
               stack, t->info->id);
    if (in_kernel)
      kernel_edges(t, to, stack);
    dl_release();
  }
  t->ignore--;
  return stack;
}

void kkr_dl_locked(uintptr_t addr, uint32_t stack) {
  if (!dl_on() || !user_thread())
    return;
  for (uint32_t i = 0; i < nheld; i++)
    if (held[i].addr == addr) {
      held[i].count++;
      return;
    }
  if (nheld == DL_MAX_HELD)
    return;
  if (!stack) {
    /* Not captured before (the first lock held): capture it now, for the
     * edges this lock will be the source of. */
    kkr_thread *t = kkr_thread_any();
    t->ignore++;
    stack = here(t, (uintptr_t)__builtin_return_address(0),
                 *(uintptr_t *)__builtin_frame_address(0));
    t->ignore--;
  }
  held[nheld++] = (dl_held){addr, stack, 1};
}

void kkr_dl_unlock(uintptr_t addr) {
  for (uint32_t i = nheld; i-- > 0;)
    if (held[i].addr == addr) {
      if (--held[i].count == 0) {
        held[i] = held[--nheld];
      }
      return;
    }
}

/* A fence by a thread that may hold locks: inst NULL for a global fence. */
void kkr_dl_fence(kkr_thread *t, kkr_instance *inst, uintptr_t pc,
                  uintptr_t fp) {
  if (!nheld || !kkr_flags.detect_deadlocks || t->nops > 1 ||
      t->abi.strand_depth)
    return;
  t->ignore++;
  uint32_t stack = here(t, pc, fp);
  dl_acquire();
  dl_node *q;
  if (inst) {
    q = node_get((uintptr_t)inst | 1, DL_INSTANCE, NULL);
    q->inst = inst;
  } else {
    q = node_get(1, DL_ALL, NULL);
  }
  for (uint32_t i = 0; i < nheld; i++)
    add_edge(node_get(held[i].addr, DL_LOCK, "mutex"), q, held[i].stack,
             stack, t->info->id);
  dl_release();
  t->ignore--;
}

/* Memory that held locks is freed (or a lock destroyed): forget them, so
 * that a new lock at the same address starts with no edges. */
void kkr_dl_forget(uintptr_t lo, uintptr_t hi) {
  if (!__atomic_load_n(&dl_count, __ATOMIC_RELAXED) || dl_busy)
    return;
  dl_acquire();
  dl_node *n, *tmp;
  int any = 0;
  HASH_ITER(hh, dl_nodes, n, tmp) {
    if (n->kind == DL_LOCK && n->addr >= lo && n->addr < hi)
      any = 1;
  }
  if (any) {
    HASH_ITER(hh, dl_nodes, n, tmp) {
      dl_edge **pe = &n->out;
      while (*pe) {
        dl_node *to = (*pe)->to;
        if (to->kind == DL_LOCK && to->addr >= lo && to->addr < hi) {
          dl_edge *dead = *pe;
          *pe = dead->next;
          kkr_free(dead, sizeof *dead);
        } else {
          pe = &(*pe)->next;
        }
      }
    }
    HASH_ITER(hh, dl_nodes, n, tmp) {
      if (n->kind == DL_LOCK && n->addr >= lo && n->addr < hi) {
        HASH_DEL(dl_nodes, n);
        for (dl_edge *e = n->out, *next; e; e = next) {
          next = e->next;
          kkr_free(e, sizeof *e);
        }
        kkr_free(n, sizeof *n);
      }
    }
  }
  dl_release();
}

/* ---- Waits and the watchdog --------------------------------------------- */

typedef struct {
  uintptr_t addr;
  uint32_t owner; /* thread id + 1 */
  uint32_t stack;
  uint32_t count;
  const char *what;
  UT_hash_handle hh;
} owner_rec;

static kkr_spin owners_lock;
static owner_rec *owners;
static uint64_t progress;
static int watchdog_on;
static __thread uint32_t wait_depth;

static const char *const wait_names[] = {
    [KKR_WAIT_NONE] = "nothing",       [KKR_WAIT_MUTEX] = "mutex",
    [KKR_WAIT_RDLOCK] = "read lock",   [KKR_WAIT_WRLOCK] = "write lock",
    [KKR_WAIT_COND] = "condition variable", [KKR_WAIT_JOIN] = "join",
    [KKR_WAIT_BARRIER] = "barrier",    [KKR_WAIT_SEM] = "semaphore",
    [KKR_WAIT_ONCE] = "once",          [KKR_WAIT_MPI] = "MPI",
};

/* A blocking MPI call (libkkrace_mpi): what it waits for, and the peer
 * rank it waits on (-1: any, or a collective). */
KKR_EXPORT void __kkrace_wait_begin(const char *what, int peer) {
  if (!watchdog_on || !kkr_inited)
    return;
  kkr_wait_begin(KKR_WAIT_MPI, (uintptr_t)kkr_intern(what),
                 (uint32_t)(peer + 1), (uintptr_t)__builtin_return_address(0),
                 *(uintptr_t *)__builtin_frame_address(0));
}

KKR_EXPORT void __kkrace_wait_end(void) { kkr_wait_end(); }

/* ---- Hangs across MPI ranks ----------------------------------------------
 * A rank that finds itself stalled in a blocking MPI call writes what it
 * waits for in a directory shared by the ranks of the job; it then reads
 * the others', and follows "rank r waits on rank p" to a cycle. */

/* The directory of the job's wait files.  Inside the launcher's own
 * session directory when it has one (Open MPI's mpirun and PMIx servers
 * remove theirs, with everything in it, when the job ends); otherwise
 * under $TMPDIR, and each rank removes its file when it is done
 * (*shared is set). */
static const char *job_dir(int *shared) {
  static char dir[512];
  const char *job = getenv("PMIX_NAMESPACE");
  if (!job || !*job)
    job = getenv("OMPI_MCA_ess_base_jobid");
  if (!job || !*job)
    job = getenv("SLURM_JOB_ID");
  if (!job || !*job)
    return NULL;
  const char *base = getenv("OMPI_MCA_orte_jobfam_session_dir");
  if (!base || !*base)
    base = getenv("PMIX_SERVER_TMPDIR");
  *shared = !base || !*base || access(base, W_OK) != 0;
  if (*shared) {
    base = getenv("TMPDIR");
    if (!base || !*base)
      base = "/tmp";
  }
  snprintf(dir, sizeof dir, "%s/kkrace-mpi-%s", base, job);
  for (char *c = dir + strlen(base) + 1; *c; c++)
    if (*c == '/' || *c == '@')
      *c = '_';
  return dir;
}

#define MAX_RANKS 4096

/* A rank of the job that is not waiting in the collective call (whose
 * file says something else, or that has none), or -1. */
static int rank_outside(const char *dir, const char *call, int self) {
  const char *env = getenv("OMPI_COMM_WORLD_SIZE");
  if (!env)
    env = getenv("PMI_SIZE");
  int size = env ? atoi(env) : 0;
  for (int s = 0; s < size && s < MAX_RANKS; s++) {
    if (s == self)
      continue;
    char p[600], line[256] = "";
    int peer;
    snprintf(p, sizeof p, "%s/rank%d", dir, s);
    FILE *g = fopen(p, "r");
    if (!g)
      return s;
    if (fscanf(g, "%d\n", &peer) != 1 || !fgets(line, sizeof line, g))
      line[0] = 0;
    fclose(g);
    line[strcspn(line, "\n")] = 0;
    if (strcmp(line, call) != 0)
      return s;
  }
  return -1;
}

/* Writes this rank's wait (peer, what); returns the cycle through this
 * rank, in words, or 0 if none is known. */
static int rank_cycle(int peer, const char *what, kkr_str *out,
                      uint64_t period_ns) {
  int shared = 0;
  const char *dir = job_dir(&shared);
  if (!dir || kkr_rank < 0)
    return 0;
  mkdir(dir, 0700);
  char path[600], tmp[620];
  snprintf(path, sizeof path, "%s/rank%d", dir, kkr_rank);
  snprintf(tmp, sizeof tmp, "%s.tmp", path);
  FILE *f = fopen(tmp, "w");
  if (!f)
    return 0;
  fprintf(f, "%d\n%s\n", peer, what);
  fclose(f);
  rename(tmp, path);
  /* Let the other ranks' watchdogs write theirs. */
  for (int tries = 0; tries < 8; tries++) {
    struct timespec ts = {(time_t)(period_ns / 1000000000ull),
                          (long)(period_ns % 1000000000ull)};
    nanosleep(&ts, NULL);
    int r = kkr_rank, steps = 0, found = 0;
    static int seen[MAX_RANKS];
    memset(seen, 0, sizeof seen);
    kkr_str chain = {0};
    while (steps++ < MAX_RANKS) {
      char p2[600], line[256] = "";
      int next = -1;
      snprintf(p2, sizeof p2, "%s/rank%d", dir, r);
      FILE *g = fopen(p2, "r");
      if (!g)
        break;
      if (fscanf(g, "%d\n", &next) != 1)
        next = -1;
      if (!fgets(line, sizeof line, g))
        line[0] = 0;
      fclose(g);
      line[strcspn(line, "\n")] = 0;
      kkr_str_printf(&chain, "%srank %d (%s)", chain.len ? " -> " : "", r,
                     line);
      if (next == -2) {
        /* A collective: it waits for the ranks that have not entered it. */
        next = rank_outside(dir, line, r);
        if (next < 0)
          break;
        char why[64];
        snprintf(why, sizeof why, " waits for rank %d, not in it", next);
        kkr_str_printf(&chain, "%s", why);
      }
      if (next < 0 || next >= MAX_RANKS)
        break;
      if (next == kkr_rank) {
        kkr_str_printf(&chain, " -> rank %d", kkr_rank);
        found = 1;
        break;
      }
      if (seen[next])
        break; /* a cycle that does not go through this rank */
      seen[next] = 1;
      r = next;
    }
    if (found) {
      kkr_str_printf(out, "Cycle across MPI ranks: %s", chain.buf);
      kkr_str_free(&chain);
      break;
    }
    kkr_str_free(&chain);
  }
  if (shared) {
    /* The other ranks of the cycle read this file within a period of
     * writing theirs. */
    if (out->len) {
      struct timespec ts = {(time_t)(period_ns / 1000000000ull),
                            (long)(period_ns % 1000000000ull)};
      nanosleep(&ts, NULL);
    }
    unlink(path);
    rmdir(dir); /* the last rank's succeeds */
  }
  return out->len != 0;
}

int kkr_watchdog_enabled(void) { return watchdog_on; }

void kkr_wait_begin(uint32_t kind, uintptr_t obj, uint32_t target,
                    uintptr_t pc, uintptr_t fp) {
  if (!watchdog_on || !kkr_inited)
    return;
  kkr_thread *t = kkr_thread_any();
  if (!t || t->ignore) /* kkrace's own locks (libunwind's, say) */
    return;
  /* A wait inside a wait (the locks inside MPI_Recv): the outer one says
   * what the thread waits for. */
  if (wait_depth++)
    return;
  kkr_thread_info *ti = t->info;
  t->ignore++;
  ti->wait_stack = here_unwind(t, pc, fp);
  t->ignore--;
  ti->wait_obj = obj;
  ti->wait_target = target;
  __atomic_store_n(&ti->wait_kind, kind, __ATOMIC_RELEASE);
}

void kkr_wait_end(void) {
  if (!watchdog_on || !kkr_inited)
    return;
  kkr_thread *t = kkr_thread_any();
  if (!t || t->ignore || !wait_depth)
    return;
  if (--wait_depth)
    return;
  __atomic_store_n(&t->info->wait_kind, KKR_WAIT_NONE, __ATOMIC_RELEASE);
  __atomic_fetch_add(&progress, 1, __ATOMIC_RELAXED);
}

void kkr_progress(void) {
  if (watchdog_on)
    __atomic_fetch_add(&progress, 1, __ATOMIC_RELAXED);
}

/* Who holds each lock (every lock, Kokkos' own too: a fence inside a kernel
 * on Kokkos 4.4 waits for the instance lock its own thread holds). */
void kkr_owner_set(uintptr_t addr, const char *what, uintptr_t pc,
                   uintptr_t fp) {
  if (!watchdog_on || !kkr_inited)
    return;
  kkr_thread *t = kkr_thread_any();
  if (!t || t->ignore)
    return;
  kkr_spin_lock(&owners_lock);
  owner_rec *o;
  HASH_FIND(hh, owners, &addr, sizeof addr, o);
  if (o && o->owner == t->info->id + 1) {
    o->count++;
    kkr_spin_unlock(&owners_lock);
    return;
  }
  if (!o) {
    o = kkr_alloc(sizeof *o);
    o->addr = addr;
    HASH_ADD(hh, owners, addr, sizeof addr, o);
  }
  o->owner = t->info->id + 1;
  o->count = 1;
  o->what = what;
  kkr_spin_unlock(&owners_lock);
  t->ignore++;
  uint32_t stack = here(t, pc, fp);
  t->ignore--;
  kkr_spin_lock(&owners_lock);
  if (o->owner == t->info->id + 1)
    o->stack = stack;
  kkr_spin_unlock(&owners_lock);
}

void kkr_owner_clear(uintptr_t addr) {
  if (!watchdog_on || !kkr_inited)
    return;
  kkr_thread *t = kkr_thread_any();
  kkr_spin_lock(&owners_lock);
  owner_rec *o;
  HASH_FIND(hh, owners, &addr, sizeof addr, o);
  if (o && t && o->owner == t->info->id + 1 && --o->count == 0)
    o->owner = 0;
  kkr_spin_unlock(&owners_lock);
}

static uint64_t now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static uint64_t cpu_ns(kkr_thread_info *ti) {
  struct timespec ts;
  if (!ti->has_cpu_clock || clock_gettime(ti->cpu_clock, &ts))
    return 0;
  return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

#define WD_MAX_THREADS 256

/* Prints the wait-for graph and exits. */
/* A thread that a library of the runtime's (MPI's progress threads, the
 * CUDA driver's, CUPTI's) created: outside a wait kkrace knows, it says
 * nothing about a hang. */
static int library_thread(const kkr_thread_info *ti) {
  uint32_t n = 0;
  const uintptr_t *pcs = ti->create_stack ? kkr_stack_get(ti->create_stack, &n)
                                          : NULL;
  if (!pcs || !n)
    return 0;
  static const char *const mpi_libs[] = {
      "libmpi", "libopen-pal", "libopen-rte", "libpmix", "libprrte",
      "libevent", "libhwloc", "libucs", "libuct", "libucp", "libfabric",
      "libpsm", "libmpich"};
  return kkr_pc_in_libraries(pcs[0], mpi_libs, KKR_ARRAY_SIZE(mpi_libs)) ||
         kkr_foreign_library_pc(pcs[0]);
}

static void report_hang(kkr_thread_info **ts, uint32_t n, uint64_t ms) {
  kkr_step steps[2 * WD_MAX_THREADS];
  kkr_str texts[2 * WD_MAX_THREADS];
  memset(texts, 0, sizeof texts);
  uint32_t ns = 0;
  uint32_t next[WD_MAX_THREADS]; /* wait-for edge: index of the thread */
  const char *mpi_wait = NULL;   /* a thread blocked in MPI, and its peer */
  int mpi_peer = -1;
  /* The threads that wait first: they are the hang; the others after. */
  for (uint32_t i = 0, j = 0; i < n; i++)
    if (__atomic_load_n(&ts[i]->wait_kind, __ATOMIC_ACQUIRE)) {
      kkr_thread_info *x = ts[j];
      ts[j++] = ts[i];
      ts[i] = x;
    }
  for (uint32_t i = 0; i < n; i++) {
    kkr_thread_info *ti = ts[i];
    next[i] = UINT32_MAX;
    kkr_str *w = &texts[ns];
    uint32_t kind = __atomic_load_n(&ti->wait_kind, __ATOMIC_ACQUIRE);
    thread_name(w, ti->id);
    uint32_t owner = 0, owner_stack = 0;
    if (kind == KKR_WAIT_NONE && library_thread(ti)) {
      w->len = 0;
      continue;
    }
    if (kind == KKR_WAIT_NONE) {
      kkr_str_printf(w, " is not in a wait kkrace knows (it sleeps, or "
                        "blocks in code kkrace does not see)");
      steps[ns] = (kkr_step){w->buf, NULL, 0, ti->id, KKR_STEP_WAIT};
      ns++;
      continue;
    }
    if (kind == KKR_WAIT_MPI) {
      kkr_str_printf(w, " waits in %s", (const char *)ti->wait_obj);
      steps[ns] = (kkr_step){w->buf, NULL, 0, ti->id, KKR_STEP_WAIT};
      step_from_stack(&steps[ns], ti->wait_stack);
      ns++;
      if (!mpi_wait) {
        mpi_wait = (const char *)ti->wait_obj;
        mpi_peer = (int)ti->wait_target - 1;
      }
      continue;
    }
    if (kind == KKR_WAIT_JOIN) {
      kkr_thread_info *joined = kkr_thread_info_of((pthread_t)ti->wait_obj);
      kkr_str_printf(w, " waits to join ");
      if (joined)
        thread_name(w, joined->id);
      else
        kkr_str_printf(w, "a thread kkrace does not know");
      owner = joined ? joined->id + 1 : 0;
    } else {
      kkr_str_printf(w, " waits for %s 0x%lx", wait_names[kind],
                     (unsigned long)ti->wait_obj);
      uintptr_t start = 0;
      const char *global = kkr_symbolize_data(ti->wait_obj, &start);
      if (global && start == ti->wait_obj)
        kkr_str_printf(w, " ('%s')", global);
      if (kind == KKR_WAIT_MUTEX || kind == KKR_WAIT_RDLOCK ||
          kind == KKR_WAIT_WRLOCK) {
        kkr_spin_lock(&owners_lock);
        owner_rec *o;
        uintptr_t a = ti->wait_obj;
        HASH_FIND(hh, owners, &a, sizeof a, o);
        if (o && o->owner) {
          owner = o->owner;
          owner_stack = o->stack;
        }
        kkr_spin_unlock(&owners_lock);
        if (owner) {
          kkr_str_printf(w, ", held by ");
          thread_name(w, owner - 1);
        }
      } else if (kind == KKR_WAIT_COND) {
        kkr_str_printf(w, " (a signal nobody sends)");
      }
    }
    for (uint32_t j = 0; j < n; j++)
      if (owner && ts[j]->id == owner - 1)
        next[i] = j;
    steps[ns] = (kkr_step){w->buf, NULL, 0, ti->id, KKR_STEP_WAIT};
    step_from_stack(&steps[ns], ti->wait_stack);
    ns++;
    if (owner_stack) {
      w = &texts[ns];
      kkr_str_printf(w, "The %s was locked by ", wait_names[kind]);
      thread_name(w, owner - 1);
      kkr_str_printf(w, " at");
      steps[ns] = (kkr_step){w->buf, NULL, 0, owner - 1, KKR_STEP_LOCK};
      step_from_stack(&steps[ns], owner_stack);
      ns++;
    }
  }
  /* The cycle, if there is one. */
  kkr_str detail = {0};
  uint64_t key = 0;
  for (uint32_t s = 0; s < n && !detail.len; s++) {
    uint32_t i = s, steps_taken = 0;
    while (next[i] != UINT32_MAX && steps_taken <= n) {
      i = next[i];
      steps_taken++;
    }
    if (steps_taken <= n)
      continue; /* a chain, not a cycle */
    /* i is on a cycle: print it from there. */
    uint32_t c = i;
    kkr_str_printf(&detail, "Cycle in the wait-for graph: ");
    do {
      thread_name(&detail, ts[c]->id);
      kkr_str_printf(&detail, " -> ");
      key += kkr_mix64(ts[c]->wait_stack);
      c = next[c];
    } while (c != i);
    thread_name(&detail, ts[c]->id);
  }
  if (!detail.len && mpi_wait &&
      rank_cycle(mpi_peer, mpi_wait, &detail,
                 (uint64_t)kkr_flags.hang_timeout_ms * 250000ull))
    key += kkr_mix64((uint64_t)mpi_peer + 77);
  if (!detail.len)
    kkr_str_printf(&detail, "No thread made progress for %llu ms; no cycle "
                            "among the waits kkrace knows",
                   (unsigned long long)ms);
  kkr_str explain = {0};
  kkr_str_printf(&explain, "No thread made progress for %llu ms "
                           "(hang_timeout_ms=%lld): kkrace stops the program.",
                 (unsigned long long)ms, (long long)kkr_flags.hang_timeout_ms);
  kkr_report_deadlock("hang", "hang (deadlock)", detail.buf, explain.buf,
                      key + 1, steps, ns);
  for (uint32_t i = 0; i < ns; i++)
    kkr_str_free(&texts[i]);
  kkr_str_free(&detail);
  kkr_str_free(&explain);
  kkr_report_finish();
  fflush(NULL);
  kkr_exit_now(kkr_flags.exitcode ? (int)kkr_flags.exitcode : 1);
}

/* The thread is running or waiting for a CPU (state R): slow, not stuck (a
 * loaded machine can leave a thread unscheduled for longer than the
 * timeout). */
static int runnable(const kkr_thread_info *ti) {
  if (ti->finished || ti->tid <= 0)
    return 0;
  char path[64], buf[512];
  snprintf(path, sizeof path, "/proc/self/task/%d/stat", ti->tid);
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return 0;
  ssize_t n = read(fd, buf, sizeof buf - 1);
  close(fd);
  if (n <= 0)
    return 0;
  buf[n] = 0;
  const char *paren = strrchr(buf, ')');
  return paren && paren[1] == ' ' && paren[2] == 'R';
}

static void *watchdog(void *arg) {
  (void)arg;
  uint64_t timeout = (uint64_t)kkr_flags.hang_timeout_ms * 1000000ull;
  uint64_t period = timeout / 4;
  if (period > 250000000ull)
    period = 250000000ull;
  if (period < 1000000ull)
    period = 1000000ull;
  uint64_t last_progress = 0, stalled_since = 0;
  uint64_t cpu_prev[WD_MAX_THREADS] = {0};
  uint32_t id_prev[WD_MAX_THREADS] = {0};
  for (;;) {
    struct timespec ts = {(time_t)(period / 1000000000ull),
                          (long)(period % 1000000000ull)};
    nanosleep(&ts, NULL);
    kkr_thread_info *all[WD_MAX_THREADS];
    uint32_t n = kkr_threads_snapshot(all, WD_MAX_THREADS);
    uint64_t p = __atomic_load_n(&progress, __ATOMIC_RELAXED);
    int waiting = 0, busy = p != last_progress;
    last_progress = p;
    for (uint32_t i = 0; i < n; i++) {
      uint64_t c = cpu_ns(all[i]);
      if (__atomic_load_n(&all[i]->wait_kind, __ATOMIC_ACQUIRE))
        waiting = 1;
      else if (id_prev[i] != all[i]->id + 1 || c > cpu_prev[i] + period / 20)
        busy = 1; /* ran for more than 5% of the period */
      cpu_prev[i] = c;
      id_prev[i] = all[i]->id + 1;
    }
    /* A runnable thread is slow, not stuck, unless it waits in MPI, whose
     * libraries poll (a rank blocked in MPI_Recv runs). */
    for (uint32_t i = 0; i < n && !busy && waiting; i++)
      if (__atomic_load_n(&all[i]->wait_kind, __ATOMIC_ACQUIRE) != KKR_WAIT_MPI &&
          runnable(all[i]))
        busy = 1;
    uint64_t now = now_ns();
    if (busy || !waiting) {
      stalled_since = 0;
      continue;
    }
    if (!stalled_since)
      stalled_since = now - period;
    if (now - stalled_since >= timeout)
      report_hang(all, n, (now - stalled_since) / 1000000ull);
  }
  return NULL;
}

void kkr_watchdog_start(void) {
  if (!kkr_flags.hang_timeout_ms)
    return;
  watchdog_on = 1;
  pthread_t th;
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
  if (kkr_real_pthread_create(&th, &attr, watchdog, NULL))
    kkr_warn("cannot start the hang watchdog; hang_timeout_ms is ignored");
  pthread_attr_destroy(&attr);
}
