/* The access check: the __kkrace_read/write entry points and what they do to
 * the shadow (FastTrack's rules, with strands).
 *
 * An access conflicts with a recorded one when they overlap in bytes, at
 * least one writes, not both are atomic, and nothing orders the recorded
 * node before the current one (kkr_rt.h).  The write record keeps the last
 * write; the read record the reads since, folded when one read is ordered
 * after another, marked MULTI when several strands of one work item read the
 * same bytes, and spilled into a read set when unordered nodes read.
 *
 * Trade-off: records are per 4-byte granule with a byte mask.  When two
 * unordered nodes write disjoint bytes of one granule (elements of 1 or 2
 * bytes), the older record is replaced, so a third access can miss a race
 * with it (a false negative, never a false positive); the read side is exact
 * through read sets. */
#include <string.h>

#include "kkr_report.h"
#include "kkr_rt.h"

__thread kkr_thread *kkr_tls __attribute__((tls_model("initial-exec")));
int kkr_mt;

/* Cells are locked only once the process has a second thread. */
static kkr_spin cell_locks[4096];
#define CELL_LOCK(c) (&cell_locks[((uintptr_t)(c) >> 5) & 4095])

#define REC_MASK(a) KKR_REC_MASK(a)
#define NODE_BITS 0xFFFFFFFFFFFF0000ull

KKR_INLINE int same_node(const kkr_thread *t, uint64_t ra) {
  return ((ra ^ t->cur_a) & NODE_BITS) == 0;
}

/* 1 if the recorded access (ra, strand) is ordered before the current node. */
KKR_INLINE int ordered(const kkr_thread *t, uint64_t ra, uint32_t rstrand) {
  if (same_node(t, ra)) {
    if (!t->cur_is_item || t->cur_strand == KKR_STRAND_BACKEND)
      return 1;
    if (ra & KKR_F_MULTI)
      return 0;
    return rstrand == t->cur_strand || rstrand == KKR_STRAND_BACKEND;
  }
  uint32_t tl = (uint32_t)(ra >> 16) & 0xffff;
  return kkr_vc_get(t->cur_vc, tl) >= (uint32_t)(ra >> 32);
}

KKR_INLINE int conflicts(const kkr_thread *t, kkr_rec r, uint32_t mask,
                         uint32_t flags) {
  if (!r.a || !(REC_MASK(r.a) & mask))
    return 0;
  if (!((r.a | flags) & KKR_F_WRITE))
    return 0;
  if (r.a & flags & KKR_F_ATOMIC)
    return 0;
  return !ordered(t, r.a, (uint32_t)r.b);
}

typedef struct {
  kkr_rec recs[4];
  int n;
} conflict_list;

KKR_INLINE void note_conflict(conflict_list *cl, kkr_rec r) {
  if (cl->n < 4)
    cl->recs[cl->n++] = r;
}

/* A read joins the read set s (the cell lock is held); returns the set,
 * which may have moved. */
static kkr_readset *readset_add(kkr_thread *t, kkr_readset *s, kkr_rec nr) {
  uint32_t nmask = REC_MASK(nr.a), j = 0;
  int merged = 0;
  for (uint32_t i = 0; i < s->n; i++) {
    kkr_rec r = s->recs[i];
    if (!merged && same_node(t, r.a) && (REC_MASK(r.a) & nmask) &&
        ((uint32_t)r.b == t->cur_strand || !ordered(t, r.a, (uint32_t)r.b))) {
      if ((uint32_t)r.b != t->cur_strand)
        r.a |= KKR_F_MULTI;
      r.a |= (uint64_t)nmask << 8; /* mask bits: a union of bytes */
      merged = 1;
    } else if (ordered(t, r.a, (uint32_t)r.b) &&
               !(REC_MASK(r.a) & ~nmask)) {
      continue; /* superseded by the new read */
    }
    s->recs[j++] = r;
  }
  s->n = j;
  if (!merged) {
    if (s->n == s->cap)
      s = kkr_readset_grow(s);
    s->recs[s->n++] = nr;
  }
  return s;
}

