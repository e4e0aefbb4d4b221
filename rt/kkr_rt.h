/* kkrace runtime: the computation graph of ../shared/design/SEMANTICS.md,
 * built online.
 *
 * Ground rules (see also common/kkr_common.h):
 *  - Nodes are host segments and work items.  A node is named by
 *    (timeline, epoch): each host thread is a timeline whose epoch grows at
 *    every release; each (execution space instance, submitting thread) pair
 *    is a timeline whose epochs are its work items, in submission order.
 *  - A node's vector clock says, per timeline, up to which epoch everything
 *    is ordered before the node.  A work item's clock does not include the
 *    item itself: its strands are told apart by strand ids instead, and two
 *    strands of one item are unordered unless they are the same strand or
 *    one of them is the backend's own code (KKR_STRAND_BACKEND).
 *  - The graph is logical: it never depends on how many threads the backend
 *    used or on timing, except where SEMANTICS.md says so (a fence covers the
 *    work submitted before the call).
 *  - Operations (kkr_op) wrap calls into Kokkos; the innermost operation that
 *    models its content ("absorbs") decides what nested Kokkos calls mean. */
#ifndef KKR_RT_H
#define KKR_RT_H

#include <pthread.h>
#include <time.h>
#include <stdint.h>

#include "kkr_abi.h"
#include "kkr_common.h"
#include "kkr_flags.h"
#include "kkr_shadow.h"

#define KKR_MAX_OPS 64
#define KKR_TSCRATCH_MAX 8
#define KKR_SUBMIT_STACK_MAX 64 /* frames kept of a submission's stack */
#define KKR_MAX_TIMELINES 65535

/* Strand ids (20 bits in a shadow record). */
#define KKR_STRAND_HOST 0    /* a host segment: no strands */
#define KKR_STRAND_BACKEND 1 /* a work item's own code, outside the functor */

/* ---- Vector clocks ------------------------------------------------------ */

typedef struct {
  uint32_t n, cap; /* entries in use / allocated */
  uint32_t *c;     /* c[timeline] = epoch */
} kkr_vc;

KKR_INLINE uint32_t kkr_vc_get(const kkr_vc *v, uint32_t i) {
  return i < v->n ? v->c[i] : 0;
}
void kkr_vc_set(kkr_vc *v, uint32_t i, uint32_t val);
void kkr_vc_max(kkr_vc *v, uint32_t i, uint32_t val); /* c[i] = max(c[i], val) */
void kkr_vc_join(kkr_vc *dst, const kkr_vc *src);
void kkr_vc_assign(kkr_vc *dst, const kkr_vc *src);
void kkr_vc_free(kkr_vc *v);

/* ---- Threads, timelines, instances, work items -------------------------- */

/* Access sites: the program counters of one node's accesses, so that a
 * shadow record holds a small index instead of a pc.  Work items share the
 * table of their submission site (the same kernel has the same sites); host
 * threads have one each. */
typedef struct kkr_sites {
  kkr_spin lock;
  uint32_t n, cap, max; /* max: the largest index a record can hold */
  uintptr_t *pcs;
  struct kkr_site_entry *index; /* pc -> index (host tables) */
} kkr_sites;

/* What reports need to know of a host thread, kept after it exits. */
typedef struct kkr_thread_info {
  uint32_t id;   /* 0: the main thread */
  uint32_t tl;   /* its timeline */
  uint32_t create_stack; /* where it was created (stack depot id) */
  uint32_t creator;      /* the id of the thread that created it */
  kkr_sites *sites;
  pthread_t self;
  int tid;       /* the kernel's thread id */
  int finished;  /* the thread function returned: final_vc is set */
  uint32_t host_h; /* its host segment's horizon, for retirement */
  uint32_t final_node; /* its last segment (for pictures) */
  kkr_vc final_vc;
  /* What it waits for now (KKR_WAIT_*), with hang_timeout_ms. */
  uint32_t wait_kind;
  uint32_t wait_target;
  uint32_t wait_stack;
  uintptr_t wait_obj;
  clockid_t cpu_clock;
  int has_cpu_clock;
  uintptr_t stack_lo, stack_hi; /* its stack (0, 0 if unknown) */
  struct kkr_thread_info *next; /* all threads, newest first */
} kkr_thread_info;

/* One work item: a dispatch, an asynchronous copy, a View initialization. */
typedef struct kkr_item {
  kkr_sites *sites;
  const char *label;      /* kernel label (interned) */
  const kkr_copy_info *copy; /* deep_copy: its Views (kkr_intern_copy) */
  uint32_t node;          /* its node id */
  uint32_t stack;         /* where it was submitted (stack depot id) */
  uint32_t submit_epoch;  /* the submitter's own epoch at submission */
  uint32_t thread;        /* the submitting thread's id */
  uint16_t kind;          /* KKR_OP_* of the operation that created it */
  uint8_t nidx;           /* indices of its strands (0: a counter) */
  uint8_t lossy;          /* strand ids do not hold the exact indices */
  uint8_t team;           /* a TeamPolicy item: strand ids are KKR_TEAM_ID */
  uint8_t gpu_conservative; /* a CUDA kernel whose footprint may write more
                               than it does */
  uint8_t rank;           /* an MDRange of more than 3 indices: its rank
                             (KKR_ABI_STRAND_RANK_SHIFT) */
  uint64_t md_layout;     /* an MDRange item of 2 or 3 indices: the layout
                             of its packed ids (KKR_MD_*), fixed at its
                             first strand (0: not yet) */
} kkr_item;

/* An MDRange item's layout (kkr_abi.h): strand (i0, i1, i2) has the packed
 * id (i0 * m1 + i1) * m2 + i2 when i0 < lim0, i1 < m1 and i2 < m2 (2
 * indices: i2 is 0 and m2 1), and lim0 * m1 * m2 <= 2^20 - 2. */
