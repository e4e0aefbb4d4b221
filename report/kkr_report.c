/* Collecting reports: what a report says about its two accesses, one report
 * per pair of code locations, when reports are printed, the exit status. */
#define _GNU_SOURCE
#include "kkr_report.h"
#include "kkr_dot.h"
#include "kkr_frames.h"
#include "kkr_shadow.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

const char *const kkr_report_kind_json[] = {
#define X(e, json, text) json,
    KKR_REPORT_KINDS(X)
#undef X
};
const char *const kkr_report_kind_text[] = {
#define X(e, json, text) text,
    KKR_REPORT_KINDS(X)
#undef X
};

uint32_t kkr_report_elem_size(const kkr_report *r) {
  if (!r->has_view)
    return 0;
  if (r->view.esz)
    return r->view.esz; /* the View's own element type */
  uint32_t el = 0;
  for (uint32_t i = 0; i < r->naccess && i < 2; i++) {
    uint32_t sz = r->acc[i].size;
    if (sz && !r->acc[i].freed && (!el || sz < el))
      el = sz;
  }
  return el;
}

unsigned long kkr_report_view_elems(const kkr_report *r, uint32_t esz) {
  return r->view.nelem ? (unsigned long)r->view.nelem
                       : (unsigned long)((r->view.hi - r->view.lo) / esz);
}

volatile int kkr_reports_pending;

static kkr_spin reports_lock;
static kkr_report *report_table;            /* by key */
static kkr_report *first_report, **last_next = &first_report;
static kkr_report *pending_from;            /* first report not yet printed */
static uint32_t nreports;
static uint64_t nprinted;                   /* printed and not suppressed */
static int text_fd = 2, json_fd = -1;

/* Reports already printed, by the source lines of their accesses: a
 * read-modify-write such as "c() += 1" races twice (its read and its write),
 * an in-place stencil once per neighbour it reads, and each is one bug on
 * one pair of lines: one report. */
typedef struct {
  UT_hash_handle hh;
  uint64_t key;
  kkr_report *first;
} printed_loc;
static printed_loc *printed_locs;
static int flushing;
static int finished;

extern char __start_kkrace_text[] __attribute__((weak));
extern char __stop_kkrace_text[] __attribute__((weak));

/* ---- Sinks -------------------------------------------------------------- */

void kkr_report_init(void) {
  const char *lp = kkr_flags.log_path;
  if (lp && *lp && strcmp(lp, "stderr") != 0) {
    if (!strcmp(lp, "stdout")) {
      text_fd = 1;
    } else {
      char path[4096];
      snprintf(path, sizeof path, "%s.%d", lp, (int)getpid());
      text_fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
      if (text_fd < 0)
        kkr_die("cannot open log_path file '%s' for writing: %s", path,
                strerror(errno));
    }
  }
  if (kkr_flags.json_path && *kkr_flags.json_path) {
    json_fd = open(kkr_flags.json_path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC,
                   0644);
    if (json_fd < 0)
      kkr_die("cannot open json_path file '%s' for writing: %s",
              kkr_flags.json_path, strerror(errno));
  }
  if (kkr_flags.sarif_path && *kkr_flags.sarif_path) {
    /* Fail now rather than at exit, with the reports lost. */
    int fd = open(kkr_flags.sarif_path, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0)
      kkr_die("cannot open sarif_path file '%s' for writing: %s",
              kkr_flags.sarif_path, strerror(errno));
    close(fd);
  }
  kkr_suppressions_init(kkr_flags.suppressions);
  kkr_dot_init();
}

/* ---- Nodes -------------------------------------------------------------- */

static uint8_t item_node_type(const kkr_item *it, uint32_t strand) {
  switch (it->kind) {
  case KKR_OP_DEEP_COPY_ASYNC: return KKR_NODE_COPY;
  case KKR_OP_FILL_ASYNC:
  case KKR_OP_VIEW_INIT: return KKR_NODE_FILL;
  case KKR_OP_MPI_ASYNC: return KKR_NODE_MPI;
  case KKR_OP_GPU_KERNEL:
  case KKR_OP_GPU_MEMCPY:
  case KKR_OP_GPU_MEMSET:
  case KKR_OP_GPU_FREE:
  case KKR_OP_GPU_HOST_FUNC: return KKR_NODE_GPU;
  default: return strand == KKR_STRAND_BACKEND ? KKR_NODE_WORK : KKR_NODE_STRAND;
  }
}

/* What a node id stands for. */
static void node_from(uint32_t node, uint32_t strand, kkr_node_info *n) {
  memset(n, 0, sizeof *n);
  uint64_t packed = kkr_nodes[node];
  uintptr_t info = kkr_node_owner(node);
  n->node = node;
  n->tl = (uint32_t)packed & 0xffff;
  n->clk = (uint32_t)(packed >> 16);
  n->strand = strand;
  if (info & 1) {
    const kkr_thread_info *ti = (const kkr_thread_info *)(info & ~(uintptr_t)1);
    n->type = KKR_NODE_HOST;
    n->thread = ti->id;
    return;
  }
  const kkr_item *it = (const kkr_item *)info;
  if (!it)
    return; /* (retired: kkr_nodes_retired) */
  kkr_timeline *tl = kkr_timeline_get(n->tl);
  n->has_item = 1;
  n->item = *it;
  n->thread = it->thread;
  n->space = tl && tl->inst ? kkr_space_short(tl->inst->space) : "?";
  n->inst_index = tl && tl->inst ? tl->inst->index : 0;
  n->inst_ident = tl && tl->inst ? (uintptr_t)tl->inst->ident : 0;
  n->type = item_node_type(it, strand);
  if (n->type == KKR_NODE_STRAND) {
    uint32_t s = strand - 2;
    n->nidx = it->nidx;
    n->rank = it->rank;
    n->idx_exact = !it->lossy;
    if (it->nidx == 2 || it->nidx == 3) {
      /* (Exact where the item's ids are: kkr_md_layout.) */
      uint64_t l = kkr_md_layout(it, it->nidx);
      uint32_t m1 = (uint32_t)KKR_MD_M1(l), m2 = (uint32_t)KKR_MD_M2(l);
      n->idx[0] = s / m2 / m1;
      n->idx[1] = s / m2 % m1;
      n->idx[2] = s % m2;
    } else {
      n->idx[0] = s;
    }
    if (it->team) {
      n->team = 1;
      n->team_key = KKR_TEAM_OF(strand);
      n->idx[0] = n->team_key;
      n->sub = KKR_TEAM_SUB(strand);
      n->sub_idx = n->sub && n->sub != KKR_TEAM_SINGLE ? (int64_t)n->sub - 1 : -1;
    }
  }
}

