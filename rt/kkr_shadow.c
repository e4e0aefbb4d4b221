/* Shadow memory: the directories, chunk mapping, clearing and read sets. */
#include "kkr_shadow.h"

#include <string.h>
#include <sys/mman.h>

kkr_cell **kkr_dir;
kkr_split **kkr_split_dir;
uint64_t kkr_readsets_live;
static kkr_spin chunk_lock;
static uintptr_t mapped_bytes;

#define CHUNK_BYTES ((uintptr_t)KKR_CELLS_PER_CHUNK * sizeof(kkr_cell))
#define SPLIT_BYTES ((uintptr_t)KKR_CELLS_PER_CHUNK * sizeof(kkr_split))

void kkr_shadow_init(void) {
  if (kkr_dir)
    return;
  kkr_split_dir = kkr_mmap_noreserve(sizeof(kkr_split *) << KKR_DIR_BITS,
                                     "the split-cell directory");
  kkr_dir = kkr_mmap_noreserve(sizeof(kkr_cell *) << KKR_DIR_BITS,
                               "the shadow directory");
}

/* Maps a chunk for *slot (under chunk_lock). */
static void *map_chunk(void **slot, uintptr_t bytes) {
  kkr_spin_lock(&chunk_lock);
  void *c = *slot;
  if (!c) {
    c = kkr_mmap_noreserve(bytes, "shadow memory");
    /* Huge pages: faulting shadow in 4 KiB at a time is what costs most. */
    madvise(c, bytes, MADV_HUGEPAGE);
    mapped_bytes += bytes;
    __atomic_store_n(slot, c, __ATOMIC_RELEASE);
  }
  kkr_spin_unlock(&chunk_lock);
  return c;
}

kkr_cell *kkr_shadow_chunk_slow(uintptr_t addr) {
  return map_chunk((void **)&kkr_dir[KKR_DIR_INDEX(addr)], CHUNK_BYTES);
}

kkr_split *kkr_split_chunk_slow(uintptr_t addr) {
  return map_chunk((void **)&kkr_split_dir[KKR_DIR_INDEX(addr)], SPLIT_BYTES);
}

uintptr_t kkr_shadow_mapped_bytes(void) { return mapped_bytes; }

static void drop_readset(kkr_cell *c) {
  if (c->r & KKR_R_X)
    kkr_readset_free(KKR_REC_PTR(c->r));
}

/* Frees the read sets that n cells (and their halves) point to. */
static void drop_readsets(kkr_cell *c, kkr_split *s, uintptr_t n) {
  for (uintptr_t i = 0; i < n; i++) {
    drop_readset(&c[i]);
    if (s && (c[i].w & KKR_R_X)) {
      drop_readset(&s[i].half[0]);
      drop_readset(&s[i].half[1]);
    }
  }
}

/* Zeroes n bytes; whole pages go back to the system (they read as zero). */
static void zero_bytes(void *p, uintptr_t n) {
  uintptr_t lo = (uintptr_t)p, hi = lo + n;
  uintptr_t plo = (lo + 4095) & ~(uintptr_t)4095, phi = hi & ~(uintptr_t)4095;
  if (phi > plo && phi - plo >= 64 * 1024) {
    memset((void *)lo, 0, plo - lo);
    madvise((void *)plo, phi - plo, MADV_DONTNEED);
    memset((void *)phi, 0, hi - phi);
  } else {
    memset(p, 0, n);
  }
}

void kkr_shadow_clear(uintptr_t addr, uintptr_t size) {
  if (!kkr_dir || size == 0)
    return;
  const uintptr_t g = KKR_GRAN - 1;
  uintptr_t lo = addr & ~g, hi = (addr + size + g) & ~g;
  while (lo < hi) {
    uintptr_t chunk_end = (lo | ((1u << KKR_CHUNK_SHIFT) - 1)) + 1;
    uintptr_t end = hi < chunk_end ? hi : chunk_end;
    kkr_cell *c = kkr_shadow_cell_if_mapped(lo);
    if (c) {
      uintptr_t n = (end - lo) >> KKR_GRAN_SHIFT;
      kkr_split *s = kkr_split_dir[KKR_DIR_INDEX(lo)];
      if (s)
        s += KKR_CELL_INDEX(lo);
      if (__atomic_load_n(&kkr_readsets_live, __ATOMIC_RELAXED))
        drop_readsets(c, s, n);
      /* Halves are stale once their cell is cleared: zero them too. */
      if (s)
        zero_bytes(s, n * sizeof(kkr_split));
      zero_bytes(c, n * sizeof(kkr_cell));
    }
    lo = end;
  }
}

void kkr_shadow_clear_all(void) {
  for (uintptr_t i = 0; i < ((uintptr_t)1 << KKR_DIR_BITS); i++)
    if (kkr_dir[i])
      kkr_shadow_clear(i << KKR_CHUNK_SHIFT, (uintptr_t)1 << KKR_CHUNK_SHIFT);
}

kkr_readset *kkr_readset_new(uint32_t cap) {
  kkr_readset *s = kkr_alloc(sizeof(kkr_readset) + cap * sizeof(uint64_t));
  s->cap = cap;
  __atomic_add_fetch(&kkr_readsets_live, 1, __ATOMIC_RELAXED);
  return s;
}

kkr_readset *kkr_readset_grow(kkr_readset *s) {
  size_t old = sizeof(kkr_readset) + s->cap * sizeof(uint64_t);
  kkr_readset *t = kkr_realloc(s, old, old + s->cap * sizeof(uint64_t));
  t->cap *= 2;
  return t;
}

void kkr_readset_free(kkr_readset *s) {
  kkr_free(s, sizeof(kkr_readset) + s->cap * sizeof(uint64_t));
  __atomic_sub_fetch(&kkr_readsets_live, 1, __ATOMIC_RELAXED);
}