#define KKR_MD_M1(l) ((l) & 0x1FFFFFu)
#define KKR_MD_M2(l) ((l) >> 21 & 0x1FFFFFu)
#define KKR_MD_LIM0(l) ((l) >> 42 & 0x1FFFFFu)
#define KKR_MD_LAYOUT(lim0, m1, m2)                                           \
  ((uint64_t)(m1) | (uint64_t)(m2) << 21 | (uint64_t)(lim0) << 42)
/* The packed index of the indices (i0, i1, i2) (2 indices: i2 0) under
 * layout l: a strand's id less 2 where they fit l, else, modulo the ids'
 * count, the base of the rows beyond l (kkr_md_row_base). */
static inline uint64_t kkr_md_packed(uint64_t l, uint64_t i0, uint64_t i1,
                                     uint64_t i2) {
  return (i0 * KKR_MD_M1(l) + i1) * KKR_MD_M2(l) + i2;
}
/* The layout of an item's ids, or the first-time one where it has none. */
uint64_t kkr_md_layout(const kkr_item *it, uint32_t nidx);

enum { KKR_TL_HOST = 1, KKR_TL_QUEUE = 2 };

typedef struct kkr_timeline {
  uint32_t id;
  uint32_t kind;
  uint32_t clk;                   /* last epoch issued */
  kkr_thread_info *thread;        /* HOST: the thread; QUEUE: the submitter */
  struct kkr_instance *inst;      /* QUEUE: the instance */
  kkr_item **blocks;              /* QUEUE: items[epoch], in blocks of 1024 */
  uint32_t last_h;                /* QUEUE: the horizon of its last item */
  uint32_t retired_blocks;        /* QUEUE: blocks[0, retired_blocks) are
                                     freed (kkr_nodes_retired) */
} kkr_timeline;

typedef struct kkr_instance {
  const char *space;      /* execution space type, interned */
  void *ident;            /* internal instance pointer (NULL: stateless) */
  uint32_t index;         /* per space, in order of first use */
  kkr_spin lock;
  kkr_vc accum;           /* what Q.fence() teaches: all items submitted */
  uint32_t nsub, capsub;
  struct kkr_sub {
    uint32_t host_tl;
    kkr_timeline *q;
  } *sub;                 /* one queue timeline per submitting thread */
  struct kkr_instance *next;
} kkr_instance;

/* A Kokkos operation in progress on a thread. */
typedef struct kkr_op {
  uint16_t kind;          /* KKR_OP_* */
  uint8_t absorbed;       /* an enclosing operation models this one */
  uint8_t absorbs;        /* this operation models what runs inside it */
  uint8_t in_kernel_reported; /* it, or an enclosing one, was reported as
                                 called inside a kernel */
  uint8_t has_exec;       /* exec_ident is known */
  uint8_t quiet;          /* the thread ignores accesses until it ends */
  uint8_t barrier_at_end; /* the team meets when it returns */
  const char *space;      /* execution space type name, or NULL */
  void *exec_ident;
  uint32_t first_node;    /* KKR_OP_RESIZE: the first node made inside it */
  uintptr_t sp;           /* the caller's stack pointer */
  uintptr_t pc, fp;       /* the call site, to walk its stack */
  kkr_instance *inst;
  uint32_t item_node;         /* the work item it created (0: none) */
  uint32_t item_tl, item_clk;
  struct kkr_item *item;      /* and its description */
  uint32_t item_h;            /* a horizon known to hold for the item */
  uint8_t item_fifo;          /* the item follows its queue's earlier items */
  const char *label;
  kkr_vc snap;            /* fences: what the fence teaches, taken at begin */
} kkr_op;

/* The vector lanes (ThreadVectorRange iterations) of the running team in
 * its current phase.  A lane is a strand of its own, with a sub of the team
 * strand id that no thread of the team took in the phase; the table says
 * whose lane it is and of which loop, for the decisions that the strand ids
 * alone cannot make: a lane is ordered after what its thread did before the
 * loop (the thread forks its lanes) and before what it does after (Kokkos
 * joins the lanes when the loop returns), and sibling lanes of one loop are
 * unordered (kkr_lanes_ordered).  Valid while lanes_on; reset by a team
 * barrier and at the end of each team. */
#define KKR_LANES_PER_LOOP 8
typedef struct {
  uint32_t serial;        /* vector loops begun in the phase */
  uint32_t open;          /* the serial of the loop running now (0: none) */
  uint32_t parent;        /* its thread's sub */
  uint32_t taken;         /* its slots given a sub (lane_sub) */
  uint32_t next;          /* the next sub to try, from the top down */
  uint8_t subs[KKR_LANES_PER_LOOP]; /* the sub of each slot */
  uint64_t threads[2];    /* subs seen running as threads */
  uint64_t ambiguous[2];  /* subs seen as a lane and as a thread */
  /* The sites (one bit per site index) where a thread's loops kept their
   * sibling lanes' reads under it (kkr_lanes_fold), and those of its loops
   * before the open one: the open loop's own are the sites of the first
   * but not the second (at the others a record may be either loop's). */
  uint64_t thread_sites[128];
  uint64_t prev_sites;
  uint64_t sites_known[2]; /* subs whose thread_sites are of the phase */
  uint8_t parent_of[128]; /* a lane's thread's sub + 1 (0: not a lane) */
  uint32_t loop_of[128];  /* a lane's loop */
  int64_t lane_idx[128];  /* a lane's index, and its thread's nested */
  int64_t parent_idx[128];/* iteration (for reports) */
} kkr_lanes;

/* A slot of the thread's table of blocks read by one strand each
 * (kkr_shadow.h, pending blocks): the block's address, the era, and the
 * key of its first cell's strand. */
