/* Kokkos operations: what each call into Kokkos adds to the graph.
 *
 * The pass wraps calls into Kokkos in __kkrace_op_begin / __kkrace_op_end
 * (kinds in kkr_ops.inc).  Operations nest: Kokkos::parallel_for calls
 * Impl::ParallelFor::execute, deep_copy calls fences and runs its own
 * kernels.  The rules (SEMANTICS.md):
 *
 *  - ParallelX::execute() submits a work item to its instance; the accesses
 *    until it returns belong to the item, and each call of the user's functor
 *    is one strand of it.
 *  - deep_copy(dst, src) and deep_copy(view, value): a global fence, the
 *    caller itself copies, a global fence.  What Kokkos runs inside is the
 *    caller's (the operation "absorbs" nested calls).
 *  - deep_copy(exec, ...): a work item on exec that does the copy (FIFO with
 *    exec's other work; under model=minikokkos the Fig. 7 rule: ordered after
 *    all work submitted to exec before the call, with no FIFO edge to later
 *    work).
 *  - fences teach the caller the instance's accumulated clock, as it was when
 *    the fence was called.
 *  - View initialization and destruction are writes by the calling thread;
 *    the kernels and fences Kokkos runs for them are its own business (a
 *    fence there orders nothing else for the program).  Limitation: Kokkos 4
 *    initializes a View made with view_alloc(exec, ...) asynchronously on
 *    exec; kkrace still sees the calling thread's write.
 *
 * The stack frames below the outermost operation's call site belong to
 * Kokkos (the backend's loop, the closure holding the functor's copy, the
 * team member): accesses to them are private to the operation. */
#include <string.h>

#include "kkr_dot.h"
#include "kkr_report.h"
#include "kkr_rt.h"

#define CALLER_SP ((uintptr_t)__builtin_frame_address(0) + 16)

/* The host thread learns what a fence teaches (snap): its clock joins it
 * and a new segment begins, ordered after the fenced work. */
void kkr_host_learn(kkr_thread *t, const kkr_vc *snap) {
  uint32_t from[16], n = 0;
  int news = 0;
  for (uint32_t i = 1; i < snap->n; i++) {
    if (snap->c[i] <= kkr_vc_get(&t->vc, i))
      continue;
    news = 1;
    kkr_timeline *tl = kkr_timeline_get(i);
    if (kkr_dot_on && n < 16 && tl && tl->kind == KKR_TL_QUEUE)
      from[n++] = kkr_item_get(i, snap->c[i])->node;
  }
  if (!news)
    return; /* nothing new: the same segment goes on */
  kkr_vc_join(&t->vc, snap);
  kkr_host_tick(t);
  for (uint32_t i = 0; i < n; i++)
    kkr_dot_edge(from[i], t->host_node, KKR_DOT_FENCE, NULL);
}

/* What a fence of every instance would teach now, learned. */
static void fence_all(kkr_thread *t) {
  kkr_vc snap = {0};
  kkr_fence_all_snapshot(&snap);
  kkr_host_learn(t, &snap);
  kkr_vc_free(&snap);
}

/* A global fence by the calling host thread, now (HostSpace deallocation
 * on Kokkos 3.6 and later). */
void kkr_kokkos_fence_all_now(kkr_thread *t) {
  if (!t || t->abi.strand_depth || t->item_op)
    return;
  fence_all(t);
}

/* ---- DualView's modified sides ------------------------------------------
 * What Kokkos keeps in a DualView's modified_flags, kept here too: Kokkos 4
 * keeps nothing where both sides share memory (Serial), and its syncs then
 * do nothing, while the program's logic still relies on them where the
 * sides differ.  A DualView is known by the memory of its device View
 * (its copies share it), found among the first words of the object. */
enum { DV_NONE, DV_HOST, DV_DEVICE, DV_EITHER };
#define DV_SLOTS 4096u
static struct {
  uintptr_t key;
  uint8_t side;
} dv_table[DV_SLOTS];
static uint32_t dv_used;
static kkr_spin dv_lock;

static uintptr_t dualview_key(const void *obj, uint64_t size) {
  if (size > 256)
    size = 256;
  for (uint64_t off = 0; off + sizeof(uintptr_t) <= size;
       off += sizeof(uintptr_t)) {
    uintptr_t p;
    memcpy(&p, (const char *)obj + off, sizeof p);
    kkr_view_alloc v;
    if (p && kkr_views_find(p, &v) &&
        !(v.label && strcmp(v.label, "DualView::modified_flags") == 0))
      return v.lo;
  }
  return (uintptr_t)obj;
}

/* The side marked for key (set to 'side' when set is nonzero); DV_EITHER
 * for a DualView the table has no room for. */
static uint32_t dualview_side(uintptr_t key, int set, uint32_t side) {
  uint32_t old = DV_EITHER;
  kkr_spin_lock(&dv_lock);
  uint32_t h = (uint32_t)((key >> 4) * 0x9E3779B1u) & (DV_SLOTS - 1);
  while (dv_table[h].key && dv_table[h].key != key)
    h = (h + 1) & (DV_SLOTS - 1);
  if (!dv_table[h].key && dv_used < DV_SLOTS - 1) {
    dv_table[h].key = key;
    dv_table[h].side = DV_NONE;
    dv_used++;
  }
  if (dv_table[h].key == key) {
    old = dv_table[h].side;
    if (set)
      dv_table[h].side = (uint8_t)side;
  }
  kkr_spin_unlock(&dv_lock);
  return old;
}

/* A DualView call: marks its side, or says whether its sync fences. */
static int dualview_op(uint32_t kind, const void *obj, uint64_t size) {
  if (!obj || !size)
    return kind == KKR_OP_DV_SYNC_HOST || kind == KKR_OP_DV_SYNC_DEVICE;
  uintptr_t key = dualview_key(obj, size);
  switch (kind) {
  case KKR_OP_DV_MODIFY_HOST:
  case KKR_OP_DV_MODIFY_DEVICE:
  case KKR_OP_DV_MODIFY:
  case KKR_OP_DV_CLEAR:
    dualview_side(key, 1,
                  kind == KKR_OP_DV_MODIFY_HOST     ? DV_HOST
                  : kind == KKR_OP_DV_MODIFY_DEVICE ? DV_DEVICE
                  : kind == KKR_OP_DV_MODIFY        ? DV_EITHER
                                                    : DV_NONE);
    return 0;
  default: { /* a sync: of the other side's changes */
    uint32_t other = kind == KKR_OP_DV_SYNC_HOST ? DV_DEVICE : DV_HOST;
    uint32_t side = dualview_side(key, 0, 0);
    if (side != other && side != DV_EITHER)
      return 0;
    dualview_side(key, 1, DV_NONE);
    return 1;
  }
  }
}

