/* GPU work in the graph: CUDA streams, their kernels, copies and memsets,
 * events and synchronizations (SEMANTICS.md, "GPU streams"), as the CUPTI
 * module (cupti/) or a recorded event trace (kkrace-gpu-replay) reports
 * them through the __kkrace_gpu_* entry points.
 *
 *  - A stream is an instance of the space "CUDA"; its work items are FIFO
 *    among themselves whatever thread submits them (the stream orders them),
 *    and each item comes after everything the stream learned: events it
 *    waited on, the legacy default stream's implicit synchronization.
 *  - The legacy default stream (handle 0 or 1) waits for the work submitted
 *    before to every blocking stream, and blocking streams wait for the work
 *    submitted before to it; non-blocking streams do neither.  The
 *    per-thread default stream (handle 2) is a blocking stream of its own
 *    for each host thread.
 *  - An event recorded on a stream holds what that stream's fence would
 *    teach at that moment; waiting on it (a stream, or the host) learns that.
 *  - Device memory is never touched by the host: its shadow is one cell per
 *    segment of the allocation, the segments cut where GPU work's accesses
 *    begin and end (at most KKR_GPU_SEGS of them), which keeps a kernel's
 *    cost independent of buffer sizes and tells chunks of one allocation
 *    apart wherever their boundaries fall.  Pinned, managed and pageable
 *    host memory is recorded byte for byte, so that the instrumented host
 *    code's accesses meet the GPU's. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kkr_frames.h"
#include "kkr_report.h"
#include "kkr_rt.h"
#include "uthash.h"

/* (The definitions below must match the entry points' list.) */
KKR_GPU_ENTRIES(KKR_GPU_DECLARE)

/* Segments of a coarse allocation at most (its cells: KKR_GPU_SLOT bytes
 * of shadow address space, in a slot of their own above KKR_GPU_PROXY). */
#define KKR_GPU_SEGS 1024
#define KKR_GPU_SLOT ((uintptr_t)KKR_GPU_SEGS * KKR_GRAN)

static const char gpu_space[] = "CUDA";

/* Changed by every GPU event but a repeated launch (see "Repeated
 * launches" below). */
static uint64_t gpu_gen = 1;
static void gpu_gen_bump(void) {
  __atomic_fetch_add(&gpu_gen, 1, __ATOMIC_RELAXED);
}

/* Array p of *cap elements of elem bytes (kkr_alloc'ed), grown to hold at
 * least need: twice as many, first when empty. */
static void *grow(void *p, uint32_t *cap, uint32_t need, uint32_t first,
                  size_t elem) {
  if (need <= *cap)
    return p;
  uint32_t n = *cap ? *cap : first;
  while (n < need)
    n *= 2;
  p = kkr_realloc(p, *cap * elem, n * elem);
  *cap = n;
  return p;
}

/* ---- Trace -------------------------------------------------------------- */

/* With gpu_trace=PATH, every event is written as one JSON line, so that the
 * graph logic can be replayed where there is no GPU (tests, bug reports). */
static int trace_fd = -1;
static kkr_spin trace_lock;

/* Host accesses are many (a loop over a buffer): contiguous ones of the
 * same kind, by the same thread's kind of work, are written as one event.
 * hf: made by the host function of that id (CUDA's thread runs it while
 * the program's threads go on: "hf" tells the two apart in the trace). */
static struct {
  uintptr_t p, size;
  uint32_t flags, hf;
} pending_host;

/* The id of the host function this thread runs (0: none). */
static __thread uint32_t running_host_func;

/* A graph launch runs the captured work (below): the item it runs, whose
 * stack the work item takes.  Tracing stops meanwhile (a replay of the
 * trace launches the graph itself). */
static __thread int launching_graph;
static __thread const struct cap_item *launching_graph_item;

static void trace_open(void);

/* Tracing is on (the file is opened at the first event). */
static int tracing(void) {
  if (!kkr_gpu_trace_host_on)
    return 0;
  if (trace_fd == -1)
    trace_open();
  return trace_fd >= 0;
}

static void write_line(const char *buf, size_t n) {
  ssize_t w = write(trace_fd, buf, n);
  (void)w;
}

/* Under trace_lock. */
static void flush_host(void) {
  if (!pending_host.size)
    return;
  char buf[160], hf[32] = "";
  if (pending_host.hf)
    snprintf(hf, sizeof hf, ",\"hf\":%u", pending_host.hf);
  int n = snprintf(buf, sizeof buf,
                   "{\"ev\":\"host\",\"p\":%llu,\"size\":%llu,\"flags\":%u%s}\n",
                   (unsigned long long)pending_host.p,
                   (unsigned long long)pending_host.size, pending_host.flags,
                   hf);
  write_line(buf, (size_t)n);
  pending_host.size = 0;
}

static void trace_host(uintptr_t p, uintptr_t size, uint32_t flags) {
  kkr_spin_lock(&trace_lock);
  /* (Within a shadow word of the last one: a loop over floats is traced at
   * every other element, the first access to a word replacing the GPU's
   * record in it.) */
  uintptr_t end = pending_host.p + pending_host.size;
  if (pending_host.size && flags == pending_host.flags &&
      running_host_func == pending_host.hf && p >= pending_host.p &&
      p <= end + KKR_GRAN) {
    if (p + size > end)
      pending_host.size = p + size - pending_host.p;
  } else {
    flush_host();
    pending_host.p = p;
    pending_host.size = size;
    pending_host.flags = flags;
    pending_host.hf = running_host_func;
  }
  kkr_spin_unlock(&trace_lock);
}

KKR_FORMAT(1, 2) static void trace_write(const char *fmt, ...) {
  if (launching_graph || !tracing())
    return;
  char buf[1024];
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(buf, sizeof buf - 1, fmt, ap);
  va_end(ap);
  if (n < 0)
    return;
  if (n > (int)sizeof buf - 2)
    n = (int)sizeof buf - 2;
  buf[n++] = '\n';
  kkr_spin_lock(&trace_lock);
  flush_host();
  write_line(buf, (size_t)n);
  kkr_spin_unlock(&trace_lock);
}
/* (Only the test is inline: no arguments are formatted when not tracing.) */
#define trace(...)                                                            \
  (KKR_UNLIKELY(kkr_gpu_trace_host_on) ? trace_write(__VA_ARGS__) : (void)0)

/* At exit: the last host accesses. */
static void trace_close(void) {
  if (trace_fd < 0)
    return;
  kkr_spin_lock(&trace_lock);
  flush_host();
  kkr_spin_unlock(&trace_lock);
}

int kkr_gpu_trace_host_on;

static int gpu_record(uint64_t rec) {
  if (!rec || (rec & KKR_R_X) || (rec & KKR_REC_TAG) == KKR_REC_TAG)
    return 0;
  uint32_t node = KKR_REC_NODE(rec);
  uintptr_t owner = node ? kkr_node_owner(node) : 1;
  if (!owner || (owner & 1))
    return 0;
  uint16_t kind = ((const kkr_item *)owner)->kind;
  return kind >= KKR_OP_GPU_KERNEL && kind <= KKR_OP_GPU_HOST_FUNC;
}

/* A host access to memory whose shadow holds a GPU work item's access. */
/* Inside a host function (cudaLaunchHostFunc) that CUDA's thread runs as
 * its stream's work item. */
static int in_host_func(const kkr_thread *t) {
  return t->item_op && t->item_op->kind == KKR_OP_GPU_HOST_FUNC;
}

void kkr_gpu_trace_host(kkr_thread *t, uintptr_t addr, uintptr_t size,
                        uint32_t write) {
  if ((t->cur_is_item && !in_host_func(t)) || !kkr_nodes)
    return;
  for (uintptr_t w = addr & ~(uintptr_t)(KKR_GRAN - 1); w < addr + size;
       w += KKR_GRAN) {
    kkr_cell *c = kkr_shadow_cell_if_mapped(w);
    if (c && (gpu_record(c->w) || gpu_record(c->r))) {
      trace_host(addr, size, write ? KKR_GPU_ACC_WRITE : KKR_GPU_ACC_READ);
      return;
    }
  }
}

/* The trace is created at the first GPU event, so that a process that has
 * none (a child the program runs, with the same environment) leaves it
 * alone; its directory is checked at startup. */
static void trace_open(void) {
  kkr_spin_lock(&trace_lock);
  if (trace_fd == -1) {
    trace_fd = open(kkr_flags.gpu_trace, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
                    0644);
    if (trace_fd < 0) {
      kkr_warn("cannot write the GPU event trace '%s': %s",
               kkr_flags.gpu_trace, strerror(errno));
      trace_fd = -2;
    }
  }
  kkr_spin_unlock(&trace_lock);
}

