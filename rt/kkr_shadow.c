/* Shadow memory: the directory, chunk mapping, clearing and read sets. */
#include "kkr_shadow.h"

#include <string.h>
#include <sys/mman.h>

kkr_cell **kkr_dir;
uint64_t kkr_readsets_live;
static kkr_spin chunk_lock;
static uintptr_t mapped_bytes;

#define CHUNK_BYTES ((uintptr_t)KKR_CELLS_PER_CHUNK * sizeof(kkr_cell))
#define DIR_INDEX(a) (((a) >> KKR_CHUNK_SHIFT) & ((1u << KKR_DIR_BITS) - 1))

void kkr_shadow_init(void) {
  if (kkr_dir)
    return;
  kkr_dir = kkr_mmap_noreserve(sizeof(kkr_cell *) << KKR_DIR_BITS,
                               "the shadow directory");
}

kkr_cell *kkr_shadow_chunk_slow(uintptr_t addr) {
  uintptr_t i = DIR_INDEX(addr);
  kkr_spin_lock(&chunk_lock);
  kkr_cell *c = kkr_dir[i];
  if (!c) {
    c = kkr_mmap_noreserve(CHUNK_BYTES, "shadow memory");
    mapped_bytes += CHUNK_BYTES;
    __atomic_store_n(&kkr_dir[i], c, __ATOMIC_RELEASE);
  }
  kkr_spin_unlock(&chunk_lock);
  return c;
}

uintptr_t kkr_shadow_mapped_bytes(void) { return mapped_bytes; }

static void drop_readsets(kkr_cell *c, uintptr_t n) {
  for (uintptr_t i = 0; i < n; i++)
    if (c[i].r.a & KKR_F_SET) {
      kkr_readset_free((kkr_readset *)(uintptr_t)c[i].r.b);
      c[i].r.a = c[i].r.b = 0;
    }
}

/* Zeroes n cells; whole pages go back to the system (they read as zero). */
static void zero_cells(kkr_cell *c, uintptr_t n) {
  if (__atomic_load_n(&kkr_readsets_live, __ATOMIC_RELAXED))
    drop_readsets(c, n);
  uintptr_t lo = (uintptr_t)c, hi = lo + n * sizeof(kkr_cell);
  uintptr_t plo = (lo + 4095) & ~(uintptr_t)4095, phi = hi & ~(uintptr_t)4095;
  if (phi > plo && phi - plo >= 64 * 1024) {
    memset((void *)lo, 0, plo - lo);
    madvise((void *)plo, phi - plo, MADV_DONTNEED);
    memset((void *)phi, 0, hi - phi);
  } else {
    memset(c, 0, n * sizeof(kkr_cell));
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
    if (c)
      zero_cells(c, (end - lo) >> KKR_GRAN_SHIFT);
    lo = end;
  }
}

kkr_readset *kkr_readset_new(uint32_t cap) {
  kkr_readset *s = kkr_alloc(sizeof(kkr_readset) + cap * sizeof(kkr_rec));
  s->cap = cap;
  __atomic_add_fetch(&kkr_readsets_live, 1, __ATOMIC_RELAXED);
  return s;
}

kkr_readset *kkr_readset_grow(kkr_readset *s) {
  size_t old = sizeof(kkr_readset) + s->cap * sizeof(kkr_rec);
  kkr_readset *t = kkr_realloc(s, old, old + s->cap * sizeof(kkr_rec));
  t->cap *= 2;
  return t;
}

void kkr_readset_free(kkr_readset *s) {
  kkr_free(s, sizeof(kkr_readset) + s->cap * sizeof(kkr_rec));
  __atomic_sub_fetch(&kkr_readsets_live, 1, __ATOMIC_RELAXED);
}