/* A vector lane of the running team's phase: whose lane it is. */
static void node_lane(const kkr_thread *t, kkr_node_info *n) {
  uint32_t parent;
  int64_t lane, parent_idx;
  if (n->type != KKR_NODE_STRAND || !n->team || n->node != t->cur_node ||
      !kkr_lanes_describe(t, n->strand, &lane, &parent, &parent_idx))
    return;
  n->lane = 1;
  n->lane_idx = lane;
  n->sub = parent;
  n->sub_idx = parent == 0 || parent == KKR_TEAM_SINGLE ? -1 : parent_idx;
}

/* A nested MD range's iteration, or a lane of one (of the running team's
 * phase): its indices. */
static void node_md(const kkr_thread *t, kkr_node_info *n) {
  if (n->type != KKR_NODE_STRAND || !n->team || n->node != t->cur_node ||
      (!n->lane && (!n->sub || n->sub == KKR_TEAM_SINGLE)))
    return;
  n->md_rank = (uint8_t)kkr_md_describe(t, n->strand, n->md);
}

static void node_current(kkr_thread *t, kkr_node_info *n) {
  kkr_team_sync(t);
  node_from(t->cur_node, KKR_CUR_STRAND(t), n);
  if (n->type == KKR_NODE_STRAND) {
    /* The running strand's indices are known exactly. */
    n->idx[0] = t->abi.strand_idx0;
    n->idx[1] = t->abi.strand_idx1;
    n->idx[2] = t->abi.strand_idx2;
    n->idx_exact = 1;
    if (n->team && n->sub && n->sub != KKR_TEAM_SINGLE && t->team_nest == 1)
      n->sub_idx = t->team_sub_idx;
    node_lane(t, n);
    node_md(t, n);
  }
}

/* The pc of a recorded access, from its node's site table; the thread's
 * last node and site are kept, as a racy loop's accesses meet one node's
 * one site over and over.  (A node's owner and its sites' pcs do not
 * change while the node is not retired.) */
static uintptr_t record_pc_cached(kkr_thread *t, uint64_t rec) {
  uint32_t node = KKR_REC_NODE(rec);
  if (node != t->race_pc_node ||
      node < __atomic_load_n(&kkr_nodes_retired, __ATOMIC_RELAXED)) {
    t->race_pc_node = node;
    t->race_pc_owner = kkr_node_owner(node);
    t->race_pc_site = 0;
  }
  uintptr_t info = t->race_pc_owner;
  if (!info)
    return 0;
  uint32_t site = (info & 1 ? KKR_REC_HOST_SITE(rec) : KKR_REC_SITE(rec)) + 1;
  if (site != t->race_pc_site) {
    const kkr_sites *s =
        info & 1 ? ((const kkr_thread_info *)(info & ~(uintptr_t)1))->sites
                 : ((const kkr_item *)info)->sites;
    t->race_pc = kkr_site_pc(s, site - 1);
    /* (A site not filled in yet is asked again.) */
    t->race_pc_site = t->race_pc ? site : 0;
  }
  return t->race_pc;
}

/* Strand ids wrap around: for a previous iteration of the running kernel,
 * the candidate index nearest to the current one is the likely one. */
static void resolve_wrapped(kkr_node_info *old, const kkr_node_info *cur) {
  if (old->idx_exact || old->nidx != 1 || cur->nidx != 1 ||
      old->node != cur->node)
    return;
  const int64_t m = (int64_t)(1u << KKR_STRAND_BITS) - 2;
  int64_t c = cur->idx[0], o = old->idx[0] % m;
  int64_t k = c - ((c - o) % m + m) % m;
  if (c - k > m / 2)
    k += m;
  old->idx[0] = k;
}

/* An MDRange strand of a lossy item (ids hashed per row): the old strand
 * of the running kernel is most likely in the current strand's row or a
 * row next to it.  Each such row's candidate index is the one whose id is
 * the old strand's; the first that checks out is taken. */
static void resolve_md(kkr_node_info *old, const kkr_node_info *cur) {
  if (old->idx_exact || (old->nidx != 2 && old->nidx != 3) ||
      old->nidx != cur->nidx || old->node != cur->node || !cur->idx_exact ||
      old->team)
    return;
  const int64_t m = (int64_t)(1u << KKR_STRAND_BITS) - 2;
  uint32_t n = old->nidx, last = n - 1;
  kkr_item it = old->item; /* (kkr_strand_id marks it lossy: a copy) */
  static const int d[] = {0, -1, 1, -2, 2};
  uint64_t l = kkr_md_layout(&it, n);
  /* (Where the row's ids stop packing.) */
  const uint64_t bound = n == 2 ? KKR_MD_M1(l) : KKR_MD_M2(l);
  /* Below the packed bound a row's ids are its packed ones (or, beyond
   * the layout's rows, the packed ones' modulo the ids' count), beyond it
   * its base's: each row's candidate below the bound first (any row's ids
   * reach the old strand's with a last index large enough), then beyond. */
  for (uint64_t from = 0; from <= bound; from += bound)
    for (unsigned a = 0; a < (n == 2 ? 1u : 2u); a++)
      for (unsigned k = 0; k < KKR_ARRAY_SIZE(d); k++) {
        int64_t row[3] = {cur->idx[0], cur->idx[1], cur->idx[2]};
        row[a] += d[k];
        if (row[a] < 0)
          continue;
        row[last] = (int64_t)from;
        int64_t base = (int64_t)kkr_strand_id(&it, (uint64_t)row[0],
                                              (uint64_t)row[1],
                                              (uint64_t)row[2], n, 0) -
                       2 - (int64_t)from;
        int64_t i = (((int64_t)old->strand - 2 - base) % m + m) % m;
        if (!from && i >= (int64_t)bound)
          continue;
        row[last] = i;
        if (kkr_strand_id(&it, (uint64_t)row[0], (uint64_t)row[1],
                          (uint64_t)row[2], n, 0) == old->strand) {
          for (uint32_t j = 0; j < n; j++)
            old->idx[j] = row[j];
          return;
        }
      }
}

static int kkr_node_info_is_host(uint32_t node) {
  return (kkr_node_owner(node) & 1) != 0;
}

static const char *op_name(uint16_t kind) {
  static const char *const names[] = {
#define KKR_OP(e, s) s,
#include "kkr_ops.inc"
#undef KKR_OP
  };
  return kind < KKR_ARRAY_SIZE(names) ? names[kind] : "work";
}

const char *kkr_work_kind(const kkr_node_info *n) {
  if (!n->has_item)
    return "work";
  if (n->item.kind == KKR_OP_VIEW_INIT)
    return "view_init";
  return op_name(n->item.kind);
}

const char *kkr_node_type_json(const kkr_node_info *n) {
  static const char *const t[] = {"host", "strand", "work", "copy", "fill",
                                  "mpi", "gpu"};
  if (n->type == KKR_NODE_GPU)
    switch (n->item.kind) {
    case KKR_OP_GPU_KERNEL: return "kernel";
    case KKR_OP_GPU_MEMCPY: return "memcpy";
    case KKR_OP_GPU_MEMSET: return "memset";
    case KKR_OP_GPU_HOST_FUNC: return "host_func";
    default: return "free";
    }
  return t[n->type];
}

