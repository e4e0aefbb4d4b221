/* Stacks: the stack depot, frame-pointer walks, libunwind at report time,
 * and the 32-bit program counters of shadow records.
 *
 * Instrumented code keeps frame pointers (the driver adds
 * -fno-omit-frame-pointer), so submission sites are walked cheaply at every
 * dispatch.  The stack of the access that completes a report goes through
 * libunwind, which also crosses frames of libraries built without frame
 * pointers; libunwind is loaded with dlopen (RTLD_LOCAL) only when a report
 * needs it, so its _Unwind_* symbols never replace the C++ runtime's. */
#include <dlfcn.h>
#include <string.h>

#include "kkr_hash.h"
#include "kkr_rt.h"

/* ---- Stack depot -------------------------------------------------------- */

typedef struct depot_entry {
  UT_hash_handle hh;
  uint32_t id, n;
  uint64_t hash;
  uintptr_t pcs[];
} depot_entry;

#define DEPOT_BLOCK 4096u
static depot_entry *depot_table;
static depot_entry **depot_blocks[1u << 14];
static uint32_t depot_count;
static kkr_spin depot_lock;

static uint64_t hash_pcs(const uintptr_t *pcs, uint32_t n) {
  uint64_t h = 0x9e3779b97f4a7c15ull ^ n;
  for (uint32_t i = 0; i < n; i++)
    h = kkr_mix64(h ^ pcs[i]);
  return h;
}

uint32_t kkr_stack_put(const uintptr_t *pcs, uint32_t n) {
  if (n == 0)
    return 0;
  uint64_t h = hash_pcs(pcs, n);
  kkr_spin_lock(&depot_lock);
  depot_entry *e;
  HASH_FIND(hh, depot_table, &h, sizeof h, e);
  /* Equal 64-bit hashes of different stacks (vanishingly rare) just get a
   * second entry. */
  if (e && (e->n != n || memcmp(e->pcs, pcs, n * sizeof(uintptr_t))))
    e = NULL;
  if (!e) {
    if (depot_count + 1 >= DEPOT_BLOCK * (1u << 14)) {
      kkr_spin_unlock(&depot_lock);
      return 0;
    }
    e = kkr_alloc(sizeof *e + n * sizeof(uintptr_t));
    e->n = n;
    e->hash = h;
    memcpy(e->pcs, pcs, n * sizeof(uintptr_t));
    e->id = ++depot_count;
    if (!depot_blocks[e->id / DEPOT_BLOCK])
      depot_blocks[e->id / DEPOT_BLOCK] =
          kkr_alloc(DEPOT_BLOCK * sizeof(depot_entry *));
    depot_blocks[e->id / DEPOT_BLOCK][e->id % DEPOT_BLOCK] = e;
    HASH_ADD(hh, depot_table, hash, sizeof h, e);
  }
  kkr_spin_unlock(&depot_lock);
  return e->id;
}

const uintptr_t *kkr_stack_get(uint32_t id, uint32_t *n) {
  *n = 0;
  if (id == 0 || id > depot_count)
    return NULL;
  kkr_spin_lock(&depot_lock);
  depot_entry *e = depot_blocks[id / DEPOT_BLOCK][id % DEPOT_BLOCK];
  kkr_spin_unlock(&depot_lock);
  *n = e->n;
  return e->pcs;
}

/* ---- Unwinding ---------------------------------------------------------- */

uint32_t kkr_unwind_fp(kkr_thread *t, uintptr_t pc, uintptr_t fp,
                       uintptr_t *out, uint32_t max) {
  uint32_t n = 0;
  if (max == 0)
    return 0;
  out[n++] = pc;
  uintptr_t lo = t->stack_lo, hi = t->stack_hi;
  while (n < max && fp >= lo && fp + 16 <= hi && !(fp & 7)) {
    uintptr_t next = ((uintptr_t *)fp)[0];
    uintptr_t ret = ((uintptr_t *)fp)[1];
    if (ret < 4096)
      break;
    out[n++] = ret;
    if (next <= fp)
      break;
    fp = next;
  }
  return n;
}

typedef int (*unw_backtrace_fn)(void **, int);
static unw_backtrace_fn unw_backtrace_ptr;
static int unw_tried;

static unw_backtrace_fn load_libunwind(void) {
  if (!__atomic_load_n(&unw_tried, __ATOMIC_ACQUIRE)) {
    void *h = dlopen("libunwind.so.8", RTLD_NOW | RTLD_LOCAL);
    if (h)
      unw_backtrace_ptr = (unw_backtrace_fn)dlsym(h, "unw_backtrace");
    /* Without libunwind: the C library's, which unwinds by the same
     * tables (code built without frame pointers, the CUDA libraries). */
    if (!unw_backtrace_ptr)
      unw_backtrace_ptr = (unw_backtrace_fn)dlsym(RTLD_DEFAULT, "backtrace");
    __atomic_store_n(&unw_tried, 1, __ATOMIC_RELEASE);
  }
  return unw_backtrace_ptr;
}

uint32_t kkr_unwind_here(kkr_thread *t, uintptr_t pc, uintptr_t fp,
                         uintptr_t *out, uint32_t max) {
  unw_backtrace_fn bt = load_libunwind();
  if (bt) {
    void *buf[256];
    int n = bt(buf, 256);
    if (pc == 0) { /* no known top: all of it (reports drop kkrace's frames) */
      uint32_t m = 0;
      for (int j = 0; j < n && m < max; j++)
        out[m++] = (uintptr_t)buf[j];
      return m;
    }
    for (int i = 0; i < n; i++) {
      if ((uintptr_t)buf[i] != pc)
        continue;
      uint32_t m = 0;
      for (int j = i; j < n && m < max; j++)
        out[m++] = (uintptr_t)buf[j];
      return m;
    }
  }
  if (fp)
    return kkr_unwind_fp(t, pc, fp, out, max);
  if (pc == 0) {
    uintptr_t *frame = (uintptr_t *)__builtin_frame_address(0);
    return kkr_unwind_fp(t, frame[1], frame[0], out, max);
  }
  out[0] = pc;
  return 1;
}