void kkr_gpu_init(void) {
  if (kkr_flags.gpu_trace && *kkr_flags.gpu_trace) {
    const char *slash = strrchr(kkr_flags.gpu_trace, '/');
    char dir[4096];
    snprintf(dir, sizeof dir, "%.*s",
             slash ? (int)(slash - kkr_flags.gpu_trace) : 1,
             slash ? kkr_flags.gpu_trace : ".");
    if (access(*dir ? dir : "/", W_OK) != 0)
      kkr_die("cannot write the GPU event trace '%s': %s", kkr_flags.gpu_trace,
              strerror(errno));
    kkr_gpu_trace_host_on = 1;
    atexit(trace_close);
  }
}

/* Labels for the trace: JSON-safe (kernel names are identifiers). */
static const char *safe(const char *s, char *buf, size_t n) {
  size_t j = 0;
  for (; s && *s && j + 1 < n; s++)
    buf[j++] = (*s == '"' || *s == '\\' || (unsigned char)*s < 32) ? '_' : *s;
  buf[j] = 0;
  return buf;
}

/* A Kokkos View in device memory (Kokkos Tools' allocate callback): in the
 * trace, so that a replay names it as the run did. */
void kkr_gpu_trace_view(const char *space, const char *label, uintptr_t p,
                        uint64_t size) {
  if (!tracing())
    return;
  char sb[64], lb[256];
  trace("{\"ev\":\"view\",\"p\":%llu,\"size\":%llu,\"space\":\"%s\","
        "\"label\":\"%s\"}",
        (unsigned long long)p, (unsigned long long)size,
        safe(space, sb, sizeof sb), safe(label, lb, sizeof lb));
}

/* ---- Allocations -------------------------------------------------------- */

/* The shadow of a coarse allocation: one cell per segment, the segments
 * cut at the bounds of GPU work's accesses, so that a kernel or a copy of
 * one chunk meets exactly the work items that touched its bytes, and costs
 * one check per segment it covers.  b[0] = 0 < b[1] < ... < b[n] = size;
 * segment i's cell lies at proxy + i * KKR_GRAN.  A cut copies the cell it
 * divides (both parts saw what it saw).  When there are KKR_GPU_SEGS
 * segments, neighbours whose cells hold the same records merge; if none
 * do, an access is widened to the segments it overlaps (conservative: two
 * chunks that share a segment meet there).  A slot is the allocation's
 * while it lives, then the next one's (never freed: a thread that found
 * it before a free sees lo change).  Everything here, the cells included,
 * is touched under seg_lock only: the host's code never reaches a slot. */
typedef struct gpu_segs {
  uintptr_t lo;    /* the allocation's start; 0: free */
  uintptr_t proxy; /* its cells */
  uint32_t n, cap; /* segments; room in b */
  uint64_t *b;
  struct gpu_segs *next_free;
} gpu_segs;

typedef struct {
  uintptr_t lo, hi;
  uint32_t kind;  /* KKR_GPU_MEM_* */
  gpu_segs *segs; /* coarse: its segments (NULL: exact shadow) */
} gpu_alloc;

/* ---- Segments ----------------------------------------------------------- */

static kkr_spin seg_lock;
static uint32_t nslots; /* slot k: proxy = KKR_GPU_PROXY + k * KKR_GPU_SLOT */
static gpu_segs *free_segs;

/* A slot for the allocation [lo, lo + size): one segment, no access. */
static gpu_segs *segs_take(uintptr_t lo, uintptr_t size) {
  kkr_spin_lock(&seg_lock);
  gpu_segs *s;
  if (free_segs) {
    s = free_segs;
    free_segs = s->next_free;
  } else {
    s = kkr_alloc(sizeof *s);
    s->proxy = KKR_GPU_PROXY + (uintptr_t)nslots++ * KKR_GPU_SLOT;
  }
  s->b = grow(s->b, &s->cap, 2, 8, sizeof *s->b);
  s->lo = lo;
  s->n = 1;
  s->b[0] = 0;
  s->b[1] = size;
  kkr_spin_unlock(&seg_lock);
  return s;
}

/* The allocation of s is gone: what its cells saw goes too. */
static void segs_give(gpu_segs *s) {
  kkr_spin_lock(&seg_lock);
  kkr_shadow_clear(s->proxy, (uintptr_t)s->n * KKR_GRAN);
  s->lo = 0;
  s->next_free = free_segs;
  free_segs = s;
  kkr_spin_unlock(&seg_lock);
}

/* The index of the segment holding offset x (< size). */
static uint32_t seg_find(const gpu_segs *s, uint64_t x) {
  uint32_t a = 0, b = s->n - 1;
  while (a < b) {
    uint32_t m = (a + b + 1) / 2;
    if (s->b[m] <= x)
      a = m;
    else
      b = m - 1;
  }
  return a;
}

static int plain_cell(const kkr_cell *c) {
  return !(c->w & KKR_R_X) && !(c->r & KKR_R_X);
}

/* Neighbours whose cells hold the same plain records become one segment. */
static void segs_merge(gpu_segs *s, kkr_cell *c) {
  uint32_t k = 0;
  for (uint32_t i = 1; i < s->n; i++) {
    if (plain_cell(&c[k]) && c[k].w == c[i].w && c[k].r == c[i].r)
      continue; /* (segment i joins segment k) */
    k++;
    c[k] = c[i];
    s->b[k] = s->b[i];
  }
  s->b[k + 1] = s->b[s->n];
  /* (The cells left behind were moved, or merged: no read set is theirs.) */
  memset(&c[k + 1], 0, (s->n - k - 1) * sizeof *c);
  kkr_shared_forget_range(s->proxy, s->proxy + (uintptr_t)s->n * KKR_GRAN);
  s->n = k + 1;
}

/* A segment boundary at offset x (0 < x < size) if there is room. */
static void seg_cut(gpu_segs *s, uint64_t x) {
  uint32_t i = seg_find(s, x);
  if (s->b[i] == x)
    return;
  kkr_cell *c = kkr_shadow_cell(s->proxy); /* (the slot's cells, in a row) */
  if (s->n == KKR_GPU_SEGS) {
    segs_merge(s, c);
    if (s->n == KKR_GPU_SEGS)
      return;
    i = seg_find(s, x);
  }
  if (c[i].w & KKR_R_X)
    return; /* (split into halves: never for whole-word accesses) */
  s->b = grow(s->b, &s->cap, s->n + 2, 8, sizeof *s->b);
  memmove(&c[i + 2], &c[i + 1], (s->n - i - 1) * sizeof *c);
  memmove(&s->b[i + 2], &s->b[i + 1], (s->n - i) * sizeof *s->b);
  s->b[i + 1] = x;
  c[i + 1] = c[i];
  if ((c[i].r & KKR_REC_TAG) == KKR_REC_TAG) { /* a read set: its own copy */
    const kkr_readset *from = KKR_REC_PTR(c[i].r);
    kkr_readset *to = kkr_readset_new(from->cap);
    to->n = from->n;
    memcpy(to->recs, from->recs, from->n * sizeof *to->recs);
    c[i + 1].r = KKR_REC_SET(to);
  }
  s->n++;
  kkr_shared_forget_range(s->proxy, s->proxy + (uintptr_t)s->n * KKR_GRAN);
}

/* The segments being accessed by this thread (kkr_gpu_unproxy). */
static __thread const gpu_segs *seg_accessing;

/* An access to [addr, addr + size) of coarse allocation a, made of whole
 * segments; acc and slot as kkr_access_range_at's. */
static void segs_access(kkr_thread *t, const gpu_alloc *a, uintptr_t addr,
                        uintptr_t size, uint32_t acc, uintptr_t site,
                        struct kkr_site_slot *slot) {
  kkr_spin_lock(&seg_lock);
  gpu_segs *s = a->segs;
  if (s->lo != a->lo) { /* (freed meanwhile) */
    kkr_spin_unlock(&seg_lock);
    return;
  }
  uint64_t size_all = s->b[s->n];
  uint64_t off = addr - a->lo, end = off + size;
  if (end > size_all)
    end = size_all;
  if (off >= end) {
    kkr_spin_unlock(&seg_lock);
    return;
  }
  if (off > 0)
    seg_cut(s, off);
  if (end < size_all)
    seg_cut(s, end);
  uint32_t i = seg_find(s, off), j = seg_find(s, end - 1) + 1;
  seg_accessing = s;
  kkr_access_range_at(t, s->proxy + (uintptr_t)i * KKR_GRAN,
                      (uintptr_t)(j - i) * KKR_GRAN, acc, site, slot);
  seg_accessing = NULL;
  kkr_spin_unlock(&seg_lock);
}

uintptr_t kkr_gpu_unproxy(uintptr_t word, uintptr_t *len) {
  const gpu_segs *s = seg_accessing;
  *len = 0;
  if (!s || word < s->proxy || word >= s->proxy + (uintptr_t)s->n * KKR_GRAN)
    return word;
  uint32_t i = (uint32_t)((word - s->proxy) / KKR_GRAN);
  *len = s->b[i + 1] - s->b[i];
  return s->lo + s->b[i];
}

