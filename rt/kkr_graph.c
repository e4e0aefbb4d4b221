/* The computation graph: vector clocks, timelines, execution space instances
 * and work items (SEMANTICS.md, "Edges in the default model").
 *
 * A work item submitted by thread T to instance Q is the next epoch of the
 * queue timeline (Q, T).  Its clock is T's clock at submission, plus the FIFO
 * edges of the default model: every earlier item of Q whose submission is
 * ordered before this one.  Items of (Q, T) form a chain; for another
 * submitter B, the items of (Q, B) that T's clock orders before this
 * submission are a prefix of (Q, B), found by binary search on their
 * submission epochs.  Two threads that submit to one Q without synchronizing
 * get no FIFO edge: the queue orders their items, but in an order nothing in
 * the program fixes (a submission-order race).
 *
 * Q.fence() teaches the fencing thread Q's accumulated clock: the join of all
 * items submitted to Q, each including itself. */
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

#include "kkr_dot.h"
#include "kkr_hash.h"
#include "kkr_rt.h"

/* ---- Vector clocks ------------------------------------------------------ */

static void vc_reserve(kkr_vc *v, uint32_t n) {
  if (n <= v->cap)
    return;
  uint32_t cap = v->cap ? v->cap : 8;
  while (cap < n)
    cap *= 2;
  v->c = kkr_realloc(v->c, v->cap * sizeof(uint32_t), cap * sizeof(uint32_t));
  v->cap = cap;
}

void kkr_vc_set(kkr_vc *v, uint32_t i, uint32_t val) {
  if (i >= v->n) {
    vc_reserve(v, i + 1);
    /* (What lies past n is stale: a longer clock assigned over earlier.) */
    memset(v->c + v->n, 0, (i - v->n) * sizeof(uint32_t));
    v->n = i + 1;
  }
  v->c[i] = val;
}

void kkr_vc_max(kkr_vc *v, uint32_t i, uint32_t val) {
  if (kkr_vc_get(v, i) < val)
    kkr_vc_set(v, i, val);
}

void kkr_vc_join(kkr_vc *dst, const kkr_vc *src) {
  if (src->n > dst->n) {
    vc_reserve(dst, src->n);
    memset(dst->c + dst->n, 0, (src->n - dst->n) * sizeof(uint32_t));
    dst->n = src->n;
  }
  for (uint32_t i = 0; i < src->n; i++)
    if (src->c[i] > dst->c[i])
      dst->c[i] = src->c[i];
}

void kkr_vc_assign(kkr_vc *dst, const kkr_vc *src) {
  vc_reserve(dst, src->n);
  memcpy(dst->c, src->c, src->n * sizeof(uint32_t));
  dst->n = src->n;
}

void kkr_vc_free(kkr_vc *v) {
  kkr_free(v->c, v->cap * sizeof(uint32_t));
  v->c = NULL;
  v->n = v->cap = 0;
}

/* ---- Timelines ---------------------------------------------------------- */

#define ITEM_BLOCK 4096u
#define MAX_BLOCKS (1u << 14) /* 64 Mi items per queue timeline */

static kkr_timeline *timelines[KKR_MAX_TIMELINES + 1];
static uint32_t ntimelines;
static kkr_spin graph_lock;

kkr_timeline *kkr_timeline_get(uint32_t id) {
  return id && id <= KKR_MAX_TIMELINES ? timelines[id] : NULL;
}

kkr_timeline *kkr_timeline_new(uint32_t kind, kkr_thread_info *thread,
                               kkr_instance *inst) {
  kkr_timeline *tl = kkr_alloc(sizeof *tl);
  tl->kind = kind;
  tl->thread = thread;
  tl->inst = inst;
  kkr_spin_lock(&graph_lock);
  if (ntimelines == KKR_MAX_TIMELINES)
    kkr_die("more than %u threads and instance queues", KKR_MAX_TIMELINES);
  tl->id = ++ntimelines;
  timelines[tl->id] = tl;
  kkr_spin_unlock(&graph_lock);
  return tl;
}

kkr_item *kkr_item_get(uint32_t tlid, uint32_t clk) {
  kkr_timeline *tl = kkr_timeline_get(tlid);
  if (!tl || tl->kind != KKR_TL_QUEUE || clk == 0 || clk > tl->clk)
    return NULL;
  kkr_item *b = tl->blocks[clk / ITEM_BLOCK];
  return b ? &b[clk % ITEM_BLOCK] : NULL;
}