#define KKR_FIRST_SLOTS 2048
typedef struct {
  uintptr_t addr;
  uint64_t key;
  uint32_t era;
} kkr_first_slot;

/* Per-thread state.  The first fields are read on every access. */
typedef struct kkr_thread {
  struct kkr_abi_thread abi; /* what instrumented code touches (kkr_abi.h) */
  union {
    struct {
      uint16_t ignore;       /* > 0: accesses are not checked */
      uint16_t lanes_on;     /* vector lanes in the team's phase (lanes) */
      uint32_t atomic_depth; /* > 0: accesses are atomic by intent */
    };
    uint64_t nofast;         /* any: no inline decision (but see
                                kkr_nofast_single) */
  };
  uintptr_t atomic_pc;    /* where the program called the Kokkos atomic */
/* The inline decisions (single accesses, loops) know vector lanes: only
 * the making of a MULTI read waits for the full path there (sibling lanes'
 * reads are kept under their thread's id, kkr_lanes_fold).  Ranges and
 * runs do not. */
#define kkr_nofast_single(t) ((t)->nofast & ~((uint64_t)0xFFFF << 16))
  /* The last atomic_pc values looked up, by a hash of theirs, and their
   * sites. */
#define KKR_ATOMIC_SITES 8
  uintptr_t atomic_site_pc[KKR_ATOMIC_SITES];
  struct kkr_site_slot atomic_site[KKR_ATOMIC_SITES];
  uintptr_t priv_lo, priv_len; /* stack frames private to the op in progress */
  /* The Views that gathers read last, for whether their cells are worth
   * prefetching (a hint only): their data, and kkr_views_gen then. */
#define KKR_GVIEWS 4
  uintptr_t gview_lo[KKR_GVIEWS], gview_len[KKR_GVIEWS];
  uint32_t gview_gen, gview_next;
  uint64_t hz;            /* horizon << KKR_REC_NODE_SHIFT: records below it are
                             of nodes ordered before the current node */
  uint64_t same_mask;     /* the bits of a record that equal cur_rec's when it
                             is this strand's (node, strand, MULTI) */
  uint64_t multi_mask;    /* the bits that tell a MULTI read of this item */
  uint32_t cur_node;      /* current node id */
  uint32_t cur_is_item;   /* the current node is a work item */
  uint32_t team_on;       /* in a strand of a TeamPolicy item */
  const kkr_vc *cur_vc;   /* what the current node knows */
  kkr_sites *sites;       /* the current node's access sites */
  uint32_t host_node;     /* the node id of the host thread's segment */
  uint32_t before[4];     /* nodes known to be ordered before cur_node */
  uint32_t before_next;
  /* The nodes from the horizon on, up to KKR_ABOVE_NODES of them, that the
   * full path found ordered before cur_node (bit k: node horizon + k): the
   * inline decisions take their records as they take those below the
   * horizon.  Work submitted to two execution space instances in turn,
   * unfenced, stops the horizon at the other instance's first item, and
   * each instance's earlier items lie above it.  Cleared when the horizon
   * or the current node changes (above_set: a bit is set). */
#define KKR_ABOVE_NODES 1024u
  uint64_t above[KKR_ABOVE_NODES / 64];
  uint32_t above_set;
  uint32_t host_h;        /* the horizon of the host segment (only grows) */

  kkr_thread_info *info;
  kkr_vc vc;              /* the host thread's clock */
  uintptr_t stack_lo, stack_hi;

  kkr_op ops[KKR_MAX_OPS];
  uint32_t nops;          /* may exceed KKR_MAX_OPS: the excess is counted */
  kkr_op *item_op;        /* the op whose work item is the current node */
  kkr_vc item_vc;         /* the running work item's clock */
  uintptr_t last_race_pc, last_race_ppc, last_race_elem; /* see kkr_report_race */
  /* The site slot of the last single access that the full path found
   * racing (kkr_access.c, access_more): its next accesses that the inline
   * decisions leave go to the full path at once. */
  const void *racy_slot;
  /* kkr_report_race's last answers: the pc of a node's site (race_pc_node,
   * race_pc_site: 0 none), and the reports of the last two keys
   * (race_key: a racy `x(i) += ...` meets two in turn, its read's and its
   * write's). */
  uint32_t race_pc_node, race_pc_site;
  uintptr_t race_pc_owner, race_pc;
  uint64_t race_key[2];
  void *race_report[2];
  uint32_t strand_count;  /* strands begun in the current item */
  uint32_t *md_seen;      /* the running MDRange kernel's extents seen
                             (kkr_md_seen), or null */
  uint64_t md_row_end;    /* while an MDRange item's first loop over its
                             last index begins its strands, the end of the
                             row it checks (else 0): the first layout's row
                             (kkr_md_begin) */
  /* The threads of a team (TeamPolicy items): the strand id of a team is
   * KKR_TEAM_ID(team, phase, sub) -- sub 0 is the team's own code, a nested
   * loop's iteration j is (j % 126) + 1, a single is 127; team_barrier
   * starts the next phase. */
  uint32_t team_base;     /* KKR_TEAM_ID(team, 0, 0) of the running team */
  uint32_t team_phase;
  uint32_t team_sub;
  int64_t team_sub_idx;   /* the nested iteration, exactly */
  /* The indices of the nested MD range iteration (Kokkos 4's
   * TeamThreadMDRange, ThreadVectorMDRange, TeamVectorMDRange) that last
   * ran as each sub of the team's phase, thread or lane, for reports
   * (rank 0: that sub last ran a one-index iteration). */
  struct {
    uint8_t rank;
    int64_t i[3];
  } md_of[128];
  uint32_t md_used;       /* some sub of the phase ran one */
  uint32_t team_nest;     /* nested strands open */
  /* Thread scratch (thread_scratch): each thread of a team has its own,
   * and the nested iterations one thread runs follow one another, so that
   * no two strands of the team race on it.  The regions handed out, with
   * the node and team they belong to (the memory is the next team's
   * after). */
  uint32_t scratch_thread; /* the scratch space hands out thread scratch */
  uint32_t ntscratch;
  struct {
    uintptr_t lo, hi;
    uint32_t node, team;
  } tscratch[KKR_TSCRATCH_MAX];
  kkr_lanes lanes;        /* the vector lanes of the team's phase */
  uint32_t team_saved_sub[4];
  uintptr_t team_saved_upd[4][2]; /* the enclosing value of a nested
                                     reduction or scan (upd_lo, upd_len) */
  uintptr_t last_value_lo, last_value_hi; /* the last reduction buffer */
  uintptr_t free_size;    /* bytes of the free being checked, for reports */
  uint32_t free_from_node; /* a free inside resize/realloc: the nodes from
                              this one on are the operation's own */
  uint32_t last_submit_stack;     /* the stack of the last submission */
  uint32_t last_submit_n;
  uintptr_t last_submit_pcs[KKR_SUBMIT_STACK_MAX];
  uintptr_t last_sites_key;       /* the site table of the last submission */
  struct kkr_sites *last_sites;
  uint32_t last_inst_gen;         /* (kkr_inst_gen when it was) */
  struct kkr_instance *last_inst; /* the instance last looked up, by */
  const char *last_inst_space;    /* (space name as the pass gave it, */
  void *last_inst_ident;          /*  identity) */
  /* The thread's recent loops over blocks (kkr_access.c, loop_repeats):
   * their start and strand there, by a hash of the start, and the era of
   * each. */
  uintptr_t rep_addr[64];
  uint32_t rep_era[64];
  /* The blocks that the thread's read loops left read by one strand each,
   * by a hash of the block. */
  kkr_first_slot first[KKR_FIRST_SLOTS];
} kkr_thread;
_Static_assert(offsetof(kkr_thread, lanes_on) - offsetof(kkr_thread, nofast) == 2,
               "kkr_nofast_single masks lanes_on out of nofast");