static void record_read(kkr_thread *t, kkr_cell *c, kkr_rec nr) {
  kkr_rec r = c->r;
  uint32_t nmask = REC_MASK(nr.a);
  if (!r.a) {
    c->r = nr;
  } else if (r.a & KKR_F_SET) {
    kkr_readset *s = readset_add(t, (kkr_readset *)(uintptr_t)r.b, nr);
    if (s->n == 1) {
      c->r = s->recs[0];
      kkr_readset_free(s);
    } else {
      c->r.b = (uint64_t)(uintptr_t)s;
    }
  } else if (same_node(t, r.a) &&
             ((uint32_t)r.b == t->cur_strand ||
              t->cur_strand == KKR_STRAND_BACKEND)) {
    c->r.a = nr.a | (r.a & (KKR_F_MULTI | 0x0f00));
    c->r.b = nr.b;
  } else if (ordered(t, r.a, (uint32_t)r.b) && !(REC_MASK(r.a) & ~nmask)) {
    c->r = nr; /* the old read is ordered before this one */
  } else if (same_node(t, r.a) && (REC_MASK(r.a) & nmask) &&
             (uint32_t)r.b != KKR_STRAND_BACKEND) {
    c->r.a |= KKR_F_MULTI | (uint64_t)nmask << 8; /* strands of one item */
  } else {
    kkr_readset *s = kkr_readset_new(4);
    s->recs[0] = r;
    s->recs[1] = nr;
    s->n = 2;
    c->r.a = KKR_F_SET;
    c->r.b = (uint64_t)(uintptr_t)s;
  }
}

/* A write removes the reads it covers (they must be ordered before it or
 * were just reported). */
static void clear_reads(kkr_cell *c, uint32_t wmask) {
  kkr_rec r = c->r;
  if (!r.a)
    return;
  if (!(r.a & KKR_F_SET)) {
    if (!(REC_MASK(r.a) & ~wmask))
      c->r.a = c->r.b = 0;
    return;
  }
  kkr_readset *s = (kkr_readset *)(uintptr_t)r.b;
  uint32_t j = 0;
  for (uint32_t i = 0; i < s->n; i++)
    if (REC_MASK(s->recs[i].a) & ~wmask)
      s->recs[j++] = s->recs[i];
  s->n = j;
  if (j == 0) {
    c->r.a = c->r.b = 0;
    kkr_readset_free(s);
  } else if (j == 1) {
    c->r = s->recs[0];
    kkr_readset_free(s);
  }
}

/* flags: KKR_F_* in bits 0-7, log2 of the access size in bits 12-15. */
static KKR_NOINLINE void access_cell(kkr_thread *t, kkr_cell *c, uintptr_t w,
                                     uint32_t mask, uint32_t flags,
                                     uintptr_t pc, uintptr_t fp) {
  /* Inside a Kokkos atomic, the access is the program's call of it. */
  uintptr_t rpc = (flags & KKR_F_ATOMIC) && t->atomic_depth ? t->atomic_pc : pc;
  kkr_rec nr;
  nr.a = t->cur_a | (uint64_t)mask << 8 | (flags & 0xf0ff);
  nr.b = (uint64_t)kkr_pc_compress(t, rpc) << 32 | t->cur_strand;
  conflict_list cl;
  cl.n = 0;
  kkr_spin *lock = kkr_mt ? CELL_LOCK(c) : NULL;
  if (lock)
    kkr_spin_lock(lock);
  if (conflicts(t, c->w, mask, flags))
    note_conflict(&cl, c->w);
  if (flags & (KKR_F_WRITE | KKR_F_FREE)) {
    kkr_rec r = c->r;
    if (r.a & KKR_F_SET) {
      kkr_readset *s = (kkr_readset *)(uintptr_t)r.b;
      for (uint32_t i = 0; i < s->n; i++)
        if (conflicts(t, s->recs[i], mask, flags))
          note_conflict(&cl, s->recs[i]);
    } else if (conflicts(t, r, mask, flags)) {
      note_conflict(&cl, r);
    }
    if (!(flags & KKR_F_FREE)) {
      /* The old write survives only in the bytes this one does not cover;
       * one record per word keeps the newest (see the file comment). */
      c->w = nr;
      clear_reads(c, mask);
    }
  } else {
    record_read(t, c, nr);
  }
  if (lock)
    kkr_spin_unlock(lock);
  for (int i = 0; i < cl.n; i++)
    kkr_report_race(t, w, mask, flags, pc, rpc, fp, cl.recs[i]);
}