/* Blocks of retired items, kept for the next ones (a loop of dispatches
 * retires a block and needs a new one every 4096 items: reusing it spares
 * the unmapping, the mapping and the kernel's zeroing of its pages). */
#define SPARE_BLOCKS 4u
static kkr_item *spare_blocks[SPARE_BLOCKS];
static uint32_t nspare;
static kkr_spin spare_lock;

static kkr_item *item_block_new(void) {
  kkr_item *b = NULL;
  kkr_spin_lock(&spare_lock);
  if (nspare)
    b = spare_blocks[--nspare];
  kkr_spin_unlock(&spare_lock);
  if (b) {
    memset(b, 0, ITEM_BLOCK * sizeof(kkr_item));
    return b;
  }
  /* (192 KiB: mapped on its own, all of it used, mapped in at once.) */
  b = kkr_alloc(ITEM_BLOCK * sizeof(kkr_item));
  kkr_prefault(b, ITEM_BLOCK * sizeof(kkr_item));
  return b;
}

static void item_block_free(kkr_item *b) {
  kkr_spin_lock(&spare_lock);
  if (nspare < SPARE_BLOCKS) {
    spare_blocks[nspare++] = b;
    b = NULL;
  }
  kkr_spin_unlock(&spare_lock);
  kkr_free(b, ITEM_BLOCK * sizeof(kkr_item));
}

/* Appends an item to a queue timeline (the instance lock is held). */
static kkr_item *timeline_push(kkr_timeline *tl) {
  uint32_t clk = tl->clk + 1;
  if (clk / ITEM_BLOCK >= MAX_BLOCKS)
    kkr_die("more than %u work items on one instance", MAX_BLOCKS * ITEM_BLOCK);
  if (!tl->blocks)
    tl->blocks = kkr_alloc(MAX_BLOCKS * sizeof(kkr_item *));
  if (!tl->blocks[clk / ITEM_BLOCK])
    tl->blocks[clk / ITEM_BLOCK] = item_block_new();
  kkr_item *it = &tl->blocks[clk / ITEM_BLOCK][clk % ITEM_BLOCK];
  __atomic_store_n(&tl->clk, clk, __ATOMIC_RELEASE);
  return it;
}

/* The last item of q submitted at or before its submitter's epoch e. */
static uint32_t last_submitted_by(kkr_timeline *q, uint32_t e) {
  /* (Retired items were all submitted before: their blocks are gone.) */
  uint32_t lo = q->retired_blocks ? q->retired_blocks * ITEM_BLOCK - 1 : 0;
  uint32_t hi = q->clk; /* answer in [lo, hi] */
  while (lo < hi) {
    uint32_t mid = lo + (hi - lo + 1) / 2;
    if (kkr_item_get(q->id, mid)->submit_epoch <= e)
      lo = mid;
    else
      hi = mid - 1;
  }
  return lo;
}

/* ---- Instances ---------------------------------------------------------- */

typedef struct {
  const char *space;
  void *ident;
} inst_key;

typedef struct {
  inst_key key;
  kkr_instance *inst;
  UT_hash_handle hh;
} inst_entry;

static inst_entry *inst_table;
static kkr_instance *inst_list;
static kkr_spin inst_lock;

/* Instances with an identity (their internal object's address) are
 * forgotten when that object is freed, so that the next instance Kokkos
 * makes at the same address is a new one: the work of the old one, never
 * fenced, stays unordered with it.  A free asks only if its address may be
 * one (ident_bits: a bit per hash of the identities known). */
#define IDENT_BITS 4096
static uint64_t ident_bits[IDENT_BITS / 64];
uint32_t kkr_inst_gen; /* changed when an instance is forgotten */

static uint32_t ident_bit(uintptr_t ident) {
  return (uint32_t)((ident * 0x9E3779B97F4A7C15ull) >> 52) % IDENT_BITS;
}

