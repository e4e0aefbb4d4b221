/* Allocations: the registry of View allocations (labels for reports, from
 * Kokkos Tools), of large heap blocks, and frees.
 *
 * Freeing memory is a write of all of it by the freeing node (SEMANTICS.md,
 * "View deallocation"): work still using it races with the free.  Then its
 * shadow is cleared, so the next allocation at that address starts fresh.
 * free and realloc are wrapped (the program keeps glibc's allocator), and
 * malloc and calloc, for the bounds of large blocks (below); frees
 * that the program's own code makes are checked, frees inside libraries only
 * clear (Kokkos frees Views inside its library after the Tools callback
 * that checks them). */
#define _GNU_SOURCE
#include <malloc.h>
#include <stddef.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "kkr_rt.h"

/* ---- View registry ------------------------------------------------------ */

static kkr_view_alloc *views;
static uint32_t nviews, capviews;
static kkr_spin views_lock;

/* The first of n entries of stride bytes from arr, sorted by the address
 * each begins with, whose address is lo or more. */
static uint32_t lower_bound_lo(const void *arr, size_t stride, uint32_t n,
                               uintptr_t lo) {
  uint32_t a = 0, b = n;
  while (a < b) {
    uint32_t m = (a + b) / 2;
    if (*(const uintptr_t *)((const char *)arr + m * stride) < lo)
      a = m + 1;
    else
      b = m;
  }
  return a;
}

static uint32_t views_lower_bound(uintptr_t lo) {
  return lower_bound_lo(views, sizeof *views, nviews, lo);
}

/* Memory that each thread of the backend gets for itself, which logically
 * no two strands share:
 *  - team scratch memory, the buffer a host backend hands to each team in
 *    turn ("Kokkos::Serial::scratch_mem"): logically every team has its
 *    own, so accesses of two teams (or two kernels) to the same bytes are
 *    never a race;
 *  - Kokkos Kernels' memory pool ("pool data", UniformMemoryPool): the
 *    chunk a strand gets is the executing thread's (on Serial, every
 *    strand gets thread 0's), so no access to it races. */
#define MAX_SCRATCH 16
static struct {
  uintptr_t lo, hi;
  int kind;
  uintptr_t from, to; /* [lo + from, lo + to): where teams were seen to
                         meet another team's records (to 0: nowhere yet) */
} scratch[MAX_SCRATCH];
static uint32_t nscratch;

void kkr_scratch_used(uintptr_t addr) {
  uint32_t n = __atomic_load_n(&nscratch, __ATOMIC_ACQUIRE);
  for (uint32_t i = 0; i < n; i++)
    if (addr >= scratch[i].lo && addr < scratch[i].hi) {
      uintptr_t off = (addr - scratch[i].lo) & ~(uintptr_t)(KKR_GRAN - 1);
      if (!scratch[i].to || off < scratch[i].from)
        scratch[i].from = off;
      if (off + KKR_GRAN > scratch[i].to)
        scratch[i].to = off + KKR_GRAN;
      return;
    }
}

KKR_EXPORT void __kkrace_scratch_mode(unsigned int thread) {
  kkr_thread *t = kkr_tls;
  if (t)
    t->scratch_thread = thread;
}

KKR_EXPORT void __kkrace_scratch_take(void *p, unsigned long long size) {
  kkr_thread *t = kkr_tls;
  if (!t || !t->scratch_thread || !p || !size || !t->abi.strand_depth ||
      !kkr_in_team_item(t))
    return;
  uint32_t k = t->ntscratch++ % KKR_TSCRATCH_MAX;
  t->tscratch[k].lo = (uintptr_t)p;
  t->tscratch[k].hi = (uintptr_t)p + size;
  t->tscratch[k].node = t->cur_node;
  t->tscratch[k].team = KKR_TEAM_OF(KKR_CUR_STRAND(t));
}

int kkr_thread_scratch(const kkr_thread *t, uintptr_t w) {
  uint32_t n = t->ntscratch < KKR_TSCRATCH_MAX ? t->ntscratch : KKR_TSCRATCH_MAX;
  uint32_t team = KKR_TEAM_OF(KKR_CUR_STRAND(t));
  for (uint32_t k = 0; k < n; k++)
    if (w >= t->tscratch[k].lo && w < t->tscratch[k].hi &&
        t->tscratch[k].node == t->cur_node && t->tscratch[k].team == team)
      return 1;
  return 0;
}

void kkr_scratch_team_begin(void) {
  uint32_t n = __atomic_load_n(&nscratch, __ATOMIC_ACQUIRE);
  for (uint32_t i = 0; i < n; i++)
    if (scratch[i].kind == KKR_SCRATCH_TEAM && scratch[i].to)
      kkr_shadow_clear(scratch[i].lo + scratch[i].from,
                       scratch[i].to - scratch[i].from);
}