/* "the default stream", "the per-thread default stream", "stream 2". */
void kkr_describe_stream(kkr_str *s, const kkr_node_info *n) {
  if (n->inst_ident == 0)
    kkr_str_printf(s, "the default stream");
  else if ((n->inst_ident >> 40 & 3u) == 3u && !(n->inst_ident & 0xffffffffffu))
    kkr_str_printf(s, "the per-thread default stream");
  else
    kkr_str_printf(s, "stream %u", n->inst_index);
}

/* A kernel label as people read it: Kokkos names unlabeled kernels after
 * the functor's typeid, which is a mangled name. */
static void append_label(kkr_str *s, const char *label) {
  extern char *__cxa_demangle(const char *, char *, size_t *, int *)
      __attribute__((weak));
  if (!label || !*label) {
    kkr_str_printf(s, "(unnamed)");
    return;
  }
  if (__cxa_demangle && !strchr(label, ' ') &&
      (label[0] == 'Z' || label[0] == 'N')) {
    int status = 0;
    char *d = __cxa_demangle(label, NULL, NULL, &status);
    if (d && status == 0) {
      kkr_str_printf(s, "%s", d);
      free(d);
      return;
    }
  }
  kkr_str_printf(s, "%s", label);
}

void kkr_describe_strand(kkr_str *s, const kkr_node_info *n) {
  const char *approx = n->idx_exact ? "" : " (approximately)";
  if (n->others && !n->team) {
    kkr_str_printf(s, "%s (several read it)",
                   n->nidx ? "another iteration" : "another team");
    return;
  }
  if (n->others && n->team && n->sub == 0 && !n->lane) {
    /* The team's own code, which each of its threads runs. */
    kkr_str_printf(s, "team %lld, another of its threads",
                   (long long)n->idx[0]);
    return;
  }
  switch (n->nidx) {
  case 0:
    kkr_str_printf(s, "team %lld%s", (long long)n->idx[0], approx);
    if (n->team && n->sub == KKR_TEAM_SINGLE)
      kkr_str_printf(s, ", in a single");
    else if (n->team && n->sub && n->md_rank && !n->lane) {
      kkr_str_printf(s, ", nested iteration ");
      kkr_describe_indices(s, n->md_rank, n->md);
    } else if (n->team && n->sub && n->sub_idx >= 0)
      kkr_str_printf(s, ", nested iteration %lld", (long long)n->sub_idx);
    if (n->lane && n->md_rank) {
      kkr_str_printf(s, ", vector lane ");
      kkr_describe_indices(s, n->md_rank, n->md);
    } else if (n->lane && n->lane_idx < 0)
      kkr_str_printf(s, ", several of its vector lanes");
    else if (n->lane)
      kkr_str_printf(s, ", vector lane %lld", (long long)n->lane_idx);
    break;
  case 1:
    kkr_str_printf(s, "iteration %lld%s", (long long)n->idx[0], approx);
    break;
  case 2:
    kkr_str_printf(s, "iteration (%lld, %lld)%s", (long long)n->idx[0],
                   (long long)n->idx[1], approx);
    break;
  default:
    kkr_str_printf(s, "iteration ");
    kkr_describe_indices(s, n->rank > 3 ? n->rank : 3, n->idx);
    kkr_str_printf(s, "%s", approx);
  }
}

void kkr_describe_indices(kkr_str *s, uint32_t rank, const int64_t idx[3]) {
  if (rank <= 3) {
    kkr_str_printf(s, "(%lld, %lld", (long long)idx[0], (long long)idx[1]);
    if (rank == 3)
      kkr_str_printf(s, ", %lld", (long long)idx[2]);
    kkr_str_printf(s, ")");
    return;
  }
  uint32_t bits = 64 / (rank - 2u);
  uint64_t mask = bits == 64 ? ~0ull : (1ull << bits) - 1;
  kkr_str_printf(s, "(%lld", (long long)idx[0]);
  for (uint32_t k = 0; k + 2 < rank; k++)
    kkr_str_printf(s, ", %llu",
                   (unsigned long long)(((uint64_t)idx[1] >> (bits * k)) & mask));
  kkr_str_printf(s, ", %lld)", (long long)idx[2]);
}

static void describe_thread(kkr_str *s, uint32_t id) {
  if (id == 0)
    kkr_str_printf(s, "main thread");
  else
    kkr_str_printf(s, "thread T%u", id);
}

void kkr_describe_node(kkr_str *s, const kkr_node_info *n, int with_where) {
  switch (n->type) {
  case KKR_NODE_HOST:
    describe_thread(s, n->thread);
    return;
  case KKR_NODE_STRAND:
  case KKR_NODE_WORK:
    kkr_str_printf(s, "%s '", kkr_work_kind(n));
    append_label(s, n->item.label);
    kkr_str_printf(s, "'");
    if (n->type == KKR_NODE_STRAND) {
      kkr_str_putc(s, ' ');
      kkr_describe_strand(s, n);
    } else {
      kkr_str_printf(s, " (its own code, outside the functor)");
    }
    break;
  case KKR_NODE_COPY:
    kkr_str_printf(s, "deep_copy of '%s' into '%s'",
                   kkr_node_copy_label(n, 1) ? kkr_node_copy_label(n, 1) : "?",
                   kkr_node_copy_label(n, 0) ? kkr_node_copy_label(n, 0) : "?");
    break;
  case KKR_NODE_MPI:
    kkr_str_printf(s, "%s", n->item.label ? n->item.label : "an MPI request");
    return; /* its request is the "instance": nothing more to say */
  case KKR_NODE_GPU:
    if (n->item.kind == KKR_OP_GPU_KERNEL ||
        n->item.kind == KKR_OP_GPU_HOST_FUNC) {
      kkr_str_printf(s, n->item.kind == KKR_OP_GPU_KERNEL ? "kernel '"
                                                          : "host function '");
      append_label(s, n->item.label);
      kkr_str_printf(s, "'");
    } else {
      kkr_str_printf(s, "%s", n->item.label ? n->item.label : "?");
    }
    if (with_where) {
      kkr_str_printf(s, " on ");
      kkr_describe_stream(s, n);
    }
    return;
  case KKR_NODE_FILL:
    if (n->item.kind == KKR_OP_VIEW_INIT) {
      kkr_str_printf(s, "the initialization of a View (");
      append_label(s, n->item.label);
      kkr_str_printf(s, ")");
    } else {
      kkr_str_printf(s, "deep_copy of a value into '%s'",
                     kkr_node_copy_label(n, 0) ? kkr_node_copy_label(n, 0) : "?");
    }
    break;
  }
  if (with_where)
    kkr_str_printf(s, " on %s instance %u", n->space ? n->space : "?",
                   n->inst_index);
}