static gpu_alloc *allocs;
static uint32_t nallocs, capallocs;
static kkr_spin alloc_lock;
static uint32_t alloc_count[KKR_GPU_MEM_COUNT];

static uint32_t alloc_lower_bound(uintptr_t lo) {
  uint32_t a = 0, b = nallocs;
  while (a < b) {
    uint32_t m = (a + b) / 2;
    if (allocs[m].lo < lo)
      a = m + 1;
    else
      b = m;
  }
  return a;
}

/* The table's version, changed by every allocation and free: a thread's
 * last answers hold while it is the same.  A loop of launches looks up the
 * same few allocations (each pointer argument twice: its bounds, then its
 * shadow) without the lock. */
static uint64_t alloc_gen = 1;
#define ALLOC_MEMO 4
static __thread struct {
  uint64_t gen;
  uint32_t next;
  gpu_alloc a[ALLOC_MEMO];
} alloc_memo;

/* The allocation holding addr (copied into *out); 0 if none. */
static int alloc_find(uintptr_t addr, gpu_alloc *out) {
  uint64_t gen = __atomic_load_n(&alloc_gen, __ATOMIC_ACQUIRE);
  if (alloc_memo.gen == gen) {
    for (uint32_t k = 0; k < ALLOC_MEMO; k++)
      if (addr - alloc_memo.a[k].lo < alloc_memo.a[k].hi - alloc_memo.a[k].lo) {
        *out = alloc_memo.a[k];
        return 1;
      }
  } else {
    memset(&alloc_memo, 0, sizeof alloc_memo);
  }
  int found = 0;
  kkr_spin_lock(&alloc_lock);
  uint32_t i = alloc_lower_bound(addr + 1);
  if (i > 0 && addr < allocs[i - 1].hi) {
    *out = allocs[i - 1];
    found = 1;
  }
  gen = alloc_gen;
  kkr_spin_unlock(&alloc_lock);
  if (found) {
    alloc_memo.gen = gen;
    alloc_memo.a[alloc_memo.next++ % ALLOC_MEMO] = *out;
  }
  return found;
}

static const char *const mem_api[KKR_GPU_MEM_COUNT] = {
    "host", "cudaMallocHost", "cudaMalloc", "cudaMallocManaged",
    "cudaMallocAsync", "cudaHostRegister"};
static const char *const mem_space[KKR_GPU_MEM_COUNT] = {
    "Host", "CudaHostPinned", "Cuda", "CudaUVM", "Cuda", "CudaHostPinned"};

/* gpu_exact_host_bytes; preloaded into a program not built with kkrace,
 * whose host code is not checked, 0 unless KKRACE_OPTIONS names it: exact
 * shadow would cost without finding anything. */
static uint64_t exact_host_bytes(void) {
#ifdef KKRACE_PRELOAD
  static int explicit_option = -1;
  if (explicit_option < 0) {
    const char *o = getenv("KKRACE_OPTIONS");
    explicit_option = o && strstr(o, "gpu_exact_host_bytes") != NULL;
  }
  if (!explicit_option)
    return 0;
#endif
  return (uint64_t)kkr_flags.gpu_exact_host_bytes;
}

static int host_accessible(uint32_t kind) {
  return kind != KKR_GPU_MEM_DEVICE && kind != KKR_GPU_MEM_ASYNC;
}

KKR_EXPORT void __kkrace_gpu_alloc(void *p, unsigned long long size,
                                   unsigned int kind) {
  gpu_gen_bump();
  if (!p || !size || kind >= KKR_GPU_MEM_COUNT || !kkr_inited)
    return;
  trace("{\"ev\":\"alloc\",\"p\":%llu,\"size\":%llu,\"kind\":%u}",
        (unsigned long long)(uintptr_t)p, size, kind);
  uintptr_t lo = (uintptr_t)p;
  gpu_alloc a = {lo, lo + size, kind, NULL};
  /* Device memory is never the host's: its shadow is coarse, whatever its
   * size.  Host memory the GPU reaches (pinned, managed) is exact, so that
   * the program's own accesses meet the GPU's, up to gpu_exact_host_bytes;
   * beyond, coarse too, in a shadow of its own that host code never
   * meets. */
  if (!host_accessible(kind) || size > exact_host_bytes())
    a.segs = segs_take(lo, size);
  gpu_segs *old = NULL;
  kkr_spin_lock(&alloc_lock);
  uint32_t i = alloc_lower_bound(lo);
  if (i < nallocs && allocs[i].lo == lo) {
    old = allocs[i].segs;
    allocs[i] = a;
  } else {
    allocs = grow(allocs, &capallocs, nallocs + 1, 64, sizeof *allocs);
    memmove(&allocs[i + 1], &allocs[i], (nallocs - i) * sizeof *allocs);
    allocs[i] = a;
    nallocs++;
  }
  uint32_t nth = ++alloc_count[kind];
  __atomic_store_n(&alloc_gen, alloc_gen + 1, __ATOMIC_RELEASE);
  kkr_spin_unlock(&alloc_lock);
  /* Reports name it by the call that made it and its rank among them. */
  char label[64];
  snprintf(label, sizeof label, "%s#%u", mem_api[kind], nth);
  kkr_views_add_raw(lo, size, label, mem_space[kind]);
  /* New memory: nothing of what was there before counts. */
  if (host_accessible(kind))
    kkr_shadow_clear(lo, size);
  if (old)
    segs_give(old);
}

static void alloc_forget(uintptr_t lo) {
  gpu_segs *segs = NULL;
  kkr_spin_lock(&alloc_lock);
  uint32_t i = alloc_lower_bound(lo);
  if (i < nallocs && allocs[i].lo == lo) {
    segs = allocs[i].segs;
    memmove(&allocs[i], &allocs[i + 1], (nallocs - i - 1) * sizeof *allocs);
    nallocs--;
  }
  __atomic_store_n(&alloc_gen, alloc_gen + 1, __ATOMIC_RELEASE);
  kkr_spin_unlock(&alloc_lock);
  if (segs)
    segs_give(segs);
  kkr_view_alloc v;
  kkr_views_take(lo, &v);
}

/* ---- Streams and events ------------------------------------------------- */

struct capture;

typedef struct gpu_stream {
  UT_hash_handle hh;
  uintptr_t key;       /* the handle; per-thread default streams: see below */
  kkr_instance *inst;
  uint8_t nonblocking;
  uint8_t legacy;
  struct capture *cap; /* capturing into a graph (work is recorded) */
  struct gpu_stream *next;
} gpu_stream;

static gpu_stream *streams, *stream_list;
static kkr_spin stream_lock;
static uint32_t streams_numbered; /* (under stream_lock) */

#define H_LEGACY 0u
#define H_LEGACY_EXPLICIT 1u /* CU_STREAM_LEGACY */
#define H_PER_THREAD 2u      /* CU_STREAM_PER_THREAD */

/* The thread's last stream: a loop launches on one stream over and over.
 * (Streams are never forgotten: a handle always finds the same one.) */
static __thread uintptr_t last_handle;
static __thread gpu_stream *last_stream;

static gpu_stream *stream_get(kkr_thread *t, uintptr_t handle) {
  if (last_stream && handle == last_handle)
    return last_stream;
  uintptr_t key = handle;
  if (handle == H_LEGACY_EXPLICIT)
    key = H_LEGACY;
  else if (handle == H_PER_THREAD) /* one per host thread */
    key = ((uintptr_t)t->info->id << 2 | 3u) << 40;
  kkr_spin_lock(&stream_lock);
  gpu_stream *s;
  HASH_FIND(hh, streams, &key, sizeof key, s);
  if (!s) {
    s = kkr_alloc(sizeof *s);
    s->key = key;
    s->legacy = key == H_LEGACY;
    s->inst = kkr_instance_get(gpu_space, (void *)key);
    /* Reports number the program's own streams from 1 in order of first
     * use ("stream 0" would read as the legacy default stream); the
     * default streams go by their names. */
    if (handle > H_PER_THREAD)
      s->inst->index = ++streams_numbered;
    HASH_ADD(hh, streams, key, sizeof key, s);
    s->next = stream_list;
    stream_list = s;
  }
  kkr_spin_unlock(&stream_lock);
  last_handle = handle;
  last_stream = s;
  return s;
}

int kkr_gpu_stream_nonblocking(uintptr_t ident) {
  kkr_spin_lock(&stream_lock);
  gpu_stream *s;
  HASH_FIND(hh, streams, &ident, sizeof ident, s);
  int nb = s && s->nonblocking;
  kkr_spin_unlock(&stream_lock);
  return nb;
}

KKR_EXPORT void __kkrace_gpu_stream(unsigned long long handle,
                                    unsigned int flags) {
  gpu_gen_bump();
  kkr_thread *t = kkr_thread_any();
  if (!t)
    return;
  trace("{\"ev\":\"stream\",\"s\":%llu,\"flags\":%u}", handle, flags);
  gpu_stream *s = stream_get(t, (uintptr_t)handle);
  s->nonblocking = (flags & KKR_GPU_STREAM_NONBLOCKING) != 0;
}