void kkr_instance_freed(uintptr_t addr) {
  uint32_t b = ident_bit(addr);
  if (!(__atomic_load_n(&ident_bits[b / 64], __ATOMIC_RELAXED) >> (b % 64) & 1))
    return;
  kkr_spin_lock(&inst_lock);
  inst_entry *e, *tmp;
  HASH_ITER(hh, inst_table, e, tmp) {
    if ((uintptr_t)e->key.ident == addr) {
      HASH_DEL(inst_table, e); /* (the instance stays in inst_list: global
                                  fences still order its work) */
      __atomic_fetch_add(&kkr_inst_gen, 1, __ATOMIC_RELEASE);
    }
  }
  kkr_spin_unlock(&inst_lock);
}

kkr_instance *kkr_instance_get(const char *space, void *ident) {
  inst_key k;
  memset(&k, 0, sizeof k);
  k.space = kkr_intern(space ? space : "Kokkos::DefaultExecutionSpace");
  k.ident = ident;
  kkr_spin_lock(&inst_lock);
  inst_entry *e;
  HASH_FIND(hh, inst_table, &k, sizeof k, e);
  if (!e) {
    uint32_t index = 0;
    for (kkr_instance *i = inst_list; i; i = i->next)
      if (i->space == k.space)
        index++;
    e = kkr_alloc(sizeof *e);
    e->key = k;
    e->inst = kkr_alloc(sizeof(kkr_instance));
    e->inst->space = k.space;
    e->inst->ident = ident;
    e->inst->index = index;
    /* Keep the list in creation order: reports number instances by it. */
    kkr_instance **p = &inst_list;
    while (*p)
      p = &(*p)->next;
    *p = e->inst;
    HASH_ADD(hh, inst_table, key, sizeof k, e);
    if (ident) {
      uint32_t b = ident_bit((uintptr_t)ident);
      __atomic_fetch_or(&ident_bits[b / 64], 1ull << (b % 64),
                        __ATOMIC_RELAXED);
    }
  }
  kkr_spin_unlock(&inst_lock);
  return e->inst;
}

void kkr_instances_each(void (*fn)(kkr_instance *, void *), void *arg) {
  kkr_spin_lock(&inst_lock);
  kkr_instance *list = inst_list;
  kkr_spin_unlock(&inst_lock);
  /* Instances are never removed and the list only grows at its tail. */
  for (kkr_instance *i = list; i; i = __atomic_load_n(&i->next, __ATOMIC_ACQUIRE))
    fn(i, arg);
}

const char *kkr_space_short(const char *space) {
  if (!space)
    return "DefaultExecutionSpace";
  const char *p = strrchr(space, ':');
  return p ? p + 1 : space;
}

/* ---- Submission and fences ---------------------------------------------- */

static kkr_timeline *queue_of(kkr_instance *inst, kkr_thread *t) {
  uint32_t htl = t->info->tl;
  for (uint32_t i = 0; i < inst->nsub; i++)
    if (inst->sub[i].host_tl == htl)
      return inst->sub[i].q;
  if (inst->nsub == inst->capsub) {
    uint32_t cap = inst->capsub ? inst->capsub * 2 : 4;
    inst->sub = kkr_realloc(inst->sub, inst->capsub * sizeof(struct kkr_sub),
                            cap * sizeof(struct kkr_sub));
    inst->capsub = cap;
  }
  kkr_timeline *q = kkr_timeline_new(KKR_TL_QUEUE, t->info, inst);
  inst->sub[inst->nsub].host_tl = htl;
  inst->sub[inst->nsub].q = q;
  inst->nsub++;
  return q;
}

/* ---- Retirement ---------------------------------------------------------- */

uint32_t kkr_nodes_settled;

/* The settled bound rises to h (it never falls). */
static void settle(uint32_t h) {
  uint32_t s = __atomic_load_n(&kkr_nodes_settled, __ATOMIC_RELAXED);
  while (s < h && !__atomic_compare_exchange_n(&kkr_nodes_settled, &s, h, 1,
                                               __ATOMIC_RELAXED,
                                               __ATOMIC_RELAXED))
    ;
  if (s < h)
    kkr_settled_rose();
}

static int retire_due; /* (set by kkr_node_new every RETIRE_NODES nodes) */
static kkr_spin retire_lock;
#define RETIRE_THREADS_MAX 1024u
#define NODES_PER_PAGE (4096u / sizeof(uint64_t))
#define NODES_RELEASE 32768u /* (256 KiB of the table) */
static uint32_t nodes_released; /* entries below it are given back */