void kkr_describe_node_id(kkr_str *s, uint32_t node) {
  kkr_node_info n;
  node_from(node, KKR_STRAND_BACKEND, &n);
  if (n.type == KKR_NODE_WORK || n.type == KKR_NODE_STRAND) {
    kkr_str_printf(s, "%s '", kkr_work_kind(&n));
    append_label(s, n.item.label);
    kkr_str_printf(s, "'");
  } else {
    kkr_describe_node(s, &n, 0);
  }
}

/* ---- Collecting --------------------------------------------------------- */

/* A GPU work item's accesses are its code on the device: the report shows
 * where the program launched or started it. */
static void gpu_stack(kkr_access_info *a) {
  if (a->node.type != KKR_NODE_GPU)
    return;
  uint32_t n = 0;
  const uintptr_t *pcs = kkr_stack_get(a->node.item.stack, &n);
  if (n > 64)
    n = 64;
  if (pcs)
    memcpy(a->pcs, pcs, n * sizeof *pcs);
  a->npcs = n;
  a->site_unknown = 0;
}

static const char *race_subkind(const kkr_report *r) {
  const kkr_node_info *a = &r->acc[0].node, *b = &r->acc[1].node;
  if (r->acc[0].freed)
    return "use-after-free";
  if (a->node == b->node && a->type != KKR_NODE_HOST && a->team && b->team &&
      a->team_key == b->team_key)
    return "team-threads";
  if (a->node == b->node && a->type != KKR_NODE_HOST)
    return "iteration-overlap";
  if (a->type == KKR_NODE_HOST && b->type == KKR_NODE_HOST)
    return "host-threads";
  /* The request was pending when the other access came; an MPI operation
   * that reads what unfenced work wrote is a missing fence. */
  if (b->type == KKR_NODE_MPI)
    return "mpi-pending";
  /* CUDA: two streams' work that no event orders; GPU work the host did not
   * wait for. */
  if (a->type == KKR_NODE_GPU && b->type == KKR_NODE_GPU)
    return "unordered-streams";
  if (a->type == KKR_NODE_GPU || b->type == KKR_NODE_GPU)
    return "missing-sync";
  if (a->type != KKR_NODE_HOST && b->type != KKR_NODE_HOST) {
    kkr_timeline *ta = kkr_timeline_get(a->tl), *tb = kkr_timeline_get(b->tl);
    if (ta && tb && ta->inst == tb->inst && ta != tb &&
        kkr_flags.model == KKR_MODEL_KOKKOS)
      return "submission-order";
  }
  return "missing-fence";
}

static uint64_t access_key(uintptr_t pc, int write) {
  return kkr_mix64(((uint64_t)pc << 1) | (uint64_t)(write != 0));
}

static void add_report(kkr_report *r) {
  r->seq = ++nreports;
  HASH_ADD(hh, report_table, key, sizeof r->key, r);
  *last_next = r;
  last_next = &r->next;
  if (!pending_from)
    pending_from = r;
  kkr_reports_pending = 1;
}

static void after_report(void) {
  if (kkr_flags.halt_on_error) {
    kkr_report_flush();
    if (nprinted > 0) {
      kkr_finalize();
      fflush(NULL);
      syscall(SYS_exit_group,
              kkr_flags.exitcode ? (int)kkr_flags.exitcode : 1);
    }
  }
}

/* The element an access of 2^size_log bytes touched, from the granule w and
 * the bytes of it in mask. */
static uintptr_t element_of(uintptr_t w, uint32_t mask, uint32_t size) {
  uintptr_t a = w + (uintptr_t)__builtin_ctz(mask ? mask : 1);
  return size <= 16 ? a & ~(uintptr_t)(size - 1) : a;
}

/* The distinct elements a data race's pair of code locations met, so that
 * its count is of elements, not of racing accesses (a counter that every
 * iteration updates is one element): an open-addressing set of their
 * addresses, up to ELEMSET_MAX of them; beyond, the count stops and says
 * so (count_more).  Under reports_lock. */
typedef struct kkr_elemset {
  uint32_t n, cap;
  uintptr_t key[];
} kkr_elemset;
#define ELEMSET_MAX (1u << 16)

static kkr_elemset *elemset_new(uint32_t cap) {
  kkr_elemset *s = kkr_alloc(sizeof *s + cap * sizeof(uintptr_t));
  s->cap = cap;
  return s;
}

/* Adds elem (nonzero) to s; 1 if it was not there. */
static int elemset_put(kkr_elemset *s, uintptr_t elem) {
  uint32_t h = (uint32_t)(kkr_mix64(elem) & (s->cap - 1));
  while (s->key[h]) {
    if (s->key[h] == elem)
      return 0;
    h = (h + 1) & (s->cap - 1);
  }
  s->key[h] = elem;
  s->n++;
  return 1;
}

/* Counts elem for r (a data race). */
static void count_element(kkr_report *r, uintptr_t elem) {
  if (r->count_more)
    return;
  if (!r->elems)
    r->elems = elemset_new(64);
  if (r->elems->n * 2 >= r->elems->cap) {
    if (r->elems->cap >= ELEMSET_MAX) {
      r->count_more = 1;
      return;
    }
    kkr_elemset *b = elemset_new(r->elems->cap * 2);
    for (uint32_t i = 0; i < r->elems->cap; i++)
      if (r->elems->key[i])
        elemset_put(b, r->elems->key[i]);
    kkr_free(r->elems, sizeof *r->elems + r->elems->cap * sizeof(uintptr_t));
    r->elems = b;
  }
  if (elemset_put(r->elems, elem | 1)) /* (| 1: never 0) */
    r->count = r->elems->n;
}

/* Access kinds, as the access check passes them (kkr_access.c). */
enum { ACC_WRITE = 1, ACC_ATOMIC = 2, ACC_FREE = 16 };

/* An access of an asynchronous deep_copy or fill outside the Views it
 * copies: Kokkos' own reads of the View handles (data(), span()) as it
 * starts the copy, which the calling thread makes before the call returns
 * (freeing the handles after the call is no use after free). */
static int copy_bookkeeping(const kkr_node_info *n, uintptr_t addr) {
  const kkr_copy_info *c = n->item.copy;
  if ((n->type != KKR_NODE_COPY && n->type != KKR_NODE_FILL) || !c ||
      !c->hi[0])
    return 0;
  for (int i = 0; i < 2; i++)
    if (addr >= c->lo[i] && addr < c->hi[i])
      return 0;
  return 1;
}