/* What a new item on s comes after besides its own stream's work: the
 * legacy default stream's implicit synchronization. */
static void implicit_sync(gpu_stream *s, kkr_vc *extra) {
  if (s->nonblocking)
    return;
  kkr_spin_lock(&stream_lock);
  gpu_stream *list = stream_list;
  kkr_spin_unlock(&stream_lock);
  for (gpu_stream *o = list; o; o = o->next) {
    if (o == s || o->nonblocking)
      continue;
    if (s->legacy || o->legacy)
      kkr_fence_snapshot(o->inst, extra);
  }
}

/* What the stream's fence teaches now (the legacy stream's includes the
 * blocking streams' work, which it waited for). */
static void stream_snapshot(gpu_stream *s, kkr_vc *dst) {
  kkr_fence_snapshot(s->inst, dst);
  if (s->legacy)
    implicit_sync(s, dst);
}

/* The host thread learns what fill puts in a clock. */
static void host_learns(kkr_thread *t, void (*fill)(void *, kkr_vc *),
                        void *arg) {
  kkr_vc snap = {0};
  fill(arg, &snap);
  kkr_host_learn(t, &snap);
  kkr_vc_free(&snap);
}

typedef struct gpu_event {
  UT_hash_handle hh;
  uintptr_t handle;
  kkr_vc vc;
  kkr_spin lock;
  struct capture *cap; /* recorded on a capturing stream: waiting on it joins
                          the capture */
} gpu_event;

static gpu_event *events;
static kkr_spin event_lock;

static gpu_event *event_get(uintptr_t handle) {
  kkr_spin_lock(&event_lock);
  gpu_event *e;
  HASH_FIND(hh, events, &handle, sizeof handle, e);
  if (!e) {
    e = kkr_alloc(sizeof *e);
    e->handle = handle;
    HASH_ADD(hh, events, handle, sizeof handle, e);
  }
  kkr_spin_unlock(&event_lock);
  return e;
}

/* ---- Stream capture (CUDA graphs) ---------------------------------------- */

/* Work submitted to a stream that captures a graph (cudaStreamBeginCapture)
 * does not run: it is recorded, item by item with its accesses, and runs
 * each time an executable graph instantiated from it is launched
 * (cudaGraphLaunch), as work items of the launch's stream in the order
 * they were captured.  (That order is one the graph allows: captured work
 * that the graph leaves unordered is checked as if ordered.)  A stream
 * joins the capture when it waits on an event recorded in it. */
typedef struct {
  uintptr_t p;
  uint64_t size;
  uint32_t flags;
} cap_access;

typedef struct cap_item {
  uint32_t kind, stack;
  uintptr_t site;
  const char *label;
  uint32_t n, cap;
  cap_access *acc;
} cap_item;

typedef struct capture {
  uint32_t n, cap;
  cap_item *items;
  int ended;
} capture;

typedef struct {
  UT_hash_handle hh;
  uintptr_t handle; /* a cudaGraph_t or a cudaGraphExec_t */
  capture *rec;
} graph_entry;

static graph_entry *graphs, *graph_execs;
static kkr_spin capture_lock;

static capture *graph_find(graph_entry **table, uintptr_t handle) {
  graph_entry *g;
  kkr_spin_lock(&capture_lock);
  HASH_FIND(hh, *table, &handle, sizeof handle, g);
  kkr_spin_unlock(&capture_lock);
  return g ? g->rec : NULL;
}

static void graph_put(graph_entry **table, uintptr_t handle, capture *rec) {
  graph_entry *g;
  kkr_spin_lock(&capture_lock);
  HASH_FIND(hh, *table, &handle, sizeof handle, g);
  if (!g) {
    g = kkr_alloc(sizeof *g);
    g->handle = handle;
    HASH_ADD(hh, *table, handle, sizeof handle, g);
  }
  g->rec = rec;
  kkr_spin_unlock(&capture_lock);
}

/* Stream s waits on event: if the event was recorded in a capture still
 * going on, s joins it (1); else 0. */
static int capture_join(gpu_stream *s, uintptr_t event) {
  gpu_event *e = event_get(event);
  if (!e->cap || e->cap->ended)
    return 0;
  s->cap = e->cap;
  return 1;
}

KKR_EXPORT void __kkrace_gpu_capture_begin(unsigned long long stream) {
  gpu_gen_bump();
  kkr_thread *t = kkr_thread_any();
  if (!t)
    return;
  trace("{\"ev\":\"capture_begin\",\"s\":%llu}", stream);
  gpu_stream *s = stream_get(t, (uintptr_t)stream);
  s->cap = kkr_alloc(sizeof *s->cap);
}

KKR_EXPORT void __kkrace_gpu_capture_end(unsigned long long stream,
                                         unsigned long long graph) {
  gpu_gen_bump();
  kkr_thread *t = kkr_thread_any();
  if (!t)
    return;
  trace("{\"ev\":\"capture_end\",\"s\":%llu,\"g\":%llu}", stream, graph);
  gpu_stream *s = stream_get(t, (uintptr_t)stream);
  capture *rec = s->cap;
  if (!rec)
    return;
  rec->ended = 1;
  kkr_spin_lock(&stream_lock);
  for (gpu_stream *x = stream_list; x; x = x->next) /* (s among them) */
    if (x->cap == rec)
      x->cap = NULL;
  kkr_spin_unlock(&stream_lock);
  graph_put(&graphs, (uintptr_t)graph, rec);
}

KKR_EXPORT void __kkrace_gpu_graph_exec(unsigned long long exec,
                                        unsigned long long graph) {
  gpu_gen_bump();
  trace("{\"ev\":\"graph_exec\",\"x\":%llu,\"g\":%llu}", exec, graph);
  graph_put(&graph_execs, (uintptr_t)exec, graph_find(&graphs, (uintptr_t)graph));
}

KKR_EXPORT void __kkrace_gpu_event_record(unsigned long long event,
                                          unsigned long long stream) {
  gpu_gen_bump();
  kkr_thread *t = kkr_thread_any();
  if (!t)
    return;
  trace("{\"ev\":\"record\",\"e\":%llu,\"s\":%llu}", event, stream);
  gpu_stream *s = stream_get(t, (uintptr_t)stream);
  gpu_event *e = event_get((uintptr_t)event);
  e->cap = s->cap;
  if (s->cap)
    return; /* (a node of the graph being captured) */
  kkr_vc snap = {0};
  stream_snapshot(s, &snap);
  kkr_spin_lock(&e->lock);
  kkr_vc_assign(&e->vc, &snap);
  kkr_spin_unlock(&e->lock);
  kkr_vc_free(&snap);
}

static void event_snapshot(uintptr_t event, kkr_vc *dst) {
  gpu_event *e = event_get(event);
  kkr_spin_lock(&e->lock);
  kkr_vc_join(dst, &e->vc);
  kkr_spin_unlock(&e->lock);
}

static void fill_event(void *event, kkr_vc *dst) {
  event_snapshot((uintptr_t)event, dst);
}

static void fill_stream(void *s, kkr_vc *dst) { stream_snapshot(s, dst); }

static void fill_device(void *arg, kkr_vc *dst) {
  (void)arg;
  kkr_fence_space_snapshot(gpu_space, dst);
}

KKR_EXPORT void __kkrace_gpu_stream_wait_event(unsigned long long stream,
                                               unsigned long long event) {
  gpu_gen_bump();
  kkr_thread *t = kkr_thread_any();
  if (!t)
    return;
  trace("{\"ev\":\"wait\",\"s\":%llu,\"e\":%llu}", stream, event);
  gpu_stream *s = stream_get(t, (uintptr_t)stream);
  if (capture_join(s, (uintptr_t)event))
    return;
  kkr_vc snap = {0};
  event_snapshot((uintptr_t)event, &snap);
  kkr_instance_learn(s->inst, &snap);
  kkr_vc_free(&snap);
}

/* The host learns what the GPU finished: an event (cudaEventSynchronize, a
 * successful cudaEventQuery), a stream (cudaStreamSynchronize, a successful
 * cudaStreamQuery), the whole device (cudaDeviceSynchronize). */
KKR_EXPORT void __kkrace_gpu_event_sync(unsigned long long event) {
  gpu_gen_bump();
  kkr_thread *t = kkr_thread_any();
  if (!t || t->item_op)
    return;
  trace("{\"ev\":\"event_sync\",\"e\":%llu}", event);
  host_learns(t, fill_event, (void *)(uintptr_t)event);
}

KKR_EXPORT void __kkrace_gpu_stream_sync(unsigned long long stream) {
  gpu_gen_bump();
  kkr_thread *t = kkr_thread_any();
  if (!t || t->item_op)
    return;
  trace("{\"ev\":\"stream_sync\",\"s\":%llu}", stream);
  host_learns(t, fill_stream, stream_get(t, (uintptr_t)stream));
}