int kkr_is_scratch(uintptr_t addr) {
  uint32_t n = __atomic_load_n(&nscratch, __ATOMIC_ACQUIRE);
  for (uint32_t i = 0; i < n; i++)
    if (addr >= scratch[i].lo && addr < scratch[i].hi)
      return scratch[i].kind;
  return 0;
}

static void scratch_add(uintptr_t lo, uintptr_t hi, int kind) {
  uint32_t i = 0;
  while (i < nscratch && scratch[i].lo != lo)
    i++;
  if (i == MAX_SCRATCH)
    return;
  scratch[i].lo = lo;
  scratch[i].hi = hi;
  scratch[i].kind = kind;
  scratch[i].from = scratch[i].to = 0;
  if (i == nscratch)
    __atomic_store_n(&nscratch, nscratch + 1, __ATOMIC_RELEASE);
}

static void scratch_remove(uintptr_t lo) {
  for (uint32_t i = 0; i < nscratch; i++)
    if (scratch[i].lo == lo) {
      scratch[i].hi = lo; /* empty: the slot stays, harmlessly */
      scratch[i].from = scratch[i].to = 0;
      return;
    }
}

/* Kokkos reports an allocation by the start of its SharedAllocationHeader
 * (a record pointer, then the label in 120 bytes) and the size of the data
 * that follows it.  Once the header holds the label, the View's data is
 * [lo + 128, lo + 128 + size); allocations without a header are as reported. */
#define KKR_VIEW_HEADER 128

/* The allocation each thread made last (kkr_views_add). */
static __thread uintptr_t last_view;

uint32_t kkr_views_gen;

static void views_add(uintptr_t lo, uintptr_t size, const char *label,
                      const char *space, uint8_t raw) {
  kkr_spin_lock(&views_lock);
  __atomic_add_fetch(&kkr_views_gen, 1, __ATOMIC_RELAXED);
  /* (The data may follow a header: kkr_views_find.) */
  uintptr_t end = lo + size + (raw ? 0 : KKR_VIEW_HEADER);
  if (label && strstr(label, "scratch_mem"))
    scratch_add(lo, end, KKR_SCRATCH_TEAM);
  else if (label && !strcmp(label, "pool data"))
    scratch_add(lo, end, KKR_SCRATCH_POOL);
  uint32_t i = views_lower_bound(lo);
  if (i < nviews && views[i].lo == lo) {
    views[i].hi = lo + size;
    views[i].label = kkr_intern(label);
    views[i].space = kkr_intern(space);
    views[i].raw = raw;
    views[i].esz = 0;
    views[i].nelem = 0;
    kkr_spin_unlock(&views_lock);
    return;
  }
  if (nviews == capviews) {
    uint32_t cap = capviews ? capviews * 2 : 64;
    views = kkr_realloc(views, capviews * sizeof *views, cap * sizeof *views);
    capviews = cap;
  }
  memmove(&views[i + 1], &views[i], (nviews - i) * sizeof *views);
  views[i].lo = lo;
  views[i].hi = lo + size;
  views[i].label = kkr_intern(label);
  views[i].space = kkr_intern(space);
  views[i].raw = raw;
  views[i].esz = 0;
  views[i].nelem = 0;
  nviews++;
  kkr_spin_unlock(&views_lock);
}

void kkr_views_add(uintptr_t lo, uintptr_t size, const char *label,
                   const char *space) {
  views_add(lo, size, label, space, 0);
  last_view = lo;
}

void kkr_views_add_raw(uintptr_t lo, uintptr_t size, const char *label,
                       const char *space) {
  views_add(lo, size, label, space, 1);
}


static kkr_view_alloc data_range(const kkr_view_alloc *v) {
  kkr_view_alloc d = *v;
  uintptr_t size = v->hi - v->lo;
  const char *label = (const char *)v->lo + sizeof(void *);
  if (!v->raw && v->label && strncmp(label, v->label, KKR_VIEW_HEADER - sizeof(void *) - 1) == 0) {
    d.lo = v->lo + KKR_VIEW_HEADER;
    d.hi = d.lo + size;
  }
  return d;
}

int kkr_views_find(uintptr_t addr, kkr_view_alloc *out) {
  int found = 0;
  kkr_spin_lock(&views_lock);
  uint32_t i = views_lower_bound(addr + 1);
  if (i > 0 && addr >= views[i - 1].lo &&
      addr < views[i - 1].hi + (views[i - 1].raw ? 0 : KKR_VIEW_HEADER)) {
    kkr_view_alloc d = data_range(&views[i - 1]);
    if (addr >= d.lo && addr < d.hi) {
      *out = d;
      found = 1;
    }
  }
  kkr_spin_unlock(&views_lock);
  return found;
}