void kkr_report_race(kkr_thread *t, uintptr_t word, uint32_t mask,
                     uint32_t flags, uintptr_t pc, uintptr_t rec_pc,
                     uintptr_t fp, uint64_t prev) {
  /* (The free of resize/realloc and the operation's own copy.) */
  if (t->free_from_node && KKR_REC_NODE(prev) >= t->free_from_node)
    return;
  uint32_t size = 1u << ((flags >> 12) & 0xf);
  /* A cell of a GPU allocation's segment (kkr_gpu.c): the memory it stands
   * for, where both accesses overlap. */
  uintptr_t seg_len = 0;
  if (word >= KKR_GPU_PROXY)
    word = kkr_gpu_unproxy(word, &seg_len);
  if (seg_len) {
    mask = 1;
    size = seg_len < 0x80000000u ? (uint32_t)seg_len : 0x80000000u;
  }
  uintptr_t elem = element_of(word, mask, size);
  uintptr_t ppc = record_pc_cached(t, prev);
  /* One access spans several granules: count the element once. */
  if (t->last_race_pc == rec_pc && t->last_race_elem == elem &&
      t->last_race_ppc == ppc)
    return;
  t->last_race_pc = rec_pc;
  t->last_race_elem = elem;
  t->last_race_ppc = ppc;
  t->ignore++;
  int cur_w = (flags & (ACC_WRITE | ACC_FREE)) != 0;
  int prev_w = (prev & KKR_R_W) != 0;
  uint64_t ka = access_key(rec_pc, cur_w), kb = access_key(ppc, prev_w);
  uint64_t key = (ka < kb ? ka * 31 + kb : kb * 31 + ka) ^
                 (uint64_t)KKR_REPORT_DATA_RACE;
  /* One of the thread's last two reports again (a racy loop meets them at
   * every access); reports stay in the table. */
  int last = key == t->race_key[0] && t->race_report[0]   ? 0
             : key == t->race_key[1] && t->race_report[1] ? 1
                                                          : -1;
  kkr_spin_lock(&reports_lock);
  kkr_report *r = last >= 0 ? t->race_report[last] : NULL;
  if (!r)
    HASH_FIND(hh, report_table, &key, sizeof key, r);
  if (r) {
    count_element(r, elem);
    kkr_spin_unlock(&reports_lock);
    if (last < 0) {
      t->race_key[1] = t->race_key[0];
      t->race_report[1] = t->race_report[0];
      t->race_key[0] = key;
      t->race_report[0] = r;
    }
    t->ignore--;
    return;
  }
  kkr_spin_unlock(&reports_lock);

  {
    kkr_view_alloc va;
    kkr_dot_edge(KKR_REC_NODE(prev), t->cur_node, KKR_DOT_RACE,
                 kkr_views_find(elem, &va) ? va.label : NULL);
  }
  r = kkr_alloc(sizeof *r);
  r->key = key;
  r->kind = KKR_REPORT_DATA_RACE;
  r->count = 1;
  r->naccess = 2;
  kkr_access_info *cur = &r->acc[0], *old = &r->acc[1];
  cur->write = (uint8_t)cur_w;
  cur->atomic = (flags & ACC_ATOMIC) != 0;
  cur->freed = (flags & ACC_FREE) != 0;
  cur->addr = elem;
  cur->size = size;
  if (cur->freed) {
    cur->size = (uint32_t)(t->free_size < 0xffffffffu ? t->free_size : 0xffffffffu);
    cur->addr = word;
  }
  uintptr_t user_fp = fp ? ((uintptr_t *)fp)[0] : 0;
  if (pc)
    cur->npcs = kkr_unwind_here(t, pc, user_fp, cur->pcs, 64);
  else
    cur->npcs = kkr_unwind_here(t, 0, 0, cur->pcs, 64);
  node_current(t, &cur->node);
  old->write = (uint8_t)prev_w;
  old->atomic = (prev & KKR_R_A) != 0;
  old->size = (uint32_t)__builtin_popcount(KKR_REC_MASK(prev));
  old->addr = element_of(word, KKR_REC_MASK(prev), old->size);
  if (seg_len) {
    old->size = size;
    old->addr = word;
    cur->meet = old->meet = 1;
  }
  old->pcs[0] = ppc;
  old->npcs = ppc ? 1 : 0;
  cur->call = kkr_call_site(rec_pc);
  old->call = kkr_call_site(ppc);
  old->site_unknown = !ppc;
  node_from(KKR_REC_NODE(prev),
            (kkr_node_info_is_host(KKR_REC_NODE(prev)) ? 0 : KKR_REC_STRAND(prev)),
            &old->node);
  node_lane(t, &old->node);
  node_md(t, &old->node);
  if (kkr_lanes_is_fold(t, prev)) {
    old->node.lane = 1; /* (reads of several lanes, kept as their thread's) */
    old->node.lane_idx = -1;
    old->node.md_rank = 0;
  }
  resolve_wrapped(&old->node, &cur->node);
  resolve_md(&old->node, &cur->node);
  if (copy_bookkeeping(&cur->node, word) || copy_bookkeeping(&old->node, word)) {
    kkr_free(r, sizeof *r);
    t->ignore--;
    return;
  }
  if ((prev & KKR_R_M) && old->node.node == cur->node.node &&
      old->node.strand == cur->node.strand) {
    /* The representative reader is this very strand; another one read too,
     * which is the one that races. */
    old->node.idx_exact = 0;
    old->node.others = 1;
  }
  gpu_stack(cur);
  gpu_stack(old);
  r->subkind = race_subkind(r);
  r->has_view = kkr_views_find(cur->addr, &r->view);

  kkr_spin_lock(&reports_lock);
  kkr_report *dup;
  HASH_FIND(hh, report_table, &key, sizeof key, dup);
  if (dup) {
    count_element(dup, elem);
    kkr_spin_unlock(&reports_lock);
    kkr_free(r, sizeof *r);
  } else {
    r->count = 0;
    count_element(r, elem);
    add_report(r);
    kkr_spin_unlock(&reports_lock);
  }
  t->ignore--;
  after_report();
}

/* A deadlock found at one call of the running strand (pc, frame fp),
 * reported once per call site and printed at once: on a backend that
 * locks the instance or waits at the barrier, the call never returns. */
static void report_in_kernel(kkr_thread *t, uintptr_t pc, uintptr_t fp,
                             const char *subkind, const char *op,
                             const char *detail) {
  t->ignore++;
  uint64_t key = access_key(pc, 0) ^ (uint64_t)KKR_REPORT_DEADLOCK;
  kkr_spin_lock(&reports_lock);
  kkr_report *r;
  HASH_FIND(hh, report_table, &key, sizeof key, r);
  if (r) {
    r->count++;
    kkr_spin_unlock(&reports_lock);
    t->ignore--;
    return;
  }
  r = kkr_alloc(sizeof *r);
  r->key = key;
  r->kind = KKR_REPORT_DEADLOCK;
  r->subkind = subkind;
  r->count = 1;
  r->naccess = 1;
  r->op_name = op;
  r->detail = detail;
  kkr_access_info *a = &r->acc[0];
  a->npcs = kkr_unwind_fp(t, pc, fp, a->pcs, 64);
  node_current(t, &a->node);
  add_report(r);
  kkr_spin_unlock(&reports_lock);
  t->ignore--;
  kkr_report_flush();
  after_report();
}