_Static_assert(offsetof(kkr_thread, atomic_depth) - offsetof(kkr_thread, nofast) == 4,
               "nofast holds atomic_depth in its high half (in_atomic_decided)");

/* The current strand (KKR_STRAND_*, or an iteration's id). */
#define KKR_CUR_STRAND(t) KKR_REC_STRAND((t)->abi.cur_rec)

/* ---- Nodes -------------------------------------------------------------- */

/* Every host segment and work item has a node id; records hold it.
 * kkr_nodes[id] = epoch << 16 | timeline. */
KKR_HIDDEN extern uint64_t *kkr_nodes;
/* Retirement: every node below kkr_nodes_retired is ordered before every
 * node that exists or will exist (it was below the horizon of every live
 * host thread), so that no access can race with it any more: its entry of
 * kkr_nodes reads 0 (kkr_node_before: ordered) and its work item is freed
 * with its block.  Memory then stays bounded however many dispatches a
 * program makes. */
KKR_HIDDEN extern uint32_t kkr_nodes_retired;
/* Every node below kkr_nodes_settled is ordered before every node that
 * exists or will exist, as a retired one, but keeps its entry: the same
 * bound without the retirement's rounding and delay (at or above
 * kkr_nodes_retired), for the decisions that drop records no access can
 * race with any more.  While the process has one host thread, that
 * thread's host horizon. */
KKR_HIDDEN extern uint32_t kkr_nodes_settled;
/* A thread is created by a thread whose horizon is h (nothing above h is
 * retired until it starts), and it has started with a horizon of its own
 * (or its creation failed). */
void kkr_retire_hold(uint32_t h);
void kkr_retire_unhold(void);
/* Writes how many nodes were retired, if any (verbosity=1). */
void kkr_graph_summary(int fd);
/* verbosity=1: the kernel launches checked as an earlier one, if any. */
void kkr_gpu_summary(int fd);
/* The id the next node will have. */
uint32_t kkr_node_next(void);
uint32_t kkr_node_new(uint32_t tl, uint32_t clk);
/* What node stands for, from its timeline and epoch: the kkr_item of a work
 * item, or the kkr_thread_info of a host segment with bit 0 set (0: not a
 * node). */
uintptr_t kkr_node_owner(uint32_t node);

/* 1 if everything of node is ordered before a node that knows vc. */
KKR_INLINE int kkr_node_before(const kkr_vc *vc, uint32_t node) {
  uint64_t n = kkr_nodes[node];
  return kkr_vc_get(vc, (uint32_t)n & 0xffff) >= (uint32_t)(n >> 16);
}

/* ---- Sites -------------------------------------------------------------- */

kkr_sites *kkr_sites_new(uint32_t max);
/* The name of the library call made at pc (its return address in the
 * program), whose accesses kkrace checks as the program's there. */
void kkr_call_site_set(uintptr_t pc, const char *call);
const char *kkr_call_site(uintptr_t pc);
/* The site table shared by work items submitted from key (a code address). */
kkr_sites *kkr_sites_for(uintptr_t key);
/* The one table of host code, shared by all threads. */
kkr_sites *kkr_host_sites(void);
struct kkr_thread;
uint32_t kkr_site_index_slow(struct kkr_thread *t, struct kkr_site_slot *slot,
                             uintptr_t pc);
/* The pc of a site, 0 if unknown. */
uintptr_t kkr_site_pc(const kkr_sites *s, uint32_t idx);

/* The current thread's state (exported: instrumented code reads it). */
extern __thread kkr_thread *__kkrace_tls
    __attribute__((tls_model("initial-exec"), visibility("default")));