/* Threads created but not started yet: the snapshot of live threads does
 * not hold them, and what they will do is ordered after their creator's
 * clock at their creation only.  Until each has its own horizon, none
 * retires nodes above its creator's horizon then (the smallest of those
 * of the threads still to start). */
static kkr_spin starts_lock;
static uint32_t starts_pending;
static uint32_t starts_floor = UINT32_MAX;

void kkr_retire_hold(uint32_t h) {
  kkr_spin_lock(&starts_lock);
  starts_pending++;
  if (h < starts_floor)
    starts_floor = h;
  kkr_spin_unlock(&starts_lock);
}

void kkr_retire_unhold(void) {
  kkr_spin_lock(&starts_lock);
  if (starts_pending && --starts_pending == 0)
    starts_floor = UINT32_MAX;
  kkr_spin_unlock(&starts_lock);
}

/* Nodes below the horizon of every live host thread are ordered before
 * everything to come: the threads' later segments, the work they submit
 * (whose clocks hold theirs), the threads they create.  Accesses are
 * checked when they are made, by those, so that none can race with such a
 * node again: its entry of the node table and its work item are not needed
 * any more (kkr_nodes_retired).  Not while the graph is drawn (the picture
 * needs every node) or the GPU trace is recorded. */
static void retire(void) {
  __atomic_store_n(&retire_due, 0, __ATOMIC_RELAXED);
  if (kkr_dot_on || kkr_gpu_trace_host_on || !kkr_spin_trylock(&retire_lock))
    return;
  kkr_thread_info *live[RETIRE_THREADS_MAX];
  /* The live threads' horizons and the threads still to start, read under
   * starts_lock, which a creation takes before the new thread can start
   * and a start after the thread is live with its horizon: a thread is in
   * one or the other.  (Read apart, a thread that started between the two
   * reads was in neither, and a thread created between them by one whose
   * horizon then grew, likewise: its creator's nodes above its own horizon
   * were retired under it.) */
  kkr_spin_lock(&starts_lock);
  uint32_t n = kkr_threads_snapshot(live, RETIRE_THREADS_MAX);
  uint32_t h = starts_floor;
  for (uint32_t i = 0; i < n; i++) {
    uint32_t hi = __atomic_load_n(&live[i]->host_h, __ATOMIC_RELAXED);
    if (hi < h)
      h = hi;
  }
  kkr_spin_unlock(&starts_lock);
  h -= h % NODES_PER_PAGE; /* (whole pages of the table) */
  uint32_t old = kkr_nodes_retired;
  if (n == 0 || n == RETIRE_THREADS_MAX || h <= old) {
    kkr_spin_unlock(&retire_lock);
    return;
  }
  __atomic_store_n(&kkr_nodes_retired, h, __ATOMIC_RELEASE);
  settle(h);
  /* The items whose blocks hold only retired nodes. */
  kkr_spin_lock(&graph_lock);
  uint32_t ntl = ntimelines;
  kkr_spin_unlock(&graph_lock);
  for (uint32_t id = 1; id <= ntl; id++) {
    kkr_timeline *q = timelines[id];
    if (!q || q->kind != KKR_TL_QUEUE || !q->blocks)
      continue;
    kkr_spin_lock(&q->inst->lock);
    for (uint32_t b = q->retired_blocks;; b++) {
      uint32_t last = (b + 1) * ITEM_BLOCK - 1;
      if (q->clk < last || !q->blocks[b] ||
          q->blocks[b][last % ITEM_BLOCK].node >= h)
        break;
      kkr_item *blk = q->blocks[b];
      q->blocks[b] = NULL;
      q->retired_blocks = b + 1;
      item_block_free(blk);
    }
    kkr_spin_unlock(&q->inst->lock);
  }
  /* Their entries of the node table read 0 from now on; their pages go
   * back to the system NODES_RELEASE entries at a time (each madvise
   * flushes the TLBs of every CPU the process ran on). */
  memset(&kkr_nodes[old], 0, (h - old) * sizeof(uint64_t));
  if (h - nodes_released >= NODES_RELEASE) {
    madvise(&kkr_nodes[nodes_released], (h - nodes_released) * sizeof(uint64_t),
            MADV_DONTNEED);
    nodes_released = h;
  }
  kkr_spin_unlock(&retire_lock);
}