void kkr_report_fence_in_kernel(kkr_thread *t, kkr_op *op, uintptr_t pc,
                                uintptr_t fp, const char *subkind) {
  report_in_kernel(t, pc, fp, subkind, op_name(op->kind), NULL);
}

void kkr_report_divergent_branch(kkr_thread *t, uintptr_t pc, uintptr_t fp,
                                 const char *name, const char *where) {
  report_in_kernel(t, pc, fp, "divergent-barrier", kkr_intern(name),
                   kkr_intern(where));
}

const char *const kkr_step_op_json[] = {"lock", "wait", "fence", "submit"};

void kkr_report_deadlock(const char *subkind, const char *title,
                         const char *detail, const char *explain,
                         uint64_t key, const kkr_step *steps, uint32_t n) {
  kkr_thread *t = kkr_tls;
  if (t)
    t->ignore++;
  key = kkr_mix64(key ^ (uint64_t)KKR_REPORT_DEADLOCK * 0x9e3779b97f4a7c15ull);
  kkr_spin_lock(&reports_lock);
  kkr_report *r;
  HASH_FIND(hh, report_table, &key, sizeof key, r);
  if (r) {
    r->count++;
    kkr_spin_unlock(&reports_lock);
    if (t)
      t->ignore--;
    return;
  }
  r = kkr_alloc(sizeof *r);
  r->key = key;
  r->kind = KKR_REPORT_DEADLOCK;
  r->subkind = subkind;
  r->count = 1;
  r->title = kkr_intern(title);
  r->detail = detail ? kkr_intern(detail) : NULL;
  r->explain = explain ? kkr_intern(explain) : NULL;
  r->op_name = subkind;
  r->nsteps = n;
  r->steps = kkr_alloc((n ? n : 1) * sizeof *r->steps);
  for (uint32_t i = 0; i < n; i++) {
    kkr_access_info *a = &r->steps[i];
    a->what = kkr_intern(steps[i].what);
    a->npcs = steps[i].npcs < 64 ? steps[i].npcs : 64;
    memcpy(a->pcs, steps[i].pcs, a->npcs * sizeof *a->pcs);
    a->node.type = KKR_NODE_HOST;
    a->node.thread = steps[i].thread;
    a->write = steps[i].op; /* the step's KKR_STEP_* */
  }
  add_report(r);
  kkr_spin_unlock(&reports_lock);
  if (t)
    t->ignore--;
  kkr_report_flush();
  after_report();
}

/* ---- Stacks in reports -------------------------------------------------- */

static int in_runtime(uintptr_t pc) {
  return __start_kkrace_text && pc >= (uintptr_t)__start_kkrace_text &&
         pc < (uintptr_t)__stop_kkrace_text;
}

/* Leaves out kkrace's own frames and those of its Kokkos Tools library. */
static void drop_own_frames(kkr_access_info *a) {
  uint32_t i = 0;
  while (i < a->npcs && in_runtime(a->pcs[i]))
    i++;
  if (i) {
    memmove(a->pcs, a->pcs + i, (a->npcs - i) * sizeof(uintptr_t));
    a->npcs -= i;
  }
}

/* Frames of the C++ library and libc that start a thread: below the
 * thread's own function, they say nothing. */
static int thread_start_frame(const char *f) {
  return !strncmp(f, "std::__invoke", 13) || !strncmp(f, "std::thread::", 13) ||
         !strncmp(f, "void std::__invoke", 18) ||
         !strncmp(f, "void std::thread::", 18) ||
         !strcmp(f, "start_thread") || !strncmp(f, "kkr_", 4) ||
         !strcmp(f, "thread_start");
}

void kkr_stack_drop_kkrace(kkr_sym_stack *st) {
  /* Frames of kkrace's libraries (its Kokkos Tools library, its MPI layer)
   * are kkrace's too. */
  uint32_t j = 0;
  for (uint32_t i = 0; i < st->n; i++) {
    const kkr_frame *f = &st->frames[i];
    if (f->module && (!strncmp(f->module, "libkkrace_kokkos_tools", 22) ||
                      !strncmp(f->module, "libkkrace_mpi", 13) ||
                      !strncmp(f->module, "libkkrace_cupti", 15)))
      continue;
    st->frames[j++] = *f;
  }
  st->n = j;
}

void kkr_stack_cut_after_main(kkr_sym_stack *st) {
  for (uint32_t i = 0; i < st->n; i++) {
    const char *f = st->frames[i].function;
    if (f && !strcmp(f, "main")) {
      st->n = i + 1;
      return;
    }
    if (i > 0 && f && thread_start_frame(f)) {
      st->n = i;
      return;
    }
  }
}

/* Frames of libraries without line information at the top of a stack (the
 * Kokkos library freeing a View, say) say less than the program's frame
 * that led there: start at the first frame with a source location. */
static void drop_library_top(kkr_sym_stack *st) {
  uint32_t i = 0;
  while (i < st->n && !st->frames[i].file)
    i++;
  if (i > 0 && i < st->n) {
    memmove(st->frames, st->frames + i, (st->n - i) * sizeof(kkr_frame));
    st->n -= i;
  }
}

/* A kernel launch's stack starts in nvcc's launch code: the stub
 * (__device_stub__...) and the host function named after the kernel.  The
 * program's launch line is below them. */
static void drop_launch_frames(kkr_access_info *a) {
  if (a->node.type != KKR_NODE_GPU || a->node.item.kind != KKR_OP_GPU_KERNEL)
    return;
  kkr_sym_stack *st = &a->sym;
  uint32_t i = 0;
  /* nvcc's launch code: the stub, its wrapper, the runtime's launch helper
   * (in CUDA's headers, crt/). */
  while (i < st->n &&
         ((st->frames[i].function &&
           (!strncmp(st->frames[i].function, "__device_stub__", 15) ||
            !strncmp(st->frames[i].function, "__wrapper__device_stub", 22) ||
            !strncmp(st->frames[i].function, "__cudaLaunch", 12))) ||
          (st->frames[i].file && (strstr(st->frames[i].file, "/crt/") ||
                                  strstr(st->frames[i].file, ".stub.c")))))
    i++;
  const char *label = a->node.item.label;
  size_t n = label ? strcspn(label, "<(") : 0;
  char name[256];
  snprintf(name, sizeof name, "%.*s", (int)n, label ? label : "");
  if (i > 0 && i < st->n && st->frames[i].function && n &&
      kkr_qualified_in(st->frames[i].function, name))
    i++; /* the kernel's host-side function */
  if (i > 0 && i < st->n) {
    memmove(st->frames, st->frames + i, (st->n - i) * sizeof(kkr_frame));
    st->n -= i;
  }
}

/* A frame of Kokkos' own code (by name, or by Kokkos' headers: the kernels
 * of its CUDA backend, cuda_parallel_launch_*, print unqualified), or of
 * the CUDA runtime's C++ wrappers (cudaMemcpyFromSymbolAsync<T> in
 * cuda_runtime.h). */