#define kkr_tls __kkrace_tls
KKR_HIDDEN extern int kkr_inited;
KKR_HIDDEN extern int kkr_mt;            /* a second thread runs instrumented code */
/* kkr_mt under an exported name (an alias of it), for instrumented code: a
 * loop that repeats its checks makes them on its first iteration only while
 * it is 0 (the pass's guardRepeats). */
extern int __kkrace_mt __attribute__((visibility("default")));
KKR_HIDDEN extern int kkr_spawned;       /* the process created a thread */
KKR_HIDDEN extern uintptr_t kkr_text_base; /* start of the main executable's image */
KKR_HIDDEN extern uintptr_t kkr_text_end;  /* and the end of its code */

kkr_thread *kkr_thread_slow(void);
/* The thread's state for synchronization only: made if needed, without
 * making the thread one that runs instrumented code (kkr_mt). */
kkr_thread *kkr_thread_any(void);
KKR_INLINE kkr_thread *kkr_thread_get(void) {
  kkr_thread *t = kkr_tls;
  return KKR_LIKELY(t != NULL) ? t : kkr_thread_slow();
}

/* The horizon: the smallest node id H such that every node below H is
 * ordered before the current node.  It makes the common check of a race-free
 * program one comparison (a record's node below H), and is computed when the
 * current node changes or learns more: a scan over the nodes made since a
 * known lower bound, which only grows along a host thread and along a FIFO
 * queue.  Nodes of unfenced work stop the scan; what lies beyond is checked
 * the slower way. */
void kkr_horizon_host(kkr_thread *t);

/* The strand id (KKR_STRAND_BITS) of a work item's strand with nidx
 * indices (0: the seq-th strand); marks the item lossy when ids collide. */
uint32_t kkr_strand_id(kkr_item *it, uint64_t i0, uint64_t i1, uint64_t i2,
                       uint32_t nidx, uint32_t seq);

/* The base of the row (i0, i1) (2 indices: i0, with i1 0) of an MDRange
 * item of layout l whose indices do not fit l: the strand of last index i
 * there has the id (base + i % KKR_ABI_STRAND_INLINE_MAX) %
 * KKR_ABI_STRAND_INLINE_MAX + 2 (kkr_strand_id).  Where only i0 is beyond
 * the layout (a large array's rows), the packed id of the row's first
 * element modulo KKR_ABI_STRAND_INLINE_MAX: the ids of one row after
 * another follow one another; else a hash of i0 and i1. */
static inline uint64_t kkr_md_row_base(uint64_t l, uint64_t i0, uint64_t i1,
                                       uint32_t nidx) {
  const uint64_t max = KKR_ABI_STRAND_INLINE_MAX;
  if (i0 >= KKR_MD_LIM0(l) && (nidx == 2 || i1 < KKR_MD_M1(l)))
    return kkr_md_packed(l, i0 % max, nidx == 2 ? 0 : i1, 0) % max;
  return nidx == 2 ? kkr_mix64(i0 * 0x9E3779B97F4A7C15ull) % max
                   : kkr_mix64((i0 * 0x9E3779B97F4A7C15ull ^ i1) *
                               0xC2B2AE3D27D4EB4Full) %
                         max;
}

/* A thread's first strand of an MDRange item of nidx (2, 3) indices: the
 * item's layout (fixed now if it has none) for the inline code, and where
 * to keep the extents seen. */
void kkr_md_begin(kkr_thread *t, kkr_item *it, uint32_t nidx);

/* The running item's first strand has nidx indices: the inline code may
 * begin and end the next ones itself (abi.strand_mode, kkr_abi.h). */
KKR_INLINE void kkr_strand_mode(kkr_thread *t, uint32_t nidx) {
  uint32_t kind = t->item_op->kind;
  uint32_t reduce = kind == KKR_OP_EXEC_REDUCE || kind == KKR_OP_EXEC_SCAN;
  if (nidx == 1) {
    t->abi.strand_mode = 1 + reduce;
  } else if (nidx <= 3) {
    kkr_md_begin(t, t->item_op->item, nidx);
    t->abi.strand_mode = KKR_ABI_MODE_MD(nidx, reduce);
  }
}

/* An MDRange strand of nidx (2, 3) indices, or a row of them up to the last
 * index i2 (2 indices: i1, with i2 0), that the runtime saw: the layout of
 * the kernel's next items will hold them (kkr_md_begin). */
KKR_INLINE void kkr_md_seen(kkr_thread *t, uint64_t i0, uint64_t i1,
                            uint64_t i2) {
  uint32_t *e = t->md_seen;
  if (!e)
    return;
  const uint64_t cap = 1u << 21; /* (beyond any layout) */
  uint64_t v[3] = {i0 + 1, i1 + 1, i2 + 1};
  for (int k = 0; k < 3; k++)
    if (v[k] > __atomic_load_n(&e[k], __ATOMIC_RELAXED))
      __atomic_store_n(&e[k], (uint32_t)(v[k] < cap ? v[k] : cap),
                       __ATOMIC_RELAXED);
}

/* The current node becomes the host thread / the op's work item. */
void kkr_node_host(kkr_thread *t);
void kkr_node_item(kkr_thread *t, kkr_op *op);
/* The host thread starts a new segment (after a release). */
void kkr_host_tick(kkr_thread *t);

kkr_timeline *kkr_timeline_get(uint32_t id);
kkr_timeline *kkr_timeline_new(uint32_t kind, kkr_thread_info *thread,
                               kkr_instance *inst);
kkr_item *kkr_item_get(uint32_t tl, uint32_t clk);
/* The object at addr was freed: an instance whose identity it was is
 * forgotten (the next one there is another). */