KKR_EXPORT void __kkrace_gpu_device_sync(void) {
  gpu_gen_bump();
  kkr_thread *t = kkr_thread_any();
  if (!t || t->item_op)
    return;
  trace("{\"ev\":\"device_sync\"}");
  host_learns(t, fill_device, NULL);
}

/* ---- Work items --------------------------------------------------------- */

/* The calling thread's state for an event that records accesses: a
 * thread of the race detector's own, as if it ran instrumented code (its
 * accesses then take the locked paths). */
static kkr_thread *recording_thread(void) {
  return kkr_inited ? kkr_thread_get() : NULL;
}

/* An access to [addr, addr + size) of allocation a (NULL: memory that no
 * allocation known holds), through its shadow. */
static void mem_access(kkr_thread *t, const gpu_alloc *a, uintptr_t addr,
                       uintptr_t size, uint32_t acc, uintptr_t site,
                       struct kkr_site_slot *slot) {
  if (a && a->segs)
    segs_access(t, a, addr, size, acc, site, slot);
  else
    kkr_access_range_at(t, addr, size, acc, site, slot);
}

/* The free of allocation a by the current node, at site. */
static void free_alloc(kkr_thread *t, const gpu_alloc *a, uintptr_t site) {
  t->free_size = a->hi - a->lo;
  mem_access(t, a, a->lo, a->hi - a->lo, KKR_ACC_WRITE | KKR_ACC_FREE, site,
             NULL);
  t->free_size = 0;
}

extern char __start_kkrace_text[] __attribute__((weak));
extern char __stop_kkrace_text[] __attribute__((weak));

static int runtime_pc(uintptr_t pc) {
  return __start_kkrace_text && pc >= (uintptr_t)__start_kkrace_text &&
         pc < (uintptr_t)__stop_kkrace_text;
}

/* Stacks of API calls, cached: a loop that launches from one place finds
 * its stack here instead of unwinding through the CUDA libraries each time.
 * An entry holds every return address of the stack it recorded and where
 * on the stack (above the callback's frame) it lay; it is taken only if all
 * of them are there again, which makes the stack the same one, frame for
 * frame (unwinding reads those very slots).  Entries are tried most
 * recently used first; a mismatch is found at the first differing frame. */
#define STACK_CACHE 16
#define STACK_FRAMES KKR_SUBMIT_STACK_MAX

typedef struct {
  uint32_t stack, n;
  uintptr_t site;
  uintptr_t pc[STACK_FRAMES];
  uint32_t off[STACK_FRAMES];
} stack_entry;

static stack_entry stack_cache[STACK_CACHE];
static uint32_t stack_order[STACK_CACHE]; /* most recently used first */
static uint32_t stack_entries;
static kkr_spin stack_cache_lock;

static uint32_t api_stack_unwind(kkr_thread *t, uintptr_t *site);

static int stack_matches(const stack_entry *e, uintptr_t sp, uintptr_t hi) {
  for (uint32_t i = 0; i < e->n; i++) {
    uintptr_t a = sp + e->off[i];
    if (a + sizeof(uintptr_t) > hi || *(const uintptr_t *)a != e->pc[i])
      return 0;
  }
  return 1;
}

/* The stack of the API call, from the program's side; *site its top. */
static KKR_NOINLINE uint32_t api_stack(kkr_thread *t, uintptr_t *site) {
  uintptr_t sp = (uintptr_t)__builtin_frame_address(0);
  uintptr_t hi = t->stack_hi;
  if (!hi || hi <= sp) /* the stack's extent unknown: no reading it */
    return api_stack_unwind(t, site);
  kkr_spin_lock(&stack_cache_lock);
  for (uint32_t k = 0; k < stack_entries; k++) {
    stack_entry *e = &stack_cache[stack_order[k]];
    if (stack_matches(e, sp, hi)) {
      uint32_t idx = stack_order[k], id = e->stack;
      *site = e->site;
      memmove(&stack_order[1], &stack_order[0], k * sizeof *stack_order);
      stack_order[0] = idx;
      kkr_spin_unlock(&stack_cache_lock);
      return id;
    }
  }
  kkr_spin_unlock(&stack_cache_lock);
  uint32_t id = api_stack_unwind(t, site);
  /* Where each return address lies: found in order up the stack. */
  uint32_t n = 0;
  const uintptr_t *pcs = kkr_stack_get(id, &n);
  stack_entry e;
  e.stack = id;
  e.site = *site;
  e.n = 0;
  uintptr_t from = sp;
  for (uint32_t i = 0; pcs && i < n && e.n < STACK_FRAMES; i++) {
    uintptr_t a = from;
    while (a + sizeof(uintptr_t) <= hi && *(const uintptr_t *)a != pcs[i])
      a += sizeof(uintptr_t);
    if (a + sizeof(uintptr_t) > hi || a - sp > UINT32_MAX)
      return id; /* not where unwinding found it: no caching */
    e.pc[e.n] = pcs[i];
    e.off[e.n++] = (uint32_t)(a - sp);
    from = a + sizeof(uintptr_t);
  }
  if (e.n == 0)
    return id;
  kkr_spin_lock(&stack_cache_lock);
  uint32_t idx = stack_entries < STACK_CACHE ? stack_entries++
                                             : stack_order[STACK_CACHE - 1];
  stack_cache[idx] = e;
  uint32_t k = 0;
  while (k < stack_entries - 1 && stack_order[k] != idx)
    k++;
  memmove(&stack_order[1], &stack_order[0], k * sizeof *stack_order);
  stack_order[0] = idx;
  kkr_spin_unlock(&stack_cache_lock);
  return id;
}

static uint32_t api_stack_unwind(kkr_thread *t, uintptr_t *site) {
  uintptr_t pcs[96];
  uint32_t n = kkr_unwind_here(t, 0, 0, pcs, 96), i = 0;
  /* (The program's launch site lies below the frames of kkrace, of CUPTI
   * and of the CUDA libraries.) */
  while (i < n && (runtime_pc(pcs[i]) || kkr_foreign_library_pc(pcs[i])))
    i++;
  if (i == n)
    i = 0;
  uint32_t m = n - i < KKR_SUBMIT_STACK_MAX ? n - i : KKR_SUBMIT_STACK_MAX;
  *site = m ? pcs[i] : 0;
  return m ? kkr_stack_put(pcs + i, m) : 0;
}

/* ---- Repeated launches ---------------------------------------------------
 * A loop of launches that do little costs the driver a few microseconds
 * each; a work item, its node and its footprint's accesses cost kkrace
 * about one more.  A launch whose footprint is exactly that of one of the
 * last few items the same thread launched from the same place on the same
 * stream, in device memory only, with nothing else between (no other GPU
 * work, synchronization, event, allocation or free, by any thread:
 * gpu_gen), adds nothing to the graph: everything ordered after it is
 * ordered after that item (the stream's order is FIFO and no snapshot of
 * the stream was taken since), and whatever it would race with, that item
 * races with too (the host cannot touch device memory).  It is checked as
 * that item: the launch is not made into one of its own. */
#define SHAPE_ACC 8  /* accesses of a footprint kept */
#define SHAPE_HIST 4 /* footprints kept */
typedef struct {
  uintptr_t p;
  unsigned long long size;
  unsigned flags;
} shape_acc;

#define LAUNCH_KEY_MAX 256 /* bytes of a launch's inputs (launch_repeat) */
typedef struct {
  uintptr_t site;
  uint32_t stack;
  const char *label; /* interned */
  uint32_t n;
  shape_acc acc[SHAPE_ACC];
  /* The inputs the footprint came from, as the CUPTI module gave them
   * (__kkrace_gpu_launch_repeat; 0 bytes: none): not part of the shape. */
  uint32_t keylen;
  unsigned char key[LAUNCH_KEY_MAX];
} launch_shape;

static __thread struct {
  gpu_stream *stream;
  uint64_t gen;
  uint32_t n, next;
  launch_shape h[SHAPE_HIST];
} repeats;
static uint64_t repeats_skipped;
/* The inputs of the launch the module is about to model (launch_repeat
 * found no repeat of them): its footprint's shape takes them. */
static __thread struct {
  uint32_t len;
  unsigned char b[LAUNCH_KEY_MAX];
} pending_key;

typedef struct {
  uint32_t token;
  uint32_t kind;
  kkr_op *kokkos_op; /* the Kokkos dispatch it was launched by, or NULL */
  gpu_stream *stream;
  uintptr_t site;
  struct kkr_site_slot slot; /* the site's index in the item's table */
  cap_item *captured;        /* recorded for a graph instead */
  uint32_t nops;             /* the thread's ops before it */
  /* A launch that may repeat an earlier one (its item not made yet): */
  int deferred;
  int device_only; /* every access so far in device memory */
  launch_shape shape;
} gpu_work;