static int library_frame(const kkr_frame *f) {
  if (kkr_is_kokkos_function(f->function))
    return 1;
  const char *base = f->file ? strrchr(f->file, '/') : NULL;
  return base && (!strncmp(base + 1, "Kokkos_", 7) ||
                  !strcmp(base + 1, "cuda_runtime.h"));
}

/* GPU work that Kokkos or CUDA's wrappers submitted for the program (a
 * CUDA backend's kernel, a deep_copy's cudaMemcpyAsync): the program's
 * frame that called them says where, not the launch code above it. */
static void drop_library_frames(kkr_access_info *a) {
  if (a->node.type != KKR_NODE_GPU)
    return;
  kkr_sym_stack *st = &a->sym;
  uint32_t i = 0;
  while (i < st->n && (library_frame(&st->frames[i]) || !st->frames[i].file))
    i++;
  if (i > 0 && i < st->n) {
    memmove(st->frames, st->frames + i, (st->n - i) * sizeof(kkr_frame));
    st->n -= i;
  }
}

static void symbolize_access(kkr_access_info *a) {
  drop_own_frames(a);
  kkr_symbolize(a->pcs, a->npcs, 0, &a->sym);
  kkr_stack_drop_kkrace(&a->sym);
  drop_library_top(&a->sym);
  drop_launch_frames(a);
  drop_library_frames(a);
  kkr_stack_cut_after_main(&a->sym);
}

static void qualified_name(kkr_str *s, const char *function) {
  size_t start, end;
  kkr_qualified_span(function, &start, &end);
  kkr_str_printf(s, "%.*s", (int)(end - start), function + start);
}

const kkr_frame *kkr_report_top_frame(const kkr_sym_stack *st) {
  for (uint32_t i = 0; i < st->n; i++)
    if (st->frames[i].file && st->frames[i].function &&
        !kkr_is_kokkos_function(st->frames[i].function) &&
        !kkr_is_std_frame(st->frames[i].function, st->frames[i].file))
      return &st->frames[i];
  for (uint32_t i = 0; i < st->n; i++)
    if (st->frames[i].file && !kkr_is_kokkos_function(st->frames[i].function))
      return &st->frames[i];
  return st->n ? &st->frames[0] : NULL;
}

/* Inside a work item, the frames below the functor are the backend's loop
 * and the submission, which the report prints once as "dispatched at". */
static void trim_work_stack(kkr_access_info *a) {
  if (a->node.type == KKR_NODE_HOST || a->node.type == KKR_NODE_MPI ||
      a->node.type == KKR_NODE_GPU)
    return; /* MPI and CUDA work: where the program started it */
  uint32_t i = 0;
  while (i < a->sym.n && kkr_is_kokkos_function(a->sym.frames[i].function))
    i++;
  while (i < a->sym.n && !kkr_is_kokkos_function(a->sym.frames[i].function))
    i++;
  if (i < a->sym.n && i > 0)
    a->sym.n = i;
}

void kkr_function_short(kkr_str *s, const char *function) {
  if (!function) {
    kkr_str_printf(s, "??");
    return;
  }
  qualified_name(s, function);
}

static void describe_location(kkr_report *r) {
  if (r->has_view || r->location)
    return;
  uintptr_t addr = r->acc[0].addr;
  kkr_thread *t = kkr_tls;
  kkr_thread_info *owner;
  kkr_str s = {0};
  uintptr_t start = 0;
  const char *global = kkr_symbolize_data(addr, &start);
  if (global) {
    kkr_str_printf(&s, "global '%s'", global);
    r->object = kkr_intern(s.buf);
    if (start && addr != start)
      kkr_str_printf(&s, " (at offset %lu)", (unsigned long)(addr - start));
  } else if (t && addr >= t->stack_lo && addr < t->stack_hi) {
    kkr_str_printf(&s, "a variable on the stack of ");
    describe_thread(&s, t->info->id);
  } else if ((owner = kkr_thread_of_stack(addr))) {
    kkr_str_printf(&s, "a variable on the stack of ");
    describe_thread(&s, owner->id);
  } else {
    kkr_str_printf(&s, "heap memory");
  }
  r->location = kkr_intern(s.buf);
  if (!r->object)
    r->object = r->location;
  kkr_str_free(&s);
}

void kkr_report_summary(kkr_str *s, const kkr_report *r) {
  if (r->title) {
    kkr_str_printf(s, "deadlock: %s", r->title);
    if (r->detail)
      kkr_str_printf(s, ": %s", r->detail);
    return;
  }
  if (r->kind == KKR_REPORT_DEADLOCK && r->detail) {
    kkr_str_printf(s, "deadlock: %s at %s not reached by every thread of a "
                      "team of ", r->op_name, r->detail);
    kkr_describe_node(s, &r->acc[0].node, 0);
    return;
  }
  if (r->kind == KKR_REPORT_DEADLOCK) {
    kkr_str_printf(s, "deadlock: %s inside ", r->op_name ? r->op_name : "fence");
    kkr_describe_node(s, &r->acc[0].node, 0);
    return;
  }
  kkr_str_printf(s, "data race on ");
  if (r->has_view)
    kkr_str_printf(s, "View '%s'", r->view.label);
  else
    kkr_str_printf(s, "%s", r->location ? r->location : "memory");
  kkr_str_printf(s, " between ");
  kkr_describe_node(s, &r->acc[0].node, 0);
  kkr_str_printf(s, " and ");
  kkr_describe_node(s, &r->acc[1].node, 0);
}

/* ---- Printing ----------------------------------------------------------- */

static uint64_t frame_key(const kkr_sym_stack *st) {
  const kkr_frame *f = kkr_report_top_frame(st);
  if (!f)
    return 0;
  uint64_t h = kkr_mix64((uintptr_t)f->file ^ ((uint64_t)f->line << 32));
  return f->file ? h : kkr_mix64(f->pc);
}

static uint64_t fnv(uint64_t h, const char *v) {
  for (; v && *v; v++)
    h = (h ^ (uint8_t)*v) * 0x100000001b3ull;
  return (h ^ 0xff) * 0x100000001b3ull;
}

/* The report printed earlier for the same kind and source locations. */
static kkr_report *same_location(kkr_report *r) {
  uint64_t a = frame_key(&r->acc[0].sym);
  uint64_t b = r->naccess > 1 ? frame_key(&r->acc[1].sym) : 0;
  uint64_t key = (a < b ? a * 31 + b : b * 31 + a) ^ kkr_mix64(r->kind + 1);
  /* Two Views racing on the same lines are two bugs. */
  key ^= kkr_mix64(fnv(7, r->has_view ? r->view.label : r->object));
  printed_loc *p;
  HASH_FIND(hh, printed_locs, &key, sizeof key, p);
  if (p)
    return p->first;
  p = kkr_alloc(sizeof *p);
  p->key = key;
  p->first = r;
  HASH_ADD(hh, printed_locs, key, sizeof key, p);
  return NULL;
}