KKR_EXPORT void __kkrace_view_elements(unsigned long long esz) {
  if (!last_view || !esz || esz > 0xffffffffu)
    return;
  kkr_spin_lock(&views_lock);
  uint32_t i = views_lower_bound(last_view + 1);
  if (i > 0 && views[i - 1].lo == last_view) {
    kkr_view_alloc d = data_range(&views[i - 1]);
    uint64_t n = (d.hi - d.lo) / esz;
    if (n) {
      views[i - 1].esz = (uint32_t)esz;
      views[i - 1].nelem = n;
    }
  }
  kkr_spin_unlock(&views_lock);
}

uintptr_t kkr_views_bytes_in(uintptr_t lo, uintptr_t hi) {
  /* (Device memory is not counted: its shadow is a few words per
   * allocation, which the host's code never reaches.) */
  static const char *device;
  if (!device)
    device = kkr_intern("Cuda");
  uintptr_t n = 0;
  kkr_spin_lock(&views_lock);
  /* (Allocations do not overlap: from the last one starting at or before
   * lo.) */
  uint32_t i = views_lower_bound(lo + 1);
  for (i = i ? i - 1 : 0; i < nviews && views[i].lo < hi; i++) {
    uintptr_t a = views[i].lo > lo ? views[i].lo : lo;
    uintptr_t b = views[i].hi < hi ? views[i].hi : hi;
    if (a < b && views[i].space != device)
      n += b - a;
  }
  kkr_spin_unlock(&views_lock);
  return n;
}

/* The end of the memory at addr that may belong to one object of unknown
 * size: the end of the View holding addr, else the start of the next View's
 * allocation (another object), and never past addr + cap. */
uintptr_t kkr_views_object_end(uintptr_t addr, uintptr_t cap) {
  kkr_view_alloc d;
  if (kkr_views_find(addr, &d))
    return d.hi;
  uintptr_t end = addr + cap;
  kkr_spin_lock(&views_lock);
  uint32_t i = views_lower_bound(addr + 1);
  if (i < nviews && views[i].lo < end)
    end = views[i].lo;
  kkr_spin_unlock(&views_lock);
  return end;
}

int kkr_views_take(uintptr_t lo, kkr_view_alloc *out) {
  int found = 0;
  kkr_spin_lock(&views_lock);
  uint32_t i = views_lower_bound(lo);
  __atomic_add_fetch(&kkr_views_gen, 1, __ATOMIC_RELAXED);
  scratch_remove(lo);
  if (i < nviews && views[i].lo == lo) {
    *out = data_range(&views[i]);
    memmove(&views[i], &views[i + 1], (nviews - i - 1) * sizeof *views);
    nviews--;
    found = 1;
  }
  kkr_spin_unlock(&views_lock);
  return found;
}

/* ---- Large heap blocks --------------------------------------------------- */

/* The blocks that malloc, calloc and realloc returned for
 * KKR_HEAP_ARRAY_MIN bytes or more and that are not freed yet, sorted (at
 * most a few hundred in most programs: each is an array).  They give a
 * kernel's rows in memory that is not a View's the bounds that a View's
 * allocation gives (kkr_access.c, rows_fresh).  [heap_min, heap_max)
 * holds every block ever added, so that a free elsewhere looks no
 * further.  A block freed where the wrapper does not see it (inside libc)
 * stays until one at its address replaces it: the bounds only place a
 * run of nothing over memory that holds no records yet, which is exact
 * whatever the memory is. */
typedef struct {
  uintptr_t lo, hi;
} heap_block;
static heap_block *heap;
static uint32_t nheap, capheap;
static kkr_spin heap_lock;
static uintptr_t heap_min = UINTPTR_MAX, heap_max;

static uint32_t heap_lower_bound(uintptr_t lo) {
  return lower_bound_lo(heap, sizeof *heap, nheap, lo);
}

/* Blocks kept at most (a program that holds more of them gets no rows in
 * the others: a free moves the entries after its block). */
#define HEAP_BLOCKS_MAX 4096u