KKR_INLINE void access_word(kkr_thread *t, uintptr_t w, uint32_t mask,
                            uint32_t flags, uintptr_t pc, uintptr_t fp) {
  kkr_cell *c = kkr_shadow_cell(w);
  uint64_t na = t->cur_a | (uint64_t)mask << 8 | (flags & 0xf0ff);
  /* Same-node fast paths: repeating the last access changes nothing. */
  if (flags & KKR_F_WRITE) {
    if (c->w.a == na && (uint32_t)c->w.b == t->cur_strand && !c->r.a)
      return;
  } else if ((c->r.a & ~(uint64_t)KKR_F_MULTI) == na &&
             (uint32_t)c->r.b == t->cur_strand) {
    return;
  }
  access_cell(t, c, w, mask, flags, pc, fp);
}

static uint32_t size_log(uintptr_t size) {
  uint32_t l = 0;
  while (l < 15 && ((uintptr_t)1 << l) < size)
    l++;
  return l;
}

void kkr_access_range(kkr_thread *t, uintptr_t addr, uintptr_t size,
                      uint32_t flags, uintptr_t pc, uintptr_t fp) {
  uintptr_t end = addr + size;
  if (size == 0 || end < addr)
    return;
  if (!(flags & 0xf000))
    flags |= size_log(size) << 12;
  for (uintptr_t w = addr & ~(uintptr_t)(KKR_GRAN - 1); w < end;
       w += KKR_GRAN) {
    uintptr_t lo = addr > w ? addr : w;
    uintptr_t hi = end < w + KKR_GRAN ? end : w + KKR_GRAN;
    uint32_t mask = ((1u << (hi - lo)) - 1) << (lo - w);
    if (flags & KKR_F_FREE) {
      /* A free only checks: the shadow is cleared right after, and chunks
       * never touched hold nothing. */
      kkr_cell *c = kkr_shadow_cell_if_mapped(w);
      if (!c) {
        w = (w | ((1u << KKR_CHUNK_SHIFT) - 1)) + 1 - KKR_GRAN;
        continue;
      }
      if (c->w.a || c->r.a)
        access_cell(t, c, w, mask, flags, pc, fp);
    } else {
      access_word(t, w, mask, flags, pc, fp);
    }
  }
}

/* ---- Entry points ------------------------------------------------------- */

KKR_INLINE kkr_thread *entry_thread(uintptr_t a) {
  kkr_thread *t = kkr_tls;
  if (KKR_UNLIKELY(!t)) {
    if (!kkr_inited)
      return NULL;
    t = kkr_thread_slow();
  }
  if (KKR_UNLIKELY(t->ignore))
    return NULL;
  /* Frames of the Kokkos operation in progress (the backend's loop, the
   * functor's copy, the team member) and the reduction value of the current
   * strand are private to the work item. */
  if (a - t->priv_lo < t->priv_len || a - t->upd_lo < t->upd_len)
    return NULL;
  return t;
}

/* size_log: log2 of size, stored in records for reports. */
KKR_INLINE void access_entry(uintptr_t a, uint32_t size, uint32_t size_log,
                             uint32_t flags, uintptr_t pc, uintptr_t fp) {
  kkr_thread *t = entry_thread(a);
  if (!t)
    return;
  if (KKR_UNLIKELY(t->atomic_depth))
    flags |= KKR_F_ATOMIC;
  flags |= size_log << 12;
  uintptr_t off = a & (KKR_GRAN - 1);
  if (KKR_LIKELY(off + size <= KKR_GRAN)) {
    access_word(t, a - off, ((1u << size) - 1) << off, flags, pc, fp);
  } else if (size == 8 && off == 0) {
    /* An aligned 8-byte access: two granules of one cache line. */
    access_word(t, a, 0xf, flags, pc, fp);
    access_word(t, a + 4, 0xf, flags, pc, fp);
  } else {
    kkr_access_range(t, a, size, flags, pc, fp);
  }
}