kkr_item *kkr_submit(kkr_thread *t, kkr_instance *inst, kkr_op *op, int fifo,
                     const kkr_vc *extra) {
  kkr_spin_lock(&inst->lock);
  kkr_timeline *q = queue_of(inst, t);
  kkr_vc *vc = &t->item_vc;
  kkr_vc_assign(vc, &t->vc);
  if (extra)
    kkr_vc_join(vc, extra);
  /* For the picture: the items this one is ordered after (kkr_dot.c). */
  uint32_t after[8], nafter = 0, fifo_from[8], nfifo = 0;
  if (kkr_dot_on && extra)
    for (uint32_t i = 1; i < extra->n && nafter < 8; i++) {
      kkr_timeline *tl = kkr_timeline_get(i);
      if (tl && tl->kind == KKR_TL_QUEUE && extra->c[i])
        after[nafter++] = kkr_item_get(i, extra->c[i])->node;
    }
  if (fifo) {
    /* Own earlier items: a chain. Others': those whose submission is
     * ordered before this one. */
    kkr_vc_max(vc, q->id, q->clk);
    if (kkr_dot_on && q->clk)
      fifo_from[nfifo++] = kkr_item_get(q->id, q->clk)->node;
    for (uint32_t i = 0; i < inst->nsub; i++) {
      kkr_timeline *qb = inst->sub[i].q;
      if (qb == q || qb->clk == 0)
        continue;
      uint32_t e = kkr_vc_get(&t->vc, inst->sub[i].host_tl);
      uint32_t last = last_submitted_by(qb, e);
      kkr_vc_max(vc, qb->id, last);
      if (kkr_dot_on && last && nfifo < 8)
        fifo_from[nfifo++] = kkr_item_get(qb->id, last)->node;
    }
  }
  /* What the item's horizon starts from: the submitter's (the item knows
   * all it knew) and, FIFO, the previous item's on this queue. */
  op->item_h = t->host_h;
  op->item_fifo = (uint8_t)fifo;
  if (fifo && q->last_h > op->item_h)
    op->item_h = q->last_h;
  kkr_item *it = timeline_push(q);
  it->kind = op->kind;
  it->label = op->label;
  it->thread = t->info->id;
  it->submit_epoch = kkr_vc_get(&t->vc, t->info->tl);
  it->node = kkr_node_new(q->id, q->clk);
  if (kkr_dot_on) {
    kkr_dot_edge(t->host_node, it->node, KKR_DOT_SUBMIT, NULL);
    for (uint32_t i = 0; i < nfifo; i++)
      kkr_dot_edge(fifo_from[i], it->node, KKR_DOT_FIFO, NULL);
    for (uint32_t i = 0; i < nafter; i++)
      kkr_dot_edge(after[i], it->node, KKR_DOT_AFTER, NULL);
  }
  /* Kernels submitted from one place run the same code: one site table. */
  if (t->last_sites_key != t->ops[0].pc || !t->last_sites) {
    t->last_sites_key = t->ops[0].pc;
    t->last_sites = kkr_sites_for(t->ops[0].pc);
  }
  it->sites = t->last_sites;
  kkr_vc_join(&inst->accum, vc);
  kkr_vc_max(&inst->accum, q->id, q->clk);
  op->inst = inst;
  op->item = it;
  op->item_node = it->node;
  op->item_tl = q->id;
  op->item_clk = q->clk;
  kkr_spin_unlock(&inst->lock);
  /* Host accesses after the submission are not ordered before the item. */
  kkr_host_tick(t);
  if (KKR_UNLIKELY(retire_due))
    retire();
  return it;
}

void kkr_fence_snapshot(kkr_instance *inst, kkr_vc *dst) {
  kkr_spin_lock(&inst->lock);
  kkr_vc_join(dst, &inst->accum);
  kkr_spin_unlock(&inst->lock);
}

static void snap_one(kkr_instance *inst, void *arg) {
  kkr_fence_snapshot(inst, arg);
}

void kkr_instance_learn(kkr_instance *inst, const kkr_vc *vc) {
  kkr_spin_lock(&inst->lock);
  kkr_vc_join(&inst->accum, vc);
  kkr_spin_unlock(&inst->lock);
}

void kkr_fence_all_snapshot(kkr_vc *dst) { kkr_instances_each(snap_one, dst); }