#define MAX_OPEN_WORK 4
static __thread gpu_work open_work[MAX_OPEN_WORK];
static __thread uint32_t nopen;

static const uint16_t work_op[] = {
    [KKR_GPU_KERNEL] = KKR_OP_GPU_KERNEL,
    [KKR_GPU_MEMCPY] = KKR_OP_GPU_MEMCPY,
    [KKR_GPU_MEMSET] = KKR_OP_GPU_MEMSET,
    [KKR_GPU_FREE] = KKR_OP_GPU_FREE,
    [KKR_GPU_HOST_FUNC] = KKR_OP_GPU_HOST_FUNC,
};

/* The name of the Kokkos dispatch this thread is in, from Kokkos Tools
 * (kokkosp_begin_parallel_*), for a program whose host code kkrace does not
 * see (the runtime preloaded into a Kokkos program built for CUDA): its
 * kernels take the dispatch's label, not the backend's kernel name. */
static __thread const char *kokkos_dispatch; /* (Kokkos' string, valid until
                                                the dispatch ends) */

void kkr_gpu_kokkos_dispatch(const char *name) { kokkos_dispatch = name; }

/* Makes w's work item (and the thread's current node) from its submission:
 * FIFO on the stream whoever submits, after what the thread learned. */
static void work_submit(kkr_thread *t, gpu_work *w, const char *label,
                        uint32_t stack) {
  gpu_stream *s = w->stream;
  gpu_gen_bump();
  kkr_op *op = &t->ops[t->nops];
  memset(op, 0, sizeof *op);
  op->kind = work_op[w->kind];
  op->space = gpu_space;
  op->pc = w->site;
  op->label = label;
  w->nops = t->nops++;
  /* (The thread's scratch clock: its storage stays for the next launch.) */
  static __thread kkr_vc extra;
  extra.n = 0;
  kkr_fence_snapshot(s->inst, &extra);
  implicit_sync(s, &extra);
  /* The site table of the launch site (kkr_submit keys it by ops[0].pc). */
  uintptr_t saved_pc = t->ops[0].pc;
  t->ops[0].pc = w->site;
  kkr_item *it = kkr_submit(t, s->inst, op, 1, &extra);
  t->ops[0].pc = saved_pc;
  it->stack = stack;
  kkr_node_item(t, op);
}

static void work_access(kkr_thread *t, gpu_work *w, void *p,
                        unsigned long long size, unsigned int flags);

/* A deferred launch is not a repeat: its item is made now, with the
 * accesses it had so far. */
static void work_materialize(kkr_thread *t, gpu_work *w) {
  w->deferred = 0;
  work_submit(t, w, w->shape.label, w->shape.stack);
  for (uint32_t i = 0; i < w->shape.n; i++)
    work_access(t, w, (void *)w->shape.acc[i].p, w->shape.acc[i].size,
                w->shape.acc[i].flags);
}

/* A kernel's label: the Kokkos dispatch's the thread is in (see
 * kokkos_dispatch), else its own. */
static const char *kernel_label(const char *label) {
  return kokkos_dispatch && *kokkos_dispatch ? kokkos_dispatch : label;
}

/* The trace's lines of a work item: its beginning, each access, its end. */
static void trace_work(unsigned int kind, unsigned long long stream,
                       const char *label) {
  if (tracing()) {
    char lb[256];
    trace("{\"ev\":\"work\",\"kind\":%u,\"s\":%llu,\"label\":\"%s\"}", kind,
          stream, safe(label, lb, sizeof lb));
  }
}
#define trace_access(p, size, flags)                                          \
  trace("{\"ev\":\"access\",\"p\":%llu,\"size\":%llu,\"flags\":%u}",            \
        (unsigned long long)(uintptr_t)(p), (unsigned long long)(size),       \
        (unsigned)(flags))
#define trace_end(flags) trace("{\"ev\":\"end\",\"flags\":%u}", (unsigned)(flags))

/* Begins a work item of kind (KKR_GPU_*) on stream; the accesses that
 * follow (__kkrace_gpu_access) are its own until __kkrace_gpu_work_end.
 * Returns a token, 0 if the item is not modeled. */
KKR_EXPORT unsigned int __kkrace_gpu_work_begin(unsigned int kind,
                                                unsigned long long stream,
                                                const char *label) {
  kkr_thread *t = recording_thread();
  uint32_t keylen = pending_key.len; /* (this launch's, if any) */
  pending_key.len = 0;
  if (!t || kind >= KKR_GPU_WORK_COUNT || nopen >= MAX_OPEN_WORK)
    return 0;
  if (t->abi.strand_depth || t->nops >= KKR_MAX_OPS)
    return 0; /* inside a Kokkos kernel's strand (a host backend): its own */
  /* (Work inside a launch not made yet: the launch is made first.) */
  if (nopen && open_work[nopen - 1].deferred)
    work_materialize(t, &open_work[nopen - 1]);
  /* Inside a Kokkos dispatch's own code (Kokkos' CUDA backend launching its
   * kernel): the launch is the host's, and the kernel takes the dispatch's
   * label. */
  kkr_op *kokkos_op = t->item_op;
  if (kokkos_op) {
    if (kokkos_op->label && *kokkos_op->label)
      label = kokkos_op->label;
    kkr_node_host(t);
  } else if (kind == KKR_GPU_KERNEL) {
    label = kernel_label(label);
  }
  trace_work(kind, stream, label);
  gpu_stream *s = stream_get(t, (uintptr_t)stream);
  gpu_work *w = &open_work[nopen++];
  w->kind = kind;
  w->kokkos_op = kokkos_op;
  w->stream = s;
  w->slot.table = NULL;
  w->captured = NULL;
  w->deferred = 0;
  w->token = 0x40000000u | nopen;
  uint32_t stack;
  if (launching_graph) { /* (the captured item's own stack) */
    stack = launching_graph_item->stack;
    w->site = launching_graph_item->site;
  } else {
    stack = api_stack(t, &w->site);
  }
  const char *name = kkr_intern(label && *label ? label : "?");
  if (s->cap) { /* captured: recorded, not run */
    gpu_gen_bump();
    capture *rec = s->cap;
    rec->items = grow(rec->items, &rec->cap, rec->n + 1, 8, sizeof *rec->items);
    cap_item *ci = &rec->items[rec->n++];
    ci->kind = kind;
    ci->stack = stack;
    ci->site = w->site;
    ci->label = name;
    w->captured = ci;
    w->token = 0x80000000u | rec->n;
    if (kokkos_op)
      kkr_node_item(t, kokkos_op);
    return w->token;
  }
  if (kind == KKR_GPU_KERNEL && !kokkos_op && !launching_graph &&
      nopen == 1 && kkr_flags.gpu_merge_repeats) {
    /* Maybe a repeat: decided at its end (__kkrace_gpu_work_end). */
    w->deferred = 1;
    w->device_only = 1;
    w->shape.site = w->site;
    w->shape.stack = stack;
    w->shape.label = name;
    w->shape.n = 0;
    w->shape.keylen = keylen;
    memcpy(w->shape.key, pending_key.b, keylen);
    w->nops = t->nops;
    return w->token;
  }
  work_submit(t, w, name, stack);
  return w->token;
}

/* An access of the running GPU work item w (flags KKR_GPU_ACC_*). */
static void work_access(kkr_thread *t, gpu_work *w, void *p,
                        unsigned long long size, unsigned int flags) {
  gpu_alloc a;
  int known = alloc_find((uintptr_t)p, &a);
  if (w->deferred) {
    if (w->shape.n < SHAPE_ACC) {
      w->shape.acc[w->shape.n++] = (shape_acc){(uintptr_t)p, size, flags};
      if (!known || host_accessible(a.kind) || (uintptr_t)p + size > a.hi)
        w->device_only = 0;
      return;
    }
    work_materialize(t, w);
  }
  if ((flags & KKR_GPU_ACC_CONSERVATIVE) && t->item_op && t->item_op->item)
    t->item_op->item->gpu_conservative = 1;
  uint32_t acc = 0;
  if (flags & KKR_GPU_ACC_WRITE)
    acc |= KKR_ACC_WRITE;
  if (flags & KKR_GPU_ACC_FREE)
    acc |= KKR_ACC_FREE | KKR_ACC_WRITE;
  if ((flags & KKR_GPU_ACC_ATOMIC) && !(flags & KKR_GPU_ACC_FREE))
    acc |= KKR_ACC_ATOMIC;
  /* (Read and written: the write alone, which meets everything the read
   * would.) */
  mem_access(t, known ? &a : NULL, (uintptr_t)p, size, acc, w->site, &w->slot);
}