static int is_fencing(uint32_t kind) {
  return kind == KKR_OP_FENCE_GLOBAL || kind == KKR_OP_FENCE_INSTANCE ||
         kind == KKR_OP_FENCE_SPACE || kind == KKR_OP_DEEP_COPY ||
         kind == KKR_OP_FILL || kind == KKR_OP_FINALIZE ||
         kind == KKR_OP_RESIZE;
}

static int is_exec(uint32_t kind) {
  return kind == KKR_OP_EXEC_FOR || kind == KKR_OP_EXEC_REDUCE ||
         kind == KKR_OP_EXEC_SCAN;
}

static int is_api(uint32_t kind) {
  return kind == KKR_OP_PARALLEL_FOR || kind == KKR_OP_PARALLEL_REDUCE ||
         kind == KKR_OP_PARALLEL_SCAN;
}

/* The identity of an execution space object of objsize bytes: its first
 * word (the internal instance pointer of Kokkos 4 spaces) or NULL for a
 * stateless space (Kokkos 3 Serial). objsize 0: obj is the identity. */
static void *exec_identity(void *obj, uint64_t objsize) {
  if (objsize == 0)
    return obj;
  if (!obj || objsize < sizeof(void *))
    return NULL;
  return *(void **)obj;
}

/* The instance an operation runs on: its own exec object, else the nearest
 * enclosing operation's, else the space's default (stateless) instance. */
static kkr_instance *instance_get(kkr_thread *t, const char *space,
                                  void *ident) {
  /* The same instance as last time (the space names are the pass's
   * constant strings): no lookup. */
  uint32_t gen = __atomic_load_n(&kkr_inst_gen, __ATOMIC_ACQUIRE);
  if (t->last_inst && t->last_inst_space == space &&
      t->last_inst_ident == ident && t->last_inst_gen == gen)
    return t->last_inst;
  kkr_instance *inst = kkr_instance_get(space, ident);
  t->last_inst_gen = gen;
  t->last_inst = inst;
  t->last_inst_space = space;
  t->last_inst_ident = ident;
  return inst;
}

static kkr_instance *op_instance(kkr_thread *t, kkr_op *op) {
  for (kkr_op *o = op; o >= t->ops; o--) {
    if (o->has_exec)
      return instance_get(t, op->space ? op->space : o->space, o->exec_ident);
  }
  return instance_get(t, op->space, NULL);
}

static const char *op_label(kkr_thread *t, kkr_op *op) {
  for (kkr_op *o = op; o >= t->ops; o--)
    if (o->label)
      return o->label;
  return NULL;
}

static uint32_t op_stack(kkr_thread *t, kkr_op *op) {
  /* The submission site is where the program called into Kokkos: the
   * outermost operation's call site.  A loop of dispatches submits from
   * the same stack again and again: the last one is remembered. */
  (void)op;
  uintptr_t pcs[KKR_SUBMIT_STACK_MAX];
  uint32_t n = kkr_unwind_fp(t, t->ops[0].pc, t->ops[0].fp, pcs,
                             KKR_SUBMIT_STACK_MAX);
  if (t->last_submit_stack && n == t->last_submit_n) {
    /* (A few words: compared here, not through a call of memcmp.) */
    uint32_t i = 0;
    while (i < n && pcs[i] == t->last_submit_pcs[i])
      i++;
    if (i == n)
      return t->last_submit_stack;
  }
  uint32_t id = kkr_stack_put(pcs, n);
  t->last_submit_stack = id;
  t->last_submit_n = n;
  memcpy(t->last_submit_pcs, pcs, n * sizeof(uintptr_t));
  return id;
}

static void submit_item(kkr_thread *t, kkr_op *op, int fifo,
                        const kkr_vc *extra) {
  kkr_instance *inst = op_instance(t, op);
  op->label = op_label(t, op);
  kkr_item *it = kkr_submit(t, inst, op, fifo, extra);
  it->stack = op_stack(t, op);
  kkr_node_item(t, op);
}

static void begin_async_copy(kkr_thread *t, kkr_op *op) {
  if (kkr_flags.model == KKR_MODEL_MINIKOKKOS) {
    /* Fig. 7: a forked Fence(Q); Copy(x, y); Fence(Q) -- ordered after the
     * work submitted to Q so far, unordered with what comes after. */
    kkr_vc before = {0};
    kkr_fence_snapshot(op_instance(t, op), &before);
    submit_item(t, op, 0, &before);
    kkr_vc_free(&before);
  } else {
    submit_item(t, op, 1, NULL);
  }
}