typedef struct {
  const char *space;
  kkr_vc *dst;
} space_snap;

static void snap_space(kkr_instance *inst, void *arg) {
  space_snap *s = arg;
  if (inst->space == s->space)
    kkr_fence_snapshot(inst, s->dst);
}

void kkr_fence_space_snapshot(const char *space, kkr_vc *dst) {
  space_snap s = {kkr_intern(space), dst};
  kkr_instances_each(snap_space, &s);
}

/* ---- Nodes ------------------------------------------------------------- */

uint64_t *kkr_nodes;
static uint32_t next_node = 1;
uint32_t kkr_nodes_retired;
/* Nodes made between two retirements (64 KiB of the node table, two
 * blocks of work items). */
#define RETIRE_NODES 8192u

#define NODES_PREFAULT 8192u

uint32_t kkr_node_next(void) {
  return __atomic_load_n(&next_node, __ATOMIC_RELAXED);
}

uint32_t kkr_node_new(uint32_t tl, uint32_t clk) {
  if (!kkr_nodes) {
    kkr_spin_lock(&graph_lock);
    if (!kkr_nodes) {
      __atomic_store_n(&kkr_nodes,
                       kkr_mmap_noreserve(sizeof(uint64_t) << KKR_NODE_BITS,
                                          "the node table"),
                       __ATOMIC_RELEASE);
    }
    kkr_spin_unlock(&graph_lock);
  }
  uint32_t id = __atomic_fetch_add(&next_node, 1, __ATOMIC_RELAXED);
  if (id >= KKR_NODE_MAX)
    kkr_die("more than %u host segments and work items: kkrace cannot tell "
            "them apart any longer",
            KKR_NODE_MAX - 1);
  /* The table is mapped in 64 KiB at a time, ahead of its use. */
  if (id % NODES_PREFAULT == 0)
    kkr_prefault(&kkr_nodes[id], NODES_PREFAULT * sizeof(uint64_t));
  if (id % RETIRE_NODES == 0)
    __atomic_store_n(&retire_due, 1, __ATOMIC_RELAXED);
  kkr_nodes[id] = (uint64_t)clk << 16 | tl;
  return id;
}

void kkr_graph_summary(int fd) {
  uint32_t made = __atomic_load_n(&next_node, __ATOMIC_RELAXED) - 1;
  uint32_t retired = __atomic_load_n(&kkr_nodes_retired, __ATOMIC_RELAXED);
  if (retired) {
    char line[160];
    int n = snprintf(line, sizeof line,
                     "kkrace: nodes retired: the first %u of %u (and their "
                     "work items)\n",
                     retired - 1, made);
    kkr_write_all(fd, line, (size_t)n);
  }
}

uintptr_t kkr_node_owner(uint32_t node) {
  if (!node || !kkr_nodes)
    return 0;
  uint64_t n = __atomic_load_n(&kkr_nodes[node], __ATOMIC_RELAXED);
  kkr_timeline *tl = kkr_timeline_get((uint32_t)n & 0xffff);
  if (!tl)
    return 0;
  if (tl->kind == KKR_TL_HOST)
    return (uintptr_t)tl->thread | 1;
  return (uintptr_t)kkr_item_get(tl->id, (uint32_t)(n >> 16));
}

/* ---- The current node --------------------------------------------------- */

static void use_sites(kkr_thread *t, kkr_sites *s) { t->sites = s; }

/* Nodes scanned at most per update (item horizons may start far behind). */
#define HORIZON_SCAN_MAX 4096

/* The first node at or above h (a horizon for vc) that vc does not order
 * before itself: the new horizon. */
static uint32_t horizon_scan(const kkr_vc *vc, uint32_t h, uint32_t max) {
  uint32_t end = __atomic_load_n(&next_node, __ATOMIC_ACQUIRE);
  uint32_t retired = __atomic_load_n(&kkr_nodes_retired, __ATOMIC_ACQUIRE);
  if (h < retired)
    h = retired; /* (their entries read 0) */
  if (h == 0)
    h = 1;
  if (end - h > max && end > h)
    end = h + max;
  while (h < end) {
    /* A node still being made by another thread reads 0: not before. */
    uint64_t n = __atomic_load_n(&kkr_nodes[h], __ATOMIC_RELAXED);
    if (!n || kkr_vc_get(vc, (uint32_t)n & 0xffff) < (uint32_t)(n >> 16))
      break;
    h++;
  }
  return h;
}