void kkr_instance_freed(uintptr_t addr);
KKR_HIDDEN extern uint32_t kkr_inst_gen;
kkr_instance *kkr_instance_get(const char *space, void *ident);
/* "Serial" for "Kokkos::Serial", and so on. */
const char *kkr_space_short(const char *space);
/* Calls fn on every instance. */
void kkr_instances_each(void (*fn)(kkr_instance *, void *), void *arg);

/* Submits a work item from thread t to inst: sets t->item_vc to its clock
 * (FIFO edges per the model, plus 'extra' if not NULL) and fills op's item
 * fields.  Returns the item. */
kkr_item *kkr_submit(kkr_thread *t, kkr_instance *inst, kkr_op *op,
                     int fifo, const kkr_vc *extra);
/* dst joins what a fence of inst / of all instances / of every instance of
 * one space would teach now. */
void kkr_fence_snapshot(kkr_instance *inst, kkr_vc *dst);
void kkr_fence_all_snapshot(kkr_vc *dst);
/* What inst's work comes after grows by vc (a CUDA stream waiting on an
 * event): its later items, and its fences, include it. */
void kkr_instance_learn(kkr_instance *inst, const kkr_vc *vc);
/* The host thread learns snap (what a fence or a synchronization teaches):
 * a new segment begins if it is news. */
void kkr_host_learn(kkr_thread *t, const kkr_vc *snap);
void kkr_fence_space_snapshot(const char *space, kkr_vc *dst);

/* ---- Stacks ------------------------------------------------------------- */

/* Stack depot: equal stacks share one id (> 0). */
uint32_t kkr_stack_put(const uintptr_t *pcs, uint32_t n);
const uintptr_t *kkr_stack_get(uint32_t id, uint32_t *n);
/* Walks frame pointers from (pc, fp) within the thread's stack. */
uint32_t kkr_unwind_fp(kkr_thread *t, uintptr_t pc, uintptr_t fp,
                       uintptr_t *out, uint32_t max);
/* The stack of the current access: libunwind when it can be loaded, else
 * frame pointers; starts at pc. */
uint32_t kkr_unwind_here(kkr_thread *t, uintptr_t pc, uintptr_t fp,
                         uintptr_t *out, uint32_t max);
/* The site index of the access at pc (whose site slot is slot, or NULL)
 * for the current node: the slot remembers it for the current table. */
KKR_INLINE uint32_t kkr_site_index(kkr_thread *t, struct kkr_site_slot *slot,
                                   uintptr_t pc) {
  if (KKR_LIKELY(slot && slot->table == t->sites))
    return (uint32_t)slot->idx;
  return kkr_site_index_slow(t, slot, pc);
}

/* ---- Accesses ----------------------------------------------------------- */

/* Checks and records an access of size bytes at addr by the current node. */
void kkr_access_range(kkr_thread *t, uintptr_t addr, uintptr_t size,
                      uint32_t flags, uintptr_t pc, uintptr_t fp);
/* The same, with the site slot of pc (NULL: none). */
void kkr_access_range_at(kkr_thread *t, uintptr_t addr, uintptr_t size,
                         uint32_t acc, uintptr_t pc,
                         struct kkr_site_slot *slot);
#define KKR_ACC_WRITE 1u /* flags of kkr_access_range */
#define KKR_ACC_ATOMIC 2u
#define KKR_ACC_FREE 16u

/* ---- Allocations -------------------------------------------------------- */

typedef struct {
  uintptr_t lo, hi;
  const char *label; /* View label, interned */
  const char *space; /* memory space name */
  uint8_t raw;       /* no Kokkos header: the data starts at lo (and may be
                        device memory, which the host must not read) */
  uint32_t esz;      /* the size of one element, when the pass told it
                        (__kkrace_view_elements), else 0 */
  uint64_t nelem;    /* and their number */
} kkr_view_alloc;

void kkr_views_add(uintptr_t lo, uintptr_t size, const char *label,
                   const char *space);
/* An allocation that is not a Kokkos View's (CUDA memory): no header. */
void kkr_views_add_raw(uintptr_t lo, uintptr_t size, const char *label,
                       const char *space);
/* Is addr in a team scratch buffer (never racing between teams) or in a
 * per-thread pool (never racing)?  The kind, or 0. */
enum { KKR_SCRATCH_TEAM = 1, KKR_SCRATCH_POOL = 2 };
int kkr_is_scratch(uintptr_t addr);
/* A race with another team's record in team scratch memory was dropped at
 * addr: teams use the buffer there. */
void kkr_scratch_used(uintptr_t addr);
/* A team begins (one thread running instrumented code): the records of
 * team scratch memory where teams were seen to meet each other's are
 * another team's, which never race with this one's; they go, so that the
 * team's accesses are decided without meeting them. */
void kkr_scratch_team_begin(void);
/* Removes the allocation reported at lo; *out gets its data range. */
int kkr_views_take(uintptr_t lo, kkr_view_alloc *out);
/* The View allocation whose data holds addr (copied into *out); 0 if none. */
int kkr_views_find(uintptr_t addr, kkr_view_alloc *out);
/* Large blocks of the C heap (malloc, calloc, realloc: arrays that a
 * program's kernels reach through raw pointers rather than Views), of
 * KKR_HEAP_ARRAY_MIN bytes or more: the block holding addr, its [lo, hi)
 * in *out (nothing else set); 0 if none. */
#define KKR_HEAP_ARRAY_MIN ((uintptr_t)16 << 10)
int kkr_heap_find(uintptr_t addr, kkr_view_alloc *out);
/* The same for a View allocation's data, else a large heap block. */
int kkr_array_find(uintptr_t addr, kkr_view_alloc *out);
/* Changes each time a View allocation is added or taken. */
KKR_HIDDEN extern uint32_t kkr_views_gen;
uintptr_t kkr_views_object_end(uintptr_t addr, uintptr_t cap);
/* Bytes of [lo, hi) that View allocations (and CUDA allocations) hold. */
uintptr_t kkr_views_bytes_in(uintptr_t lo, uintptr_t hi);
/* The memory [addr, addr + size) is freed by the current node: a write of
 * all of it (work still using it races), then its shadow is cleared. */