KKR_EXPORT unsigned int __kkrace_op_begin(unsigned int kind, void *space,
                                          void *obj,
                                          unsigned long long objsize) {
  kkr_thread *t = kkr_tls;
  if (!t) {
    if (!kkr_inited)
      return 0;
    t = kkr_thread_slow();
  }
  if (t->nops == 0 && kkr_reports_pending)
    kkr_report_flush(); /* the host segment that found them has ended */
  kkr_team_sync(t);
  uint32_t token = t->nops++;
  if (token >= KKR_MAX_OPS)
    return token; /* too deep: counted, not modeled */
  kkr_op *op = &t->ops[token];
  op->kind = (uint16_t)kind;
  op->absorbs = 0;
  op->quiet = 0;
  op->space = space;
  op->exec_ident = NULL;
  op->has_exec = 0;
  op->inst = NULL;
  op->item_tl = op->item_clk = op->item_node = 0;
  op->item = NULL;
  op->label = NULL;
  op->snap.n = 0;
  op->sp = CALLER_SP;
  op->pc = (uintptr_t)__builtin_return_address(0);
  op->fp = *(uintptr_t *)__builtin_frame_address(0); /* the caller's frame */
  kkr_op *parent = token ? &t->ops[token - 1] : NULL;
  op->absorbed = parent && (parent->absorbs || parent->absorbed);
  if (!parent) {
    t->priv_lo = t->stack_lo;
    t->priv_len = op->sp > t->stack_lo ? op->sp - t->stack_lo : 0;
  }
  /* Inside a kernel: the outermost call that fences or dispatches a
   * top-level policy is a deadlock (nested team-level loops are not). */
  op->in_kernel_reported = parent && parent->in_kernel_reported;
  op->barrier_at_end = 0;
  if (t->abi.strand_depth && !op->in_kernel_reported &&
      (is_fencing(kind) || kind == KKR_OP_VIEW_INIT || is_exec(kind))) {
    kkr_deadlock_fence_in_kernel(t, op, is_exec(kind) ? "dispatch-in-kernel"
                                                      : "fence-in-kernel");
    op->in_kernel_reported = 1;
  }
  if (kind == KKR_OP_TEAM_BARRIER || kind == KKR_OP_TEAM_BROADCAST_FN) {
    /* (Inside a nested reduction, which the strand absorbs, too; not a
     * barrier inside a barrier.) */
    int in_barrier = 0;
    for (kkr_op *o = parent; o && o >= t->ops && !in_barrier; o--)
      in_barrier = o->kind == KKR_OP_TEAM_BARRIER ||
                   o->kind == KKR_OP_TEAM_BROADCAST_FN;
    if (!in_barrier && t->abi.strand_depth) {
      /* Inside a nested loop or a single, not every thread of the team
       * reaches it (or not as often): on a backend with several threads
       * per team, those that do wait forever. */
      if (t->team_nest && kkr_in_team_item(t) && !op->in_kernel_reported) {
        kkr_deadlock_fence_in_kernel(t, op, "divergent-barrier");
        op->in_kernel_reported = 1;
      }
      if (kind == KKR_OP_TEAM_BROADCAST_FN)
        op->barrier_at_end = 1; /* (after the root's f) */
      else
        kkr_team_barrier(t);
    }
    op->absorbs = 1;
    op->absorbed = !op->barrier_at_end;
    return token;
  }
  if (op->absorbed)
    return token;
  if (t->abi.strand_depth) {
    op->absorbed = 1; /* nested team-level loops: the same strand */
    return token;
  }
  if (obj && (kind == KKR_OP_DEEP_COPY_ASYNC || kind == KKR_OP_FILL_ASYNC ||
              kind == KKR_OP_FENCE_INSTANCE || kind == KKR_OP_MPI_ASYNC)) {
    op->exec_ident = exec_identity(obj, objsize);
    op->has_exec = 1;
  }
  switch (kind) {
  case KKR_OP_EXEC_FOR:
  case KKR_OP_EXEC_REDUCE:
  case KKR_OP_EXEC_SCAN:
    submit_item(t, op, kkr_flags.model == KKR_MODEL_KOKKOS, NULL);
    break;
  case KKR_OP_DEEP_COPY:
  case KKR_OP_FILL:
    kkr_dl_fence(t, NULL, op->pc, op->fp);
    fence_all(t);
    op->absorbs = 1;
    break;
  case KKR_OP_FENCE_BEFORE:
    /* ... and the library's own kernels inside run as its host code does
     * (it orders them itself, assuming Serial). */
    fence_all(t);
    op->absorbs = 1;
    break;
  case KKR_OP_DEEP_COPY_ASYNC:
  case KKR_OP_FILL_ASYNC:
    begin_async_copy(t, op);
    op->absorbs = 1;
    break;
  case KKR_OP_MPI_ASYNC:
    /* A nonblocking MPI operation: a work item on its request, which
     * accesses the buffer until the MPI_Wait (a fence of the request). */
    submit_item(t, op, 1, NULL);
    op->absorbs = 1;
    break;
  case KKR_OP_DV_MODIFY_HOST:
  case KKR_OP_DV_MODIFY_DEVICE:
  case KKR_OP_DV_MODIFY:
  case KKR_OP_DV_CLEAR:
    dualview_op(kind, obj, objsize);
    op->absorbs = 1;
    break;
  case KKR_OP_DV_SYNC_HOST:
  case KKR_OP_DV_SYNC_DEVICE:
    /* (Its copy, if Kokkos makes one, is part of it.) */
    op->absorbs = 1;
    if (!dualview_op(kind, obj, objsize))
      break;
    op->kind = KKR_OP_FENCE_GLOBAL; /* (for op_finish) */
    __attribute__((fallthrough));
  case KKR_OP_FINALIZE:
  case KKR_OP_FENCE_GLOBAL:
    kkr_dl_fence(t, NULL, op->pc, op->fp);
    kkr_fence_all_snapshot(&op->snap);
    op->absorbs = 1;
    break;
  case KKR_OP_FENCE_INSTANCE: {
    kkr_instance *inst = op_instance(t, op);
    kkr_dl_fence(t, inst, op->pc, op->fp);
    kkr_fence_snapshot(inst, &op->snap);
    op->absorbs = 1;
    break;
  }
  case KKR_OP_FENCE_SPACE:
    kkr_fence_space_snapshot(space, &op->snap);
    op->absorbs = 1;
    break;
  case KKR_OP_VIEW_INIT:
    /* The new View's memory had no accesses (its shadow was cleared when it
     * was last freed), and with one host thread everything that may touch
     * it later is ordered after this: its initialization cannot race and
     * need not be recorded. */
    if (!__atomic_load_n(&kkr_spawned, __ATOMIC_RELAXED)) {
      op->quiet = 1;
      t->ignore++;
    }
    op->absorbs = 1;
    break;
  case KKR_OP_VIEW_HOST:
    op->absorbs = 1;
    break;
  case KKR_OP_RESIZE:
    op->first_node = kkr_node_next();
    break;
  default:
    break;
  }
  return token;
}

static void op_finish(kkr_thread *t, kkr_op *op) {
  if (op->barrier_at_end) {
    kkr_team_barrier(t);
    return;
  }
  if (op->absorbed)
    return;
  if (op->quiet) {
    op->quiet = 0;
    t->ignore--;
  }
  switch (op->kind) {
  case KKR_OP_DEEP_COPY:
  case KKR_OP_FILL:
    fence_all(t);
    break;
  case KKR_OP_FINALIZE:
  case KKR_OP_FENCE_GLOBAL:
  case KKR_OP_FENCE_INSTANCE:
  case KKR_OP_FENCE_SPACE:
    kkr_host_learn(t, &op->snap);
    break;
  default:
    break;
  }
  if (op->item && t->item_op == op) {
    uint32_t mode = t->abi.strand_mode;
    if (mode >= KKR_ABI_MODE_MD(2, 0) && mode <= KKR_ABI_MODE_MD(3, 1))
      /* (An MDRange's last strand, which the inline code may have begun:
       * the upper corner of its box, which the runtime saw nothing of
       * where the rows packed or the inline code knew their hash.) */
      kkr_md_seen(t, (uint64_t)t->abi.strand_idx0,
                  (uint64_t)t->abi.strand_idx1,
                  mode < KKR_ABI_MODE_MD(3, 0) ? 0
                                               : (uint64_t)t->abi.strand_idx2);
    t->abi.strand_depth = 0;
    t->team_on = 0;
    kkr_node_host(t);
  }
}