KKR_EXPORT void __kkrace_gpu_access(void *p, unsigned long long size,
                                    unsigned int flags) {
  kkr_thread *t = kkr_tls;
  if (!t || !nopen || !size)
    return;
  trace_access(p, size, flags);
  gpu_work *w = &open_work[nopen - 1];
  if (w->captured) {
    cap_item *ci = w->captured;
    ci->acc = grow(ci->acc, &ci->cap, ci->n + 1, 4, sizeof *ci->acc);
    ci->acc[ci->n++] = (cap_access){(uintptr_t)p, size, flags};
    return;
  }
  work_access(t, w, p, size, flags);
}

static int same_shape(const launch_shape *a, const launch_shape *b) {
  return a->site == b->site && a->stack == b->stack && a->label == b->label &&
         a->n == b->n && !memcmp(a->acc, b->acc, a->n * sizeof *a->acc);
}

/* Whether deferred launch w repeats one of the thread's last launches on
 * its stream with nothing between; if not, it is kept as one.  The one it
 * repeats learns w's inputs if it had none (launch_repeat finds it by
 * them next time). */
static int repeat_of_last(gpu_work *w) {
  uint64_t gen = __atomic_load_n(&gpu_gen, __ATOMIC_RELAXED);
  if (repeats.stream != w->stream || repeats.gen != gen)
    repeats.n = repeats.next = 0;
  else
    for (uint32_t i = 0; i < repeats.n; i++) {
      launch_shape *h = &repeats.h[i];
      if (same_shape(h, &w->shape)) {
        if (!h->keylen && w->shape.keylen) {
          h->keylen = w->shape.keylen;
          memcpy(h->key, w->shape.key, h->keylen);
        }
        return 1;
      }
    }
  return 0;
}

static void repeats_keep(gpu_work *w) {
  repeats.stream = w->stream;
  repeats.gen = __atomic_load_n(&gpu_gen, __ATOMIC_RELAXED);
  launch_shape *h = &repeats.h[repeats.next];
  /* (The shape, and as many bytes of its key as it has.) */
  memcpy(h, &w->shape, offsetof(launch_shape, key) + w->shape.keylen);
  repeats.next = (repeats.next + 1) % SHAPE_HIST;
  if (repeats.n < SHAPE_HIST)
    repeats.n++;
}

/* A kernel launch about to be modeled whose inputs (the module's key: the
 * kernel, its geometry and its parameters' bytes, from which its footprint
 * follows) are those of one of the thread's last launches on the same
 * stream, with no GPU event since, from the same place, under the same
 * label: it is a repeat, as __kkrace_gpu_work_end would find once its
 * footprint was computed (the footprint depends on nothing else that can
 * change without a GPU event: allocations are events).  Returns 1 when it
 * is (nothing more to model: the same events are traced as for any
 * repeat); else 0, and the launch that the module models next keeps the
 * key for the next time. */
KKR_EXPORT int __kkrace_gpu_launch_repeat(unsigned long long stream,
                                          const char *label, const void *key,
                                          unsigned int len) {
  pending_key.len = 0;
  if (!kkr_flags.gpu_merge_repeats || !len || len > LAUNCH_KEY_MAX)
    return 0;
  kkr_thread *t = recording_thread();
  /* (As work_begin defers a launch: none open, none of Kokkos' own.) */
  if (!t || nopen || t->abi.strand_depth || t->nops >= KKR_MAX_OPS ||
      t->item_op || launching_graph)
    goto miss;
  /* (The thread's last stream is the history's, and not capturing.) */
  if (!repeats.n || !last_stream || last_handle != (uintptr_t)stream ||
      last_stream != repeats.stream || last_stream->cap ||
      repeats.gen != __atomic_load_n(&gpu_gen, __ATOMIC_RELAXED))
    goto miss;
  label = kernel_label(label);
  const char *name = kkr_intern(label && *label ? label : "?");
  uintptr_t site;
  uint32_t stack = api_stack(t, &site);
  for (uint32_t i = 0; i < repeats.n; i++) {
    const launch_shape *h = &repeats.h[i];
    if (h->keylen != len || h->site != site || h->stack != stack ||
        h->label != name || memcmp(h->key, key, len))
      continue;
    if (KKR_UNLIKELY(kkr_gpu_trace_host_on)) {
      trace_work(KKR_GPU_KERNEL, stream, label);
      for (uint32_t j = 0; j < h->n; j++)
        trace_access(h->acc[j].p, h->acc[j].size, h->acc[j].flags);
      trace_end(0);
    }
    __atomic_fetch_add(&repeats_skipped, 1, __ATOMIC_RELAXED);
    return 1;
  }
miss:
  memcpy(pending_key.b, key, len);
  pending_key.len = len;
  return 0;
}

void kkr_gpu_summary(int fd) {
  uint64_t n = __atomic_load_n(&repeats_skipped, __ATOMIC_RELAXED);
  if (!n)
    return;
  char line[160];
  int len = snprintf(line, sizeof line,
                     "kkrace: %llu kernel launches checked as an earlier "
                     "one (repeats: gpu_merge_repeats)\n",
                     (unsigned long long)n);
  kkr_write_all(fd, line, (size_t)len);
}

/* Ends the item; KKR_GPU_WAIT: the host waits for it (a synchronous copy),
 * and learns its stream's work up to it. */
KKR_EXPORT void __kkrace_gpu_work_end(unsigned int token, unsigned int flags) {
  kkr_thread *t = kkr_tls;
  if (!t || !token || !nopen || open_work[nopen - 1].token != token)
    return;
  trace_end(flags);
  gpu_work *w = &open_work[nopen - 1];
  if (w->captured) {
    nopen--;
    return;
  }
  int keep = 0;
  if (w->deferred) {
    if (w->device_only && repeat_of_last(w)) {
      nopen--;
      __atomic_fetch_add(&repeats_skipped, 1, __ATOMIC_RELAXED);
      return;
    }
    keep = w->device_only;
    work_materialize(t, w);
  }
  nopen--;
  t->nops = w->nops;
  kkr_node_host(t);
  if (flags & KKR_GPU_WAIT)
    host_learns(t, fill_stream, w->stream);
  if (w->kokkos_op) /* back in the Kokkos dispatch's own code */
    kkr_node_item(t, w->kokkos_op);
  if (keep)
    repeats_keep(w);
}

/* A launch of an executable graph on stream: the work captured for it runs
 * there, item after item.  An executable graph kkrace did not see captured
 * (built node by node) runs unseen. */
KKR_EXPORT void __kkrace_gpu_graph_launch(unsigned long long exec,
                                          unsigned long long stream) {
  gpu_gen_bump();
  kkr_thread *t = recording_thread();
  if (!t || launching_graph)
    return;
  trace("{\"ev\":\"graph_launch\",\"x\":%llu,\"s\":%llu}", exec, stream);
  const capture *rec = graph_find(&graph_execs, (uintptr_t)exec);
  if (!rec) {
    static int warned;
    if (!__atomic_exchange_n(&warned, 1, __ATOMIC_RELAXED))
      kkr_warn("a CUDA graph that was not captured from streams was "
               "launched (cudaGraphLaunch): its work is not checked");
    return;
  }
  launching_graph = 1;
  for (uint32_t i = 0; i < rec->n; i++) {
    const cap_item *ci = &rec->items[i];
    launching_graph_item = ci;
    unsigned tok = __kkrace_gpu_work_begin(ci->kind, stream, ci->label);
    if (!tok)
      continue;
    for (uint32_t k = 0; k < ci->n; k++)
      __kkrace_gpu_access((void *)ci->acc[k].p, ci->acc[k].size,
                          ci->acc[k].flags);
    __kkrace_gpu_work_end(tok, 0);
  }
  launching_graph_item = NULL;
  launching_graph = 0;
}

/* An access by the host thread in a CUDA call (the pageable source of a
 * copy, which the driver stages before it returns). */
KKR_EXPORT void __kkrace_gpu_host_access(void *p, unsigned long long size,
                                         unsigned int flags) {
  kkr_thread *t = recording_thread();
  if (!t || (t->item_op && !in_host_func(t)) || !size)
    return;
  if (tracing())
    trace_host((uintptr_t)p, size, flags);
  uintptr_t site = 0;
  (void)api_stack(t, &site);
  kkr_access_range(t, (uintptr_t)p, size,
                   (flags & KKR_GPU_ACC_WRITE) ? KKR_ACC_WRITE : 0, site, 0);
}

/* memory kind of p, for the CUPTI module's copies (KKR_GPU_MEM_*; pageable
 * host memory if unknown). */
KKR_EXPORT unsigned int __kkrace_gpu_mem_kind(const void *p) {
  gpu_alloc a;
  return alloc_find((uintptr_t)p, &a) ? a.kind : KKR_GPU_MEM_HOST;
}

/* The allocation holding p: its bounds, and 1; 0 if none is known. */
KKR_EXPORT int __kkrace_gpu_alloc_range(const void *p, unsigned long long *lo,
                                        unsigned long long *hi) {
  gpu_alloc a;
  if (!alloc_find((uintptr_t)p, &a))
    return 0;
  *lo = a.lo;
  *hi = a.hi;
  return 1;
}