static uint64_t frame_fingerprint(const kkr_sym_stack *st) {
  const kkr_frame *f = kkr_report_top_frame(st);
  uint64_t h = 0xcbf29ce484222325ull;
  if (!f)
    return h;
  /* The file's name only: the same report from another checkout or working
   * directory has the same fingerprint.  The line's text where the source
   * can be read, else its number: lines added above it leave it the same. */
  char line[24];
  uint64_t text = kkr_source_line_hash(f->file, f->line);
  if (text)
    snprintf(line, sizeof line, "t%016llx", (unsigned long long)text);
  else
    snprintf(line, sizeof line, "%u", f->line);
  const char *base = f->file ? strrchr(f->file, '/') : NULL;
  h = fnv(h, base ? base + 1 : f->file);
  h = fnv(h, f->file ? line : NULL);
  return fnv(h, f->function ? f->function : f->module);
}

/* What identifies a report across runs, builds and machines (no address):
 * kind, subkind, the View (or object) and the unordered pair of source
 * locations.  kkrace-report --baseline and SARIF viewers match on it. */
/* A cycle across MPI ranks, as each of its ranks tells it (starting from
 * itself): the same for all of them, so that kkrace-report counts it once. */
static uint64_t rank_cycle_fingerprint(const char *detail) {
  static const char head[] = "Cycle across MPI ranks: ";
  if (!detail || strncmp(detail, head, sizeof head - 1))
    return 0;
  uint64_t sum = 0;
  const char *c = detail + sizeof head - 1;
  for (;;) {
    const char *end = strstr(c, " -> ");
    if (!end)
      break; /* (the last: the first rank again) */
    uint64_t h = 0xcbf29ce484222325ull;
    for (const char *x = c; x < end; x++)
      h = (h ^ (uint8_t)*x) * 0x100000001b3ull;
    sum += kkr_mix64(h);
    c = end + 4;
  }
  return sum;
}

static uint64_t fingerprint(const kkr_report *r) {
  uint64_t cycle = rank_cycle_fingerprint(r->detail);
  if (cycle) {
    uint64_t h = fnv(0xcbf29ce484222325ull, kkr_report_kind_json[r->kind]);
    h = fnv(h, r->subkind);
    return kkr_mix64(h ^ cycle);
  }
  uint64_t a = frame_fingerprint(&r->acc[0].sym);
  uint64_t b = r->naccess > 1 ? frame_fingerprint(&r->acc[1].sym) : 0;
  for (uint32_t i = 0; i < r->nsteps; i++) /* any order */
    a += kkr_mix64(frame_fingerprint(&r->steps[i].sym));
  uint64_t h = 0xcbf29ce484222325ull;
  h = fnv(h, kkr_report_kind_json[r->kind]);
  h = fnv(h, r->subkind);
  h = fnv(h, r->has_view ? r->view.label : r->object);
  return kkr_mix64(h ^ (a < b ? a * 31 + b : b * 31 + a));
}

static void print_one(kkr_report *r) {
  for (uint32_t i = 0; i < r->naccess; i++) {
    symbolize_access(&r->acc[i]);
    trim_work_stack(&r->acc[i]);
  }
  for (uint32_t i = 0; i < r->nsteps; i++)
    symbolize_access(&r->steps[i]);
  if (r->kind == KKR_REPORT_DATA_RACE)
    describe_location(r);
  r->fingerprint = fingerprint(r);
  /* (Deadlocks of several steps are told apart by their key already.) */
  kkr_report *twin = r->nsteps ? NULL : same_location(r);
  if (twin) {
    /* (The same elements, by a read and a write of one line, count once.) */
    if (twin->elems && r->elems && !r->count_more) {
      for (uint32_t i = 0; i < r->elems->cap; i++)
        if (r->elems->key[i])
          count_element(twin, r->elems->key[i]);
    } else {
      twin->count += r->count;
    }
    r->printed = r->merged = 1;
    return;
  }
  r->suppressed_by = kkr_suppressed(r);
  r->suppressed = r->suppressed_by != NULL;
  r->printed = 1;
  if (r->suppressed)
    return;
  nprinted++;
  kkr_str out = {0};
  kkr_print_text(r, &out);
  kkr_write_all(text_fd, out.buf, out.len);
  kkr_str_free(&out);
  if (json_fd >= 0) {
    kkr_str js = {0};
    kkr_print_json(r, &js);
    kkr_str_putc(&js, '\n');
    kkr_write_all(json_fd, js.buf, js.len); /* one write: one line */
    kkr_str_free(&js);
  }
}

void kkr_report_flush(void) {
  kkr_thread *t = kkr_tls;
  if (t)
    t->ignore++;
  kkr_spin_lock(&reports_lock);
  if (flushing) {
    kkr_spin_unlock(&reports_lock);
    if (t)
      t->ignore--;
    return;
  }
  flushing = 1;
  kkr_reports_pending = 0;
  kkr_report *r = pending_from;
  pending_from = NULL;
  kkr_spin_unlock(&reports_lock);
  for (; r; r = r->next)
    if (!r->printed)
      print_one(r);
  __atomic_store_n(&flushing, 0, __ATOMIC_RELEASE);
  if (t)
    t->ignore--;
}

uint64_t kkr_reports_total(void) { return nprinted; }

void kkr_report_forget_counts(void) {
  nprinted = 0;
  finished = 0;
}

static int finish_done;

int kkr_report_busy(void) {
  return __atomic_load_n(&flushing, __ATOMIC_ACQUIRE) ||
         (__atomic_load_n(&finished, __ATOMIC_ACQUIRE) &&
          !__atomic_load_n(&finish_done, __ATOMIC_ACQUIRE));
}

void kkr_report_finish(void) {
  if (__atomic_fetch_add(&finished, 1, __ATOMIC_ACQ_REL))
    return;
  kkr_report_flush();
  if (kkr_flags.sarif_path && *kkr_flags.sarif_path) {
    kkr_report **all = kkr_alloc((nreports ? nreports : 1) * sizeof *all);
    uint32_t n = 0;
    for (kkr_report *r = first_report; r; r = r->next)
      if (r->printed && !r->suppressed && !r->merged)
        all[n++] = r;
    kkr_sarif_write(kkr_flags.sarif_path, all, n);
  }
  kkr_dot_write();
  kkr_suppressions_summary(text_fd);
  if (nprinted > 0 || kkr_flags.verbosity >= 1) {
    char line[128];
    int n = snprintf(line, sizeof line, "kkrace: reported %llu warning%s\n",
                     (unsigned long long)nprinted, nprinted == 1 ? "" : "s");
    kkr_write_all(text_fd, line, (size_t)n);
  }
  if (kkr_flags.verbosity >= 1) {
    kkr_shadow_summary(text_fd);
    kkr_graph_summary(text_fd);
    kkr_gpu_summary(text_fd);
  }
  kkr_symbolizer_close();
  __atomic_store_n(&finish_done, 1, __ATOMIC_RELEASE);
}