KKR_EXPORT void __kkrace_op_end(unsigned int token) {
  kkr_thread *t = kkr_tls;
  if (!t)
    return;
  while (t->nops > token) {
    uint32_t i = --t->nops;
    if (i < KKR_MAX_OPS)
      op_finish(t, &t->ops[i]);
  }
  if (t->nops == 0) {
    t->priv_len = 0;
    if (kkr_reports_pending)
      kkr_report_flush();
  }
}

KKR_EXPORT void __kkrace_exec_ref(void *obj, unsigned long long objsize) {
  kkr_thread *t = kkr_tls;
  if (!t || t->nops == 0 || t->nops > KKR_MAX_OPS || t->abi.strand_depth)
    return;
  kkr_op *op = &t->ops[t->nops - 1];
  if (op->absorbed || op->has_exec || op->item)
    return;
  if (!is_api(op->kind) && !is_exec(op->kind))
    return;
  op->exec_ident = exec_identity(obj, objsize);
  op->has_exec = 1;
}

/* ---- Strands ------------------------------------------------------------ */

/* Strand ids are 20 bits (KKR_STRAND_BITS), 0 and 1 reserved: RangePolicy
 * indices modulo 2^20 - 2, MDRange indices packed by the item's layout
 * (kkr_md_layout: by the extents the kernel had before), TeamPolicy league
 * ranks in call order.  MDRange indices that do not fit the layout take a
 * row's base plus the last index, so that the ids of a row still follow
 * one another (a loop over the last index steps them as a RangePolicy's):
 * where only the first index is beyond the layout's, the base is the
 * packed one modulo 2^20 - 2 (the layout's ids go on, wrapping as a
 * RangePolicy's do: a large array's rows follow one another, one rule of
 * runs for a fill of them); where another index is, a hash of the indices
 * before the last.  Two strands with one id are one strand to the check: a
 * race between iterations exactly 2^20 - 2 ids apart, or between two rows
 * whose bases meet, is missed. */
#define STRAND_IDS ((1u << KKR_STRAND_BITS) - 2)
_Static_assert(STRAND_IDS == KKR_ABI_STRAND_INLINE_MAX,
               "the inline strand code computes the ids of kkr_strand_id");

/* A row's base: what the indices before the last give the id of a strand
 * beyond the layout l (kkr_rt.h, kkr_md_row_base).  The last row's is
 * kept per thread: every loop of an MDRange row asks for it (a 3D
 * stencil's seven). */
static __thread struct {
  uint64_t i0, i1, h, l;
  uint32_t nidx;
} last_row __attribute__((tls_model("initial-exec")));

static uint64_t row_base(uint64_t l, uint64_t i0, uint64_t i1,
                         uint32_t nidx) {
  if (last_row.nidx == nidx && last_row.i0 == i0 && last_row.i1 == i1 &&
      last_row.l == l)
    return last_row.h;
  uint64_t h = kkr_md_row_base(l, i0, i1, nidx);
  last_row.i0 = i0;
  last_row.i1 = i1;
  last_row.nidx = nidx;
  last_row.l = l;
  return last_row.h = h;
}

/* The layout of an MDRange item's packed ids.  The first time a kernel
 * runs, rows as long as its first loop's over the last index (the row that
 * its first strands begin with: a fill's, from index 0, is the View's), or
 * else of 1024 (2 indices) or 64 (3, in planes of 128 rows), as many rows
 * as the ids hold; after that, the extents its strands and rows had
 * (kkr_md_seen), where they fit: a 3D stencil over 98^3 points then packs
 * every row whole instead of hashing the part of each row beyond 64.  A 2D
 * fill's ids are then the elements' places in the View (LayoutRight), one
 * after the other from row to row: one rule of runs for all of them.  The
 * extents are kept per kernel label and rank in a small table, a hint
 * only: an item's layout is fixed at its first strand, the same for all
 * its threads, and indices beyond it take a row's base (kkr_strand_id). */
#define MD_KERNELS 256
static struct md_kernel {
  const char *label;
  uint32_t nidx;
  uint32_t e[3]; /* the largest indices seen, plus one */
} md_kernels[MD_KERNELS];

static uint64_t md_first_layout(uint32_t nidx, uint64_t row) {
  if (nidx == 2)
    return row >= 2 && row <= STRAND_IDS / 2
               ? KKR_MD_LAYOUT(STRAND_IDS / row, row, 1)
               : KKR_MD_LAYOUT(STRAND_IDS / 1024, 1024, 1);
  return row >= 2 && row <= STRAND_IDS / (2 * 128)
             ? KKR_MD_LAYOUT(STRAND_IDS / (128 * row), 128, row)
             : KKR_MD_LAYOUT(STRAND_IDS / (128 * 64), 128, 64);
}

uint64_t kkr_md_layout(const kkr_item *it, uint32_t nidx) {
  uint64_t l = __atomic_load_n(&it->md_layout, __ATOMIC_ACQUIRE);
  return l ? l : md_first_layout(nidx, 0);
}