void kkr_memory_freed(kkr_thread *t, uintptr_t addr, uintptr_t size,
                      uintptr_t pc, uintptr_t fp);

/* ---- Kokkos Tools callbacks (called through the tools shim) ------------- */

void kkr_kokkos_label(const char *name);
void kkr_kokkos_fence_all_now(kkr_thread *t);
void kkr_kokkos_deep_copy(const char *dst_label, const char *src_label,
                          uintptr_t dst, uintptr_t src, uint64_t size);

/* ---- Host threads (kkr_sync.c) ------------------------------------------ */

/* The thread whose pthread_t is th, or NULL. */
kkr_thread_info *kkr_thread_info_of(pthread_t th);
/* The thread whose stack holds addr (a running one first), or NULL. */
kkr_thread_info *kkr_thread_of_stack(uintptr_t addr);
/* Whether pc lies in the CUDA driver or runtime (libcuda, libcudart,
 * libnvidia-*), CUPTI or one of kkrace's own modules (dladdr: not fast). */
int kkr_foreign_library_pc(uintptr_t pc);
/* Whether pc lies in a shared library whose file name starts with one of
 * the n prefixes. */
int kkr_pc_in_libraries(uintptr_t pc, const char *const *prefixes, size_t n);
/* Who calls a lock, condition variable, semaphore, barrier or pthread_once
 * from pc: the program (its calls order threads), a library whose
 * synchronization is its own (the CUDA driver and runtime, CUPTI, kkrace's
 * modules: its calls go straight to libc), or Kokkos' own library (its
 * locks are tracked but order nothing; its other calls go to libc). */
enum { KKR_CALLER_PROGRAM, KKR_CALLER_FOREIGN, KKR_CALLER_KOKKOS };
int kkr_sync_caller(uintptr_t pc);
/* Release and acquire at a host atomic's address (KKR_AF_* flags). */
void kkr_sync_atomic(uintptr_t addr, uint32_t aflags);

/* Team strand ids: 2 + team (10 bits) | phase (3 bits) | sub (7 bits). */
#define KKR_TEAM_ID(team, phase, sub)                                         \
  (2u + (((uint32_t)(team) % 1022u) << 10 | ((uint32_t)(phase) & 7u) << 7 |   \
         (uint32_t)(sub)))
#define KKR_TEAM_OF(id) (((id) - 2u) >> 10)
/* Whether w is thread scratch of the running team (kkr_thread.tscratch). */
int kkr_thread_scratch(const kkr_thread *t, uintptr_t w);
#define KKR_TEAM_PHASE(id) ((((id) - 2u) >> 7) & 7u)
#define KKR_TEAM_SUB(id) (((id) - 2u) & 127u)
#define KKR_TEAM_SINGLE 127u
_Static_assert(KKR_TEAM_SINGLE == KKR_ABI_TEAM_SINGLE,
               "the inline code begins a team's single as thread 127");
/* Is the running work item a TeamPolicy's? */
#define kkr_in_team_item(t)                                                   \
  ((t)->item_op && (t)->item_op->item && (t)->item_op->item->team)
/* A team barrier in the running strand. */
void kkr_team_barrier(kkr_thread *t);
/* Same node, same team, another strand: whether the record of strand rs is
 * ordered before the current strand all the same, by a vector loop's fork
 * or join (kkr_lanes). */
int kkr_lanes_ordered(const kkr_thread *t, uint64_t rec);
/* The same for the current strand cs of a loop's check (the inline
 * decisions, which do not set the thread's current strand per element). */
int kkr_lanes_ordered_at(const kkr_thread *t, uint32_t cs, uint64_t rec);
/* Whether the lanes of a vector loop beginning now in the current strand
 * are strands of their own (else they are the current strand). */
int kkr_lanes_loop(kkr_thread *t);
/* The strand id of the open vector loop's lane of index i (lanes of their
 * own: kkr_lanes_loop); the lane's sub is taken if it has none yet. */
uint32_t kkr_lane_strand(kkr_thread *t, uint64_t i);
/* The record's strand rs and the current one are two lanes of one vector
 * loop of one thread (unordered, sharing their thread's scratch). */
int kkr_lanes_siblings(const kkr_thread *t, uint32_t rs);
/* The strand id that a read of sibling lanes (the record r's and the
 * current lane's, nr, of one loop) is kept under: their thread's; 0 if
 * they are not siblings.  Such a read is a fold of the open loop: to the
 * loop's lanes it stays unordered (kkr_lanes_ordered), by its site (the
 * loop's folds' sites are kept; the thread's own code has sites of its
 * own). */
uint32_t kkr_lanes_fold(kkr_thread *t, uint64_t r, uint64_t nr);
/* Whether the record rec holds reads of several lanes of the open loop,
 * the current strand's siblings (for reports). */
int kkr_lanes_is_fold(const kkr_thread *t, uint64_t rec);
/* The same for strand cs instead of the current one (the inline
 * decisions: a sibling's read leaves such a record as it is). */
int kkr_lanes_is_fold_at(const kkr_thread *t, uint32_t cs, uint64_t rec);
/* A team strand id's lane: its index, its thread's sub and nested
 * iteration; 0 if the id is no lane of the current phase. */
int kkr_lanes_describe(const kkr_thread *t, uint32_t strand, int64_t *lane,
                       uint32_t *parent, int64_t *parent_idx);
/* The indices of the nested MD range iteration that strand (of the running
 * team's phase) last ran: its rank (0: none known, or not one), and its
 * indices in idx (the middle ones folded into idx[1] beyond rank 3). */