#define RET_PC ((uintptr_t)__builtin_return_address(0))
#define FRAME ((uintptr_t)__builtin_frame_address(0))

#define KKR_ACCESS_ENTRIES(n, lg)                                     \
  KKR_EXPORT void __kkrace_read##n(void *p) {                         \
    access_entry((uintptr_t)p, n, lg, 0, RET_PC, FRAME);              \
  }                                                                   \
  KKR_EXPORT void __kkrace_write##n(void *p) {                        \
    access_entry((uintptr_t)p, n, lg, KKR_F_WRITE, RET_PC, FRAME);    \
  }
KKR_ACCESS_ENTRIES(1, 0)
KKR_ACCESS_ENTRIES(2, 1)
KKR_ACCESS_ENTRIES(4, 2)
KKR_ACCESS_ENTRIES(8, 3)
KKR_ACCESS_ENTRIES(16, 4)

KKR_EXPORT void __kkrace_read_range(void *p, unsigned long long n) {
  kkr_thread *t = entry_thread((uintptr_t)p);
  if (t)
    kkr_access_range(t, (uintptr_t)p, n, t->atomic_depth ? KKR_F_ATOMIC : 0,
                     RET_PC, FRAME);
}

KKR_EXPORT void __kkrace_write_range(void *p, unsigned long long n) {
  kkr_thread *t = entry_thread((uintptr_t)p);
  if (t)
    kkr_access_range(t, (uintptr_t)p, n,
                     KKR_F_WRITE | (t->atomic_depth ? KKR_F_ATOMIC : 0),
                     RET_PC, FRAME);
}

KKR_EXPORT void __kkrace_atomic(void *p, unsigned long long size,
                                unsigned int aflags) {
  kkr_thread *t = entry_thread((uintptr_t)p);
  if (!t)
    return;
  uint32_t flags = KKR_F_ATOMIC | (aflags & KKR_AF_WRITE ? KKR_F_WRITE : 0);
  kkr_access_range(t, (uintptr_t)p, size ? size : 1, flags, RET_PC, FRAME);
}

KKR_EXPORT void __kkrace_atomic_acquire(void *p) { (void)p; }

KKR_EXPORT void __kkrace_copy_range(void *dst, void *src,
                                    unsigned long long n) {
  kkr_thread *t = kkr_tls;
  if (!t || t->ignore)
    return;
  kkr_access_range(t, (uintptr_t)src, n, 0, RET_PC, FRAME);
  kkr_access_range(t, (uintptr_t)dst, n, KKR_F_WRITE, RET_PC, FRAME);
}

/* A stack slot starts holding a new variable: what the slot's previous
 * variables saw is not this one's history.  After inlining, Kokkos' locals
 * (closures, policies, labels) and the functor's locals live in the
 * dispatching function's frame and share slots from one dispatch or one
 * iteration to the next; without this, their reuse would look like races. */
KKR_EXPORT void __kkrace_stack_scope(void *p, unsigned long long n) {
  if (KKR_LIKELY(kkr_dir != NULL) &&
      kkr_shadow_cell_if_mapped((uintptr_t)p) != NULL)
    kkr_shadow_clear((uintptr_t)p, n);
}

KKR_EXPORT void __kkrace_escape(void *p) { (void)p; }

KKR_EXPORT void __kkrace_atomic_enter(void) {
  kkr_thread *t = kkr_tls;
  if (t && t->atomic_depth++ == 0)
    t->atomic_pc = RET_PC;
}

KKR_EXPORT void __kkrace_atomic_exit(void) {
  kkr_thread *t = kkr_tls;
  if (t && t->atomic_depth)
    t->atomic_depth--;
}