void kkr_md_begin(kkr_thread *t, kkr_item *it, uint32_t nidx) {
  uintptr_t key = (uintptr_t)it->label ^ nidx;
  struct md_kernel *k =
      &md_kernels[(kkr_mix64(key) >> 32) % MD_KERNELS];
  if (__atomic_load_n(&k->label, __ATOMIC_RELAXED) != it->label ||
      __atomic_load_n(&k->nidx, __ATOMIC_RELAXED) != nidx) {
    /* (Another kernel's slot: it is this one's now.) */
    for (int j = 0; j < 3; j++)
      __atomic_store_n(&k->e[j], 0, __ATOMIC_RELAXED);
    __atomic_store_n(&k->nidx, nidx, __ATOMIC_RELAXED);
    __atomic_store_n(&k->label, it->label, __ATOMIC_RELAXED);
  }
  uint64_t l = __atomic_load_n(&it->md_layout, __ATOMIC_ACQUIRE);
  if (!l) {
    uint64_t m1 = __atomic_load_n(&k->e[1], __ATOMIC_RELAXED);
    uint64_t m2 = nidx == 2 ? 1 : __atomic_load_n(&k->e[2], __ATOMIC_RELAXED);
    uint64_t want = m1 && m2 && m1 * m2 <= STRAND_IDS
                        ? KKR_MD_LAYOUT(STRAND_IDS / (m1 * m2), m1, m2)
                        : md_first_layout(nidx, t->md_row_end);
    l = 0;
    if (__atomic_compare_exchange_n(&it->md_layout, &l, want, 0,
                                    __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
      l = want;
  }
  t->abi.md_lim0 = KKR_MD_LIM0(l);
  t->abi.md_m1 = KKR_MD_M1(l);
  t->abi.md_m2 = KKR_MD_M2(l);
  t->md_seen = k->e;
}

uint32_t kkr_strand_id(kkr_item *it, uint64_t i0, uint64_t i1, uint64_t i2,
                       uint32_t nidx, uint32_t seq) {
  uint64_t id;
  switch (nidx) {
  case 0:
    id = seq;
    if (seq >= STRAND_IDS)
      it->lossy = 1;
    break;
  case 1:
    id = i0;
    if (i0 >= STRAND_IDS)
      it->lossy = 1;
    break;
  default: {
    uint64_t l = kkr_md_layout(it, nidx);
    uint64_t m1 = KKR_MD_M1(l), m2 = KKR_MD_M2(l);
    if (nidx == 2)
      i2 = 0;
    if (i0 < KKR_MD_LIM0(l) && i1 < m1 && i2 < m2) {
      id = kkr_md_packed(l, i0, i1, i2);
    } else if (nidx == 2) {
      id = row_base(l, i0, 0, 2) + i1 % STRAND_IDS;
      it->lossy = 1;
    } else {
      id = row_base(l, i0, i1, 3) + i2 % STRAND_IDS;
      it->lossy = 1;
    }
    break;
  }
  }
  return (uint32_t)(id % STRAND_IDS) + 2;
}

/* The strands of a work item.  Those of a RangePolicy kernel (one index,
 * below KKR_ABI_STRAND_INLINE_MAX) are begun and ended by the instrumented
 * code itself once the first one has set abi.strand_mode (kkr_abi.h): the
 * code below is their slow path and everyone else's. */
static void team_set_rec(kkr_thread *t) {
  t->abi.cur_rec =
      t->abi.item_rec |
      (uint64_t)kkr_team_strand(t, t->team_sub)
          << KKR_REC_STRAND_SHIFT;
}

/* In a team's own code with no nested strand open: instrumented code may
 * begin and end a TeamThreadRange iteration itself (kkr_abi.h). */
static void team_own(kkr_thread *t) {
  t->abi.team_rec = t->abi.item_rec |
                    (uint64_t)kkr_team_strand(t, 0)
                        << KKR_REC_STRAND_SHIFT;
  t->abi.team_mode = 1;
}

/* ---- Vector lanes (kkr_lanes in kkr_rt.h) -------------------------------- */

#define LANE_BIT(m, s) ((m)[(s) >> 6] >> ((s) & 63) & 1u)
#define LANE_SET(m, s) ((m)[(s) >> 6] |= 1ull << ((s) & 63))

static void lanes_reset(kkr_thread *t) {
  if (!t->lanes_on)
    return;
  t->lanes_on = 0;
  kkr_lanes *l = &t->lanes;
  l->serial = l->open = 0;
  l->threads[0] = l->threads[1] = 0;
  l->ambiguous[0] = l->ambiguous[1] = 0;
  l->sites_known[0] = l->sites_known[1] = 0;
  memset(l->parent_of, 0, sizeof l->parent_of);
}

/* A sub sub runs as a thread of the team (a parent of lanes, or a nested
 * iteration begun through the runtime). */
static void lanes_thread(kkr_lanes *l, uint32_t sub) {
  LANE_SET(l->threads, sub);
  if (l->parent_of[sub])
    LANE_SET(l->ambiguous, sub);
}

/* A ThreadVectorRange loop begins in the current strand (its thread). */
KKR_EXPORT void __kkrace_vector_loop(void) {
  kkr_thread *t = kkr_tls;
  if (!t || !t->abi.strand_depth)
    return;
  kkr_team_sync(t);
  if (!kkr_in_team_item(t))
    return;
  kkr_lanes *l = &t->lanes;
  if (!t->lanes_on) {
    t->lanes_on = 1;
    l->next = KKR_ABI_TEAM_THREADS;
    kkr_shared_new_own_era(); /* (own blocks speak of no lanes) */
  } else if (l->parent_of[t->team_sub]) {
    return; /* (a lane does not fork lanes) */
  }
  l->open = ++l->serial;
  l->parent = t->team_sub;
  l->taken = 0;
  if (!LANE_BIT(l->sites_known, t->team_sub)) {
    LANE_SET(l->sites_known, t->team_sub);
    l->thread_sites[t->team_sub] = 0;
  }
  l->prev_sites = l->thread_sites[t->team_sub];
  lanes_thread(l, t->team_sub);
}

/* The running thread forked the open vector loop's lanes (else its lanes
 * are the thread itself). */
static int lanes_forked(const kkr_thread *t) {
  return t->lanes_on && t->lanes.open && t->lanes.parent == t->team_sub;
}

/* The sub of the open loop's lane of index i0: that of its slot
 * i0 % KKR_LANES_PER_LOOP, a fresh one the first time the loop meets the
 * slot while the phase has some (no thread seen, no lane before), else the
 * thread's own sub (the lane is then its thread, as a loop is without
 * lanes).  By the index alone, so that the loop checks of the runtime
 * (kkr_lane_strand) and the lanes begun one by one agree, whatever their
 * order. */
static uint32_t lane_sub(kkr_thread *t, unsigned long long i0) {
  kkr_lanes *l = &t->lanes;
  uint32_t q = (uint32_t)(i0 % KKR_LANES_PER_LOOP);
  if (!(l->taken >> q & 1)) {
    l->taken |= 1u << q;
    while (l->next >= 1 && (l->next == l->parent || l->parent_of[l->next] ||
                            LANE_BIT(l->threads, l->next)))
      l->next--;
    uint32_t s = l->parent;
    if (l->next >= 1) {
      s = l->next--;
      l->parent_of[s] = (uint8_t)(l->parent + 1);
      l->loop_of[s] = l->open;
      l->parent_idx[s] = t->team_sub_idx;
    }
    l->subs[q] = (uint8_t)s;
  }
  uint32_t s = l->subs[q];
  if (s != l->parent)
    l->lane_idx[s] = (int64_t)i0;
  return s;
}

int kkr_lanes_loop(kkr_thread *t) {
  kkr_team_sync(t);
  /* (With no sub left in the phase, every lane of a loop that has none yet
   * is its thread, lane_sub: the loop is the thread's own.) */
  return t->abi.strand_depth && kkr_in_team_item(t) && lanes_forked(t) &&
         (t->lanes.taken || t->lanes.next >= 1);
}

uint32_t kkr_lane_strand(kkr_thread *t, uint64_t i) {
  return kkr_team_strand(t, lane_sub(t, i));
}

/* The subs of the current strand (a) and of strand rs (b), if both are of
 * the running team's phase. */
static int lanes_subs_at(uint32_t cs, uint32_t rs, uint32_t *a,
                         uint32_t *b) {
  if (rs < 2 || cs < 2 || KKR_TEAM_OF(rs) != KKR_TEAM_OF(cs) ||
      KKR_TEAM_PHASE(rs) != KKR_TEAM_PHASE(cs))
    return 0;
  *a = KKR_TEAM_SUB(cs);
  *b = KKR_TEAM_SUB(rs);
  return 1;
}

static int lanes_subs(const kkr_thread *t, uint32_t rs, uint32_t *a,
                      uint32_t *b) {
  return lanes_subs_at(KKR_CUR_STRAND(t), rs, a, b);
}

int kkr_lanes_ordered(const kkr_thread *t, uint64_t rec) {
  return kkr_lanes_ordered_at(t, KKR_CUR_STRAND(t), rec);
}

/* Sub a is a lane of the open loop. */
static int lane_of_open(const kkr_lanes *l, uint32_t a) {
  return l->open && l->parent_of[a] == l->parent + 1u &&
         l->loop_of[a] == l->open;
}

/* Sub a is a lane of the open loop, and the read record rec of its thread
 * (sub b) holds reads of the loop's lanes (kkr_lanes_fold). */
static int lanes_fold_of_open(const kkr_lanes *l, uint32_t a, uint32_t b,
                              uint64_t rec) {
  uint32_t site = KKR_REC_SITE(rec);
  uint64_t open_sites = l->thread_sites[l->parent] & ~l->prev_sites;
  return !(rec & KKR_R_W) && b == l->parent && lane_of_open(l, a) &&
         site != KKR_SITE_OTHER && (open_sites >> site & 1);
}

int kkr_lanes_ordered_at(const kkr_thread *t, uint32_t cs, uint64_t rec) {
  const kkr_lanes *l = &t->lanes;
  uint32_t a, b;
  if (!t->lanes_on || !lanes_subs_at(cs, KKR_REC_STRAND(rec), &a, &b))
    return 0;
  /* (A sub that was a lane and a thread: either may be meant; say
   * ordered, the one answer that cannot make a false report.) */
  if (LANE_BIT(l->ambiguous, a) || LANE_BIT(l->ambiguous, b))
    return 1;
  uint32_t pa = l->parent_of[a] ? l->parent_of[a] - 1u : a;
  uint32_t pb = l->parent_of[b] ? l->parent_of[b] - 1u : b;
  if (pa != pb)
    return 0; /* lanes or threads of different threads */
  if (lanes_fold_of_open(l, a, b, rec))
    return 0; /* (reads of the loop's lanes, under their thread) */
  /* Lanes of one thread: siblings of one loop are unordered; a thread's
   * lanes are ordered with its own code and with its other loops' lanes. */
  return !(l->parent_of[a] && l->parent_of[b] && l->loop_of[a] == l->loop_of[b]);
}

int kkr_lanes_siblings(const kkr_thread *t, uint32_t rs) {
  const kkr_lanes *l = &t->lanes;
  uint32_t a, b;
  if (!t->lanes_on || !lanes_subs(t, rs, &a, &b) || a == b ||
      LANE_BIT(l->ambiguous, a) || LANE_BIT(l->ambiguous, b))
    return 0;
  return l->parent_of[a] && l->parent_of[a] == l->parent_of[b] &&
         l->loop_of[a] == l->loop_of[b];
}

uint32_t kkr_lanes_fold(kkr_thread *t, uint64_t r, uint64_t nr) {
  kkr_lanes *l = &t->lanes;
  uint32_t a, b;
  if (!lanes_subs(t, KKR_REC_STRAND(r), &a, &b) || a == b || !l->parent_of[a])
    return 0;
  if (!(l->parent_of[a] == l->parent_of[b] && l->loop_of[a] == l->loop_of[b]) &&
      !lanes_fold_of_open(l, a, b, r))
    return 0;
  /* (The sites of the reads kept, the one that stays in the record among
   * them: the loop's fold from now on, unless an earlier loop of the
   * thread kept reads at the site too.) */
  if (lane_of_open(l, a))
    l->thread_sites[l->parent] |= ((uint64_t)1 << KKR_REC_SITE(nr) |
                                   (uint64_t)1 << KKR_REC_SITE(r)) &
                                  ~((uint64_t)1 << KKR_SITE_OTHER);
  return KKR_CUR_STRAND(t) - a + (l->parent_of[a] - 1u);
}

int kkr_lanes_is_fold(const kkr_thread *t, uint64_t rec) {
  return t && kkr_lanes_is_fold_at(t, KKR_CUR_STRAND(t), rec);
}

int kkr_lanes_is_fold_at(const kkr_thread *t, uint32_t cs, uint64_t rec) {
  uint32_t a, b;
  return t->lanes_on && lanes_subs_at(cs, KKR_REC_STRAND(rec), &a, &b) &&
         lanes_fold_of_open(&t->lanes, a, b, rec);
}

int kkr_lanes_describe(const kkr_thread *t, uint32_t strand, int64_t *lane,
                       uint32_t *parent, int64_t *parent_idx) {
  if (!t || !t->lanes_on || strand < 2 || !kkr_in_team_item(t) ||
      KKR_TEAM_OF(strand) != KKR_TEAM_OF(t->team_base) ||
      KKR_TEAM_PHASE(strand) != (t->team_phase & 7u))
    return 0;
  const kkr_lanes *l = &t->lanes;
  uint32_t s = KKR_TEAM_SUB(strand);
  if (!l->parent_of[s] || LANE_BIT(l->ambiguous, s))
    return 0;
  *lane = l->lane_idx[s];
  *parent = l->parent_of[s] - 1u;
  *parent_idx = l->parent_idx[s];
  return 1;
}

/* The team's phase begins: no sub has run an MD range's iteration. */
static void md_reset(kkr_thread *t) {
  if (!t->md_used)
    return;
  t->md_used = 0;
  for (uint32_t s = 0; s < 128; s++)
    t->md_of[s].rank = 0;
}

int kkr_md_describe(const kkr_thread *t, uint32_t strand, int64_t idx[3]) {
  if (!t || !t->md_used || strand < 2 || !kkr_in_team_item(t) ||
      KKR_TEAM_OF(strand) != KKR_TEAM_OF(t->team_base) ||
      KKR_TEAM_PHASE(strand) != (t->team_phase & 7u))
    return 0;
  uint32_t s = KKR_TEAM_SUB(strand);
  if (s >= 128 || !t->md_of[s].rank)
    return 0;
  memcpy(idx, t->md_of[s].i, sizeof t->md_of[s].i);
  return t->md_of[s].rank;
}

/* A nested call of the user's code inside a team (a TeamThreadRange,
 * ThreadVectorRange or TeamVectorRange iteration, a nested reduction's or
 * scan's, a single): a thread of the team, unordered with the others; or a
 * vector lane of the running thread (ordered with the thread's own code, not
 * with the loop's other lanes: lane_sub); a single(PerThread) is its thread. */
static void team_nested_begin(kkr_thread *t, unsigned long long i0,
                              unsigned long long i1, unsigned long long i2,
                              unsigned int nidx, uint32_t rank,
                              uint32_t vector, void *value,
                              unsigned long long vsize) {
  t->abi.team_mode = 0; /* (nested strands through the runtime from now) */
  uint32_t depth = t->team_nest++;
  if (depth < 4) {
    t->team_saved_sub[depth] = t->team_sub;
    t->team_saved_upd[depth][0] = t->abi.upd_lo;
    t->team_saved_upd[depth][1] = t->abi.upd_len;
  }
  /* A nested reduction's or scan's value (Kokkos' local that each thread of
   * the team accumulates into): each thread's own, as a strand's is. */
  if (value && vsize) {
    t->abi.upd_lo = (uintptr_t)value;
    t->abi.upd_len = vsize;
  }
  /* An MD range's iteration (Kokkos 4 runs it as a call of the user's
   * lambda with all its indices, inside a one-index loop over one of them):
   * every index tells it apart, mixed into one key that neighbours in any
   * index do not share (modulo the 126 threads and the 8 lanes' slots). */
  unsigned long long key = i0;
  if (nidx >= 2)
    key = nidx == 2 ? i0 * 37u + i1 : i0 * 37u + i1 * 11u + i2;
  uint32_t sub;
  if (vector)
    sub = nidx && lanes_forked(t) ? lane_sub(t, key) : t->team_sub;
  else if (nidx == 0)
    sub = KKR_TEAM_SINGLE;
  else if (t->team_sub == 0 || t->team_sub == KKR_TEAM_SINGLE)
    sub = (uint32_t)(key % 126) + 1;
  else /* a nested iteration of a thread's iteration */
    sub = (uint32_t)((t->team_sub * 31u + key) % 126) + 1;
  if (!vector && t->lanes_on)
    lanes_thread(&t->lanes, sub);
  if (nidx && sub < 128 && (!vector || sub != t->team_sub) &&
      (nidx >= 2 || t->md_used)) {
    t->md_used |= nidx >= 2;
    t->md_of[sub].rank = nidx >= 2 ? (uint8_t)(rank ? rank : nidx) : 0;
    t->md_of[sub].i[0] = (int64_t)i0;
    t->md_of[sub].i[1] = (int64_t)i1;
    t->md_of[sub].i[2] = (int64_t)i2;
  }
  t->team_sub = sub;
  if (nidx && depth == 0)
    t->team_sub_idx = (int64_t)i0;
  team_set_rec(t);
}

static void team_nested_end(kkr_thread *t) {
  if (!t->team_nest)
    return;
  uint32_t depth = --t->team_nest;
  t->team_sub = depth < 4 ? t->team_saved_sub[depth] : 0;
  if (depth < 4) {
    t->abi.upd_lo = t->team_saved_upd[depth][0];
    t->abi.upd_len = t->team_saved_upd[depth][1];
  }
  if (depth == 0)
    t->team_sub_idx = -1;
  team_set_rec(t);
  if (depth == 0 && t->abi.strand_depth == 1)
    team_own(t);
}

void kkr_team_barrier(kkr_thread *t) {
  if (!kkr_in_team_item(t))
    return;
  lanes_reset(t);
  md_reset(t);
  t->team_phase++;
  kkr_shared_new_own_era(); /* (own blocks speak of one phase) */
  team_set_rec(t);
  if (t->abi.team_mode == 1)
    team_own(t);
}

/* The reduction value of unknown size (an array reduction's T*): in Kokkos'
 * reduction buffer (the host backends' team scratch), all of that buffer
 * belongs to the strand; elsewhere (the program's result array), the
 * memory up to the next View, within a bound. */
static uintptr_t unknown_value_size(kkr_thread *t, uintptr_t value) {
  if (t->last_value_lo <= value && value < t->last_value_hi)
    return t->last_value_hi - value;
  kkr_view_alloc v;
  if (kkr_is_scratch(value) == KKR_SCRATCH_TEAM && kkr_views_find(value, &v) &&
      v.hi > value) {
    t->last_value_lo = v.lo;
    t->last_value_hi = v.hi;
  } else {
    t->last_value_lo = value;
    t->last_value_hi = kkr_views_object_end(value, KKR_ABI_UNKNOWN_VALUE_SIZE);
  }
  return t->last_value_hi - value;
}

KKR_EXPORT void __kkrace_strand_begin(unsigned long long i0,
                                      unsigned long long i1,
                                      unsigned long long i2, unsigned int nidx,
                                      void *value, unsigned long long vsize) {
  kkr_thread *t = kkr_tls;
  if (!t)
    return;
  kkr_team_sync(t);
  uint32_t vector = nidx & KKR_ABI_STRAND_VECTOR;
  uint32_t rank = nidx >> KKR_ABI_STRAND_RANK_SHIFT;
  nidx &= ~KKR_ABI_STRAND_VECTOR & ((1u << KKR_ABI_STRAND_RANK_SHIFT) - 1);
  if (t->abi.strand_depth++) {
    if (kkr_in_team_item(t))
      team_nested_begin(t, i0, i1, i2, nidx, rank, vector, value, vsize);
    return;
  }
  if (!t->item_op)
    return;
  kkr_op *op = t->item_op;
  kkr_item *it = op->item;
  int reduce = op->kind == KKR_OP_EXEC_REDUCE || op->kind == KKR_OP_EXEC_SCAN;
  uint32_t id, n = nidx > 3 ? 3 : nidx, seq = t->strand_count;
  if (KKR_UNLIKELY(t->strand_count++ == 0)) {
    it->nidx = (uint8_t)n;
    it->rank = (uint8_t)rank;
    kkr_strand_mode(t, nidx); /* (an MDRange's layout of ids: before any) */
    it->team = nidx == 0;
  }
  if (KKR_LIKELY(nidx == 1 && i0 < STRAND_IDS)) {
    id = (uint32_t)i0 + 2; /* a RangePolicy iteration */
  } else {
    if (nidx == 2 || nidx == 3)
      kkr_md_seen(t, i0, i1, nidx == 2 ? 0 : i2);
    id = kkr_strand_id(it, i0, i1, i2, n, seq);
    /* (The inline code may now take the item's other large indices, and
     * an MDRange row's: the one just hashed.) */
    t->abi.item_lossy = nidx == 1 || it->lossy;
    if ((nidx == 2 || nidx == 3) && last_row.nidx == nidx) {
      t->abi.row_i0 = last_row.i0;
      t->abi.row_i1 = nidx == 2 ? ~0ull : last_row.i1;
      t->abi.row_base = last_row.h;
    }
  }
  if (it->team) {
    uint32_t seq = t->strand_count - 1;
    if (seq >= 1022)
      it->lossy = 1;
    if (!kkr_mt)
      kkr_scratch_team_begin();
    t->team_base = KKR_TEAM_ID(seq, 0, 0);
    t->scratch_thread = 0; /* (a new team member: team mode) */
    t->team_phase = 0;
    kkr_shared_new_own_era(); /* (own blocks speak of one team's phase) */
    t->team_sub = 0;
    t->team_nest = 0;
    t->team_sub_idx = -1;
    lanes_reset(t);
    md_reset(t);
    id = t->team_base;
    t->team_on = 1;
    team_own(t);
  }
  t->abi.cur_rec = t->abi.item_rec | (uint64_t)id << KKR_REC_STRAND_SHIFT;
  t->abi.strand_idx0 = (int64_t)(nidx ? i0 : t->strand_count - 1);
  t->abi.strand_idx1 = (int64_t)i1;
  t->abi.strand_idx2 = (int64_t)i2;
  if (value && reduce) {
    t->abi.upd_lo = (uintptr_t)value;
    t->abi.upd_len = vsize ? vsize : unknown_value_size(t, (uintptr_t)value);
  }
}

KKR_EXPORT void __kkrace_strand_end(void) {
  kkr_thread *t = kkr_tls;
  if (!t || t->abi.strand_depth == 0)
    return;
  kkr_team_sync(t);
  if (--t->abi.strand_depth) {
    if (kkr_in_team_item(t))
      team_nested_end(t);
    return;
  }
  t->abi.team_mode = 0;
  t->team_on = 0;
  lanes_reset(t);
  if (t->item_op) {
    t->abi.cur_rec = t->abi.item_rec |
                     (uint64_t)KKR_STRAND_BACKEND << KKR_REC_STRAND_SHIFT;
    t->abi.upd_len = 0;
  }
}

/* ---- Kokkos Tools ------------------------------------------------------- */

/* kokkosp_begin_parallel_*: the label of the dispatch in progress. */
void kkr_kokkos_label(const char *name) {
  kkr_thread *t = kkr_tls;
  if (!t || t->nops == 0 || t->nops > KKR_MAX_OPS || t->abi.strand_depth)
    return;
  kkr_op *op = &t->ops[t->nops - 1];
  if (op->absorbed || op->label)
    return;
  if (!is_api(op->kind) && !is_exec(op->kind))
    return;
  op->label = kkr_intern(name);
  if (op->item)
    op->item->label = op->label;
}

/* The label of the operation in progress (token from __kkrace_op_begin),
 * for operations that Kokkos Tools does not name (MPI calls). */
KKR_EXPORT void __kkrace_op_label(unsigned int token, const char *label) {
  kkr_thread *t = kkr_tls;
  if (!t || token >= t->nops || token >= KKR_MAX_OPS)
    return;
  kkr_op *op = &t->ops[token];
  op->label = kkr_intern(label);
  if (op->item)
    op->item->label = op->label;
}

/* kokkosp_begin_deep_copy: the Views of the copy in progress. */
void kkr_kokkos_deep_copy(const char *dst_label, const char *src_label,
                          uintptr_t dst, uintptr_t src, uint64_t size) {
  kkr_thread *t = kkr_tls;
  if (!t || t->nops == 0 || t->nops > KKR_MAX_OPS)
    return;
  for (int i = (int)t->nops - 1; i >= 0; i--) {
    kkr_op *op = &t->ops[i];
    if (op->kind != KKR_OP_DEEP_COPY && op->kind != KKR_OP_DEEP_COPY_ASYNC &&
        op->kind != KKR_OP_FILL && op->kind != KKR_OP_FILL_ASYNC)
      continue;
    if (op->absorbed)
      continue;
    if (op->item) {
      kkr_item *it = op->item;
      if (!it->copy) {
        /* A fill's source is its value, which Kokkos copies into the
         * fill's functor (or stages) before the call returns: that read is
         * the calling thread's, as the handles' are (kkr_report.c,
         * copy_bookkeeping), and the value may be a temporary that the
         * caller's next statement reuses.  (Kokkos gives the value's
         * address with the destination's size.) */
        if (op->kind == KKR_OP_FILL || op->kind == KKR_OP_FILL_ASYNC)
          src = 0;
        kkr_copy_info c = {{kkr_intern(dst_label), kkr_intern(src_label)},
                           {dst, src},
                           {size ? dst + size : 0, size && src ? src + size : 0}};
        it->copy = kkr_intern_copy(&c);
      }
    }
    return;
  }
}