int kkr_md_describe(const kkr_thread *t, uint32_t strand, int64_t idx[3]);
/* The strand id of the running team's thread sub in its current phase. */
static inline uint32_t kkr_team_strand(const kkr_thread *t, uint32_t sub) {
  return t->team_base + ((t->team_phase & 7u) << 7) + sub;
}

/* A nested TeamThreadRange iteration that instrumented code began inline
 * (abi.team_mode 2): the runtime's own state says so from now on (and the
 * iteration ends through the runtime).  Called where the runtime reads
 * the team's state: team_nest, team_sub, team_sub_idx. */
static inline void kkr_team_sync(kkr_thread *t) {
  if (__builtin_expect(t->abi.team_mode == 2, 0)) {
    t->abi.team_mode = 0;
    t->team_saved_sub[0] = 0;
    t->team_saved_upd[0][0] = t->abi.saved_upd_lo;
    t->team_saved_upd[0][1] = t->abi.saved_upd_len;
    t->team_nest = 1;
    t->team_sub = (uint32_t)((t->abi.cur_rec - t->abi.team_rec) >>
                             KKR_ABI_STRAND_SHIFT);
    t->team_sub_idx = t->abi.team_idx;
  }
}

/* ---- Deadlocks (kkr_deadlock.c) ----------------------------------------- */

/* A fencing call (subkind "fence-in-kernel") or a dispatch
 * ("dispatch-in-kernel") inside a strand. */
void kkr_deadlock_fence_in_kernel(kkr_thread *t, kkr_op *op,
                                  const char *subkind);
/* The lock graph.  Before a lock call: adds the edges from the locks the
 * thread holds (blocking calls only) and returns the stack id of the call
 * (0: not needed); after it succeeds, kkr_dl_locked. */
uint32_t kkr_dl_before_lock(uintptr_t addr, const char *what, int blocking,
                            uintptr_t pc, uintptr_t fp);
void kkr_dl_locked(uintptr_t addr, uint32_t stack);
void kkr_dl_unlock(uintptr_t addr);
/* A fence while holding locks (inst NULL: every instance). */
void kkr_dl_fence(kkr_thread *t, kkr_instance *inst, uintptr_t pc,
                  uintptr_t fp);
/* Locks in [lo, hi) are gone. */
void kkr_dl_forget(uintptr_t lo, uintptr_t hi);

/* What a blocked thread waits for (the watchdog's wait-for graph). */
enum {
  KKR_WAIT_NONE, KKR_WAIT_MUTEX, KKR_WAIT_RDLOCK, KKR_WAIT_WRLOCK,
  KKR_WAIT_COND, KKR_WAIT_JOIN, KKR_WAIT_BARRIER, KKR_WAIT_SEM,
  KKR_WAIT_ONCE, KKR_WAIT_MPI
};
int kkr_watchdog_enabled(void);
void kkr_watchdog_start(void);
/* target: for a join, the joined thread's id + 1. */
void kkr_wait_begin(uint32_t kind, uintptr_t obj, uint32_t target,
                    uintptr_t pc, uintptr_t fp);
void kkr_wait_end(void);
void kkr_owner_set(uintptr_t addr, const char *what, uintptr_t pc,
                   uintptr_t fp);
void kkr_owner_clear(uintptr_t addr);
/* The live threads (at most max); the number. */
uint32_t kkr_threads_snapshot(kkr_thread_info **out, uint32_t max);
/* Where thread id was created (a stack depot id, 0 if unknown) and by
 * which thread (*creator). */
uint32_t kkr_thread_created(uint32_t id, uint32_t *creator);
int kkr_real_pthread_create(pthread_t *th, const pthread_attr_t *attr,
                            void *(*fn)(void *), void *arg);
/* Ends the process now with status (reports are written already). */
_Noreturn void kkr_exit_now(int status);

/* ---- GPU work (kkr_gpu.c) ----------------------------------------------- */

void kkr_gpu_init(void);
/* Kokkos Tools: this thread's Kokkos dispatch begins (name) or ends (NULL). */
void kkr_gpu_kokkos_dispatch(const char *name);
/* Kokkos Tools: a View allocated in device memory, for the GPU trace. */
void kkr_gpu_trace_view(const char *space, const char *label, uintptr_t p,
                        uint64_t size);
/* Coarse allocations (device memory, and host memory beyond
 * gpu_exact_host_bytes) keep their shadow above the user address space
 * (which ends at 2^47), inside the shadow's 2^48: one cell per segment. */
#define KKR_GPU_PROXY ((uintptr_t)1 << 47)
/* The memory that the cell at shadow address word stands for: its first
 * byte, and its length in *len.  Only while the calling thread records a
 * GPU work item's access (the reports of that access). */
uintptr_t kkr_gpu_unproxy(uintptr_t word, uintptr_t *len);
/* Whether the CUDA stream of instance ident (its handle) was created with
 * cudaStreamNonBlocking (reports: the legacy default stream does not wait
 * for it). */
int kkr_gpu_stream_nonblocking(uintptr_t ident);
/* gpu_trace is on: the host's accesses to memory the GPU's work touched
 * are traced too (kkr_access.c), so that a replay meets them. */
KKR_HIDDEN extern int kkr_gpu_trace_host_on;
void kkr_gpu_trace_host(kkr_thread *t, uintptr_t addr, uintptr_t size,
                        uint32_t write);

/* ---- Runtime ------------------------------------------------------------ */

void kkr_init(void);
/* Prints pending reports, writes SARIF; once. */
void kkr_finalize(void);
void kkr_install_crash_handlers(void);
KKR_HIDDEN extern uint32_t kkr_nthreads;
/* The MPI rank from the launcher's environment; -1 when not under MPI. */
extern int kkr_rank;

#endif /* KKR_RT_H */