/* A free: cudaFree waits for the device first; cudaFreeAsync is a work item
 * on its stream that writes all of the allocation. */
KKR_EXPORT void __kkrace_gpu_free(void *p, unsigned long long stream,
                                  unsigned int flags) {
  gpu_gen_bump();
  kkr_thread *t = recording_thread();
  if (!t || !p)
    return;
  trace("{\"ev\":\"free\",\"p\":%llu,\"s\":%llu,\"flags\":%u}",
        (unsigned long long)(uintptr_t)p, stream, flags);
  gpu_alloc a;
  if (!alloc_find((uintptr_t)p, &a) || a.lo != (uintptr_t)p)
    return;
  if (flags & KKR_GPU_ASYNC) {
    if (stream_get(t, (uintptr_t)stream)->cap)
      return; /* (captured into a graph: not followed) */
    unsigned int tok = __kkrace_gpu_work_begin(KKR_GPU_FREE, stream, "cudaFreeAsync");
    if (tok) {
      free_alloc(t, &a, open_work[nopen - 1].site);
      __kkrace_gpu_work_end(tok, 0);
    }
  } else if (!t->item_op) {
    if (flags & KKR_GPU_WAIT)
      host_learns(t, fill_device, NULL);
    uintptr_t site = 0;
    (void)api_stack(t, &site);
    free_alloc(t, &a, site);
  }
  if (!a.segs)
    kkr_shadow_clear(a.lo, a.hi - a.lo);
  alloc_forget(a.lo); /* (and its segments' cells) */
}

/* ---- Host functions on streams (cudaLaunchHostFunc) --------------------- */

/* A host function the program put on a stream: a work item of the stream
 * whose accesses are those of the function itself, which CUDA runs later
 * on a thread of its own.  That thread runs it as the item (its clock,
 * which holds the stream's earlier work) and learns it afterwards.  In the
 * trace: "host_func" (the item just submitted), then "host_func_begin" and
 * "host_func_end" around the function's run, with its accesses between
 * (kkrace-gpu-replay calls the __kkrace_gpu_host_func_* below). */
typedef struct {
  void (*fn)(void *);
  void (*callback)(void *stream, int status, void *data);
  void *data;
  kkr_op op;   /* the item, as its submission left it */
  kkr_vc vc;   /* the item's clock */
  uint32_t id; /* for the trace */
} host_func;

static uint32_t host_funcs_made;

/* The item being submitted (between __kkrace_gpu_work_begin and _end) as a
 * host function. */
static host_func *host_func_keep(kkr_thread *t, uint32_t id) {
  if (!t->nops || t->nops > KKR_MAX_OPS)
    return NULL;
  host_func *f = calloc(1, sizeof *f);
  if (!f)
    return NULL;
  f->op = t->ops[t->nops - 1];
  kkr_vc_assign(&f->vc, &t->item_vc);
  f->id = id;
  trace("{\"ev\":\"host_func\",\"id\":%u}", id);
  return f;
}

static void host_func_free(host_func *f) {
  kkr_vc_free(&f->vc);
  free(f);
}

/* The calling thread runs f's function: it is f's item until
 * host_func_exit.  0 if it cannot be (already inside an operation). */
static int host_func_enter(kkr_thread *t, host_func *f) {
  if (!t || t->cur_is_item || t->nops)
    return 0;
  trace("{\"ev\":\"host_func_begin\",\"id\":%u}", f->id);
  kkr_vc_assign(&t->item_vc, &f->vc);
  kkr_node_item(t, &f->op);
  running_host_func = f->id;
  return 1;
}

/* learn: what runs after it on this thread comes after it (CUDA's thread;
 * not a replay, whose one thread is the program's too). */
static void host_func_exit(kkr_thread *t, host_func *f, int learn) {
  trace("{\"ev\":\"host_func_end\",\"id\":%u}", f->id);
  running_host_func = 0;
  kkr_node_host(t);
  if (learn) {
    kkr_vc_max(&f->vc, f->op.item_tl, f->op.item_clk);
    kkr_host_learn(t, &f->vc);
  }
}

static host_func *host_func_new(void *stream, unsigned int ptsz, void *fn,
                                const char *api) {
  kkr_thread *t = recording_thread();
  if (!t || t->cur_is_item || t->nops)
    return NULL; /* (inside another operation: not modeled) */
  uintptr_t h = (uintptr_t)stream;
  if (h == 0 && ptsz)
    h = H_PER_THREAD;
  /* The function's name (from the program's symbols), else the API's. */
  const char *label = api;
  /* (The symbolizer reads a return address: 2 bytes before it.) */
  uintptr_t pc = (uintptr_t)fn + 4;
  kkr_sym_stack st = {NULL, 0};
  kkr_symbolize(&pc, 1, 1, &st);
  if (st.n && st.frames[st.n - 1].function) {
    /* Its name without the parameters ("produce", not "produce(void*)"). */
    const char *f = st.frames[st.n - 1].function;
    size_t start, end;
    kkr_qualified_span(f, &start, &end);
    char name[256];
    snprintf(name, sizeof name, "%.*s", (int)(end - start), f + start);
    label = kkr_intern(name);
  }
  if (st.frames)
    kkr_free(st.frames, (st.n ? st.n : 1) * sizeof(kkr_frame));
  unsigned tok = __kkrace_gpu_work_begin(KKR_GPU_HOST_FUNC, h, label);
  if (!tok)
    return NULL;
  host_func *f =
      host_func_keep(t, __atomic_add_fetch(&host_funcs_made, 1,
                                           __ATOMIC_RELAXED));
  __kkrace_gpu_work_end(tok, 0);
  return f;
}

/* On CUDA's thread: the function runs as its item. */
static void host_func_run(host_func *f, void *stream, int status) {
  kkr_thread *t = recording_thread();
  int entered = host_func_enter(t, f);
  if (f->fn)
    f->fn(f->data);
  else
    f->callback(stream, status, f->data);
  if (entered)
    host_func_exit(t, f, 1);
  host_func_free(f);
}

static void host_func_tramp(void *p) { host_func_run(p, NULL, 0); }

static void stream_callback_tramp(void *stream, int status, void *p) {
  host_func_run(p, stream, status);
}

KKR_EXPORT unsigned int __kkrace_cuda_host_func(void *stream, void *fn,
                                                void *data, void *real,
                                                unsigned int ptsz) {
  gpu_gen_bump();
  int (*launch)(void *, void (*)(void *), void *) =
      (int (*)(void *, void (*)(void *), void *))real;
  host_func *f = fn ? host_func_new(stream, ptsz, fn, "cudaLaunchHostFunc")
                    : NULL;
  if (!f)
    return (unsigned int)launch(stream, (void (*)(void *))fn, data);
  f->fn = (void (*)(void *))fn;
  f->data = data;
  int r = launch(stream, host_func_tramp, f);
  if (r) /* (not launched: the item runs nothing) */
    host_func_free(f);
  return (unsigned int)r;
}

KKR_EXPORT unsigned int __kkrace_cuda_stream_callback(void *stream,
                                                      void *callback,
                                                      void *data,
                                                      unsigned int flags,
                                                      void *real,
                                                      unsigned int ptsz) {
  gpu_gen_bump();
  int (*add)(void *, void (*)(void *, int, void *), void *, unsigned) =
      (int (*)(void *, void (*)(void *, int, void *), void *, unsigned))real;
  host_func *f = callback ? host_func_new(stream, ptsz, callback,
                                          "cudaStreamAddCallback")
                          : NULL;
  if (!f)
    return (unsigned int)add(stream, (void (*)(void *, int, void *))callback,
                             data, flags);
  f->callback = (void (*)(void *, int, void *))callback;
  f->data = data;
  int r = add(stream, stream_callback_tramp, f, flags);
  if (r)
    host_func_free(f);
  return (unsigned int)r;
}

/* kkrace-gpu-replay: the trace's host functions, by id. */
#define REPLAY_HOST_FUNCS 4096
static host_func *replayed[REPLAY_HOST_FUNCS];

/* what: 0 submitted (inside its work item), 1 begins or resumes (its
 * accesses follow), 2 ends, 3 pauses (the program's own events follow). */
KKR_EXPORT void __kkrace_gpu_host_func_replay(unsigned int id,
                                              unsigned int what) {
  gpu_gen_bump();
  kkr_thread *t = recording_thread();
  if (!t || id >= REPLAY_HOST_FUNCS)
    return;
  host_func *f = replayed[id];
  if (what == 0) {
    if (!f)
      replayed[id] = host_func_keep(t, id);
  } else if (what == 1) {
    if (f && !host_func_enter(t, f))
      kkr_die("kkrace-gpu-replay: host function %u begins inside an "
              "operation", id);
  } else if (f && t->item_op == &f->op) {
    host_func_exit(t, f, 0);
    if (what == 2) {
      host_func_free(f);
      replayed[id] = NULL;
    }
  }
}