static void heap_add(uintptr_t lo, uintptr_t size) {
  kkr_spin_lock(&heap_lock);
  uint32_t i = heap_lower_bound(lo);
  if (i < nheap && heap[i].lo == lo) {
    heap[i].hi = lo + size; /* (its earlier block freed unseen) */
  } else if (nheap < HEAP_BLOCKS_MAX) {
    if (nheap == capheap) {
      uint32_t cap = capheap ? capheap * 2 : 64;
      heap = kkr_realloc(heap, capheap * sizeof *heap, cap * sizeof *heap);
      capheap = cap;
    }
    memmove(&heap[i + 1], &heap[i], (nheap - i) * sizeof *heap);
    heap[i].lo = lo;
    heap[i].hi = lo + size;
    nheap++;
  } else {
    kkr_spin_unlock(&heap_lock);
    return;
  }
  if (lo < __atomic_load_n(&heap_min, __ATOMIC_RELAXED))
    __atomic_store_n(&heap_min, lo, __ATOMIC_RELAXED);
  if (lo + size > __atomic_load_n(&heap_max, __ATOMIC_RELAXED))
    __atomic_store_n(&heap_max, lo + size, __ATOMIC_RELAXED);
  kkr_spin_unlock(&heap_lock);
}

static void heap_remove(uintptr_t lo) {
  if (lo < __atomic_load_n(&heap_min, __ATOMIC_RELAXED) ||
      lo >= __atomic_load_n(&heap_max, __ATOMIC_RELAXED))
    return;
  kkr_spin_lock(&heap_lock);
  uint32_t i = heap_lower_bound(lo);
  if (i < nheap && heap[i].lo == lo) {
    memmove(&heap[i], &heap[i + 1], (nheap - i - 1) * sizeof *heap);
    nheap--;
  }
  kkr_spin_unlock(&heap_lock);
}

int kkr_heap_find(uintptr_t addr, kkr_view_alloc *out) {
  if (addr < __atomic_load_n(&heap_min, __ATOMIC_RELAXED) ||
      addr >= __atomic_load_n(&heap_max, __ATOMIC_RELAXED))
    return 0;
  int found = 0;
  kkr_spin_lock(&heap_lock);
  uint32_t i = heap_lower_bound(addr + 1);
  if (i > 0 && addr < heap[i - 1].hi) {
    memset(out, 0, sizeof *out);
    out->lo = heap[i - 1].lo;
    out->hi = heap[i - 1].hi;
    found = 1;
  }
  kkr_spin_unlock(&heap_lock);
  return found;
}

int kkr_array_find(uintptr_t addr, kkr_view_alloc *out) {
  return kkr_views_find(addr, out) || kkr_heap_find(addr, out);
}

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);

KKR_EXPORT void *malloc(size_t size) {
  void *p = __libc_malloc(size);
  if (KKR_UNLIKELY(size >= KKR_HEAP_ARRAY_MIN) && p)
    heap_add((uintptr_t)p, size);
  return p;
}

KKR_EXPORT void *calloc(size_t n, size_t size) {
  void *p = __libc_calloc(n, size);
  /* (n * size does not overflow when p is not null.) */
  if (p && n && size >= KKR_HEAP_ARRAY_MIN / n)
    heap_add((uintptr_t)p, n * size);
  return p;
}

/* ---- Frees -------------------------------------------------------------- */

/* The program's own code: [kkr_text_base, kkr_text_end). */
static int from_program(uintptr_t pc) {
  return pc >= kkr_text_base && pc < kkr_text_end;
}

extern void __libc_free(void *);
extern void *__libc_realloc(void *, size_t);

KKR_EXPORT void free(void *p) {
  if (p)
    heap_remove((uintptr_t)p);
  if (p && kkr_dir) {
    uintptr_t n = malloc_usable_size(p);
    uintptr_t pc = (uintptr_t)__builtin_return_address(0);
    if (kkr_inited && from_program(pc))
      kkr_memory_freed(kkr_tls, (uintptr_t)p, n, pc,
                       *(uintptr_t *)__builtin_frame_address(0));
    else
      kkr_shadow_clear((uintptr_t)p, n);
    kkr_dl_forget((uintptr_t)p, (uintptr_t)p + n);
  }
  __libc_free(p);
}

KKR_EXPORT void cfree(void *p) { free(p); }

KKR_EXPORT void *realloc(void *p, size_t size) {
  uintptr_t old = p && kkr_dir ? malloc_usable_size(p) : 0;
  void *q = __libc_realloc(p, size);
  if (p && (q || size == 0))
    heap_remove((uintptr_t)p);
  if (q && size >= KKR_HEAP_ARRAY_MIN)
    heap_add((uintptr_t)q, size);
  if (p && kkr_dir) {
    if (q && q != p)
      kkr_shadow_clear((uintptr_t)p, old);
    else if (q == p && size < old)
      kkr_shadow_clear((uintptr_t)p + size, old - size);
    else if (!q && size == 0)
      kkr_shadow_clear((uintptr_t)p, old);
  }
  return q;
}

KKR_EXPORT int munmap(void *p, size_t size) {
  if (kkr_dir)
    kkr_shadow_clear((uintptr_t)p, size);
  return (int)syscall(SYS_munmap, p, size);
}