static void set_horizon(kkr_thread *t, uint32_t h) {
  if (KKR_UNLIKELY(kkr_gpu_trace_host_on))
    h = 0; /* every host access meets the GPU's records on the slow path,
              where the GPU event trace records it */
  t->hz = (uint64_t)h << KKR_REC_NODE_SHIFT;
  if (t->above_set) {
    memset(t->above, 0, sizeof t->above);
    t->above_set = 0;
  }
  kkr_shared_new_era(); /* (stamps speak of one node and horizon) */
}

void kkr_horizon_host(kkr_thread *t) {
  if (!kkr_nodes)
    return;
  t->host_h = horizon_scan(&t->vc, t->host_h, UINT32_MAX);
  __atomic_store_n(&t->info->host_h, t->host_h, __ATOMIC_RELAXED);
  /* (The only host thread: its horizon is the smallest of all.  Once it
   * created one, or another runs instrumented code, retirement alone
   * raises the bound: kkr_retire_hold.) */
  if (!__atomic_load_n(&kkr_spawned, __ATOMIC_ACQUIRE) &&
      !__atomic_load_n(&kkr_mt, __ATOMIC_RELAXED) && !kkr_gpu_trace_host_on)
    settle(t->host_h);
  if (!t->cur_is_item)
    set_horizon(t, t->host_h);
}

void kkr_node_host(kkr_thread *t) {
  memset(t->before, 0, sizeof t->before);
  t->cur_node = t->host_node;
  t->abi.cur_rec = (uint64_t)t->host_node << KKR_REC_NODE_SHIFT;
  t->abi.item_rec = 0;
  t->abi.strand_mode = 0;
  t->abi.item_lossy = 0;
  t->cur_is_item = 0;
  t->same_mask = KKR_REC_NODE_BITS;
  t->multi_mask = ~(uint64_t)0; /* no host record is a MULTI read */
  t->cur_vc = &t->vc;
  t->item_op = NULL;
  t->abi.team_mode = 0;
  t->abi.upd_len = 0;
  use_sites(t, t->info->sites);
  kkr_horizon_host(t);
}

void kkr_node_item(kkr_thread *t, kkr_op *op) {
  memset(t->before, 0, sizeof t->before);
  t->cur_node = op->item_node;
  t->abi.item_rec = (uint64_t)op->item_node << KKR_REC_NODE_SHIFT;
  t->abi.cur_rec = t->abi.item_rec |
                   (uint64_t)KKR_STRAND_BACKEND << KKR_REC_STRAND_SHIFT;
  t->abi.strand_mode = 0; /* until its first strand says what it is */
  t->abi.item_lossy = 0;
  t->abi.row_i0 = ~0ull; /* no row's ids known inline yet */
  t->cur_is_item = 1;
  t->same_mask = KKR_REC_NODE_BITS | KKR_REC_STRAND_BITS | KKR_R_M;
  t->multi_mask = KKR_REC_NODE_BITS | 0xF;
  t->cur_vc = &t->item_vc;
  t->item_op = op;
  t->abi.team_mode = 0;
  t->strand_count = 0;
  t->last_value_lo = t->last_value_hi = 0; /* Views may have come and gone */
  use_sites(t, op->item->sites);
  /* The item's own node stops the scan: its clock does not include it. */
  uint32_t h = horizon_scan(&t->item_vc, op->item_h, HORIZON_SCAN_MAX);
  set_horizon(t, h);
  if (op->item_fifo) {
    kkr_timeline *q = kkr_timeline_get(op->item_tl);
    if (q && h > q->last_h)
      q->last_h = h;
  }
}

void kkr_host_tick(kkr_thread *t) {
  uint32_t tl = t->info->tl;
  uint32_t e = kkr_vc_get(&t->vc, tl) + 1;
  if (e == 0)
    kkr_die("a host thread ran out of epochs (2^32 releases)");
  kkr_vc_set(&t->vc, tl, e);
  uint32_t prev = t->host_node;
  t->host_node = kkr_node_new(tl, e);
  kkr_dot_edge(prev, t->host_node, KKR_DOT_PROGRAM, NULL);
  if (!t->cur_is_item)
    kkr_node_host(t);
}
