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
 * The common case of a race-free program -- what a cell holds happened before
 * the access -- is decided inline, without a call (access_word).  Everything
 * else takes the full path (access_cell).  When unordered accesses touch the
 * two halves of one word (neighbouring ints of two iterations), the cell
 * splits into two half-cells, so that Views of 4-byte elements stay exact;
 * elements of 1 or 2 bytes that unordered strands write within one half
 * keep a record each in a write set of the half-cell (write_over). */
#include <string.h>

#include "kkr_report.h"
#include "kkr_rt.h"

__thread kkr_thread *__kkrace_tls __attribute__((tls_model("initial-exec")));
_Static_assert(__builtin_offsetof(kkr_thread, abi) == 0 &&
                   __builtin_offsetof(struct kkr_abi_thread, strand_mode) ==
                       KKR_ABI_STRAND_MODE &&
                   __builtin_offsetof(struct kkr_abi_thread, item_rec) ==
                       KKR_ABI_ITEM_REC &&
                   __builtin_offsetof(struct kkr_abi_thread, cur_rec) ==
                       KKR_ABI_CUR_REC &&
                   __builtin_offsetof(struct kkr_abi_thread, strand_idx0) ==
                       KKR_ABI_STRAND_IDX0 &&
                   __builtin_offsetof(struct kkr_abi_thread, upd_lo) ==
                       KKR_ABI_UPD_LO &&
                   __builtin_offsetof(struct kkr_abi_thread, upd_len) ==
                       KKR_ABI_UPD_LEN &&
                   __builtin_offsetof(struct kkr_abi_thread, team_mode) ==
                       KKR_ABI_TEAM_MODE &&
                   __builtin_offsetof(struct kkr_abi_thread, team_rec) ==
                       KKR_ABI_TEAM_REC &&
                   __builtin_offsetof(struct kkr_abi_thread, saved_rec) ==
                       KKR_ABI_SAVED_REC &&
                   __builtin_offsetof(struct kkr_abi_thread, saved_upd_lo) ==
                       KKR_ABI_SAVED_UPD_LO &&
                   __builtin_offsetof(struct kkr_abi_thread, saved_upd_len) ==
                       KKR_ABI_SAVED_UPD_LEN &&
                   __builtin_offsetof(struct kkr_abi_thread, team_idx) ==
                       KKR_ABI_TEAM_IDX &&
                   __builtin_offsetof(struct kkr_abi_thread, strand_idx1) ==
                       KKR_ABI_STRAND_IDX1 &&
                   __builtin_offsetof(struct kkr_abi_thread, strand_idx2) ==
                       KKR_ABI_STRAND_IDX2 &&
                   __builtin_offsetof(struct kkr_abi_thread, row_i0) ==
                       KKR_ABI_ROW_I0 &&
                   __builtin_offsetof(struct kkr_abi_thread, row_i1) ==
                       KKR_ABI_ROW_I1 &&
                   __builtin_offsetof(struct kkr_abi_thread, row_base) ==
                       KKR_ABI_ROW_BASE &&
                   __builtin_offsetof(struct kkr_abi_thread, md_lim0) ==
                       KKR_ABI_MD_LIM0 &&
                   __builtin_offsetof(struct kkr_abi_thread, md_m1) ==
                       KKR_ABI_MD_M1 &&
                   __builtin_offsetof(struct kkr_abi_thread, md_m2) ==
                       KKR_ABI_MD_M2,
               "kkr_abi.h offsets");
int kkr_mt;
/* kkr_mt itself, under the name instrumented code reads (kkr_rt.h). */
extern __typeof__(kkr_mt) __kkrace_mt __attribute__((alias("kkr_mt")));

/* Kinds of access, as the entry points pass them (bits 12-15: log2 of the
 * size, for reports). */
enum { ACC_WRITE = KKR_ACC_WRITE, ACC_ATOMIC = KKR_ACC_ATOMIC, ACC_FREE = KKR_ACC_FREE };
/* A loop's flag, with ACC_WRITE: each element is read, then written. */
enum { ACC_RMW = 0x100 };

/* Cells are locked only once the process has a second thread. */
static kkr_spin cell_locks[4096];
#define CELL_LOCK(c) (&cell_locks[((uintptr_t)(c) >> 4) & 4095])

void kkr_pend_settle_block(uint32_t di, uint32_t b) {
  uint32_t *p = kkr_pend_dir[di];
  /* (A tag, or a mark of an earlier kernel, only goes.  With several
   * threads, one of them tells the cells.) */
  uint32_t v = kkr_mt ? __atomic_exchange_n(&p[b], 0, __ATOMIC_RELAXED) : p[b];
  p[b] = 0;
  if (v != kkr_pend_gen)
    return;
  /* (The cells, or those parked under the chunk's runs.) */
  kkr_cell *c = kkr_dir[di];
  if (!c && kkr_runs_made && kkr_run_dir[di])
    c = kkr_run_dir[di]->cells;
  if (!c)
    return;
  c += (uintptr_t)b << KKR_BLOCK_SHIFT;
  for (uint32_t j = 0; j < KKR_BLOCK_CELLS; j++) {
    kkr_spin *lock = kkr_mt ? CELL_LOCK(&c[j]) : NULL;
    if (lock)
      kkr_spin_lock(lock);
    uint64_t r = c[j].r;
    if (r && !(r & KKR_R_X) && !(c[j].w & KKR_R_X) &&
        KKR_REC_NODE(r) == kkr_pend_node)
      c[j].r = r | KKR_R_M;
    if (lock)
      kkr_spin_unlock(lock);
  }
}

#define SITE_BITS ((uint64_t)0x3F << KKR_REC_SITE_SHIFT)
#define HOST_SITE_BITS ((uint64_t)0x3FFFFFF << KKR_REC_SITE_SHIFT)

/* Whether node is one of the few remembered as ordered before the current
 * node: a kernel's accesses mostly meet the records of a handful of earlier
 * nodes (the host, the kernels before it). */
KKR_INLINE int known_before(const kkr_thread *t, uint32_t node) {
  return node == t->before[0] || node == t->before[1] ||
         node == t->before[2] || node == t->before[3];
}

/* In a team item, rec (not a MULTI read) is of the strand cur's team in
 * an earlier phase: a team barrier came between them, which every thread
 * of the team meets, so it is ordered before cur.  (Phases are counted
 * modulo 8, as the reports' filter counts them; KKR_TEAM_ID packs them.) */
KKR_INLINE int team_before(uint64_t rec, uint64_t cur) {
  if ((rec ^ cur) & (KKR_REC_NODE_BITS | KKR_R_M))
    return 0;
  uint32_t rs = KKR_REC_STRAND(rec), cs = KKR_REC_STRAND(cur);
  uint32_t x = (rs - 2u) ^ (cs - 2u);
  return rs >= 2 && cs >= 2 && (x >> 10) == 0 && (x >> 7) != 0;
}

/* 1 if the record rec is ordered before the current node. */
KKR_INLINE int ordered(const kkr_thread *t, uint64_t rec) {
  if (rec < t->hz)
    return 1;
  uint32_t node = KKR_REC_NODE(rec);
  if (node == t->cur_node) {
    if (!t->cur_is_item || KKR_CUR_STRAND(t) == KKR_STRAND_BACKEND)
      return 1;
    if (rec & KKR_R_M)
      return 0;
    uint32_t s = KKR_REC_STRAND(rec);
    if (s == KKR_CUR_STRAND(t) || s == KKR_STRAND_BACKEND)
      return 1;
    if (KKR_UNLIKELY(t->lanes_on) && kkr_lanes_ordered(t, rec))
      return 1;
    return t->team_on && team_before(rec, t->abi.cur_rec);
  }
  if (known_before(t, node))
    return 1;
  if (!kkr_node_before(t->cur_vc, node))
    return 0;
  kkr_thread *mt = (kkr_thread *)t;
  mt->before[mt->before_next++ & 3] = node;
  /* (Not while the GPU event trace wants every host access that meets a
   * record on the slow path: its horizon is 0 then.) */
  uint32_t k = node - (uint32_t)(t->hz >> KKR_REC_NODE_SHIFT);
  if (k < KKR_ABOVE_NODES && !kkr_gpu_trace_host_on) {
    mt->above[k / 64] |= (uint64_t)1 << (k % 64);
    mt->above_set = 1;
  }
  return 1;
}

/* Whether rec, not below the horizon hz, is of a node that the full path
 * found ordered before the current node (kkr_thread.above). */
KKR_INLINE int above_known(const kkr_thread *t, uint64_t hz, uint64_t rec) {
  uint64_t k = (rec - hz) >> KKR_REC_NODE_SHIFT;
  return k < KKR_ABOVE_NODES && (t->above[k / 64] >> (k % 64) & 1);
}

/* An atomic write of the bytes mask over the write record w: w stays when
 * it is another strand's atomic write of the same bytes that nothing orders
 * before this one.  Atomic writes never race with each other, but each
 * races with the other strands' plain accesses: a strand that adds
 * atomically and then reads the element plainly meets the earlier strand's
 * add, which its own record would have hidden. */
KKR_INLINE int atomic_keeps(const kkr_thread *t, uint64_t w, uint32_t mask) {
  return (w & (KKR_R_A | KKR_R_W | KKR_R_X)) == (KKR_R_A | KKR_R_W) &&
         KKR_REC_MASK(w) == mask && !ordered(t, w);
}

/* Whether record v (a cell's write or reads, none when 0) lets an atomic
 * access of the bytes of mask4 pass inline: atomic, or ordered before by
 * the horizon hz (a fill's plain write: the first atomic add after a
 * deep_copy of zeros), of no bytes outside mask4, no set. */
KKR_INLINE int atomic_rec_passes(uint64_t v, uint64_t mask4, uint64_t hz) {
  return !v || (((v & (KKR_R_A | KKR_R_X)) == KKR_R_A ||
                 (v < hz && !(v & KKR_R_X))) &&
                !(v & ~mask4 & 0xFF0));
}

KKR_INLINE int conflicts(const kkr_thread *t, uint64_t rec, uint32_t mask,
                         uint32_t acc) {
  if (!rec || !(KKR_REC_MASK(rec) & mask))
    return 0;
  if (!((rec & KKR_R_W) || (acc & (ACC_WRITE | ACC_FREE))))
    return 0;
  if ((rec & KKR_R_A) && (acc & ACC_ATOMIC))
    return 0;
  return !ordered(t, rec);
}

/* The record of the current access, without its site. */
KKR_INLINE uint64_t access_rec(const kkr_thread *t, uint32_t mask,
                               uint32_t acc) {
  return t->abi.cur_rec | (uint64_t)mask << 4 |
         (acc & ACC_WRITE ? KKR_R_W : 0) | (acc & ACC_ATOMIC ? KKR_R_A : 0);
}

typedef struct kkr_site_slot site_slot;

/* The site index of the access.  Inside a Kokkos atomic, the access is the
 * program's call of it (which the instruction's slot does not stand for). */
KKR_INLINE uint32_t access_site(kkr_thread *t, uint32_t acc, uintptr_t pc,
                                site_slot *slot) {
  if (KKR_UNLIKELY((acc & ACC_ATOMIC) && t->atomic_depth)) {
    /* (The program's calls of atomics have no slots: the thread keeps its
     * last answers, a few call sites' in turn.) */
    uintptr_t apc = t->atomic_pc;
    uint32_t k = (uint32_t)(apc ^ apc >> 4 ^ apc >> 8) & (KKR_ATOMIC_SITES - 1);
    site_slot *as = &t->atomic_site[k];
    if (as->table != t->sites || t->atomic_site_pc[k] != apc) {
      as->table = NULL;
      t->atomic_site_pc[k] = apc;
      kkr_site_index_slow(t, as, apc);
    }
    return (uint32_t)as->idx;
  }
  return kkr_site_index(t, slot, pc);
}

KKR_INLINE uintptr_t record_pc(const kkr_thread *t, uint32_t acc,
                               uintptr_t pc) {
  return (acc & ACC_ATOMIC) && t->atomic_depth && t->atomic_pc
             ? t->atomic_pc
             : pc;
}

/* A write over a write record not below the horizon, one of the two
 * atomic and the other not: the full path decides (update keeps the
 * record plain, or splits the cell), the quick ones would replace it. */
KKR_INLINE int mixed_atomic_write(const kkr_thread *t, uint64_t w,
                                  uint64_t rec, uint32_t acc) {
  return (acc & ACC_WRITE) && w >= t->hz && ((w ^ rec) & KKR_R_A);
}

/* The out-of-line part of the decision: what is not quickly ordered. */
static KKR_NOINLINE int fast_update_more(kkr_thread *t, kkr_cell *c,
                                         uint32_t mask, uint32_t acc,
                                         uintptr_t pc, site_slot *slot) {
  uint64_t w = c->w, r = c->r;
  uint64_t rec = access_rec(t, mask, acc);
  /* An atomic access never races with another atomic one: such records
   * of the bytes it covers are no obstacle (as they are none to update). */
  uint64_t atomic = acc & ACC_ATOMIC ? KKR_R_A : 0;
  /* Another strand of this kernel read the same bytes: both reads stay
   * (MULTI) and there is nothing more to decide. */
  if (!(acc & ACC_WRITE) && r && !(r & KKR_R_X) && !t->lanes_on &&
      KKR_REC_NODE(r) == t->cur_node && t->cur_is_item &&
      KKR_REC_MASK(r) == mask && KKR_CUR_STRAND(t) != KKR_STRAND_BACKEND &&
      KKR_REC_STRAND(r) != KKR_STRAND_BACKEND && !(w & KKR_R_X) &&
      (!w || ordered(t, w) ||
       (KKR_REC_NODE(w) != t->cur_node && !(KKR_REC_MASK(w) & mask)) ||
       ((w & atomic) && !(KKR_REC_MASK(w) & ~mask)))) {
    /* (Reads of which one is not atomic are not atomic together.) */
    uint64_t nr = r & ~((r ^ rec) & KKR_R_A);
    if (KKR_REC_STRAND(r) != KKR_CUR_STRAND(t))
      nr |= KKR_R_M;
    if (nr != r)
      c->r = nr;
    return 1;
  }
  /* (A MULTI record of an earlier node is ordered like any other; of this
   * node, ordered() says no.) */
  if ((w | r) & KKR_R_X)
    return 0;
  if (w && ((KKR_REC_MASK(w) & ~mask) || !((w & atomic) || ordered(t, w))))
    return 0;
  if (r && ((KKR_REC_MASK(r) & ~mask) ||
            !(((acc & ACC_WRITE) && (r & atomic)) || ordered(t, r))))
    return 0;
  if ((acc & ACC_WRITE) && atomic && w && atomic_keeps(t, w, mask)) {
    c->r = 0;
    return 1;
  }
  rec |= (uint64_t)access_site(t, acc, pc, slot) << KKR_REC_SITE_SHIFT;
  if (acc & ACC_WRITE) {
    c->w = rec;
    c->r = 0;
  } else {
    c->r = rec;
  }
  return 1;
}

/* rec, covered by mask, is quickly known to be ordered before this access:
 * the node remembered as ordered before, or this very strand. */
KKR_INLINE int quick_ordered(const kkr_thread *t, uint64_t rec, uint32_t mask) {
  if (KKR_REC_MASK(rec) & ~mask)
    return 0;
  if (rec < t->hz || above_known(t, t->hz, rec))
    return 1;
  uint32_t node = KKR_REC_NODE(rec);
  if (known_before(t, node))
    return 1;
  return node == t->cur_node &&
         (!t->cur_is_item || (KKR_REC_STRAND(rec) == KKR_CUR_STRAND(t) &&
                              !(rec & KKR_R_M)));
}

/* The inline decision on one cell (or half-cell): 1 if done. */
KKR_INLINE int fast_update(kkr_thread *t, kkr_cell *c, uint32_t mask,
                           uint32_t acc, uintptr_t pc, site_slot *slot) {
  uint64_t w = c->w, r = c->r;
  uint64_t rec = access_rec(t, mask, acc);
  uint64_t same = t->cur_is_item ? ~SITE_BITS : ~HOST_SITE_BITS;
  /* Repeating the last access changes nothing. */
  if (acc & ACC_WRITE) {
    if (!((w ^ rec) & same) && !r)
      return 1;
  } else if (!((r ^ rec) & same & ~(uint64_t)KKR_R_M)) {
    return 1;
  }
  if (KKR_UNLIKELY(kkr_mt) || (acc & ACC_FREE) || ((w | r) & KKR_R_X) ||
      KKR_UNLIKELY(mixed_atomic_write(t, w, rec, acc)))
    return 0;
  /* What the cell holds happened before this access, and this access covers
   * its bytes: the new record replaces the old. */
  if ((w && !quick_ordered(t, w, mask)) || (r && !quick_ordered(t, r, mask)))
    return fast_update_more(t, c, mask, acc, pc, slot);
  rec |= (uint64_t)access_site(t, acc, pc, slot) << KKR_REC_SITE_SHIFT;
  if (acc & ACC_WRITE) {
    c->w = rec;
    c->r = 0;
  } else {
    c->r = rec;
  }
  return 1;
}

/* ---- The full path -------------------------------------------------------- */

typedef struct {
  uint64_t recs[4];
  int n;
} conflict_list;

KKR_INLINE void note_conflict(conflict_list *cl, uint64_t rec) {
  /* The halves of a split cell hold an access of the whole word as two
   * records that differ in their bytes only: one conflict, of its bytes. */
  for (int i = 0; i < cl->n; i++)
    if (!((cl->recs[i] ^ rec) & ~(uint64_t)0xFF0)) {
      cl->recs[i] |= rec & 0xFF0;
      return;
    }
  if (cl->n < 4)
    cl->recs[cl->n++] = rec;
}

/* The record rec as strand's. */
KKR_INLINE uint64_t with_strand(uint64_t rec, uint32_t strand) {
  return (rec & ~KKR_REC_STRAND_BITS) | (uint64_t)strand << KKR_REC_STRAND_SHIFT;
}

/* A read joins the read set s; returns the set, which may have moved. */
static kkr_readset *readset_add(kkr_thread *t, kkr_readset *s, uint64_t nr) {
  uint32_t nmask = KKR_REC_MASK(nr), j = 0;
  int merged = 0;
  for (uint32_t i = 0; i < s->n; i++) {
    uint64_t r = s->recs[i];
    if (!merged && KKR_REC_NODE(r) == t->cur_node &&
        (KKR_REC_MASK(r) & nmask)) {
      uint32_t fold;
      if (KKR_REC_STRAND(r) != KKR_CUR_STRAND(t) && !ordered(t, r)) {
        if (t->lanes_on && !(r & KKR_R_M) &&
            (fold = kkr_lanes_fold(t, r, nr)))
          r = with_strand(r, fold);
        else
          r |= KKR_R_M;
      }
      r = (r | (uint64_t)nmask << 4) & ~((r ^ nr) & KKR_R_A);
      merged = 1;
    } else if (ordered(t, r) && !(KKR_REC_MASK(r) & ~nmask)) {
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

/* Whether rec's node is settled: ordered before everything that can
 * still run (kkr_rt.h, kkr_nodes_settled). */
KKR_INLINE int rec_settled(uint64_t rec) {
  return KKR_REC_NODE(rec) <
         __atomic_load_n(&kkr_nodes_settled, __ATOMIC_RELAXED);
}

static void record_read(kkr_thread *t, uint64_t *pr, uint64_t nr) {
  uint64_t r = *pr;
  uint32_t nmask = KKR_REC_MASK(nr);
  if (!r) {
    *pr = nr;
  } else if (r & KKR_R_X) {
    kkr_readset *s = readset_add(t, KKR_REC_PTR(r), nr);
    if (s->n == 1) {
      *pr = s->recs[0];
      kkr_readset_free(s);
    } else {
      *pr = KKR_REC_SET(s);
    }
  } else if (KKR_REC_NODE(r) == t->cur_node &&
             (KKR_REC_STRAND(r) == KKR_CUR_STRAND(t) ||
              KKR_CUR_STRAND(t) == KKR_STRAND_BACKEND || !t->cur_is_item)) {
    /* same strand: a union of bytes */
    *pr = (nr | (r & (KKR_R_M | 0xFF0))) & ~((r ^ nr) & KKR_R_A);
  } else if ((ordered(t, r) && !(KKR_REC_MASK(r) & ~nmask)) ||
             (!(r & KKR_R_X) && rec_settled(r))) {
    /* the old read is ordered before this one, or before everything to
     * come (of other bytes too: no later write can race with it) */
    *pr = nr;
  } else if (KKR_REC_NODE(r) == t->cur_node && (KKR_REC_MASK(r) & nmask) &&
             KKR_REC_STRAND(r) != KKR_STRAND_BACKEND) {
    uint32_t fold = t->lanes_on && !(r & KKR_R_M)
                        ? kkr_lanes_fold(t, r, nr)
                        : 0;
    uint64_t plain = (r ^ nr) & KKR_R_A; /* (one of them not atomic) */
    if (fold) /* sibling lanes: to everyone else, their thread read */
      *pr = (with_strand(nr, fold) | (r & 0xFF0)) & ~plain;
    else /* strands of one item */
      *pr = (r | KKR_R_M | (uint64_t)nmask << 4) & ~plain;
  } else {
    kkr_readset *s = kkr_readset_new(4);
    s->recs[0] = r;
    s->recs[1] = nr;
    s->n = 2;
    *pr = KKR_REC_SET(s);
  }
}

/* A write removes the reads it covers (they were ordered before it or were
 * just reported). */
static void clear_reads(uint64_t *pr, uint32_t wmask) {
  uint64_t r = *pr;
  if (!r)
    return;
  if (!(r & KKR_R_X)) {
    if (!(KKR_REC_MASK(r) & ~wmask))
      *pr = 0;
    return;
  }
  kkr_readset *s = KKR_REC_PTR(r);
  uint32_t j = 0;
  for (uint32_t i = 0; i < s->n; i++)
    if (KKR_REC_MASK(s->recs[i]) & ~wmask)
      s->recs[j++] = s->recs[i];
  s->n = j;
  if (j <= 1) {
    *pr = j ? s->recs[0] : 0;
    kkr_readset_free(s);
  }
}

/* Whether the write record r is this strand's own (of the running host
 * segment, or of the running strand of a work item), as plain or as atomic
 * as the access rec: a later write of other bytes keeps it as a union. */
KKR_INLINE int own_write(const kkr_thread *t, uint64_t r, uint64_t rec) {
  return KKR_REC_NODE(r) == t->cur_node && !(r & KKR_R_M) &&
         (!t->cur_is_item || KKR_REC_STRAND(r) == KKR_CUR_STRAND(t)) &&
         !((r ^ rec) & KKR_R_A);
}

/* Whether a write of other bytes keeps the write record r beside it
 * (rather than replacing it): r is not this strand's own, nor settled.
 * Being ordered before the new write is not enough: the new write says
 * nothing of r's bytes, which a later access unordered with r (the host
 * reading them after the next kernel, a thread created before r) still
 * races with. */
KKR_INLINE int keep_write(const kkr_thread *t, uint64_t r, uint64_t rec) {
  return !own_write(t, r, rec) && !rec_settled(r);
}

/* rec restricted to the bytes hmask (0 if it has none of them). */
KKR_INLINE uint64_t restrict_rec(uint64_t rec, uint32_t hmask) {
  uint32_t m = KKR_REC_MASK(rec) & hmask;
  return m ? (rec & ~(uint64_t)0xFF0) | (uint64_t)m << 4 : 0;
}

/* The write record of a cell after the write rec of the bytes mask, over
 * its write record w.  The bytes of w that rec does not cover stay: this
 * strand's own as a union of bytes; those of other strands (keep_write),
 * in a half-cell only, in a write set beside rec (elements of 1 or 2 bytes
 * that unordered strands write side by side: a record each).  A full
 * cell never needs one: access_cell splits it first (must_split). */
static uint64_t write_over(const kkr_thread *t, uint64_t w, uint32_t mask,
                           uint64_t rec, int half) {
  uint32_t rest = ~mask & 0xFF;
  if (!(w & KKR_R_X)) {
    uint64_t left = restrict_rec(w, rest);
    if (!left)
      return rec;
    if (own_write(t, left, rec))
      return rec | (left & 0xFF0);
    if (!half || !keep_write(t, left, rec))
      return rec;
    kkr_readset *s = kkr_readset_new(4);
    s->recs[0] = left;
    s->recs[1] = rec;
    s->n = 2;
    return KKR_REC_SET(s);
  }
  kkr_readset *s = KKR_REC_PTR(w);
  uint32_t j = 0;
  for (uint32_t i = 0; i < s->n; i++) {
    uint64_t left = restrict_rec(s->recs[i], rest);
    if (!left)
      continue;
    if (own_write(t, left, rec))
      rec |= left & 0xFF0;
    else if (keep_write(t, left, rec))
      s->recs[j++] = left;
  }
  if (!j) {
    kkr_readset_free(s);
    return rec;
  }
  /* (The records' bytes are disjoint: at most four in a half.) */
  if (j == s->cap)
    s = kkr_readset_grow(s);
  s->recs[j++] = rec;
  s->n = j;
  return KKR_REC_SET(s);
}

/* Checks and updates one cell or half-cell (its lock held).  The write
 * record of a half-cell may be a write set (write_over). */
static void update(kkr_thread *t, kkr_cell *c, uint32_t mask, uint32_t acc,
                   uint64_t rec, conflict_list *cl, int half) {
  uint64_t w0 = c->w;
  if (w0 & KKR_R_X) {
    const kkr_readset *ws = KKR_REC_PTR(w0);
    for (uint32_t i = 0; i < ws->n; i++)
      if (conflicts(t, ws->recs[i], mask, acc))
        note_conflict(cl, ws->recs[i]);
  } else if (conflicts(t, w0, mask, acc)) {
    note_conflict(cl, w0);
  }
  if (acc & (ACC_WRITE | ACC_FREE)) {
    uint64_t r = c->r;
    if (r & KKR_R_X) {
      kkr_readset *s = KKR_REC_PTR(r);
      for (uint32_t i = 0; i < s->n; i++)
        if (conflicts(t, s->recs[i], mask, acc))
          note_conflict(cl, s->recs[i]);
    } else if (conflicts(t, r, mask, acc)) {
      note_conflict(cl, r);
    }
    if (!(acc & ACC_FREE)) {
      /* (After this strand's own write of some of the same bytes, atomic
       * where this one is not or the reverse: the plain one of the two, as
       * decide_with keeps it.  Of other bytes only, both stay as they are:
       * write_over keeps the earlier one beside this one.) */
      uint64_t w = c->w;
      if (w && ((w ^ rec) & KKR_R_A) && KKR_REC_NODE(w) == t->cur_node &&
          !(w & KKR_R_X) && (KKR_REC_MASK(w) & mask) &&
          (!t->cur_is_item || KKR_REC_STRAND(w) == KKR_CUR_STRAND(t)) &&
          !(w & KKR_R_A))
        rec = (w & ~(uint64_t)0xFF0) | (rec & 0xFF0);
      if (!((rec & KKR_R_A) && atomic_keeps(t, w, mask)))
        c->w = write_over(t, w, mask, rec, half);
      clear_reads(&c->r, mask);
    }
  } else {
    record_read(t, &c->r, rec);
  }
}

static uint64_t restrict_reads(uint64_t r, uint32_t hmask) {
  if (!(r & KKR_R_X))
    return restrict_rec(r, hmask);
  kkr_readset *s = KKR_REC_PTR(r), *h = NULL;
  for (uint32_t i = 0; i < s->n; i++) {
    uint64_t x = restrict_rec(s->recs[i], hmask);
    if (!x)
      continue;
    if (!h)
      h = kkr_readset_new(s->n);
    h->recs[h->n++] = x;
  }
  if (!h)
    return 0;
  if (h->n == 1) {
    uint64_t x = h->recs[0];
    kkr_readset_free(h);
    return x;
  }
  return KKR_REC_SET(h);
}

/* Whether rec keeps bytes in the half of the word that an access of mask
 * (within one half) does not touch. */
static int other_half(uint64_t rec, uint32_t mask) {
  if (!rec || (rec & KKR_R_X))
    return 0;
  uint32_t left = KKR_REC_MASK(rec) & ~mask;
  if (!left || (mask != (mask & 0x0F) && mask != (mask & 0xF0)))
    return 0;
  return (mask & 0x0F) ? (left & 0xF0) != 0 : (left & 0x0F) != 0;
}

/* Whether keeping the write record exactly next to an access of mask needs
 * the cell in halves: it keeps bytes in the other half and is not ordered
 * before the access, or is the running work item's (its own strand's: the
 * item's other strands are not ordered with it, and a later one touching
 * the other half must still see it); or, before a write, it keeps bytes
 * that the write does not cover and that write_over must keep beside the
 * new record (keep_write), which only half-cells can. */
static int must_split(const kkr_thread *t, uint64_t rec, uint32_t mask,
                      uint32_t acc) {
  if (other_half(rec, mask) &&
      ((t->cur_is_item && KKR_REC_NODE(rec) == t->cur_node) ||
       !ordered(t, rec)))
    return 1;
  if (!(acc & ACC_WRITE) || !rec || (rec & KKR_R_X))
    return 0;
  uint64_t left = restrict_rec(rec, ~mask & 0xFF);
  return left && keep_write(t, left, access_rec(t, mask, acc));
}

/* The same for the read record, before a read: a read of one half never
 * replaces a read of the other (a later write of that half may race with
 * it), so the cell splits unless the old read is this strand's. */
static int must_split_read(const kkr_thread *t, uint64_t rec, uint32_t mask) {
  if (!other_half(rec, mask) || rec_settled(rec))
    return 0;
  return !(KKR_REC_NODE(rec) == t->cur_node && !(rec & KKR_R_M) &&
           (!t->cur_is_item || KKR_REC_STRAND(rec) == KKR_CUR_STRAND(t)));
}

static void split_cell(kkr_cell *c, kkr_split *s) {
  for (int h = 0; h < 2; h++) {
    uint32_t hmask = h ? 0xF0 : 0x0F;
    s->half[h].w = restrict_rec(c->w, hmask);
    s->half[h].r = restrict_reads(c->r, hmask);
  }
  if (c->r & KKR_R_X)
    kkr_readset_free(KKR_REC_PTR(c->r));
  c->w = KKR_W_SPLIT;
  c->r = 0;
}

/* Conflicts that are none after all: within one team, a team barrier
 * orders the phases (the threads of a team met there); between teams, or
 * kernels, team scratch memory is not shared (each team has its own); a
 * per-thread pool's memory is never shared (kkr_alloc.c). */
static void filter_conflicts(kkr_thread *t, uintptr_t w, conflict_list *cl) {
  int team = t->abi.strand_depth && kkr_in_team_item(t);
  uint32_t cs = KKR_CUR_STRAND(t);
  int scratch = kkr_is_scratch(w);
  int k = 0;
  if (scratch == KKR_SCRATCH_POOL) {
    cl->n = 0;
    return;
  }
  for (int i = 0; i < cl->n; i++) {
    uint64_t rec = cl->recs[i];
    uint32_t rs = KKR_REC_STRAND(rec);
    int same_team = team && KKR_REC_NODE(rec) == t->cur_node && rs >= 2 &&
                    cs >= 2 && KKR_TEAM_OF(rs) == KKR_TEAM_OF(cs);
    if (same_team) {
      if (KKR_TEAM_PHASE(rs) != KKR_TEAM_PHASE(cs))
        continue; /* an earlier phase: a barrier came between */
      if (scratch && kkr_thread_scratch(t, w) && !kkr_lanes_siblings(t, rs))
        continue; /* each thread's own, its iterations in turn (but the
                     lanes of its vector loop at once) */
    } else if (scratch) {
      kkr_scratch_used(w);
      continue;
    }
    cl->recs[k++] = rec;
  }
  cl->n = k;
}

static KKR_NOINLINE void access_cell(kkr_thread *t, kkr_cell *c, uintptr_t w,
                                     uint32_t mask, uint32_t acc, uintptr_t pc,
                                     uintptr_t fp, site_slot *slot) {
  uintptr_t rpc = record_pc(t, acc, pc);
  uint64_t rec = access_rec(t, mask, acc);
  kkr_shared_forget(w);
  if (!(acc & ACC_FREE)) /* a free is checked, not recorded */
    rec |= (uint64_t)access_site(t, acc, pc, slot) << KKR_REC_SITE_SHIFT;
  conflict_list cl;
  cl.n = 0;
  kkr_spin *lock = kkr_mt ? CELL_LOCK(c) : NULL;
  if (lock)
    kkr_spin_lock(lock);
  if (!(c->w & KKR_R_X) && !(acc & ACC_FREE) &&
      (must_split(t, c->w, mask, acc) ||
       (!(acc & ACC_WRITE) && must_split_read(t, c->r, mask)))) {
    split_cell(c, kkr_shadow_split(w));
    kkr_split_noted(KKR_DIR_INDEX(w), 1);
  }
  if (c->w & KKR_R_X) {
    kkr_split *s = kkr_shadow_split(w);
    for (int h = 0; h < 2; h++) {
      uint32_t hmask = mask & (h ? 0xF0 : 0x0F);
      if (hmask)
        update(t, &s->half[h], hmask, acc,
               (rec & ~(uint64_t)0xFF0) | (uint64_t)hmask << 4, &cl, 1);
    }
  } else {
    update(t, c, mask, acc, rec, &cl, 0);
  }
  if (lock)
    kkr_spin_unlock(lock);
  if (cl.n)
    filter_conflicts(t, w, &cl);
  for (int i = 0; i < cl.n; i++)
    kkr_report_race(t, w, mask, acc, pc, rpc, fp, cl.recs[i]);
  if (cl.n)
    t->racy_slot = slot;
  else if (t->racy_slot == slot)
    t->racy_slot = NULL;
}

static KKR_NOINLINE void access_word_slow(kkr_thread *t, kkr_cell *c,
                                          uintptr_t w, uint32_t mask,
                                          uint32_t acc, uintptr_t pc,
                                          uintptr_t fp, site_slot *slot) {
  /* A split cell whose halves are in the common case (the access of a
   * whole word decided half by half: a half done twice is no change). */
  if ((c->w & KKR_R_X) && !kkr_mt) {
    kkr_split *s = kkr_shadow_split(w);
    if ((!(mask & 0x0F) || fast_update(t, &s->half[0], mask & 0x0F, acc, pc, slot)) &&
        (!(mask & 0xF0) || fast_update(t, &s->half[1], mask & 0xF0, acc, pc, slot)))
      return;
  }
  access_cell(t, c, w, mask, acc, pc, fp, slot);
}

static int decide_halves(const kkr_thread *t, uintptr_t a, uint32_t size,
                         uint32_t acc, uint64_t cur, uint64_t site);

/* The half-cells of a chunk that nothing touched yet, made for a kernel
 * strand's access of a 4-byte element (kkr_halves_fresh), or NULL.
 * strands: the access is a loop's of the kernel's strands (a RangePolicy's
 * iterations, an MDRange's, a team's threads or vector lanes), which the
 * pass may check from the backend's code, before the first iteration. */
KKR_INLINE kkr_split *halves_fresh(const kkr_thread *t, uint32_t di,
                                   int strands) {
  if (kkr_dir[di] || kkr_mt || !t->cur_is_item ||
      (!strands && KKR_CUR_STRAND(t) == KKR_STRAND_BACKEND) ||
      __atomic_load_n(&kkr_spawned, __ATOMIC_RELAXED) ||
      (kkr_runs_made && kkr_run_dir[di]))
    return NULL;
  return kkr_halves_fresh(di);
}

/* The records of compact words made of chunk di, tagged as kkr_half_any
 * gives them, or NULL: from its runs (kkr_words_from_runs; reading: for a
 * read) when it has some, else for a loop of a kernel's strands writing
 * 8-byte elements in a fresh chunk (kkr_words_fresh; fresh: the loop is
 * such).  Only with one thread in the process. */
KKR_INLINE kkr_split *words_make(const kkr_thread *t, uint32_t di, int fresh,
                                 int reading) {
  if (kkr_dir[di] || kkr_mt || __atomic_load_n(&kkr_spawned, __ATOMIC_RELAXED))
    return NULL;
  uint64_t *ww = NULL;
  if (kkr_runs_made && kkr_run_dir[di])
    ww = kkr_words_from_runs(di, reading);
  else if (fresh && t->cur_is_item)
    ww = kkr_words_fresh(di);
  return ww ? (kkr_split *)((uintptr_t)ww | KKR_HC_WORDS) : NULL;
}

/* The half-cells of chunk di, made from its runs of 4-byte elements if
 * they can be (one thread in the process). */
KKR_INLINE kkr_split *halves_of(uint32_t di) {
  return kkr_mt || __atomic_load_n(&kkr_spawned, __ATOMIC_RELAXED)
             ? kkr_half_chunk(di)
             : kkr_half_chunk_make(di);
}

/* The half-cells of chunk di for an inline decision, which knows compact
 * ones (decide_in_halves) while one thread runs instrumented code. */
KKR_INLINE kkr_split *halves_inline(uint32_t di) {
  return KKR_LIKELY(!kkr_mt) ? kkr_half_any(di) : kkr_half_chunk(di);
}

/* An access of a word, or of one half of it, in a chunk of halves, decided
 * inline: 1 if done. */
static KKR_NOINLINE int word_in_halves(kkr_thread *t, uintptr_t w,
                                       uint32_t mask, uint32_t acc,
                                       uintptr_t pc, site_slot *slot) {
  if ((acc & (ACC_ATOMIC | ACC_FREE)) || kkr_mt || t->nofast ||
      (mask != 0xFF && mask != 0x0F && mask != 0xF0))
    return 0;
  uint64_t site = (uint64_t)access_site(t, acc, pc, slot) << KKR_REC_SITE_SHIFT;
  return decide_halves(t, mask == 0xF0 ? w + 4 : w, mask == 0xFF ? 8 : 4, acc,
                       t->abi.cur_rec, site);
}

KKR_INLINE void access_word(kkr_thread *t, uintptr_t w, uint32_t mask,
                            uint32_t acc, uintptr_t pc, uintptr_t fp,
                            site_slot *slot) {
  if (KKR_UNLIKELY(!kkr_dir[KKR_DIR_INDEX(w)]) &&
      (kkr_half_is(KKR_DIR_INDEX(w)) ||
       (kkr_runs_made && kkr_run_dir[KKR_DIR_INDEX(w)])) &&
      word_in_halves(t, w, mask, acc, pc, slot))
    return;
  kkr_cell *c = kkr_shadow_cell(w);
  if (acc & ACC_WRITE)
    kkr_shared_forget(w);
  if (KKR_LIKELY(fast_update(t, c, mask, acc, pc, slot)))
    return;
  access_word_slow(t, c, w, mask, acc, pc, fp, slot);
}

/* ---- Runs (kkr_shadow.h) ----------------------------------------------- */

/* Ranges shorter than this are left to the cells. */
#define RUN_MIN_WORDS 256

/* The accesses of a range of whole words: word k by strand (base + k) of
 * the record's work item (step 1), its 4-byte element e by strand
 * (base + e) (step 2), or all by the record's strand (step 0).  rec holds
 * the flags, the full byte mask and the site. */
typedef struct {
  uint64_t rec, base;
  uint32_t step;
} run_acc;

/* 1 if every word's record x (with its base and step) is ordered before
 * the same word's access in 'in'. */
static int run_ordered(const kkr_thread *t, const kkr_runrec *rr,
                       const run_acc *in) {
  uint64_t x = rr->rec, xbase = rr->base;
  uint32_t xstep = rr->step;
  if (!x || x < t->hz)
    return 1;
  if (KKR_REC_NODE(x) != t->cur_node)
    return ordered(t, x); /* (strands matter only within one node) */
  if (!t->cur_is_item)
    return 1;
  uint32_t cs = in->step ? 0 : KKR_REC_STRAND(in->rec);
  if (cs == KKR_STRAND_BACKEND)
    return 1;
  if (x & KKR_R_M)
    return 0; /* (read by several strands: not all of them are cs) */
  if (!xstep) {
    uint32_t s = KKR_REC_STRAND(x);
    return s == KKR_STRAND_BACKEND || (!in->step && s == cs);
  }
  return in->step == xstep && !rr->group &&
         xbase % KKR_RUN_STRANDS == in->base % KKR_RUN_STRANDS;
}

static int run_exc_update(const kkr_thread *t, kkr_runs *rs, const kkr_run *r,
                          const run_acc *in, int join, int commit);

/* How a read 'in' of the words of rule x, which holds reads of the running
 * kernel, leaves them, as record_read leaves each word: read by several
 * strands of the kernel, the first read's record with KKR_R_M when each
 * word's strand differs from the new read's (the bases differ: RUN_JOIN,
 * x with the flag), or the new read's with the flag when x has it and
 * each word's strand is the new read's (RUN_JOIN_NEW).  A stencil's
 * neighbour reads, u(i - 1), u(i) and u(i + 1), each over the array.  0:
 * neither. */
enum { RUN_JOIN = 1, RUN_JOIN_NEW = 2 };
static int run_reads_join(const kkr_thread *t, const kkr_runrec *x,
                          const run_acc *in) {
  if ((in->rec & KKR_R_W) || !x->rec || (x->rec & (KKR_R_X | KKR_R_W)) ||
      KKR_REC_NODE(x->rec) != t->cur_node || !t->cur_is_item ||
      t->lanes_on || t->team_on || (in->step != 1 && in->step != 2) ||
      x->step != in->step || x->group || ((x->rec ^ in->rec) & KKR_R_A))
    return 0;
  if (x->base % KKR_RUN_STRANDS != in->base % KKR_RUN_STRANDS)
    return RUN_JOIN;
  return x->rec & KKR_R_M ? RUN_JOIN_NEW : 0;
}

/* The reads x of a run after a read 'in': in's, or, when it joins them
 * (run_reads_join: how), several strands'. */
static void run_reads_after(kkr_runrec *x, const run_acc *in, int how) {
  if (how != RUN_JOIN)
    kkr_runrec_set(x, in->rec, in->base, in->step);
  if (how)
    x->rec |= KKR_R_M;
}

/* Whether the access 'in' of all of run r of rs is decided (the common
 * case of a race-free program, as fast_update's) without the words'
 * cells; *join: its reads join the run's (run_reads_join). */
static int run_check(const kkr_thread *t, kkr_runs *rs, const kkr_run *r,
                     const run_acc *in, int *join) {
  *join = 0;
  if (!run_ordered(t, &r->w, in))
    return 0;
  if (!run_ordered(t, &r->r, in) && !(*join = run_reads_join(t, &r->r, in)))
    return 0;
  return !(rs->exc && rs->exc->n) || run_exc_update(t, rs, r, in, *join, 0);
}

/* The access that run_check decided, made. */
static void run_commit(const kkr_thread *t, kkr_runs *rs, kkr_run *r,
                       const run_acc *in, int join) {
  if (rs->exc && rs->exc->n)
    run_exc_update(t, rs, r, in, join, 1);
  if (in->rec & KKR_R_W) {
    kkr_runrec_set(&r->w, in->rec, in->base, in->step);
    kkr_runrec_set(&r->r, 0, 0, 0);
  } else {
    run_reads_after(&r->r, in, join);
  }
}

/* The access 'in' of all of run r of rs: 1 if decided and made, 0 if the
 * words need their cells. */
static int run_update(const kkr_thread *t, kkr_runs *rs, kkr_run *r,
                      const run_acc *in) {
  int join;
  if (!run_check(t, rs, r, in, &join))
    return 0;
  run_commit(t, rs, r, in, join);
  return 1;
}

static void rule_rebase(kkr_runrec *x, uint64_t dw);

/* Whether rule y goes on from rule x, dw words after x's start: the
 * words of a run of x followed by a run of y then follow one rule. */
static int rule_goes_on(const kkr_runrec *x, uint64_t dw, const kkr_runrec *y) {
  if (!x->rec || !y->rec)
    return !x->rec && !y->rec;
  kkr_runrec z = *x;
  rule_rebase(&z, dw);
  if (z.rec != y->rec || z.step != y->step || z.per != y->per ||
      z.group != y->group || z.phase != y->phase || z.team != y->team ||
      z.cols != y->cols || z.part != y->part ||
      (z.per > 1 && (z.site_bits != y->site_bits ||
                     memcmp(z.site, y->site, z.per * sizeof z.site[0]))))
    return 0;
  if (z.step == 1 || z.step == 2)
    return z.base % KKR_RUN_STRANDS == y->base % KKR_RUN_STRANDS;
  return !z.step || z.base == y->base;
}

/* Runs of rs side by side whose rules go on from one another join: a
 * stencil's runs split at its loops' ends, all written again by the next
 * step's loop; a host loop writing a matrix a row at a time, one run of
 * its rows instead of one each (KKR_RUNS_MAX at most a chunk, then
 * cells).  Not while the chunk keeps a row front, whose hints name runs
 * by their place. */
static void runs_join_rules(kkr_runs *rs) {
  if (rs->front)
    return;
  for (uint32_t i = 0; i < rs->n; i++) {
    kkr_run *p = &rs->run[i];
    for (uint32_t j = 0; j < rs->n; j++) {
      kkr_run *q = &rs->run[j];
      uint64_t dw = (p->hi - p->lo) >> KKR_GRAN_SHIFT;
      if (q == p || q->lo != p->hi || !rule_goes_on(&p->w, dw, &q->w) ||
          !rule_goes_on(&p->r, dw, &q->r))
        continue;
      kkr_chunk_lock();
      p->hi = q->hi;
      *q = rs->run[--rs->n]; /* (q's place: the last run, p perhaps) */
      kkr_chunk_unlock();
      i = (uint32_t)-1; /* (from the start again: places moved) */
      break;
    }
  }
}

/* The run of chunk di's runs rs that w lies inside (not at its start), if
 * any, split there: the words from w on become a run of their own with
 * its rules from there (no record changes).  0 if it cannot be (the chunk
 * has all the runs it may have, or the run is an open row). */
static int runs_cut(uint32_t di, kkr_runs *rs, uintptr_t w) {
  for (uint32_t i = 0; i < rs->n; i++) {
    kkr_run *r = &rs->run[i];
    if (!(r->lo < w && w < r->hi))
      continue;
    if (rs->n == KKR_RUNS_MAX || r->w.group == KKR_RUN_GROUP_OPEN ||
        r->r.group == KKR_RUN_GROUP_OPEN)
      return 0;
    kkr_runrec bw = r->w, br = r->r;
    rule_rebase(&bw, (w - r->lo) >> KKR_GRAN_SHIFT);
    rule_rebase(&br, (w - r->lo) >> KKR_GRAN_SHIFT);
    return kkr_runs_split(di, r, w, &bw, &br) != NULL;
  }
  return 1;
}

/* The access 'in' of the words [lo, hi) of chunk di, which runs of rs
 * cover without a gap, but not as one run: the runs that cross lo or hi
 * split there (a stencil's reads u(i - 1) and u(i + 1) cover the run
 * that a loop over all of u wrote but for a word at either end), then
 * the runs inside are decided as run_update decides them, all or none,
 * each with the access's rule from its start.  1 if done. */
static int runs_cover_update(const kkr_thread *t, uint32_t di, kkr_runs *rs,
                             uintptr_t lo, uintptr_t hi, const run_acc *in) {
  uintptr_t covered = 0;
  uint32_t splits = 0;
  for (uint32_t i = 0; i < rs->n; i++) {
    const kkr_run *r = &rs->run[i];
    if (r->hi <= lo || hi <= r->lo)
      continue;
    covered += (r->hi < hi ? r->hi : hi) - (r->lo > lo ? r->lo : lo);
    splits += (r->lo < lo) + (r->hi > hi);
  }
  if (covered != hi - lo || rs->n + splits > KKR_RUNS_MAX)
    return 0;
  rs->front = 0; /* (a hint that names runs by their place) */
  if (!runs_cut(di, rs, lo) || !runs_cut(di, rs, hi))
    return 0;
  /* (Now each run that meets [lo, hi) is inside it.) */
  run_acc pin[KKR_RUNS_MAX];
  int join[KKR_RUNS_MAX];
  for (uint32_t i = 0; i < rs->n; i++) {
    const kkr_run *r = &rs->run[i];
    if (r->hi <= lo || hi <= r->lo)
      continue;
    uint64_t dw = (r->lo - lo) >> KKR_GRAN_SHIFT;
    pin[i] = *in;
    pin[i].base += in->step == 2 ? 2 * dw : in->step ? dw : 0;
    if (!run_check(t, rs, r, &pin[i], &join[i]))
      return 0;
  }
  for (uint32_t i = 0; i < rs->n; i++) {
    kkr_run *r = &rs->run[i];
    if (r->lo >= lo && r->hi <= hi)
      run_commit(t, rs, r, &pin[i], join[i]);
  }
  runs_join_rules(rs);
  return 1;
}

/* The access 'in' of the words [lo, hi) of one chunk through runs: 1 if
 * done, 0 if the chunk has (or now has) cells, which must decide.  Only
 * while one thread runs instrumented code. */
static int run_segment(const kkr_thread *t, uintptr_t lo, uintptr_t hi,
                       const run_acc *in) {
  uint32_t di = KKR_DIR_INDEX(lo);
  if (kkr_dir[di] || kkr_half_is(di))
    return 0;
  kkr_runs *rs = kkr_run_dir[di];
  uint64_t n = (hi - lo) >> KKR_GRAN_SHIFT;
  if (rs) {
    for (uint32_t i = 0; i < rs->n; i++) {
      kkr_run *r = &rs->run[i];
      if (r->lo == lo && r->hi == hi) {
        if (run_update(t, rs, r, in))
          return 1;
        goto cells;
      }
      if (r->lo < hi && lo < r->hi) {
        /* (Another range of the same words.) */
        if (runs_cover_update(t, di, rs, lo, hi, in))
          return 1;
        goto cells;
      }
    }
  }
  /* A new run over these words (holding what they hold), then the
   * access. */
  if (n >= RUN_MIN_WORDS) {
    kkr_run *r = kkr_runs_take(di, lo, hi);
    if (r && run_update(t, kkr_run_dir[di], r, in)) {
      runs_join_rules(kkr_run_dir[di]);
      return 1;
    }
  }
cells:
  /* (The runs of 4-byte elements become half-cells, those of a kernel's
   * 8-byte elements compact words where each word takes one record, the
   * others cells.) */
  if (kkr_run_dir[di] && !(in->step == 2 && halves_of(di)) &&
      !(in->step == 1 && words_make(t, di, 0, !(in->rec & KKR_R_W))))
    kkr_shadow_chunk_slow(lo);
  return 0;
}

/* Whether a free of [lo, hi) by the current node, in a chunk of runs,
 * follows everything its runs hold (the words outside them hold nothing). */
static int runs_free_ok(const kkr_thread *t, uint32_t di, uintptr_t lo,
                        uintptr_t hi) {
  run_acc in = {t->abi.cur_rec | KKR_R_W, 0, 0};
  int ok = 1;
  kkr_chunk_lock();
  kkr_runs *rs = kkr_run_dir[di];
  uintptr_t covered = 0;
  if (!rs)
    ok = 0;
  for (uint32_t i = 0; ok && i < rs->n; i++) {
    const kkr_run *r = &rs->run[i];
    if (r->lo < hi && lo < r->hi) {
      ok = run_ordered(t, &r->w, &in) && run_ordered(t, &r->r, &in);
      covered += (r->hi < hi ? r->hi : hi) - (r->lo > lo ? r->lo : lo);
    }
  }
  /* (Words of the range outside the runs: their parked cells decide.) */
  if (ok && rs->cells && covered < hi - lo)
    ok = 0;
  /* (And the exceptions in the range, record by record.) */
  for (uint32_t i = 0; ok && rs->exc && i < rs->exc->cap; i++) {
    const kkr_exc *e = &rs->exc->e[i];
    uintptr_t w = kkr_exc_word(e, lo);
    if (!kkr_exc_live(e) || w + KKR_GRAN <= lo || w >= hi)
      continue;
    for (uint32_t h = 0; ok && h < 2; h++) {
      kkr_runrec x = {.rec = e->h[h].w, .per = 1};
      kkr_runrec y = {.rec = e->h[h].r, .per = 1};
      ok = run_ordered(t, &x, &in) && run_ordered(t, &y, &in);
    }
  }
  kkr_chunk_unlock();
  return ok;
}

/* Whether [lo, hi) shares no byte with the thread's own memory (the
 * stack frames private to the op in progress, the strand's update
 * value). */
KKR_INLINE int outside_own(const kkr_thread *t, uintptr_t lo, uintptr_t hi) {
  return (t->priv_len == 0 || hi <= t->priv_lo ||
          lo >= t->priv_lo + t->priv_len) &&
         (t->abi.upd_len == 0 || hi <= t->abi.upd_lo ||
          lo >= t->abi.upd_lo + t->abi.upd_len);
}

/* May runs decide an access of [lo, hi) at all (of any length)? */
KKR_INLINE int runs_may(const kkr_thread *t, uintptr_t lo, uintptr_t hi) {
  return !t->nofast && !kkr_mt && !kkr_gpu_trace_host_on &&
         outside_own(t, lo, hi);
}

/* Whether single accesses and columns may make or change runs: the thread
 * takes the inline paths, the process created no thread and only this
 * one runs instrumented code, and no device trace is on. */
KKR_INLINE int runs_one_thread(const kkr_thread *t) {
  return !t->nofast && !kkr_mt && !kkr_gpu_trace_host_on &&
         !__atomic_load_n(&kkr_spawned, __ATOMIC_RELAXED);
}

KKR_INLINE int runs_allowed(const kkr_thread *t, uintptr_t lo, uintptr_t hi) {
  return hi - lo >= RUN_MIN_WORDS * KKR_GRAN && runs_may(t, lo, hi);
}

static uint32_t size_log(uintptr_t size) {
  uint32_t l = 0;
  while (l < 15 && ((uintptr_t)1 << l) < size)
    l++;
  return l;
}

static void access_words(kkr_thread *t, uintptr_t addr, uintptr_t end,
                         uint32_t acc, uintptr_t pc, uintptr_t fp,
                         site_slot *slot);

/* The whole words [lo, hi), chunk by chunk.  A cell that holds what the
 * previous word's held before the inline decision took it is given what
 * that one was given: a range that one work item accessed before (a GPU
 * kernel's footprint, a copy) costs a comparison per word. */
static void access_span(kkr_thread *t, uintptr_t lo, uintptr_t hi,
                        uint32_t acc, uintptr_t pc, uintptr_t fp,
                        site_slot *slot) {
  while (lo < hi) {
    uintptr_t end = KKR_CHUNK_END(lo);
    if (end > hi)
      end = hi;
    uint32_t di = KKR_DIR_INDEX(lo);
    kkr_cell *chunk = kkr_dir[di];
    if (!chunk || kkr_mt || (acc & (ACC_ATOMIC | ACC_FREE))) {
      access_words(t, lo, end, acc, pc, fp, slot);
      lo = end;
      continue;
    }
    if (acc & ACC_WRITE)
      kkr_shared_forget_range(lo, end);
    uint64_t was_w = 0, was_r = 0, now_w = 0, now_r = 0;
    int same_as_last = 0;
    for (; lo < end; lo += KKR_GRAN) {
      kkr_cell *c = chunk + KKR_CELL_INDEX(lo);
      if (same_as_last) { /* (the words that follow alike, in a tight loop) */
        kkr_cell *e = c + ((end - lo) >> KKR_GRAN_SHIFT);
        kkr_cell *from = c;
        while (c < e && c->w == was_w && c->r == was_r) {
          c->w = now_w;
          c->r = now_r;
          c++;
        }
        lo += (uintptr_t)(c - from) << KKR_GRAN_SHIFT;
        if (lo >= end)
          break;
      }
      uint64_t cw = c->w, cr = c->r;
      was_w = cw;
      was_r = cr;
      /* (Only what the inline decision took: it reports nothing.) */
      same_as_last = fast_update(t, c, 0xFF, acc, pc, slot);
      if (same_as_last) {
        now_w = c->w;
        now_r = c->r;
        continue;
      }
      access_word_slow(t, c, lo, 0xFF, acc, pc, fp, slot);
      if (kkr_dir[di] != chunk) { /* (the chunk changed its form) */
        lo += KKR_GRAN;
        break;
      }
    }
  }
}

static void access_range_of(kkr_thread *t, uintptr_t addr, uintptr_t size,
                            uint32_t acc, uintptr_t pc, uintptr_t fp,
                            site_slot *slot) {
  uintptr_t end = addr + size;
  if (size == 0 || end < addr)
    return;
  /* (Without the instruction's slot, one for the range: its words have
   * one site.) */
  site_slot local = {NULL, 0};
  if (!slot)
    slot = &local;
  if (KKR_UNLIKELY(kkr_gpu_trace_host_on) && !(acc & ACC_FREE))
    kkr_gpu_trace_host(t, addr, size, acc & ACC_WRITE);
  if (!(acc & 0xf000))
    acc |= size_log(size) << 12;
  /* The whole words of a large range, chunk by chunk, through runs: all by
   * the current strand. */
  uintptr_t alo = (addr + KKR_GRAN - 1) & ~(uintptr_t)(KKR_GRAN - 1);
  uintptr_t ahi = end & ~(uintptr_t)(KKR_GRAN - 1);
  if (!(acc & (ACC_FREE | ACC_ATOMIC)) && alo < ahi &&
      runs_allowed(t, alo, ahi)) {
    run_acc in = {t->abi.cur_rec | 0xFF0 | (acc & ACC_WRITE ? KKR_R_W : 0) |
                      (uint64_t)access_site(t, acc, pc, slot)
                          << KKR_REC_SITE_SHIFT,
                  0, 0};
    access_words(t, addr, alo, acc, pc, fp, slot);
    for (uintptr_t lo = alo; lo < ahi;) {
      uintptr_t hi = KKR_CHUNK_END(lo);
      if (hi > ahi)
        hi = ahi;
      if (!run_segment(t, lo, hi, &in)) {
        access_span(t, lo, hi, acc, pc, fp, slot);
        if (hi - lo >= 4 * RUN_MIN_WORDS * KKR_GRAN)
          kkr_runs_try_convert(KKR_DIR_INDEX(lo), lo, hi);
      }
      lo = hi;
    }
    access_words(t, ahi, end, acc, pc, fp, slot);
    return;
  }
  if (alo < ahi) {
    access_words(t, addr, alo, acc, pc, fp, slot);
    access_span(t, alo, ahi, acc, pc, fp, slot);
    access_words(t, ahi, end, acc, pc, fp, slot);
  } else {
    access_words(t, addr, end, acc, pc, fp, slot);
  }
}

/* The words of [addr, end) one by one. */
static void access_words(kkr_thread *t, uintptr_t addr, uintptr_t end,
                         uint32_t acc, uintptr_t pc, uintptr_t fp,
                         site_slot *slot) {
  for (uintptr_t w = addr & ~(uintptr_t)(KKR_GRAN - 1); w < end;
       w += KKR_GRAN) {
    uintptr_t lo = addr > w ? addr : w;
    uintptr_t hi = end < w + KKR_GRAN ? end : w + KKR_GRAN;
    uint32_t mask = ((1u << (hi - lo)) - 1) << (lo - w);
    if (acc & ACC_FREE) {
      /* A free only checks: the shadow is cleared right after, and chunks
       * never touched hold nothing. */
      kkr_cell *c = kkr_shadow_cell_if_mapped(w);
      if (!c) {
        w = KKR_CHUNK_END(w) - KKR_GRAN;
        continue;
      }
      uint64_t cw = c->w, cr = c->r;
      if (!(cw | cr))
        continue;
      if (!((cw | cr) & (KKR_R_X | KKR_R_M)) && (!cw || ordered(t, cw)) &&
          (!cr || ordered(t, cr)))
        continue; /* what the word saw happened before the free */
      access_cell(t, c, w, mask, acc, pc, fp, slot);
    } else {
      access_word(t, w, mask, acc, pc, fp, slot);
    }
  }
}

static void access_range(kkr_thread *t, uintptr_t addr, uintptr_t size,
                         uint32_t acc, uintptr_t pc, uintptr_t fp,
                         site_slot *slot) {
  uint8_t bulk = kkr_shadow_bulk;
  kkr_shadow_bulk = bulk || size >= KKR_BULK_BYTES;
  access_range_of(t, addr, size, acc, pc, fp, slot);
  kkr_shadow_bulk = bulk;
}

void kkr_access_range(kkr_thread *t, uintptr_t addr, uintptr_t size,
                      uint32_t acc, uintptr_t pc, uintptr_t fp) {
  access_range(t, addr, size, acc, pc, fp, NULL);
}

void kkr_access_range_at(kkr_thread *t, uintptr_t addr, uintptr_t size,
                         uint32_t acc, uintptr_t pc,
                         struct kkr_site_slot *slot) {
  access_range(t, addr, size, acc, pc, 0, (site_slot *)slot);
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
  if (a - t->priv_lo < t->priv_len || a - t->abi.upd_lo < t->abi.upd_len)
    return NULL;
  return t;
}

/* Every access that is not the common case below: the general path. */
static KKR_NOINLINE void access_general(uintptr_t a, uint32_t size,
                                        uint32_t size_lg, uint32_t acc,
                                        uintptr_t pc, site_slot *slot) {
  kkr_thread *t = entry_thread(a);
  if (!t)
    return;
  if (KKR_UNLIKELY(kkr_gpu_trace_host_on))
    kkr_gpu_trace_host(t, a, size, acc & ACC_WRITE);
  if (KKR_UNLIKELY(t->atomic_depth))
    acc |= ACC_ATOMIC;
  acc |= size_lg << 12;
  uintptr_t off = a & (KKR_GRAN - 1);
  if (KKR_LIKELY(off + size <= KKR_GRAN))
    access_word(t, a - off, ((1u << size) - 1) << off, acc, pc, 0, slot);
  else
    access_range(t, a, size, acc, pc, 0, slot);
}

/* The common case, decided without a call: an aligned access of up to 8
 * bytes by an initialized thread, outside Kokkos atomics, whose cell (or
 * half-cell) holds records of nodes below the horizon or of this very strand
 * (or, for a read, the reads of several strands of this kernel), and whose
 * site slot is warm.  1 if done.  Everything else goes to access_more
 * through a tail call (so that this path saves no registers and the return
 * address is still the instrumented code's). */
#define KKR_BACKEND_BITS ((uint64_t)KKR_STRAND_BACKEND << KKR_REC_STRAND_SHIFT)

/* What the inline decision needs of the thread, read once per loop. */
typedef struct {
  uint64_t hz, same, multi;
  int team;  /* the current strand is a team's (team_before applies) */
  int lanes; /* vector lanes in the team's phase: no MULTI read made, and
                lanes_before applies */
  const kkr_thread *t;
} decide_ctx;

KKR_INLINE decide_ctx decide_ctx_of(const kkr_thread *t) {
  decide_ctx d = {t->hz, t->same_mask, t->multi_mask, (int)t->team_on,
                  (int)t->lanes_on, t};
  return d;
}

/* With vector lanes in the team's phase: rec, of another strand of the
 * current node, is ordered before cur by a vector loop's fork or join (a
 * lane and its thread's code before or after the loop, lanes of two loops
 * of one thread). */
KKR_INLINE int lanes_before(decide_ctx d, uint64_t rec, uint64_t cur) {
  return d.lanes && !((rec ^ cur) & (KKR_REC_NODE_BITS | KKR_R_M)) &&
         (cur & KKR_REC_STRAND_BITS) != KKR_BACKEND_BITS &&
         kkr_lanes_ordered_at(d.t, KKR_REC_STRAND(cur), rec);
}

/* Whether the size bytes at a lie within one half of their word. */
KKR_INLINE int in_one_half(uintptr_t a, uint64_t size) {
  return size <= 4 && !((a ^ (a + size - 1)) & 4);
}

/* The cell that holds the records of the access of size bytes at a in the
 * word's cell c: one of its half-cells when c is split and the bytes lie
 * within one half. */
KKR_INLINE kkr_cell *access_cell_of(kkr_cell *c, uintptr_t a, uint32_t size) {
  if (c->w == KKR_W_SPLIT && in_one_half(a, size))
    return kkr_half_cell(kkr_split_dir[KKR_DIR_INDEX(a)], a);
  return c;
}

/* Before a single access's decision in a chunk of cells: where the chunk
 * has split cells and the access lies within one half of its word, the
 * half-cell is fetched beside the cell, in case the cell is split (an
 * array of int among words read whole: a hash table's values beside its
 * keys), so that the two misses overlap instead of following each other. */
KKR_INLINE void half_prefetch(uintptr_t a, uint32_t size) {
  if (size <= 4 && in_one_half(a, size)) {
    kkr_split *s = kkr_split_dir[KKR_DIR_INDEX(a)];
    if (s)
      __builtin_prefetch(kkr_half_cell(s, a), 1);
  }
}

/* For an atomic access (cur carries KKR_R_A): rec is another atomic access
 * of bytes that the access covers, which it never races with. */
KKR_INLINE int atomic_pass(uint64_t rec, uint64_t cur, uint64_t mask4) {
  return (rec & cur & KKR_R_A) && !(rec & ~mask4 & 0xFF0);
}

/* The byte mask of an access of size bytes at a (within one word), in
 * a record's place (bits 4-11). */
KKR_INLINE uint64_t rec_mask(uintptr_t a, uint32_t size) {
  return size == KKR_GRAN
             ? 0xFF0
             : (uint64_t)(((1u << size) - 1) << (a & (KKR_GRAN - 1))) << 4;
}

/* Whether the read record r, above the horizon, is of the bytes of mask4
 * by one other strand of the current kernel, with no lanes in its phase:
 * the read of cur makes it several strands' read (unless a team's phase
 * orders r before cur, team_before, which the caller looks at first). */
KKR_INLINE int read_by_another(const decide_ctx *d, uint64_t r, uint64_t cur,
                               uint64_t mask4) {
  return !((r ^ cur) & d->multi) && !(mask4 & ~r) && !d->lanes &&
         (r & KKR_REC_STRAND_BITS) != KKR_BACKEND_BITS &&
         (cur & KKR_REC_STRAND_BITS) != KKR_BACKEND_BITS;
}

/* What a read mostly finds, decided before everything else (a tight loop
 * keeps its values in registers when the rest is out of line): the last
 * write ordered before it, and reads ordered before it too, of its bytes
 * only (which it replaces), or of its bytes by this strand or by several
 * strands of this kernel (which it leaves; a team's phases do not order
 * such a record, team_before), or by one other strand of this kernel
 * that no phase of its team orders before it (which becomes several
 * strands' read: a vector that every row of a sparse product reads).
 * decide_with's outcomes for these cases; 0 for the others, which it
 * decides.  c is not split: a split cell's write record is never below
 * the horizon. */
KKR_INLINE int decide_read_common(const decide_ctx *d, kkr_cell *c,
                                  uint64_t mask4, uint64_t cur,
                                  uint64_t site) {
  uint64_t w = c->w, r = c->r;
  if (KKR_UNLIKELY(w >= d->hz) && !above_known(d->t, d->hz, w))
    return 0;
  if (r >= d->hz) {
    if (!(mask4 & ~r) &&
        (!((r ^ cur) & d->same) || !((r ^ cur ^ KKR_R_M) & d->multi)))
      return 1;
    if (read_by_another(d, r, cur, mask4) &&
        !(d->team && team_before(r, cur))) {
      c->r = r | KKR_R_M;
      return 1;
    }
    if (!above_known(d->t, d->hz, r))
      return 0;
  }
  /* (An older read of other bytes stays, unless it is settled.) */
  if ((r & ~mask4 & 0xFF0) && !rec_settled(r))
    return 0;
  c->r = cur | site | mask4;
  return 1;
}

KKR_INLINE int decide_with(decide_ctx d, kkr_cell *c, uintptr_t a,
                           uint32_t size, uint32_t acc, uint64_t cur,
                           uint64_t site) {
  /* (A word is always aligned here.) */
  uint64_t mask4 = rec_mask(a, size);
  c = access_cell_of(c, a, size);
  uint64_t w = c->w, r = c->r;
  uint64_t hz = d.hz, same = d.same;
  uint64_t uncovered = ~mask4 & 0xFF0;
  /* The last write is ordered before this access or is this strand's. */
  uint64_t wown = w >= hz, wkeep = 0;
  if (KKR_UNLIKELY(wown && ((w ^ cur) & same))) {
    if (!(d.team && team_before(w, cur)) && !lanes_before(d, w, cur) &&
        !above_known(d.t, hz, w)) {
      if (!atomic_pass(w, cur, mask4))
        return 0;
      /* Another strand's atomic write that nothing orders before this
       * one: it stays when this one is of the same bytes (atomic_keeps). */
      wkeep = (w & (0xFF0 | KKR_R_W)) == (mask4 | KKR_R_W);
    }
    wown = 0;
  }
  uint64_t rec = cur | site | mask4;
  if (acc & ACC_WRITE) {
    uint64_t nw = rec | KKR_R_W | (wown ? w & 0xFF0 : 0);
    /* An ordered write of other bytes: this strand's own (a host segment's
     * records lie below its horizon) stays as a union of bytes; another's
     * stays beside this one unless it is settled (keep_write), which the
     * full path does. */
    if (KKR_UNLIKELY(!wown && (w & uncovered))) {
      if (!((w ^ cur) & (same | KKR_R_A)))
        nw |= w & 0xFF0;
      else if (!rec_settled(w))
        return 0;
    }
    /* This strand's own earlier write, atomic where this one is not or the
     * reverse: the record stays the plain one of the two (another strand's
     * atomic access races with it).  Of other bytes: one record cannot say
     * which bytes were atomic, the full path splits the cell. */
    if (KKR_UNLIKELY(wown && ((w ^ cur) & KKR_R_A))) {
      if (w & uncovered)
        return 0;
      if (!(w & KKR_R_A))
        nw = (w & ~(uint64_t)0xFF0) | mask4;
    }
    /* The reads too; the write replaces what it covers (this strand's own
     * earlier write is kept as a union of bytes). */
    if (KKR_UNLIKELY(r >= hz && ((r ^ cur) & same)) &&
        !(d.team && team_before(r, cur)) && !atomic_pass(r, cur, mask4) &&
        !lanes_before(d, r, cur) && !above_known(d.t, hz, r))
      return 0;
    if (!wkeep)
      c->w = nw;
    c->r = r & uncovered ? r : 0;
    return 1;
  }
  if (r < hz) {
    if (KKR_UNLIKELY(r & uncovered) && !rec_settled(r))
      return 0; /* an older read of other bytes stays: the full path */
    c->r = rec;
  } else if (!((r ^ cur) & same)) {
    if (mask4 & ~r)
      c->r = rec | (r & 0xFF0); /* this strand read more bytes */
  } else if (KKR_UNLIKELY(d.team) && team_before(r, cur)) {
    if (r & uncovered)
      return 0;
    c->r = rec; /* read in an earlier phase of the team */
  } else if (!((r ^ cur ^ KKR_R_M) & d.multi) && !(mask4 & ~r)) {
    /* Several strands of this kernel read the bytes: r says so. */
  } else if (read_by_another(&d, r, cur, mask4)) {
    c->r = r | KKR_R_M; /* another strand of this kernel read them: now
                           several have */
  } else if (KKR_UNLIKELY(d.lanes) && !(mask4 & ~r) &&
             !((r ^ cur) & (KKR_REC_NODE_BITS | KKR_R_M | KKR_R_A)) &&
             kkr_lanes_is_fold_at(d.t, KKR_REC_STRAND(cur), r)) {
    /* Sibling lanes read them: r, kept as their thread's, says so. */
  } else if (lanes_before(d, r, cur) || above_known(d.t, hz, r)) {
    if (r & uncovered)
      return 0;
    c->r = rec; /* read before the loop, or in an earlier one; or of a
                   node ordered before above the horizon */
  } else {
    return 0;
  }
  return 1;
}

KKR_INLINE int decide(const kkr_thread *t, kkr_cell *c, uintptr_t a,
                      uint32_t size, uint32_t acc, uint64_t cur,
                      uint64_t site) {
  return decide_with(decide_ctx_of(t), c, a, size, acc, cur, site);
}

/* The records c of the half holding a, decided, stored in its record p of
 * compact halves; when they take two, the chunk becomes one of whole halves
 * first, which take them. */
static void compact_store(uint64_t *p, const kkr_cell *c, uintptr_t a) {
  if (kkr_compact_of(c->w, c->r,
                     __atomic_load_n(&kkr_nodes_settled, __ATOMIC_RELAXED),
                     p))
    return;
  kkr_split *s = kkr_compact_expand(KKR_DIR_INDEX(a));
  *kkr_half_cell(s, a) = *c;
}

/* The records c of the word holding a, decided, stored in its record p
 * of compact words; when they take two, the chunk becomes cells first,
 * which take them. */
static KKR_NOINLINE void words_store(uint64_t *p, const kkr_cell *c,
                                     uintptr_t a) {
  if (kkr_compact_of(c->w, c->r,
                     __atomic_load_n(&kkr_nodes_settled, __ATOMIC_RELAXED),
                     p))
    return;
  kkr_cell *cells = kkr_words_expand(KKR_DIR_INDEX(a));
  cells[KKR_CELL_INDEX(a)] = *c;
}

/* The records c, decided, stored in the record p of compact halves (kind
 * KKR_HALVES_COMPACT: p is a half's) or of compact words
 * (KKR_WORDS_COMPACT: a word's), the holder of a: as they are when they
 * are one record, not a set, or the reads when the write is settled (a
 * fill's before a fence: kkr_compact_of drops it); else through
 * compact_store or words_store, which make the chunk whole halves or
 * cells when they take two. */
KKR_INLINE void packed_store(uint64_t *p, const kkr_cell *c, uintptr_t a,
                             uint8_t kind) {
  if (KKR_LIKELY(!(c->w && c->r) && !((c->w | c->r) & KKR_R_X)))
    *p = c->w | c->r;
  else if (!((c->w | c->r) & KKR_R_X) && rec_settled(c->w))
    *p = c->r;
  else if (kind == KKR_WORDS_COMPACT)
    words_store(p, c, a);
  else
    compact_store(p, c, a);
}

/* decide_with on a half of compact halves or a word of compact words
 * (kkr_shadow.h; kind as packed_store's), through a cell made of its
 * record p, whose outcome packed_store stores.  0 when undecided, or when
 * the chunk is no longer of that kind (the caller's pointer is stale). */
KKR_INLINE int packed_decide(const decide_ctx *d, uint64_t *p, uintptr_t a,
                             uint32_t size, uint32_t acc, uint64_t cur,
                             uint64_t site, uint8_t kind) {
  if (KKR_UNLIKELY(kkr_half_on[KKR_DIR_INDEX(a)] != kind))
    return 0;
  kkr_cell c = kkr_compact_cell(*p);
  if (!decide_with(*d, &c, a, size, acc, cur, site))
    return 0;
  packed_store(p, &c, a, kind);
  return 1;
}

/* A read that decide_read_common decides, of the record p of compact
 * halves or words (a gather's index, `col(k)` of a sparse row; its values,
 * `val(k)`): 0 for the rest. */
KKR_INLINE int packed_read(const decide_ctx *d, uint64_t *p, uintptr_t a,
                           uint32_t size, uint64_t cur, uint64_t site,
                           uint8_t kind) {
  if (KKR_UNLIKELY(kkr_half_on[KKR_DIR_INDEX(a)] != kind))
    return 0;
  kkr_cell c = kkr_compact_cell(*p);
  if (!decide_read_common(d, &c, rec_mask(a, size), cur, site))
    return 0;
  packed_store(p, &c, a, kind);
  return 1;
}

KKR_INLINE int compact_half(const decide_ctx *d, uint64_t *p, uintptr_t a,
                            uint32_t size, uint32_t acc, uint64_t cur,
                            uint64_t site) {
  return packed_decide(d, p, a, size, acc, cur, site, KKR_HALVES_COMPACT);
}

KKR_INLINE int compact_read(const decide_ctx *d, uint64_t *p, uintptr_t a,
                            uint32_t size, uint64_t cur, uint64_t site) {
  return packed_read(d, p, a, size, cur, site, KKR_HALVES_COMPACT);
}

KKR_INLINE int words_read(const decide_ctx *d, uint64_t *p, uintptr_t a,
                          uint32_t size, uint64_t cur, uint64_t site) {
  return packed_read(d, p, a, size, cur, site, KKR_WORDS_COMPACT);
}

/* The same for an aligned access of up to 4 bytes, or of a whole word
 * (half by half), in compact halves cc. */
KKR_INLINE int decide_in_compact(const decide_ctx *d, uint64_t *cc,
                                 uintptr_t a, uint32_t size, uint32_t acc,
                                 uint64_t cur, uint64_t site) {
  if (size <= 4)
    return compact_half(d, kkr_compact_rec(cc, a), a, size, acc, cur, site);
  return size == KKR_GRAN &&
         compact_half(d, kkr_compact_rec(cc, a), a, 4, acc, cur, site) &&
         compact_half(d, kkr_compact_rec(cc, a + 4), a + 4, 4, acc, cur, site);
}

/* decide_with for an aligned access of up to 4 bytes, or of a whole word,
 * in the half-cells hc of a chunk of halves (a word half by half: a half
 * decided twice is no change), whole or compact (kkr_half_any), or in the
 * records of compact words. */
KKR_INLINE int decide_in_halves(decide_ctx d, kkr_split *hc, uintptr_t a,
                                uint32_t size, uint32_t acc, uint64_t cur,
                                uint64_t site) {
  if (KKR_UNLIKELY((uintptr_t)hc & KKR_HC_TAGS)) {
    if ((uintptr_t)hc & KKR_HC_WORDS)
      return packed_decide(
          &d, kkr_words_rec((uint64_t *)((uintptr_t)hc & ~KKR_HC_TAGS), a), a,
          size, acc, cur, site, KKR_WORDS_COMPACT);
    return decide_in_compact(&d, (uint64_t *)((uintptr_t)hc & ~KKR_HC_COMPACT),
                             a, size, acc, cur, site);
  }
  if (size <= 4)
    return decide_with(d, kkr_half_cell(hc, a), a, size, acc, cur, site);
  return size == KKR_GRAN &&
         decide_with(d, kkr_half_cell(hc, a), a, 4, acc, cur, site) &&
         decide_with(d, kkr_half_cell(hc, a + 4), a + 4, 4, acc, cur, site);
}

/* The same in the cells of the chunk, else in its half-cells: 0 if it has
 * neither, or undecided. */
KKR_INLINE int decide_at(decide_ctx d, kkr_cell *chunk, kkr_split *hc,
                         uintptr_t a, uint32_t size, uint32_t acc,
                         uint64_t cur, uint64_t site) {
  if (chunk)
    return decide_with(d, chunk + KKR_CELL_INDEX(a), a, size, acc, cur, site);
  return hc && decide_in_halves(d, hc, a, size, acc, cur, site);
}

/* ---- Exceptions of runs (kkr_shadow.h) ------------------------------------ */

/* The run of rs holding word w, or NULL. */
static const kkr_run *run_at(const kkr_runs *rs, uintptr_t w) {
  for (uint32_t i = 0; i < rs->n; i++)
    if (w >= rs->run[i].lo && w < rs->run[i].hi)
      return &rs->run[i];
  return NULL;
}

/* What word w of run r holds: its exception e, else its run's rule (in
 * half-cells for a run of 4-byte elements). */
KKR_INLINE kkr_exc word_of_run(const kkr_run *r, const kkr_exc *e,
                               uintptr_t w) {
  if (e)
    return *e;
  kkr_exc x;
  uint64_t k = (w - r->lo) >> KKR_GRAN_SHIFT;
  memset(&x, 0, sizeof x);
  if (r->w.step == 2 || r->r.step == 2) {
    uint64_t hw[2], hr[2];
    x.halves = 1;
    kkr_run_halves_rec(&r->w, k, hw);
    kkr_run_halves_rec(&r->r, k, hr);
    for (uint32_t h = 0; h < 2; h++) {
      x.h[h].w = hw[h];
      x.h[h].r = hr[h];
    }
  } else {
    x.h[0].w = kkr_run_rec(&r->w, k);
    x.h[0].r = kkr_run_rec(&r->r, k);
  }
  return x;
}

/* The inline decision on a word's records x (a cell, or half-cells: an
 * access of one half in it, of a whole word in both): 1 if decided. */
KKR_INLINE int decide_exc(decide_ctx d, kkr_exc *x, uintptr_t a,
                          uint32_t size, uint32_t acc, uint64_t cur,
                          uint64_t site) {
  if (!x->halves)
    return decide_with(d, &x->h[0], a, size, acc, cur, site);
  if (in_one_half(a, size))
    return decide_with(d, &x->h[(a >> 2) & 1], a, size, acc, cur, site);
  return size == KKR_GRAN && !(a & (KKR_GRAN - 1)) &&
         decide_with(d, &x->h[0], a, 4, acc, cur, site) &&
         decide_with(d, &x->h[1], a + 4, 4, acc, cur, site);
}

KKR_INLINE int exc_same(const kkr_exc *x, const kkr_exc *y) {
  return x->h[0].w == y->h[0].w && x->h[0].r == y->h[0].r &&
         x->h[1].w == y->h[1].w && x->h[1].r == y->h[1].r;
}

/* Whether records a and b are one, or both settled (or none): records
 * that can never race, which any access replaces as it would nothing. */
KKR_INLINE int rec_same_settled(uint64_t a, uint64_t b) {
  return a == b || (rec_settled(a) && rec_settled(b));
}

/* exc_same, with settled records as good as none: a word whose records
 * differ from its run's rule only by settled ones (the write of a
 * conditional update a fence ago, where the rule holds an older write)
 * follows the rule. */
KKR_INLINE int exc_same_settled(const kkr_exc *x, const kkr_exc *y) {
  return rec_same_settled(x->h[0].w, y->h[0].w) &&
         rec_same_settled(x->h[0].r, y->h[0].r) &&
         rec_same_settled(x->h[1].w, y->h[1].w) &&
         rec_same_settled(x->h[1].r, y->h[1].r);
}

/* ---- Rows: runs of one strand's elements after another's ------------------ */

static void exc_halves(kkr_exc *x);

/* Whether x and y hold the same records (a whole word's records are its
 * halves', each on the bytes it has there: an int row's word that an
 * 8-byte piece of a vector store wrote whole is the rule's two ints). */
KKR_INLINE int exc_equal(const kkr_exc *x, const kkr_exc *y) {
  if (KKR_LIKELY(x->halves == y->halves))
    return exc_same(x, y);
  kkr_exc a = x->halves ? *y : *x;
  exc_halves(&a);
  return exc_same(&a, x->halves ? x : y);
}

/* The records x of a whole word as those of its two halves (each record
 * on the bytes it has in that half). */
static void exc_halves(kkr_exc *x) {
  uint64_t w = x->h[0].w, r = x->h[0].r;
  for (uint32_t h = 0; h < 2; h++) {
    x->h[h].w = kkr_rec_half(w, h);
    x->h[h].r = kkr_rec_half(r, h);
  }
  x->halves = 1;
}

/* Whether field f (0: the writes, 1: the reads) of x is the same record on
 * the whole word: *y, in the form a rule takes (two half-cells: the same
 * record on each, of all of its bytes, given as one of the whole word). */
static int field_uniform(const kkr_exc *x, int f, uint64_t *y) {
  uint64_t a = f ? x->h[0].r : x->h[0].w;
  if (a & KKR_R_X)
    return 0;
  if (!x->halves) {
    *y = a;
    return 1;
  }
  uint64_t b = f ? x->h[1].r : x->h[1].w;
  if (b & KKR_R_X)
    return 0;
  if (!a || !b) {
    *y = 0;
    return !a && !b;
  }
  *y = a | 0xFF0;
  return (a & 0xFF0) == 0x0F0 && (b & 0xFF0) == 0xF00 &&
         (a & ~(uint64_t)0xFF0) == (b & ~(uint64_t)0xFF0);
}

/* Rule x as it reads from a run that starts dw words further on. */
static void rule_rebase(kkr_runrec *x, uint64_t dw) {
  if (x->per > 1) {
    uint32_t site[KKR_RUN_SITES];
    for (uint32_t j = 0; j < x->per; j++)
      site[j] = x->site[(j + dw) % x->per];
    memcpy(x->site, site, x->per * sizeof site[0]);
  }
  if (!x->rec || !x->step)
    return;
  if (x->step == KKR_RUN_COLS) {
    x->phase = (uint32_t)((x->phase + dw) % x->group);
    return;
  }
  uint64_t de = x->step == 2 ? 2 * dw : dw;
  if (!x->group) {
    x->base += de;
  } else if (x->group == KKR_RUN_GROUP_OPEN) {
    x->phase += (uint32_t)de; /* (a run is at most a MiB of elements) */
  } else if (x->phase + de < x->group) {
    x->phase += (uint32_t)de; /* (the common case: a word on) */
  } else {
    uint64_t p = x->phase + de;
    x->base += p / x->group;
    x->phase = (uint32_t)(p % x->group);
  }
}

/* The rule of field f of a new run of the words from w0 on that now hold x
 * (uniform): the rule of run b there when the access left the field as b
 * says (rebased), else one made from x's record: the strand's own row when
 * it is this kernel strand's record, else that record on every word. */
static void rows_rule(kkr_runrec *x, const kkr_run *b, uintptr_t w0,
                      const kkr_exc *xn, const kkr_exc *was, int f,
                      uint64_t cur, int strands) {
  uint64_t y = 0;
  int same = f ? xn->h[0].r == was->h[0].r && xn->h[1].r == was->h[1].r
               : xn->h[0].w == was->h[0].w && xn->h[1].w == was->h[1].w;
  if (same && xn->halves == was->halves) {
    *x = f ? b->r : b->w;
    rule_rebase(x, (w0 - b->lo) >> KKR_GRAN_SHIFT);
    return;
  }
  field_uniform(xn, f, &y);
  memset(x, 0, sizeof *x);
  x->per = 1;
  x->rec = y;
  if (y && strands && !(y & KKR_R_M) &&
      !((y ^ cur) & (KKR_REC_NODE_BITS | KKR_REC_STRAND_BITS))) {
    x->rec = y & ~KKR_REC_STRAND_BITS;
    x->step = xn->halves ? 2 : 1;
    x->group = KKR_RUN_GROUP_OPEN;
    x->base = KKR_REC_STRAND(y) - 2;
  }
}

/* Whether run r, as far as w1, gives the words [w0, w1) the records x.
 * (With one site per rule, a rule's records change only where its strand
 * does, which only grows along the run: the first and last words
 * suffice.) */
static int rows_match(const kkr_run *r, uintptr_t w0, uintptr_t w1,
                      const kkr_exc *x) {
  if (r->w.per > 1 || r->r.per > 1)
    return 0;
  kkr_exc a = word_of_run(r, NULL, w0);
  if (!exc_equal(&a, x))
    return 0;
  if (w1 - w0 == KKR_GRAN)
    return 1;
  a = word_of_run(r, NULL, w1 - 8);
  return exc_equal(&a, x);
}

/* A row's open rules closed: the row from its run's start is one strand's
 * whole row, and the next strand's comes next (group = its length). */
static void rows_close(kkr_run *r) {
  kkr_runrec *f[2] = {&r->w, &r->r};
  for (int i = 0; i < 2; i++)
    if (f[i]->rec && f[i]->group == KKR_RUN_GROUP_OPEN) {
      /* (phase: the row's elements before the run's start, in the second
       * half of the word before it.) */
      uint64_t n = (r->hi - r->lo) >> (f[i]->step == 2 ? 2 : 3);
      f[i]->group = (uint32_t)n + f[i]->phase;
    }
}

/* A single access of the word w of run r of rs decided inline on the
 * word's records (its exception *e, NULL if none, else the rule's): 0 if
 * not decided, 1 if it changes nothing, 2 if it leaves the records *x. */
KKR_INLINE int run_word_decide(const kkr_thread *t, const kkr_runs *rs,
                               const kkr_run *r, uintptr_t w, uintptr_t a,
                               uint32_t size, uint32_t acc, uint64_t cur,
                               uint64_t site, kkr_exc **e, kkr_exc *x) {
  *e = kkr_exc_find(rs, KKR_CELL_INDEX(w));
  *x = word_of_run(r, *e, w);
  /* (The records before, field by field: no copy of the whole.) */
  uint64_t w0 = x->h[0].w, r0 = x->h[0].r, w1 = x->h[1].w, r1 = x->h[1].r;
  const decide_ctx d = decide_ctx_of(t);
  if (!decide_exc(d, x, a, size, acc, cur, site)) {
    /* A 4-byte access to a word kept whole, whose other half another
     * strand wrote or read: the word as its two halves, as a run of
     * 4-byte elements keeps them (an int row's end beside the next row's
     * start), rather than a split cell. */
    if (size != 4 || x->halves)
      return 0;
    x->h[0].w = w0;
    x->h[0].r = r0;
    exc_halves(x);
    w0 = x->h[0].w, r0 = x->h[0].r, w1 = x->h[1].w, r1 = x->h[1].r;
    if (!decide_exc(d, x, a, size, acc, cur, site))
      return 0;
  }
  return x->h[0].w == w0 && x->h[0].r == r0 && x->h[1].w == w1 &&
                 x->h[1].r == r1
             ? 1
             : 2;
}

/* Run b begins at w1 now (the words before were joined to the run that
 * ends there). */
static void run_front_to(kkr_run *b, uintptr_t w1) {
  rule_rebase(&b->w, (w1 - b->lo) >> KKR_GRAN_SHIFT);
  rule_rebase(&b->r, (w1 - b->lo) >> KKR_GRAN_SHIFT);
  b->lo = w1;
  b->row_lo = 0;
}

/* The records x a single access left to word k of chunk di's runs rs,
 * kept as its exception (e: the one it had, or NULL): 1, or 0 when the
 * chunk has all the exceptions it may have (it expands). */
static int exc_keep(uint32_t di, uint32_t k, kkr_exc *e, const kkr_exc *x) {
  if (!e && !(e = kkr_exc_add(di, k)))
    return 0;
  e->halves = x->halves;
  e->h[0] = x->h[0];
  e->h[1] = x->h[1];
  return 1;
}

/* The chunk's last row front (kkr_runs.front): the word before which
 * rows_absorb last joined a strand's words to a run (run front_a ends
 * there, run front_b begins there).  A hint for the next access there
 * (rows_front), checked against the chunk's runs before any use; one per
 * chunk, so that a kernel that fills the rows of several Views in turn
 * keeps the front of each. */
KKR_INLINE void rows_cursor_set(kkr_runs *rs, uintptr_t front,
                                const kkr_run *a, const kkr_run *b) {
  rs->front = front;
  rs->front_a = (uint32_t)(a - rs->run);
  rs->front_b = (uint32_t)(b - rs->run);
}

/* The first words [w0, w1) of chunk di, given the records x, when they go
 * on with the rows of the run that ends the chunk before (a strand's row
 * that crosses the chunks' border, in an array of rows whose length is no
 * divisor of a MiB: `col(i * 7 + k)`): that run's rules from w0 on, in
 * *n.  Without it, the chunk's first run would begin in the middle of a
 * row, whose length it cannot tell.  One thread only. */
static int rows_carry(uint32_t di, uintptr_t w0, uintptr_t w1,
                      const kkr_exc *x, kkr_run *n) {
  if (KKR_CELL_INDEX(w0) != 0 || di == 0 || kkr_dir[di - 1] ||
      !kkr_run_dir[di - 1])
    return 0;
  const kkr_runs *ps = kkr_run_dir[di - 1];
  for (uint32_t i = 0; i < ps->n; i++) {
    const kkr_run *p = &ps->run[i];
    if (p->hi != w0 || p->w.group == KKR_RUN_GROUP_OPEN ||
        p->r.group == KKR_RUN_GROUP_OPEN || !(p->w.group | p->r.group))
      continue;
    *n = *p;
    run_front_to(n, w0);
    n->hi = w1;
    return rows_match(n, w0, w1, x);
  }
  return 0;
}

/* A new run *n for the words [w0, w1) at the front of run b, which hold
 * the records x that strand cur's access left: the rules of b there for
 * what the access did not change, else the strand's own row (phase: its
 * elements before w0) or x's records on every word.  after_run: a run
 * ends at w0 (another strand's row begins where it ends).  Whether *n
 * gives the words x. */
static int rows_new(const kkr_thread *t, const kkr_run *b, uintptr_t w0,
                    uintptr_t w1, const kkr_exc *x, uint64_t cur,
                    int after_run, uint32_t row_phase, kkr_run *n) {
  kkr_exc was = word_of_run(b, NULL, w0);
  memset(n, 0, sizeof *n);
  n->lo = w0;
  n->hi = w1;
  int strands = t->cur_is_item && KKR_REC_STRAND(cur) >= 2;
  rows_rule(&n->w, b, w0, x, &was, 0, cur, strands);
  rows_rule(&n->r, b, w0, x, &was, 1, cur, strands);
  /* (Where the run before it ends, another strand's row begins; a row at
   * the start of a View or of a large heap block too.) */
  kkr_view_alloc v;
  n->row_lo = after_run || (kkr_array_find(w0, &v) && v.lo == w0);
  if (row_phase) {
    if (n->w.group == KKR_RUN_GROUP_OPEN)
      n->w.phase = row_phase;
    if (n->r.group == KKR_RUN_GROUP_OPEN)
      n->r.phase = row_phase;
  }
  return rows_match(n, w0, w1, x);
}

/* The words [w0, w1) at the front of run b of chunk di, which hold the
 * same records as each other, were given the records x by the access of
 * strand cur (one inline decision for all of them): the run ending at w0
 * takes them when its rule gives them x (closing its row if it must), or
 * with allow_new a run of their own begins there (a strand's row); b
 * starts after them.  A kernel's iterations that access one row each, in
 * turn, then leave their rows as one rule, and the next kernel's sweep
 * over them moves one run's end: `conn(i, j)`'s shadow is that of a few
 * runs, not a half-cell per element.  1 if done (their exceptions, which
 * the caller gives, are dropped), 0 if not (nothing changed).  One thread
 * only. */
static int rows_absorb(const kkr_thread *t, uint32_t di, kkr_run *b,
                       uintptr_t w0, uintptr_t w1, const kkr_exc *x,
                       uint64_t cur, int allow_new, uint32_t row_phase) {
  kkr_runs *rs = kkr_run_dir[di];
  uint64_t y;
  if (!field_uniform(x, 0, &y) || !field_uniform(x, 1, &y) ||
      b->w.per > 1 || b->r.per > 1)
    return 0;
  kkr_run *a = NULL;
  for (uint32_t i = 0; i < rs->n; i++)
    if (rs->run[i].hi == w0 && &rs->run[i] != b)
      a = &rs->run[i];
  kkr_run n;
  int joined = 0, closed = 0;
  if (a) {
    /* (a as it would be, in place: the common case copies nothing.) */
    a->hi = w1;
    joined = rows_match(a, w0, w1, x);
    a->hi = w0;
    if (!joined && a->row_lo) {
      n = *a;
      rows_close(&n);
      n.hi = w1;
      joined = closed = rows_match(&n, w0, w1, x);
    }
  }
  if (!joined) {
    if (!allow_new || rs->n >= KKR_RUNS_MAX)
      return 0;
    /* (A run of its own: the rule of the chunk before, or one made from
     * the words.) */
    if ((a || !rows_carry(di, w0, w1, x, &n)) &&
        !rows_new(t, b, w0, w1, x, cur, a != NULL, row_phase, &n))
      return 0;
  }
  /* b starts after the words, or goes. */
  uint32_t bi = (uint32_t)(b - rs->run);
  if (joined) {
    if (closed)
      *a = n;
    a->hi = w1;
  }
  if (w1 == b->hi) {
    if (joined)
      kkr_runs_remove(di, bi);
    else
      *b = n; /* (the words were all that was left of b) */
    return 1;
  }
  run_front_to(b, w1);
  if (joined) {
    rows_cursor_set(rs, w1, a, b);
    return 1;
  }
  kkr_run *r = kkr_runs_add(di, w0, w1);
  *r = n; /* (a slot was free: checked above) */
  rows_cursor_set(rs, w1, r, b);
  return 1;
}

/* Whether closing the open rules of run r (rows_close) may make it give
 * the records x to the word at its end: x holds another strand's record
 * where a rule is open (the next strand's row begins). */
static int rows_may_close(const kkr_run *r, const kkr_exc *x) {
  const kkr_runrec *f[2] = {&r->w, &r->r};
  const uint64_t y[2] = {x->h[0].w, x->h[0].r};
  for (int i = 0; i < 2; i++)
    if (f[i]->rec && f[i]->group == KKR_RUN_GROUP_OPEN &&
        KKR_REC_STRAND(y[i]) != f[i]->base % KKR_RUN_STRANDS + 2)
      return 1;
  return 0;
}

/* Whether run r, which ends at word w, takes w with the records x, whose
 * halves are two strands' (rows of an odd number of 4-byte elements: one
 * strand's row ends in the first half, the next one's begins in the
 * second): as its rule gives them, or once its open row is closed there
 * (the row from r's start, through the first half of w, one strand's).
 * r then ends after w. */
static int rows_join_split(kkr_run *r, uintptr_t w, const kkr_exc *x,
                           uint32_t acc) {
  /* (Both halves of the kind of access made, by two strands of one kernel
   * that follow one another: else no rule of rows gives the word.) */
  uint64_t y0 = acc & ACC_WRITE ? x->h[0].w : x->h[0].r;
  uint64_t y1 = acc & ACC_WRITE ? x->h[1].w : x->h[1].r;
  if (!y0 || !y1 || ((y0 ^ y1) & KKR_REC_NODE_BITS) ||
      KKR_REC_STRAND(y0) + 1 != KKR_REC_STRAND(y1))
    return 0;
  if (rows_match(r, w, w + KKR_GRAN, x)) {
    r->hi = w + KKR_GRAN;
    return 1;
  }
  if (!r->row_lo)
    return 0;
  kkr_run n = *r;
  kkr_runrec *f[2] = {&n.w, &n.r};
  int open = 0;
  for (int i = 0; i < 2; i++)
    if (f[i]->rec && f[i]->group == KKR_RUN_GROUP_OPEN) {
      /* (One strand's row of whole words so far: the same row of 4-byte
       * elements.) */
      if (f[i]->step == 1) {
        f[i]->step = 2;
        f[i]->phase *= 2;
      }
      if (f[i]->step != 2)
        return 0;
      f[i]->group = (uint32_t)(((w - n.lo) >> 2) + 1) + f[i]->phase;
      open = 1;
    }
  if (!open || !rows_match(&n, w, w + KKR_GRAN, x))
    return 0;
  *r = n;
  r->hi = w + KKR_GRAN;
  return 1;
}

/* The word w at the chunk's row front was joined to the run before it
 * (which ends after w now): run b after it starts after w, w's exception
 * e (if any) goes, and the front moves on.  1. */
static int front_joined(kkr_runs *rs, kkr_run *b, uintptr_t w, kkr_exc *e) {
  run_front_to(b, w + KKR_GRAN);
  if (e)
    kkr_exc_drop(rs, e);
  rs->front = w + KKR_GRAN;
  return 1;
}

/* run_single's access at the chunk's row front (rows_cursor_set), where the
 * strand that wrote the words before it mostly goes on with its row: the
 * run before the front takes the word when its rule gives it what the
 * access leaves, as rows_absorb would, and a word the access leaves
 * half-written (an int, then the next) is the word's exception, as
 * run_single makes it.  1 or 0 as run_single returns, -1 when the front
 * is not as the cursor says or the access is another case (a row's end:
 * run_single decides it the general way).  One thread only. */
static int rows_front(const kkr_thread *t, uint32_t di, kkr_runs *rs,
                      uintptr_t a, uint32_t size, uint32_t acc, uint64_t cur,
                      uint64_t site) {
  uintptr_t w = rs->front;
  uint32_t ai = rs->front_a, bi = rs->front_b;
  if (ai >= rs->n || bi >= rs->n)
    return -1;
  kkr_run *ra = &rs->run[ai], *rb = &rs->run[bi];
  if (ra->hi != w || rb->lo != w || rb->hi <= w + KKR_GRAN ||
      ra->w.per > 1 || ra->r.per > 1 || rb->w.per > 1 || rb->r.per > 1)
    return -1;
  uint32_t k = KKR_CELL_INDEX(w);
  kkr_exc *e, x;
  int how = run_word_decide(t, rs, rb, w, a, size, acc, cur, site, &e, &x);
  if (how < 2)
    return how;
  uint64_t y;
  /* (A word whose write is of other bytes than the rule's -- half of it
   * written, the rule's of whole words -- is not the rule's, nor would it
   * be if the row closed: no need to work the rule's strand out.) */
  if (field_uniform(&x, 0, &y) && field_uniform(&x, 1, &y) &&
      (x.halves || (x.h[0].w & 0xFF0) == (ra->w.rec & 0xFF0))) {
    if (rows_match(ra, w, w + KKR_GRAN, &x)) {
      ra->hi = w + KKR_GRAN;
      return front_joined(rs, rb, w, e);
    }
    if (ra->row_lo && rows_may_close(ra, &x))
      return -1; /* (the row may end here: rows_absorb closes it) */
  } else if (x.halves && rows_join_split(ra, w, &x, acc)) {
    return front_joined(rs, rb, w, e);
  }
  /* The word stays as the access leaves it (half of it is the strand's:
   * the other half comes next), its exception. */
  return exc_keep(di, k, e, &x);
}

/* Whether the word w0, whose records are e0, holds the end of a strand's
 * row in its first half and the start of the next strand's in its second,
 * whose whole next word now holds x (that strand's): if so w0 goes to the
 * run before it (the first strand's open row, or a run of its own with
 * the rules it had), where e0 stays its exception, and the run after it
 * starts after w0.  Rows of an odd number of 4-byte elements, and a chunk
 * whose first word holds the end of a row that began in the chunk
 * before. */
static int rows_split_start(uint32_t di, kkr_runs *rs, uintptr_t w0,
                            const kkr_exc *e0, const kkr_exc *x) {
  uint64_t y;
  if (!e0->halves || !x->halves || !field_uniform(x, 0, &y) ||
      !(x->h[0].w & KKR_R_W) || x->h[0].r || x->h[1].r || e0->h[0].r ||
      e0->h[1].r || e0->h[1].w != x->h[1].w ||
      KKR_REC_STRAND(e0->h[0].w) + 1 != KKR_REC_STRAND(x->h[0].w) ||
      ((e0->h[0].w ^ x->h[0].w) & (KKR_REC_NODE_BITS | 0xF)) ||
      (e0->h[0].w & 0xFF0) != 0x0F0)
    return 0;
  kkr_run *a = NULL, *b = NULL;
  for (uint32_t i = 0; i < rs->n; i++) {
    if (rs->run[i].hi == w0)
      a = &rs->run[i];
    if (rs->run[i].lo == w0)
      b = &rs->run[i];
  }
  if (!b || b->hi <= w0 + 2 * KKR_GRAN)
    return 0;
  if (a && a->w.group == KKR_RUN_GROUP_OPEN && a->w.step &&
      KKR_REC_STRAND(e0->h[0].w) == a->w.base % KKR_RUN_STRANDS + 2) {
    a->hi = w0 + KKR_GRAN;
    run_front_to(b, w0 + KKR_GRAN);
    return 1;
  }
  /* (A run of its own for w0: one for it, one for the row after it.) */
  if (rs->n + 2 > KKR_RUNS_MAX)
    return 0;
  kkr_run was = *b;
  run_front_to(b, w0 + KKR_GRAN);
  kkr_run *r = kkr_runs_add(di, w0, w0 + KKR_GRAN);
  if (!r)
    return 0; /* (not reached: a slot was free) */
  *r = was;
  r->hi = w0 + KKR_GRAN;
  r->row_lo = 0;
  return 1;
}

/* Views below this size get no rows (rows_fresh): their cells cost
 * little.  Heap blocks below it are not kept (kkr_heap_find). */
#define ROWS_VIEW_MIN KKR_HEAP_ARRAY_MIN
/* Exceptions that a chunk's run of nothing (rows_fresh) may gather before
 * any row begins at its front (run_single). */
#define ROWS_TRIES 32u

/* Whether the running strand's rows may begin runs: a kernel's strand,
 * one thread running instrumented code, none created. */
KKR_INLINE int rows_may_begin(const kkr_thread *t) {
  return runs_one_thread(t) && t->cur_is_item && KKR_CUR_STRAND(t) >= 2;
}

/* The same for the host's single accesses, one word after the other (a
 * host loop filling an array that calls a function per element, which
 * the pass cannot check before the loop): one flat rule. */
KKR_INLINE int host_rows_may_begin(const kkr_thread *t) {
  return runs_one_thread(t) && !t->cur_is_item;
}

/* The whole words [*lo, *hi) of the part of a View's data (or of a large
 * heap block) in the chunk of a, when that View is ROWS_VIEW_MIN or more
 * (else *lo and *hi stay as they are); whether a is the part's first word
 * (or, with anywhere, any of its words) and the part holds two words at
 * least. */
static int array_part(uintptr_t a, uintptr_t *lo, uintptr_t *hi,
                      int anywhere) {
  kkr_view_alloc v;
  if (!kkr_array_find(a, &v) || v.hi - v.lo < ROWS_VIEW_MIN)
    return 0;
  uintptr_t clo = a & ~(((uintptr_t)1 << KKR_CHUNK_SHIFT) - 1);
  uintptr_t l = v.lo > clo ? v.lo : clo;
  uintptr_t h = v.hi < KKR_CHUNK_END(a) ? v.hi : KKR_CHUNK_END(a);
  l = (l + KKR_GRAN - 1) & ~(uintptr_t)(KKR_GRAN - 1);
  h &= ~(uintptr_t)(KKR_GRAN - 1);
  *lo = l;
  *hi = h;
  return (anywhere ? l <= a && a < h
                   : (a & ~(uintptr_t)(KKR_GRAN - 1)) == l) &&
         h >= l + 2 * KKR_GRAN;
}

/* A chunk that nothing touched yet, first accessed by a kernel strand at
 * the start of a View's part of it, or of a large heap block's (a kernel's
 * first iteration filling its row of `conn`, or of a malloc'ed matrix): a
 * run of nothing over that part, at whose front the strands' rows can
 * begin (rows_absorb).  The same for the host's single accesses there
 * (ROWS_HOST), whose words the run before the front takes one after the
 * other as one flat rule; and for a strand's column anywhere in the part
 * (ROWS_ANYWHERE: cols_range).  1 if made.  One thread only. */
enum { ROWS_FRONT, ROWS_ANYWHERE, ROWS_HOST };
static int rows_fresh(const kkr_thread *t, uintptr_t a, int how) {
  uint32_t di = KKR_DIR_INDEX(a);
  if (kkr_dir[di] || (kkr_runs_made && kkr_run_dir[di]) ||
      kkr_half_is(di) ||
      (how == ROWS_FRONT && !rows_may_begin(t)) ||
      (how == ROWS_HOST && !host_rows_may_begin(t)))
    return 0;
  uintptr_t lo, hi;
  if (!array_part(a, &lo, &hi, how == ROWS_ANYWHERE))
    return 0;
  kkr_run *r = kkr_runs_add(di, lo, hi);
  if (!r)
    return 0;
  r->w.per = r->r.per = 1;
  return 1;
}

/* Settled rows: a chunk in cells whose records in a View's (or a large
 * heap block's) part of it are all settled (kkr_nodes_settled: ordered
 * before everything that any thread can still do) or none, first reached
 * there by a kernel strand's row at the start of that part (or by its
 * column, anywhere: cols_range).  A settled record can never race and
 * never changes a decision (any access replaces it, as it would nothing),
 * so the part is cleared and becomes a run of nothing, at whose front the
 * strands' rows begin as in a fresh chunk (rows_fresh): a matrix that an
 * MDRange kernel filled, read row by row after a fence.  A part is looked
 * at once for each settled bound (a chunk remembers its last).  One
 * thread only. */
static struct {
  uintptr_t lo, hi; /* per chunk: the part of its last look */
  uint32_t bound;   /* and the bound then */
} *settled_tried;

static KKR_NOINLINE int rows_settled(const kkr_thread *t, uintptr_t a,
                                     int anywhere) {
  uint32_t di = KKR_DIR_INDEX(a);
  uint32_t bound = __atomic_load_n(&kkr_nodes_settled, __ATOMIC_RELAXED);
  kkr_cell *c = kkr_dir[di];
  uint64_t *ww = c ? NULL : kkr_words_chunk(di);
  /* (A column's check may be the host's.) */
  if ((!c && !ww) || !(anywhere ? runs_one_thread(t) : rows_may_begin(t)))
    return 0;
  if (!settled_tried)
    settled_tried = kkr_mmap_noreserve(sizeof *settled_tried << KKR_DIR_BITS,
                                       "settled rows");
  if (settled_tried[di].bound == bound && a >= settled_tried[di].lo &&
      a < settled_tried[di].hi)
    return 0;
  /* (Outside any View or large heap block: the whole chunk.) */
  uintptr_t lo = a & ~(((uintptr_t)1 << KKR_CHUNK_SHIFT) - 1);
  uintptr_t hi = KKR_CHUNK_END(a);
  int part = array_part(a, &lo, &hi, anywhere);
  settled_tried[di].bound = bound;
  settled_tried[di].lo = lo;
  settled_tried[di].hi = hi;
  if (!part)
    return 0;
  if (ww) {
    /* (Compact words: the part cleared; a whole chunk is then fresh.) */
    const uint64_t *we = ww + KKR_CELL_INDEX(hi - 1) + 1;
    for (const uint64_t *x = ww + KKR_CELL_INDEX(lo); x < we; x++)
      if (*x && !rec_settled(*x))
        return 0;
    kkr_shadow_clear(lo, hi - lo);
    return !kkr_half_is(di) &&
           rows_fresh(t, a, anywhere ? ROWS_ANYWHERE : ROWS_FRONT);
  }
  const kkr_cell *e = c + KKR_CELL_INDEX(hi - 1) + 1;
  for (const kkr_cell *x = c + KKR_CELL_INDEX(lo); x < e; x++) {
    uint64_t w = x->w, r = x->r;
    if ((w && (w == KKR_W_SPLIT || !rec_settled(w))) ||
        (r && ((r & KKR_R_X) || !rec_settled(r))))
      return 0;
  }
  kkr_shadow_clear(lo, hi - lo);
  kkr_runs_try_convert(di, lo, hi);
  return !kkr_dir[di] && kkr_run_dir[di];
}

/* Whether the chunk of a has runs, or can have rows from now on. */
KKR_INLINE int rows_chunk(const kkr_thread *t, uintptr_t a) {
  uint32_t di = KKR_DIR_INDEX(a);
  if (kkr_dir[di] || kkr_words_chunk(di))
    return KKR_UNLIKELY(kkr_nodes_settled != 0) && rows_settled(t, a, 0);
  return (kkr_runs_made && kkr_run_dir[di]) || rows_fresh(t, a, ROWS_FRONT);
}

/* Whether runs rs hold an exception among the words [lo, hi). */
static int runs_exc_in(const kkr_runs *rs, uintptr_t lo, uintptr_t hi) {
  if (rs->exc && rs->exc->n)
    for (uintptr_t w = lo; w < hi; w += KKR_GRAN)
      if (kkr_exc_find(rs, KKR_CELL_INDEX(w)))
        return 1;
  return 0;
}

/* The exceptions of the words [w0, w1) of chunk di's runs rs go. */
static void rows_drop_exc(kkr_runs *rs, uintptr_t w0, uintptr_t w1) {
  if (!rs->exc || !rs->exc->n)
    return;
  for (uintptr_t w = w0; w < w1; w += KKR_GRAN) {
    kkr_exc *e = kkr_exc_find(rs, KKR_CELL_INDEX(w));
    if (e)
      kkr_exc_drop(rs, e);
  }
}

/* The rules of run r whose records are settled (ordered before everything
 * that can still run: kkr_nodes_settled) hold nothing from now on, as good
 * as what they held: a fill's strands, a fence ago, give way to the rows
 * of the kernels that read it. */
static void run_settle(kkr_run *r) {
  if (r->w.rec && rec_settled(r->w.rec))
    kkr_runrec_set(&r->w, 0, 0, 0);
  if (r->r.rec && rec_settled(r->r.rec))
    kkr_runrec_set(&r->r, 0, 0, 0);
}

/* An access by the current strand of the whole words [lo, hi) (a row: 16
 * bytes or more, in one chunk of runs) at the front of a run, decided once
 * for all of them and left to rows_absorb: 1 if done. */
static int rows_range(kkr_thread *t, uintptr_t lo, uintptr_t hi, uint32_t acc,
                      uint64_t site) {
  uint32_t di = KKR_DIR_INDEX(lo);
  if (((lo | hi) & (KKR_GRAN - 1)) || hi - lo < 2 * KKR_GRAN ||
      di != KKR_DIR_INDEX(hi - 1) || !runs_may(t, lo, hi) ||
      __atomic_load_n(&kkr_spawned, __ATOMIC_RELAXED) || !t->cur_is_item ||
      kkr_dir[di] || !kkr_run_dir[di])
    return 0;
  kkr_runs *rs = kkr_run_dir[di];
  kkr_run *b = (kkr_run *)run_at(rs, lo);
  if (b && KKR_UNLIKELY(kkr_nodes_settled != 0))
    run_settle(b);
  if (!b || b->lo != lo || hi > b->hi || b->w.per > 1 || b->r.per > 1 ||
      runs_exc_in(rs, lo, hi))
    return 0;
  kkr_exc was = word_of_run(b, NULL, lo), last = word_of_run(b, NULL, hi - 8);
  if (!exc_equal(&was, &last))
    return 0;
  kkr_exc x = was;
  uint64_t cur = t->abi.cur_rec;
  decide_ctx d = decide_ctx_of(t);
  if ((acc & ACC_RMW) && !decide_exc(d, &x, lo, KKR_GRAN, 0, cur, site))
    return 0;
  if (!decide_exc(d, &x, lo, KKR_GRAN, acc & ACC_WRITE, cur, site))
    return 0;
  if (exc_same(&x, &was))
    return 1;
  return rows_absorb(t, di, b, lo, hi, &x, cur, 1, 0);
}

/* ---- Team rows (kkr_shadow.h, KKR_RUN_TEAM) ------------------------------ */

/* Nested loops shorter than this (in words) are left to the cells. */
#define TEAM_ROWS_MIN 32

/* Whether rules x and y give every word the same record. */
static int rule_equal(const kkr_runrec *x, const kkr_runrec *y) {
  if (x->rec != y->rec)
    return 0;
  if (!x->rec)
    return 1;
  if (x->step != y->step || x->per != y->per || x->group != y->group ||
      x->phase != y->phase || x->team != y->team || x->cols != y->cols ||
      x->part != y->part)
    return 0;
  if (x->per > 1 && (x->site_bits != y->site_bits ||
                     memcmp(x->site, y->site, x->per * sizeof x->site[0])))
    return 0;
  if (!x->step)
    return 1;
  return x->step == KKR_RUN_TEAM
             ? x->base % 1022u == y->base % 1022u
             : x->base % KKR_RUN_STRANDS == y->base % KKR_RUN_STRANDS;
}

/* Rule x of a run that begins at xlo, as it reads from at on. */
KKR_INLINE kkr_runrec rule_at(const kkr_runrec *x, uintptr_t xlo,
                              uintptr_t at) {
  kkr_runrec y = *x;
  rule_rebase(&y, (at - xlo) >> KKR_GRAN_SHIFT);
  return y;
}

/* Whether the records of rule x (of a run from xlo) on the words from at
 * on are ordered before the team rule y's there: ordered before the loop
 * (run_ordered), or the same strands' (this kernel's team rows, of
 * another site or kind of access: in program order). */
static int team_rule_ordered(const kkr_thread *t, const kkr_runrec *x,
                             uintptr_t xlo, const kkr_runrec *y,
                             uintptr_t at, const run_acc *in) {
  if (run_ordered(t, x, in))
    return 1;
  if (x->step != KKR_RUN_TEAM)
    return 0;
  const uint64_t who = ~(SITE_BITS | 0xFFF);
  kkr_runrec a = rule_at(x, xlo, at);
  return !((a.rec ^ y->rec) & who) && a.group == y->group &&
         a.phase == y->phase && a.team == y->team &&
         a.base % 1022u == y->base % 1022u;
}

/* A nested loop of the running team's threads (LOOP_TEAM) over the whole
 * words [lo, hi) of one chunk, in its runs: word j by the iteration
 * i0 + col + j, of a row of g words from the iteration i0 (col: the row's
 * words before lo, in the chunk before).  When what the words held is
 * ordered before the loop, the loop is decided once: a write replaces
 * their records, a read their reads, with a rule of team rows.  The run
 * that ends at lo takes the words when they go on with its rows (the next
 * team's row, in the same phase, of the same site and length), else they
 * are a run of their own: a kernel whose team j reads its row j of a
 * matrix (`A(j, i)` for i < M) leaves one rule for all of them, and the
 * next kernel's sweep moves one run's end.  1 if done, 0 if not (nothing
 * changed).  One thread only. */
static int team_rows_range(kkr_thread *t, uintptr_t lo, uintptr_t hi,
                           uint32_t acc, uint64_t site, uint64_t i0,
                           uint64_t g, uint64_t col) {
  uint32_t di = KKR_DIR_INDEX(lo);
  if (!runs_may(t, lo, hi) || !t->cur_is_item || kkr_dir[di] ||
      kkr_half_is(di) || !kkr_run_dir[di] ||
      __atomic_load_n(&kkr_spawned, __ATOMIC_RELAXED))
    return 0;
  kkr_runs *rs = kkr_run_dir[di];
  kkr_run *b = (kkr_run *)run_at(rs, lo);
  if (!b || hi > b->hi || runs_exc_in(rs, lo, hi))
    return 0;
  const int wr = (acc & ACC_WRITE) != 0;
  const run_acc in = {t->abi.item_rec | site | 0xFF0 | (wr ? KKR_R_W : 0), 0,
                      KKR_RUN_TEAM};
  kkr_runrec nt;
  kkr_runrec_set(&nt, in.rec, KKR_TEAM_OF(t->team_base), KKR_RUN_TEAM);
  nt.group = (uint32_t)g;
  nt.phase = (uint32_t)col;
  nt.team = (t->team_phase & 7u) << 8 | (uint32_t)(i0 % 126);
  if (!team_rule_ordered(t, &b->w, b->lo, &nt, lo, &in) ||
      !team_rule_ordered(t, &b->r, b->lo, &nt, lo, &in))
    return 0;
  /* The words' rules after the loop. */
  kkr_run n;
  memset(&n, 0, sizeof n);
  n.lo = lo;
  n.hi = hi;
  if (wr) {
    n.w = nt;
    kkr_runrec_set(&n.r, 0, 0, 0);
  } else {
    n.w = rule_at(&b->w, b->lo, lo);
    n.r = nt;
  }
  kkr_runrec bw = rule_at(&b->w, b->lo, lo), br = rule_at(&b->r, b->lo, lo);
  if (rule_equal(&bw, &n.w) && rule_equal(&br, &n.r))
    return 1; /* (the same strands' same access again) */
  kkr_run *p = NULL;
  for (uint32_t i = 0; i < rs->n; i++)
    if (rs->run[i].hi == lo && &rs->run[i] != b)
      p = &rs->run[i];
  if (p) {
    kkr_runrec pw = rule_at(&p->w, p->lo, lo), pr = rule_at(&p->r, p->lo, lo);
    if (rule_equal(&pw, &n.w) && rule_equal(&pr, &n.r)) {
      /* (The next team's row: the run before takes it.) */
      p->hi = hi;
      rs->front = 0;
      if (hi == b->hi)
        kkr_runs_remove(di, (uint32_t)(b - rs->run));
      else
        run_front_to(b, hi);
      return 1;
    }
  }
  /* A run of its own, between what is left of b before and after it. */
  uint32_t need = (b->lo < lo) + (hi < b->hi);
  if (rs->n + need > KKR_RUNS_MAX)
    return 0;
  rs->front = 0;
  kkr_run after = *b;
  if (hi < b->hi)
    run_front_to(&after, hi);
  if (b->lo == lo) {
    *b = n;
  } else {
    b->hi = lo;
    *kkr_runs_add(di, lo, hi) = n; /* (slots were free: checked above) */
  }
  if (hi < after.hi)
    *kkr_runs_add(di, hi, after.hi) = after;
  return 1;
}

/* ---- Columns (kkr_shadow.h, KKR_RUN_COLS) --------------------------------- */

/* Column loops shorter than this (in elements) are left to the cells. */
#define COLS_MIN 16

/* Exceptions, or words, at most that a column's check looks through. */
#define COLS_EXC_MAX 64

/* Whether run b of rs may hold an exception among the n words from e on,
 * a word every p words (a column): 1 when it has more than COLS_EXC_MAX
 * and the column more than COLS_EXC_MAX words. */
static int cols_exc(const kkr_runs *rs, const kkr_run *b, uintptr_t e,
                    uint64_t p, uint64_t n) {
  if (!rs->exc || !rs->exc->n)
    return 0;
  if (rs->exc->n > COLS_EXC_MAX) {
    if (n > COLS_EXC_MAX)
      return 1;
    for (uint64_t k = 0; k < n; k++)
      if (kkr_exc_find(rs, KKR_CELL_INDEX(e + (k * p << KKR_GRAN_SHIFT))))
        return 1;
    return 0;
  }
  for (uint32_t i = 0; i < rs->exc->cap; i++) {
    const kkr_exc *x = &rs->exc->e[i];
    uintptr_t w;
    if (kkr_exc_live(x) && (w = kkr_exc_word(x, b->lo)) >= e && w < b->hi &&
        ((w - e) >> KKR_GRAN_SHIFT) % p == 0)
      return 1;
  }
  return 0;
}

/* The run of nothing over the part of a View (or of a large heap block)
 * holding e, in chunk di of runs, where no run covers it and no parked
 * cell says anything: made, or NULL. */
static kkr_run *cols_part_run(uint32_t di, uintptr_t e) {
  kkr_runs *rs = kkr_run_dir[di];
  uintptr_t lo, hi;
  if (rs->cells || rs->n >= KKR_RUNS_MAX || !array_part(e, &lo, &hi, 1))
    return NULL;
  for (uint32_t i = 0; i < rs->n; i++)
    if (rs->run[i].lo < hi && lo < rs->run[i].hi)
      return NULL;
  kkr_run *r = kkr_runs_add(di, lo, hi);
  if (r)
    r->w.per = r->r.per = 1;
  return r;
}

/* A loop of the current strand over a word every stride bytes (a chunk at
 * most): the row of a LayoutLeft matrix that a kernel's iteration j reads
 * or writes (`A(j, i)` for i < M), or that a host loop over j fills, or
 * one of the u checks of that loop unrolled u times (each of a word every
 * u Q words).  Its words are a column of the check's period in the
 * matrix's runs (kkr_shadow.h, KKR_RUN_COLS), chunk by chunk.  Where the
 * check reaches every word of its column in the run, and what the words
 * held is ordered before it (a read: the writes), the accesses become a
 * rule of columns when the run holds no live record of their kind (none,
 * or settled ones: a fence ago; a write: no live read either); the rule's
 * next check (the same strand's next column of the period, which tells Q,
 * or the next strand's first) moves its front.  Returns how many elements
 * it decided, from the first: the rest go through the cells.  One thread
 * only. */
static uint64_t cols_range(kkr_thread *t, uintptr_t a, uint64_t stride,
                           uint64_t count, uint32_t acc, uint64_t site) {
  const uint64_t p = stride >> KKR_GRAN_SHIFT;
  const uint32_t s = KKR_CUR_STRAND(t);
  const int flat = !t->cur_is_item, wr = (acc & ACC_WRITE) != 0;
  if ((!flat && s < 2) ||
      !runs_may(t, a, a + (count - 1) * stride + KKR_GRAN) ||
      __atomic_load_n(&kkr_spawned, __ATOMIC_RELAXED))
    return 0;
  const uint64_t rec =
      (flat ? t->abi.cur_rec : t->abi.cur_rec & ~KKR_REC_STRAND_BITS) | site |
      0xFF0 | (wr ? KKR_R_W : 0);
  const uint64_t sitemask = flat ? HOST_SITE_BITS : SITE_BITS;
  const run_acc in = {t->abi.cur_rec | site | 0xFF0, 0, 0};
  uint64_t done = 0;
  while (done < count) {
    uintptr_t e = a + done * stride;
    uint32_t di = KKR_DIR_INDEX(e);
    uint64_t n = (KKR_CHUNK_END(e) - e + stride - 1) / stride;
    if (n > count - done)
      n = count - done;
    uintptr_t last = e + (n - 1) * stride;
    if (kkr_dir[di] || kkr_words_chunk(di)
            ? !(KKR_UNLIKELY(kkr_nodes_settled != 0) &&
                rows_settled(t, e, 1))
                    : !(kkr_runs_made && kkr_run_dir[di]) &&
                          !rows_fresh(t, e, ROWS_ANYWHERE))
      break;
    if (kkr_dir[di] || kkr_half_is(di) || !kkr_run_dir[di])
      break;
    kkr_runs *rs = kkr_run_dir[di];
    kkr_run *b = (kkr_run *)run_at(rs, e);
    if (!b)
      b = cols_part_run(di, e);
    /* (All of the column's words in the run: the first within its first
     * period, nothing of the column after the last; no exception among
     * them.) */
    if (!b || last >= b->hi || e - b->lo >= stride || b->hi - last > stride ||
        cols_exc(rs, b, e, p, n))
      break;
    /* (A read: the writes ordered before; a write: no live read.) */
    if (wr ? b->r.rec && !rec_settled(b->r.rec) : !run_ordered(t, &b->w, &in))
      break;
    kkr_runrec *r = wr ? &b->w : &b->r;
    uint64_t k0 = (e - b->lo) >> KKR_GRAN_SHIFT;
    if (!((r->rec ^ rec) & ~sitemask) && r->step == KKR_RUN_COLS &&
        r->group == p) {
      uint64_t c = (k0 + r->phase) % p;
      uint64_t q = c % r->cols, cn = c / r->cols;
      int have = q < r->team || (q == r->team && cn < r->part);
#define COLS_STRAND_OK(q) \
  (flat || (r->base + (q)) % KKR_RUN_STRANDS + 2 == s)
      if (have) {
        /* (The strand's own words again, at any site for a read: the same
         * strand's read of bytes it read changes nothing; a write of
         * another site would.) */
        if (!COLS_STRAND_OK(q) || (wr && r->rec != rec))
          break;
        done += n;
        continue;
      }
      if (r->rec != rec)
        break; /* (the rule has one site) */
      if (r->team == 0 && r->part == 1 && r->cols == p) {
        /* After the first check of the first strand: the same strand's
         * next check tells Q (the loop is unrolled p / c times); the next
         * strand's first, that the loop is one check.  (One record for
         * all: the column after the first is the next row.) */
        uint32_t first = (uint32_t)(r->base % KKR_RUN_STRANDS + 2);
        if (flat ? c == 1 : s == first + 1) {
          r->team = 1;
          r->part = 0;
        } else if ((flat || s == first) && c && p % c == 0) {
          r->cols = (uint32_t)c;
        }
        q = c % r->cols;
        cn = c / r->cols;
      }
      if (!COLS_STRAND_OK(q) || q != r->team || cn != r->part)
        break;
#undef COLS_STRAND_OK
      if (++r->part == p / r->cols) {
        r->team++;
        r->part = 0;
      }
    } else if (!r->rec || rec_settled(r->rec)) {
      kkr_runrec_set(r, rec, flat ? KKR_RUN_COLS_FLAT : s - 2,
                     KKR_RUN_COLS);
      r->group = r->cols = (uint32_t)p;
      r->phase = (uint32_t)((p - k0 % p) % p);
      r->part = 1;
      if (wr)
        kkr_runrec_set(&b->r, 0, 0, 0); /* (settled reads, if any) */
    } else {
      break;
    }
    done += n;
  }
  return done;
}

/* Words at most that rows_fit looks at. */
#define ROWS_FIT_WORDS 16u

/* The record of field f (0: the write, 1: the reads) of half h of x. */
KKR_INLINE uint64_t exc_field(const kkr_exc *x, int f, uint32_t h) {
  return f ? x->h[h].r : x->h[h].w;
}

/* Whether record y, of field f, is an access of the kernel of cur: an
 * element's write (f 0), or its read by one strand (f 1). */
KKR_INLINE int rec_mine(uint64_t y, int f, uint64_t cur) {
  return y && !((y ^ cur) & KKR_REC_NODE_BITS) &&
         !(y & (KKR_R_X | KKR_R_M)) && (!(y & KKR_R_W)) == f;
}

/* Whether field f of the word records x holds an access of the kernel of
 * cur (an element's write, or its read by one strand) in its last half,
 * and of which strand (*strand). */
KKR_INLINE int exc_last_mine(const kkr_exc *x, int f, uint64_t cur,
                             uint32_t *strand) {
  uint64_t y = exc_field(x, f, x->halves);
  if (!rec_mine(y, f, cur))
    return 0;
  *strand = KKR_REC_STRAND(y);
  return 1;
}

/* The words [s, w] of run b of chunk di (w holding x now), each an
 * exception whose field f (the writes, or the reads) one kernel's strands
 * made, when that field follows one rule of rows: element e (an int, or a
 * word) of the strand that made the first element plus (e + phase) /
 * group, the group being the length of the first whole row seen (the
 * second strand's, which the third's follows), with one site; and the
 * other field b's rule.  Rows too short for rows_absorb, which begins a
 * row at two whole words of one strand (one, two or three ints, a double
 * each, and a chunk that begins in the middle of such rows), and rows read
 * or rewritten in the middle of a run (s is where the exceptions begin,
 * ROWS_FIT_WORDS before w at most).  If so they become a run of that rule,
 * between what is left of b before and after them, and the chunk's row
 * front is after w: 1.  One thread only. */
static int rows_fit(uint32_t di, kkr_runs *rs, kkr_run *b, uintptr_t w,
                    const kkr_exc *x, uint64_t cur, uint32_t acc) {
  const int f = acc & ACC_WRITE ? 0 : 1;
  if (b->w.per > 1 || b->r.per > 1 || rs->n + 2 > KKR_RUNS_MAX)
    return 0;
  kkr_exc ex[ROWS_FIT_WORDS];
  uint32_t nw = 0, st, halves = x->halves;
  uintptr_t s = w;
  ex[ROWS_FIT_WORDS - ++nw] = *x;
  while (nw < ROWS_FIT_WORDS && s > b->lo) {
    const kkr_exc *e = kkr_exc_find(rs, KKR_CELL_INDEX(s - KKR_GRAN));
    if (!e || !exc_last_mine(e, f, cur, &st))
      break;
    s -= KKR_GRAN;
    ex[ROWS_FIT_WORDS - ++nw] = *e;
    halves |= e->halves;
  }
  if (nw < 3)
    return 0;
  kkr_exc *wx = &ex[ROWS_FIT_WORDS - nw];
  /* (Words of 4-byte elements as their halves, those written whole too.) */
  if (halves)
    for (uint32_t k = 0; k < nw; k++)
      if (!wx[k].halves)
        exc_halves(&wx[k]);
  const uint32_t per = halves ? 2 : 1;
  uint32_t strand[2 * ROWS_FIT_WORDS];
  uint64_t rule = 0;
  for (uint32_t k = 0; k < nw; k++)
    for (uint32_t h = 0; h < per; h++) {
      uint64_t y = exc_field(&wx[k], f, h);
      uint64_t m = per == 2 ? (uint64_t)(h ? 0xF0 : 0x0F) << 4 : 0xFF0;
      /* (Accesses of this kernel, each of all of its element's bytes:
       * one record but for the strand and bytes.) */
      if (!rec_mine(y, f, cur) || (y & 0xFF0) != m ||
          KKR_REC_STRAND(y) < 2)
        return 0;
      uint64_t r = y & ~(KKR_REC_STRAND_BITS | 0xFF0);
      if (rule && r != rule)
        return 0;
      rule = r;
      strand[k * per + h] = KKR_REC_STRAND(y);
    }
  /* (The strands go up by one from a row to the next: the group is the
   * second strand's count, whole once the third strand's begins.) */
  uint32_t ne = nw * per, s0 = strand[0], c0 = 0, g = 0;
  for (uint32_t i = 0; i < ne; i++) {
    if (i && strand[i] != strand[i - 1] && strand[i] != strand[i - 1] + 1)
      return 0;
    if (strand[i] == s0)
      c0++;
    else if (strand[i] == s0 + 1)
      g++;
  }
  if (!g || c0 > g || strand[ne - 1] < s0 + 2)
    return 0;
  kkr_run n = *b;
  run_front_to(&n, s);
  n.hi = w + KKR_GRAN;
  kkr_runrec *fr = f ? &n.r : &n.w;
  kkr_runrec_set(fr, rule | 0xFF0, s0 - 2, per == 2 ? 2 : 1);
  fr->group = g;
  fr->phase = g - c0;
  if (!f)
    kkr_runrec_set(&n.r, 0, 0, 0); /* (a write leaves no read) */
  for (uint32_t k = 0; k < nw; k++) {
    kkr_exc a = word_of_run(&n, NULL, s + ((uintptr_t)k << KKR_GRAN_SHIFT));
    if (!exc_equal(&a, &wx[k]))
      return 0;
  }
  rows_drop_exc(rs, s, w + KKR_GRAN);
  /* (b goes, or keeps what is before s; what is after w is b's still.) */
  kkr_run after = *b;
  int tail = w + KKR_GRAN < b->hi;
  if (tail)
    run_front_to(&after, w + KKR_GRAN);
  kkr_run *nr, *ar = NULL;
  if (s == b->lo) {
    *b = n;
    nr = b;
  } else {
    b->hi = s;
    nr = kkr_runs_add(di, s, w + KKR_GRAN);
    *nr = n; /* (slots were free: checked above) */
  }
  if (tail) {
    ar = kkr_runs_add(di, w + KKR_GRAN, after.hi);
    *ar = after;
    rows_cursor_set(rs, w + KKR_GRAN, nr, ar);
  }
  return 1;
}

/* Single accesses of kernel strands decided in a chunk's runs (each goes
 * on with a row at its front, begins one, stays an exception or changes
 * nothing), an eighth of its words: then the chunk takes cells.  A kernel
 * whose strands access their rows one instruction at a time (`x(3 * i +
 * k)` for k < 3, unrolled, of an array of 3-vectors) has each access
 * decided in the rules of runs, in hundreds of instructions; in its cell,
 * inline, in a few dozen.  (A kernel that fills rows in loops, or a boundary's
 * accesses, never come near.) */
#define RUN_SINGLES_MAX (KKR_CELLS_PER_CHUNK / 8)

/* The host's write of (part of) word w at the row front of runs rs, or of
 * the word before it, when the run before the front is the host's flat
 * rule of such writes (this site, this segment, no reads) and the run
 * after it holds nothing there: the run before takes w whole, or already
 * holds it.  A write of half of w counts as one of all of it: the other
 * half holds nothing, and only this thread's later accesses, which its
 * own write is ordered before, or those of kernels it submits later,
 * which it is ordered before too, can meet the record (one thread runs
 * instrumented code, no device trace: host_rows_may_begin).  A host loop
 * filling an array through calls (`a(i) = rand()`) is then one run, not
 * a cell per word.  1 if done. */
static kkr_run *host_front_rule(const kkr_thread *t, kkr_runs *rs,
                                uint64_t rec) {
  uint32_t ai = rs->front_a, bi = rs->front_b;
  if (ai >= rs->n || bi >= rs->n)
    return NULL;
  kkr_run *ra = &rs->run[ai], *rb = &rs->run[bi];
  if (ra->hi != rs->front || rb->lo != rs->front || ra->w.rec != rec ||
      ra->r.rec || ra->w.step || ra->w.group || ra->w.per > 1 ||
      !host_rows_may_begin(t))
    return NULL;
  return ra;
}

/* The rule ra of the host's writes before the front of runs rs takes the
 * words [w0, w1) from the front on, which the run after the front holds
 * nothing of (and not all of that run): 1 if done. */
static int host_front_move(kkr_runs *rs, kkr_run *ra, uintptr_t w0,
                           uintptr_t w1) {
  kkr_run *rb = &rs->run[rs->front_b];
  if (w0 != rs->front || rb->w.rec || rb->r.rec || rb->hi <= w1)
    return 0;
  ra->hi = w1;
  rb->lo = w1; /* (a rule of nothing: no base to move) */
  rb->row_lo = 0;
  rs->front = w1;
  return 1;
}

static int host_front(const kkr_thread *t, kkr_runs *rs, uintptr_t w,
                      uint64_t rec) {
  kkr_run *ra = host_front_rule(t, rs, rec);
  if (!ra)
    return 0;
  if (rs->exc && rs->exc->n && kkr_exc_find(rs, KKR_CELL_INDEX(w)))
    return 0;
  if (w + KKR_GRAN == rs->front)
    return 1; /* (its own write again: no change) */
  return host_front_move(rs, ra, w, w + KKR_GRAN);
}

/* The chunk of word w, whose runs took RUN_SINGLES_MAX single accesses,
 * goes to cells (counted as an expansion, so that runs do not come back
 * to it for long): 0, and the access is decided there. */
static KKR_NOINLINE int run_singles_done(uintptr_t w) {
  kkr_shadow_chunk_slow(w);
  return 0;
}

/* A single access (or a few of a short loop) inside a run, decided inline
 * on the word's records without expanding the chunk: what it changes
 * becomes the word's exception.  0 if not decided (the chunk expands, its
 * exceptions included, and the cells decide).  One thread only. */
static int run_single(const kkr_thread *t, uintptr_t a, uint32_t size,
                      uint32_t acc, uint64_t cur, uint64_t site) {
  uint32_t di = KKR_DIR_INDEX(a);
  kkr_runs *rs = kkr_run_dir[di];
  uintptr_t w = a & ~(uintptr_t)(KKR_GRAN - 1);
  if (kkr_mt || __atomic_load_n(&kkr_spawned, __ATOMIC_RELAXED) || !rs ||
      (acc & (ACC_ATOMIC | ACC_FREE)) || ((a + size - 1) & ~(uintptr_t)7) != w)
    return 0;
  if (t->cur_is_item && KKR_UNLIKELY(++rs->singles > RUN_SINGLES_MAX))
    return run_singles_done(w);
  if (!t->cur_is_item && (acc & ACC_WRITE) && rs->front &&
      w - (rs->front - KKR_GRAN) <= KKR_GRAN &&
      host_front(t, rs, w, cur | site | 0xFF0 | KKR_R_W))
    return 1;
  int rows_on = t->cur_is_item || host_rows_may_begin(t);
  if (w == rs->front && rows_on) {
    int done = rows_front(t, di, rs, a, size, acc, cur, site);
    if (done >= 0)
      return done;
  }
  const kkr_run *r = run_at(rs, w);
  if (!r)
    return 0;
  uint32_t k = KKR_CELL_INDEX(w);
  kkr_exc *e, x;
  int how = run_word_decide(t, rs, r, w, a, size, acc, cur, site, &e, &x);
  if (how < 2)
    return how;
  /* A row that the strand goes on with at the front of the run: the run
   * before it takes the word; or the second word of one strand there
   * begins a row (one word alone stays an exception: a boundary
   * element). */
  if (rows_on && (w == r->lo || w == r->lo + KKR_GRAN)) {
    kkr_run *b = (kkr_run *)r;
    uintptr_t lo = b->lo;
    kkr_exc *e0 = w == lo ? NULL : kkr_exc_find(rs, KKR_CELL_INDEX(lo));
    if ((w == lo || (e0 && exc_equal(e0, &x))) &&
        rows_absorb(t, di, b, lo, w + KKR_GRAN, &x, cur, w != lo, 0)) {
      rows_drop_exc(rs, lo, w + KKR_GRAN);
      return 1;
    }
    /* The word before is the end of the last strand's row and the start
     * of this one's (rows of an odd number of 4-byte elements): it stays
     * an exception, in the run before it, and this strand's row goes on
     * from here, one element of it before. */
    if (w != lo && e0 && rows_split_start(di, rs, lo, e0, &x) &&
        rows_absorb(t, di, b, w, w + KKR_GRAN, &x, cur, 1, 1)) {
      rows_drop_exc(rs, w, w + KKR_GRAN);
      return 1;
    }
  }
  /* Short rows, or rows in the middle of a run (rows_fit), tried where a
   * strand's elements follow the last one's, from the word before. */
  uint32_t ps, cs;
  const kkr_exc *pe;
  if (t->cur_is_item && w >= r->lo + 2 * KKR_GRAN &&
      exc_last_mine(&x, !(acc & ACC_WRITE), cur, &cs) &&
      (pe = kkr_exc_find(rs, k - 1)) != NULL &&
      exc_last_mine(pe, !(acc & ACC_WRITE), cur, &ps) && cs - ps - 1 < 2 &&
      rows_fit(di, rs, (kkr_run *)r, w, &x, cur, acc))
    return 1;
  /* A run of nothing that rows_fresh made, whose front no row took after
   * a few accesses: the strands' elements are not rows (one word each, or
   * in no order), and cells decide them best, as before. */
  if (!e && rs->n == 1 && !r->w.rec && !r->r.rec && rs->exc &&
      rs->exc->n >= ROWS_TRIES)
    return 0;
  return exc_keep(di, k, e, &x); /* (0: the chunk expands) */
}

/* A host loop's writes of the elements [a, hi) (of size bytes, in one
 * chunk), checked before the loop (`values_h(i, j) = rand() % n` for j <
 * m): what its single writes would do there (run_single), the words after
 * the first at once when they go on at the row front of the host's fill
 * (host_front).  The bytes from a done; the rest are the loop's as usual.
 * One thread only. */
static uint64_t host_fill(kkr_thread *t, uintptr_t a, uintptr_t hi,
                          uint32_t size, uint64_t site) {
  uint32_t di = KKR_DIR_INDEX(a);
  if (kkr_dir[di] || kkr_half_is(di) ||
      (!(kkr_runs_made && kkr_run_dir[di]) && !rows_fresh(t, a, ROWS_HOST)))
    return 0;
  uint64_t cur = t->abi.cur_rec;
  if (!run_single(t, a, size, ACC_WRITE, cur, site))
    return 0;
  kkr_runs *rs = kkr_run_dir[di];
  uintptr_t w0 = (a & ~(uintptr_t)(KKR_GRAN - 1)) + KKR_GRAN;
  uintptr_t w1 = ((hi - 1) & ~(uintptr_t)(KKR_GRAN - 1)) + KKR_GRAN;
  if (w1 <= w0)
    return hi - a;
  kkr_run *ra = host_front_rule(t, rs, cur | site | 0xFF0 | KKR_R_W);
  if (ra && !runs_exc_in(rs, w0, w1) && host_front_move(rs, ra, w0, w1))
    return hi - a;
  for (uintptr_t e = a + size; e < hi; e += size)
    if (!run_single(t, e, size, ACC_WRITE, cur, site))
      return e - a;
  return hi - a;
}

/* The access 'in' of all of run r, on the exceptions of rs in it: 1 if the
 * inline decision decides each (then, when commit is set, the exceptions
 * change as it says: a write loop leaves its words following the new rule,
 * so their exceptions go), 0 if one is not. */
static int run_exc_update(const kkr_thread *t, kkr_runs *rs, const kkr_run *r,
                          const run_acc *in, int join, int commit) {
  kkr_excs *xs = rs->exc;
  uint64_t sitemask = t->cur_is_item ? SITE_BITS : HOST_SITE_BITS;
  uint64_t site = in->rec & sitemask;
  uint64_t cur0 = in->rec & ~(sitemask | 0xFFF);
  uint32_t acc = in->rec & KKR_R_W ? ACC_WRITE : 0;
  decide_ctx d = decide_ctx_of(t);
  /* The run as the access leaves it (a read: its reads change). */
  kkr_run after = *r;
  if (!acc)
    run_reads_after(&after.r, in, join);
  for (uint32_t i = 0; i < xs->cap; i++) {
    kkr_exc *e = &xs->e[i];
    if (!kkr_exc_live(e))
      continue;
    uintptr_t w = kkr_exc_word(e, r->lo);
    if (w < r->lo || w >= r->hi)
      continue;
    uint64_t k = (w - r->lo) >> KKR_GRAN_SHIFT;
    kkr_exc x = *e;
    int ok;
    if (in->step == 2) {
      /* (Each half by its element's strand.) */
      uint64_t s0 = (in->base + 2 * k) % KKR_RUN_STRANDS + 2;
      uint64_t s1 = (in->base + 2 * k + 1) % KKR_RUN_STRANDS + 2;
      ok = x.halves &&
           decide_exc(d, &x, w, 4, acc, cur0 | s0 << KKR_REC_STRAND_SHIFT,
                      site) &&
           decide_exc(d, &x, w + 4, 4, acc, cur0 | s1 << KKR_REC_STRAND_SHIFT,
                      site);
    } else {
      uint64_t cur = cur0;
      if (in->step)
        cur |= ((in->base + k) % KKR_RUN_STRANDS + 2) << KKR_REC_STRAND_SHIFT;
      ok = decide_exc(d, &x, w, KKR_GRAN, acc, cur, site);
    }
    if (!ok)
      return 0;
    if (!commit)
      continue;
    kkr_exc rule = word_of_run(&after, NULL, w);
    if (acc || (rule.halves == x.halves && exc_same_settled(&rule, &x))) {
      /* (The word follows the run's rule again.) */
      kkr_exc_drop(rs, e);
    } else {
      e->h[0] = x.h[0];
      e->h[1] = x.h[1];
    }
  }
  return 1;
}

/* The inline decision of an aligned access in a chunk of halves (of a word:
 * half by half; a half decided twice is no change): 0 if not one, or
 * undecided. */
static KKR_NOINLINE int decide_halves(const kkr_thread *t, uintptr_t a,
                                      uint32_t size, uint32_t acc,
                                      uint64_t cur, uint64_t site) {
  if (kkr_runs_made && kkr_run_dir[KKR_DIR_INDEX(a)] &&
      !kkr_dir[KKR_DIR_INDEX(a)] &&
      run_single(t, a, size, acc, cur, site))
    return 1;
  if ((size == 4 || size == 8) &&
      (rows_fresh(t, a, ROWS_FRONT) || rows_fresh(t, a, ROWS_HOST)) &&
      run_single(t, a, size, acc, cur, site))
    return 1;
  kkr_split *hc = halves_of(KKR_DIR_INDEX(a));
  if (!hc && size == 4)
    hc = halves_fresh(t, KKR_DIR_INDEX(a), 0);
  /* (A word of runs that no exception can take: compact words, where each
   * word takes one record, before cells.) */
  if (!hc && size == KKR_GRAN && kkr_runs_made && kkr_run_dir[KKR_DIR_INDEX(a)])
    hc = words_make(t, KKR_DIR_INDEX(a), 0, !(acc & ACC_WRITE));
  return hc && decide_in_halves(decide_ctx_of(t), hc, a, size, acc, cur, site);
}

KKR_INLINE int access_fast(uintptr_t a, uint32_t size, uint32_t acc,
                           site_slot *slot) {
  kkr_thread *t = kkr_tls;
  /* (The program's own access comes right after the check: its line is
   * fetched while the check waits on the cell's.) */
  if (acc & ACC_WRITE)
    __builtin_prefetch((const void *)a, 1);
  else
    __builtin_prefetch((const void *)a, 0);
  if (KKR_UNLIKELY(!t || kkr_nofast_single(t) || (a & (size - 1)) ||
                   kkr_mt))
    return 0;
  if (a - t->priv_lo < t->priv_len || a - t->abi.upd_lo < t->abi.upd_len)
    return 1;
  kkr_cell *chunk = kkr_dir[KKR_DIR_INDEX(a)];
  if (KKR_UNLIKELY(!slot || slot->table != t->sites))
    return 0;
  if (KKR_UNLIKELY(!chunk)) {
    kkr_split *hc = kkr_half_any(KKR_DIR_INDEX(a));
    if (hc) /* (a chunk of halves) */
      return decide_in_halves(decide_ctx_of(t), hc, a, size, acc,
                              t->abi.cur_rec, slot->idx << KKR_REC_SITE_SHIFT);
    return decide_halves(t, a, size, acc, t->abi.cur_rec,
                         slot->idx << KKR_REC_SITE_SHIFT);
  }
  half_prefetch(a, size);
  if (acc & ACC_WRITE)
    kkr_shared_forget(a);
  return decide(t, chunk + KKR_CELL_INDEX(a), a, size, acc, t->abi.cur_rec,
                slot->idx << KKR_REC_SITE_SHIFT);
}

/* An atomic access (acc has ACC_ATOMIC: an atomic instruction, such as
 * Kokkos 4's atomics or std::atomic, or a load or store inside a Kokkos
 * atomic) of up to a word, aligned, decided inline in its cell; 1 if
 * done. */
static int atomic_cell_decide(kkr_thread *t, uintptr_t a, uint32_t size,
                              uint32_t acc, uintptr_t pc, site_slot *slot) {
  if (!size || size > KKR_GRAN || (a & (size - 1)) || (uint32_t)t->nofast ||
      kkr_mt || kkr_gpu_trace_host_on)
    return 0;
  /* (As access_fast: the program's line fetched beside the cell's.) */
  __builtin_prefetch((const void *)a, 1);
  kkr_cell *chunk = kkr_dir[KKR_DIR_INDEX(a)];
  /* (In a chunk of halves, half by half: the full path would turn it back
   * into cells.  An element of 4 bytes in a chunk of runs of such
   * elements makes it one, as single accesses do: an `Atomic` View of
   * int filled, then read by column.) */
  kkr_split *hc = chunk     ? NULL
                  : size == 4 ? halves_of(KKR_DIR_INDEX(a))
                              : kkr_half_any(KKR_DIR_INDEX(a));
  if (!chunk && !(hc && (in_one_half(a, size) || size == KKR_GRAN)))
    return 0;
  if (acc & ACC_WRITE)
    kkr_shared_forget(a);
  uint64_t site = (uint64_t)access_site(t, acc, pc, slot) << KKR_REC_SITE_SHIFT;
  if (hc)
    return decide_in_halves(decide_ctx_of(t), hc, a, size, acc,
                            t->abi.cur_rec | KKR_R_A, site);
  half_prefetch(a, size);
  return decide_with(decide_ctx_of(t), chunk + KKR_CELL_INDEX(a), a, size,
                     acc, t->abi.cur_rec | KKR_R_A, site);
}

/* A load or store inside a Kokkos atomic (atomic by intent: plain on a
 * Serial-only Kokkos), decided inline as an atomic access; 1 if done. */
static KKR_NOINLINE int atomic_decide(kkr_thread *t, uintptr_t a,
                                      uint32_t size, uint32_t acc) {
  if (a - t->priv_lo < t->priv_len || a - t->abi.upd_lo < t->abi.upd_len)
    return 1;
  return atomic_cell_decide(t, a, size, acc | ACC_ATOMIC, 0, NULL);
}

/* What access_fast left: the same access repeated, several strands of one
 * kernel reading, records quickly known to be ordered; else the general
 * path. */
static KKR_NOINLINE void access_more(uintptr_t a, uint32_t size,
                                     uint32_t size_lg, uint32_t acc,
                                     uintptr_t pc, site_slot *slot) {
  kkr_thread *t = kkr_tls;
  if (KKR_UNLIKELY(t && t->atomic_depth) && atomic_decide(t, a, size, acc))
    return;
  if (KKR_UNLIKELY(!t || kkr_nofast_single(t) || (a & (size - 1)) ||
                   size > KKR_GRAN || kkr_mt || kkr_gpu_trace_host_on))
    return access_general(a, size, size_lg, acc, pc, slot);
  /* (A cold slot is warmed here: the paths below that leave the cell as
   * it is never look the site up, and access_fast needs it warm.) */
  int cold = slot && slot->table != t->sites;
  if (cold)
    kkr_site_index_slow(t, slot, pc);
  kkr_cell *chunk = kkr_dir[KKR_DIR_INDEX(a)];
  if (KKR_UNLIKELY(!chunk)) {
    /* (A chunk of runs or halves, or none yet, as the warm slot's next
     * access would find it: the first access of a kernel's row in a chunk
     * that nothing touched begins its rows, instead of making cells.) */
    if (cold && access_fast(a, size, acc, slot))
      return;
    return access_general(a, size, size_lg, acc, pc, slot);
  }
  if (acc & ACC_WRITE)
    kkr_pend_check(a);
  kkr_cell *c = access_cell_of(chunk + KKR_CELL_INDEX(a), a, size);
  uint32_t mask = ((1u << size) - 1) << (a & (KKR_GRAN - 1));
  uint64_t w = c->w, r = c->r;
  uint64_t rec = t->abi.cur_rec | (uint64_t)mask << 4 | (acc & ACC_WRITE);
  /* What must be equal for two records to be one strand's same kind of
   * access: node, strand and flags, not site nor bytes. */
  uint64_t same = (t->cur_is_item ? ~SITE_BITS : ~HOST_SITE_BITS) &
                  ~(uint64_t)0xFF0;
  uint64_t mask4 = (uint64_t)mask << 4;
  if (acc & ACC_WRITE) {
    /* This strand wrote these bytes last and nothing read them since. */
    if (!((w ^ rec) & same) && !(mask4 & ~w) && !r)
      return;
  } else {
    /* This strand read these bytes already. */
    if (!((r ^ rec) & same & ~(uint64_t)KKR_R_M) && !(mask4 & ~r))
      return;
    /* Many strands of this kernel read the element (a stencil's neighbours,
     * the other bodies of an n-body step): the read record says so. */
    if (KKR_REC_NODE(r) == t->cur_node && t->cur_is_item && !t->lanes_on &&
        !((r ^ rec) & (0xFF8 | KKR_R_A)) &&
        KKR_CUR_STRAND(t) != KKR_STRAND_BACKEND &&
        KKR_REC_STRAND(r) != KKR_STRAND_BACKEND &&
        (!w || w < t->hz || quick_ordered(t, w, mask))) {
      if (!(r & KKR_R_M))
        c->r = r | KKR_R_M;
      return;
    }
  }
  /* The slot's last access that went to the full path raced there: in a
   * racy loop, every iteration meets the race again, and the steps between
   * here and the full path would only find that out once more. */
  if (KKR_UNLIKELY(slot == t->racy_slot) && slot && !t->atomic_depth &&
      !t->ignore) {
    uintptr_t word = a & ~(uintptr_t)(KKR_GRAN - 1);
    return access_cell(t, chunk + KKR_CELL_INDEX(word), word, mask,
                       acc | size_lg << 12, pc, 0, slot);
  }
  if (((w | r) & KKR_R_X) || (w && !quick_ordered(t, w, mask)) ||
      (r && !quick_ordered(t, r, mask)) || !slot || slot->table != t->sites ||
      mixed_atomic_write(t, w, rec, acc))
    return access_general(a, size, size_lg, acc, pc, slot);
  rec |= slot->idx << KKR_REC_SITE_SHIFT;
  if (acc & ACC_WRITE) {
    kkr_shared_forget(a);
    c->w = rec;
    c->r = 0;
  } else {
    c->r = rec;
  }
}

/* Chunks whose words were split by the many keep their half-cells only
 * from now on: at the start of a loop, and after the full path of a single
 * access or of an atomic one (a histogram's kernel has no loop, a team's
 * nested reduction calls a lambda per element), where no cell is held. */
KKR_INLINE void halves_settle(kkr_thread *t) {
  if (KKR_UNLIKELY(kkr_halves_pending) && t && !kkr_mt &&
      !kkr_nofast_single(t) &&
      !__atomic_load_n(&kkr_spawned, __ATOMIC_RELAXED))
    kkr_halves_convert(split_cell);
}

#define RET_PC ((uintptr_t)__builtin_return_address(0))
#define FRAME ((uintptr_t)0)

/* An access inside a Kokkos atomic (nothing else keeps the thread from
 * the inline decisions): atomic_decide at once, as access_more would
 * decide it first (a concurrent container's insert, all of whose accesses
 * are atomic by intent). */
KKR_INLINE int in_atomic_decided(uintptr_t a, uint32_t size, uint32_t acc) {
  kkr_thread *t = kkr_tls;
  return t && t->nofast == (uint64_t)t->atomic_depth << 32 &&
         t->atomic_depth && atomic_decide(t, a, size, acc);
}

/* The slow halves take the instrumented instruction's address from the
 * entry point (read only on the slow path) and are reached by a tail call,
 * so that the fast path saves no registers. */
#define KKR_ACCESS_ENTRIES(n, lg)                                        \
  static KKR_NOINLINE void read##n##_more(void *p, void *slot,           \
                                          uintptr_t pc) {                \
    access_more((uintptr_t)p, n, lg, 0, pc, slot);                       \
    halves_settle(kkr_tls);                                              \
  }                                                                      \
  static KKR_NOINLINE void write##n##_more(void *p, void *slot,          \
                                           uintptr_t pc) {               \
    access_more((uintptr_t)p, n, lg, ACC_WRITE, pc, slot);               \
    halves_settle(kkr_tls);                                              \
  }                                                                      \
  KKR_EXPORT void __kkrace_read##n(void *p, void *slot) {                \
    if (KKR_LIKELY(access_fast((uintptr_t)p, n, 0, slot)) ||             \
        in_atomic_decided((uintptr_t)p, n, 0))                           \
      return;                                                            \
    return read##n##_more(p, slot, RET_PC);                              \
  }                                                                      \
  KKR_EXPORT void __kkrace_write##n(void *p, void *slot) {               \
    if (KKR_LIKELY(access_fast((uintptr_t)p, n, ACC_WRITE, slot)) ||     \
        in_atomic_decided((uintptr_t)p, n, ACC_WRITE))                   \
      return;                                                            \
    return write##n##_more(p, slot, RET_PC);                             \
  }
KKR_ACCESS_ENTRIES(1, 0)
KKR_ACCESS_ENTRIES(2, 1)
KKR_ACCESS_ENTRIES(4, 2)
KKR_ACCESS_ENTRIES(8, 3)

/* Accesses of several words (vector loads and stores, complex<double>,
 * small aggregates copied): word by word through the inline decision when
 * they are aligned and not large. */
#define KKR_RANGE_INLINE_MAX 4096

static KKR_NOINLINE void range_entry(uintptr_t a, uintptr_t n, uint32_t acc,
                                     uintptr_t pc, site_slot *slot) {
  kkr_thread *t = kkr_tls;
  int inline_ok = n && n <= KKR_RANGE_INLINE_MAX && t && !t->nofast &&
                  !kkr_mt && slot;
  /* (A cold slot is warmed first, as access_more does.) */
  if (inline_ok && slot->table != t->sites)
    kkr_site_index_slow(t, slot, pc);
  if (inline_ok && slot->table == t->sites) {
    /* Word by word, each piece through the inline decision.  (Reports
     * place an access of up to 16 bytes at a multiple of its size: one
     * that begins between, a pair of doubles u(c) and u(c + 1) with c odd,
     * is reported by its words.) */
    uint32_t lg = size_log(n);
    if (n <= 16 && (a & (n - 1)))
      lg = KKR_GRAN_SHIFT;
    uint64_t site = slot->idx << KKR_REC_SITE_SHIFT;
    for (uintptr_t lo = a, end = a + n; lo < end;) {
      uintptr_t hi = (lo | (KKR_GRAN - 1)) + 1;
      if (hi > end)
        hi = end;
      uint32_t psize = (uint32_t)(hi - lo);
      /* (An aligned word or half of one as single accesses are: in a chunk
       * of runs or halves too, so that the rows of an iteration written by
       * vector stores stay runs.) */
      if ((psize == KKR_GRAN || psize == 4) && !(lo & (psize - 1))) {
        if (!access_fast(lo, psize, acc, slot))
          access_general(lo, psize, lg, acc, pc, slot);
        lo = hi;
        continue;
      }
      kkr_cell *chunk = kkr_dir[KKR_DIR_INDEX(lo)];
      if ((acc & ACC_WRITE) && chunk)
        kkr_shared_forget(lo);
      if (lo - t->priv_lo >= t->priv_len &&
          lo - t->abi.upd_lo >= t->abi.upd_len &&
          !(chunk && decide(t, chunk + KKR_CELL_INDEX(lo), lo,
                            (uint32_t)(hi - lo), acc, t->abi.cur_rec, site)))
        access_general(lo, (uint32_t)(hi - lo), lg, acc, pc, slot);
      lo = hi;
    }
    return;
  }
  t = entry_thread(a);
  if (t)
    access_range(t, a, n, acc | (t->atomic_depth ? ACC_ATOMIC : 0), pc, FRAME,
                 slot);
}

/* A 16-byte access (a vector load of two doubles, a complex<double>) of
 * two aligned words: both through the inline decision, as range_entry
 * takes them, without its loop; what they leave goes to range_entry. */
KKR_INLINE void access16(uintptr_t a, uint32_t acc, uintptr_t pc,
                         site_slot *slot) {
  if (!(a & (KKR_GRAN - 1)) && access_fast(a, KKR_GRAN, acc, slot)) {
    if (!access_fast(a + KKR_GRAN, KKR_GRAN, acc, slot))
      range_entry(a + KKR_GRAN, KKR_GRAN, acc, pc, slot);
    return;
  }
  range_entry(a, 16, acc, pc, slot);
}
KKR_EXPORT void __kkrace_read16(void *p, void *slot) {
  access16((uintptr_t)p, 0, RET_PC, slot);
}
KKR_EXPORT void __kkrace_write16(void *p, void *slot) {
  access16((uintptr_t)p, ACC_WRITE, RET_PC, slot);
}
KKR_EXPORT void __kkrace_read_range(void *p, unsigned long long n,
                                    void *slot) {
  /* (Two adjacent elements of 4 bytes, rowptr(i) and rowptr(i + 1): a
   * word, or the halves of two, through the inline decision.) */
  uintptr_t a = (uintptr_t)p;
  if (n == 8 && !(a & 3) &&
      ((a & 7) ? access_fast(a, 4, 0, slot) && access_fast(a + 4, 4, 0, slot)
               : access_fast(a, 8, 0, slot)))
    return;
  /* (Two adjacent doubles, u(c) and u(c + 1), that the pass checks as
   * one range: access16.) */
  if (n == 16) {
    access16(a, 0, RET_PC, slot);
    return;
  }
  range_entry(a, n, 0, RET_PC, slot);
}
KKR_EXPORT void __kkrace_write_range(void *p, unsigned long long n,
                                     void *slot) {
  if (n == 16) {
    access16((uintptr_t)p, ACC_WRITE, RET_PC, slot);
    return;
  }
  range_entry((uintptr_t)p, n, ACC_WRITE, RET_PC, slot);
}

/* An access that library call `call` (named in reports: "MPI_Send") makes
 * for the program, checked as the calling thread's at the program's call
 * site pc (the library's caller's return address): each call site of the
 * program is a site of its own, and the report's stack starts there. */
KKR_EXPORT void __kkrace_call_access(void *p, unsigned long long n,
                                     unsigned int write, void *pc,
                                     const char *call) {
  if (!n || !kkr_inited)
    return;
  /* (A call's blocks come one after the other: its site is named once.) */
  static __thread const void *named_pc;
  static __thread const char *named_call;
  if (pc != named_pc || call != named_call) {
    kkr_thread *t = kkr_tls;
    if (t)
      t->ignore++;
    kkr_call_site_set((uintptr_t)pc, kkr_intern(call));
    if (t)
      t->ignore--;
    named_pc = pc;
    named_call = call;
  }
  range_entry((uintptr_t)p, n, write ? ACC_WRITE : 0, (uintptr_t)pc, NULL);
}

/* ---- The team's own code ------------------------------------------------- */

/* A write of a team's own code, just checked as the team's strand's (its
 * thread 0): every thread of the team makes it (the pass calls this after
 * the writes of the program's functions that take a team member, outside
 * the ways of a branch on team_rank()), so that it races with itself --
 * unless the code running is not the team's own (a nested loop's
 * iteration, a single: other threads do not run it) or the memory is each
 * thread's own (its thread scratch, the frames of the operation in
 * progress, which hold its locals, and the strand's reduction value).  The
 * race is reported against the same write by another thread of the team. */
KKR_EXPORT void __kkrace_team_write(void *p, unsigned long long n, void *slot) {
  uintptr_t a = (uintptr_t)p;
  kkr_thread *t = kkr_tls;
  if (!t || !t->team_on || !n || t->ignore || t->atomic_depth ||
      !t->abi.strand_depth)
    return;
  kkr_team_sync(t);
  if (t->team_nest || t->team_sub != 0 || !kkr_in_team_item(t))
    return;
  /* (The frames of the operation in progress hold the team's own locals;
   * the host's frames above them are shared, as a variable captured by
   * reference.) */
  if (a - t->priv_lo < t->priv_len || a - t->abi.upd_lo < t->abi.upd_len)
    return;
  int scratch = kkr_is_scratch(a);
  if (scratch == KKR_SCRATCH_POOL || (scratch && kkr_thread_scratch(t, a)))
    return;
  uintptr_t off = a & (KKR_GRAN - 1);
  uint32_t size = n < KKR_GRAN - off ? (uint32_t)n : (uint32_t)(KKR_GRAN - off);
  uint32_t size_lg = 31 - (uint32_t)__builtin_clz(size);
  uint32_t mask = ((1u << size) - 1) << off;
  uint32_t acc = ACC_WRITE | size_lg << 12;
  uintptr_t pc = RET_PC;
  uint64_t other = access_rec(t, mask, acc) | KKR_R_M |
                   (uint64_t)access_site(t, acc, pc, slot)
                       << KKR_REC_SITE_SHIFT;
  kkr_report_race(t, a - off, mask, acc, pc, pc, 0, other);
}

/* ---- Loops checked at once (the pass's __kkrace_loop) --------------------- */

/* Who makes the k-th access of a loop: the current strand, the kernel's
 * iterations (RangePolicy, MDRange), a team's nested iterations, or the
 * lanes of a vector loop of the current strand. */
enum { LOOP_CURRENT, LOOP_RANGE, LOOP_MD, LOOP_TEAM, LOOP_LANES };

/* The strand id of a strand of nidx indices (KKR_STRAND_BITS). */
KKR_INLINE uint64_t loop_strand_id(kkr_item *it, uint32_t mode, uint64_t i0,
                                   uint64_t i1, uint64_t i2, uint32_t nidx,
                                   int *lossy) {
  if (mode == LOOP_RANGE) {
    if (KKR_LIKELY(i0 < KKR_ABI_STRAND_INLINE_MAX))
      return i0 + 2;
    *lossy = 1;
    return i0 % KKR_ABI_STRAND_INLINE_MAX + 2;
  }
  if (nidx == 2) {
    uint64_t l = kkr_md_layout(it, 2);
    if (i0 < KKR_MD_LIM0(l) && i1 < KKR_MD_M1(l))
      return kkr_md_packed(l, i0, i1, 0) + 2;
    /* (kkr_strand_id's id, without a call: a LayoutLeft loop over the
     * first index asks for a new row's at every element.) */
    *lossy = 1;
    return (kkr_md_row_base(l, i0, 0, 2) + i1 % KKR_ABI_STRAND_INLINE_MAX) %
               KKR_ABI_STRAND_INLINE_MAX +
           2;
  }
  return kkr_strand_id(it, i0, i1, i2, nidx, 0);
}

/* Elements left in a loop at least for a chunk of runs to become cells or
 * halves at once (halves_for). */
#define EXC_LOOP_MIN 32

/* The half-cells of chunk di (which has no cells) for a loop's elements of
 * size bytes: elements of 4 bytes may make them from the chunk's runs;
 * whole words only use them (a chunk of halves holding the neighbour of
 * an array of int: its doubles are decided half by half).  strided: the
 * loop's elements are the kernel's strands', a stride apart, their
 * neighbours other loops' (`col(i * K + k) = ...` for k < K, unrolled:
 * each k a loop over i that the pass checks before the first iteration);
 * in a chunk that nothing touched yet, the elements of an array of int
 * that rows of strands fill so would split its cells at every row's
 * end, and take half-cells at once. */
enum {
  HALVES_STRIDED = 1, /* strided, above; a plain write loop of 8-byte
                         elements so makes a fresh chunk compact words
                         (each word the write of its strand's row) */
  HALVES_WRITE = 2,   /* the loop writes */
  HALVES_ATOMIC = 4,  /* atomically */
  HALVES_LOOP = 8     /* a loop's elements, not a gather's */
};
KKR_INLINE kkr_split *halves_for(uint32_t di, uint32_t size, uint64_t left,
                                 uint32_t how) {
  /* A chunk of runs that the loop does not decide as a run: with many
   * elements left, its cells or half-cells now (or compact words, for
   * 8-byte elements, when each word takes one record); with few, the
   * elements go one by one, and the runs keep what they change as
   * exceptions. */
  if (left < EXC_LOOP_MIN && kkr_runs_made && kkr_run_dir[di]) {
    /* (Except a loop's reads of 8-byte elements over settled writes: a
     * short piece of a vector loop, the first of many.) */
    if (size == KKR_GRAN && (how & HALVES_LOOP) && !(how & HALVES_WRITE))
      return words_make(kkr_tls, di, 0, 1);
    return NULL;
  }
  kkr_split *hc = size < KKR_GRAN ? halves_of(di) : halves_inline(di);
  if (!hc && kkr_runs_made && kkr_run_dir[di] && !kkr_dir[di]) {
    if (size == KKR_GRAN)
      hc = words_make(kkr_tls, di, 0, !(how & HALVES_WRITE));
    if (!hc)
      kkr_shadow_chunk_slow((uintptr_t)di << KKR_CHUNK_SHIFT);
  } else if (!hc && size == 4) {
    hc = halves_fresh(kkr_tls, di, how & HALVES_STRIDED);
  } else if (!hc && size == KKR_GRAN &&
             (how & (HALVES_STRIDED | HALVES_WRITE | HALVES_ATOMIC)) ==
                 (HALVES_STRIDED | HALVES_WRITE)) {
    hc = words_make(kkr_tls, di, 1, 0);
  }
  return hc;
}

/* How halves_for may make a chunk's shadow for a loop of elements of size
 * bytes, stride apart, of acc by the strands of mode. */
KKR_INLINE uint32_t halves_how(uint32_t mode, uint64_t stride, uint32_t size,
                               uint32_t acc) {
  uint32_t how = HALVES_LOOP | (acc & ACC_WRITE ? HALVES_WRITE : 0) |
                 (acc & ACC_ATOMIC ? HALVES_ATOMIC : 0);
  if (mode != LOOP_CURRENT && (int64_t)stride > (int64_t)size)
    how |= HALVES_STRIDED;
  return how;
}

/* Exceptions that gathers may leave in a chunk of runs before its cells
 * decide them instead (loop_body): a few random updates of a large array
 * (GUPS) stay exceptions; a gather that reads all of a small one (each
 * element a new reader's) would only fill the table before the chunk
 * expands anyway. */
#define GATHER_EXC_MAX 1024u

KKR_INLINE int gather_exc_full(uint32_t di) {
  const kkr_runs *rs = kkr_runs_made ? kkr_run_dir[di] : NULL;
  return rs && rs->exc && rs->exc->n >= GATHER_EXC_MAX;
}

/* What the tight loop could not decide: the access of the strand with
 * record bits cur and indices j, through the full path. */
static KKR_NOINLINE void loop_slow(kkr_thread *t, uintptr_t a, uint32_t size,
                                   uint32_t acc, uint64_t cur, uint32_t mode,
                                   const uint64_t *j, uintptr_t pc,
                                   site_slot *slot) {
  t->abi.cur_rec = cur;
  if (mode == LOOP_TEAM) {
    t->team_sub_idx = (int64_t)j[0];
    t->team_nest = 1;
  } else if (mode == LOOP_LANES) {
    /* (The lane's index is in the team's lanes already.) */
  } else if (mode != LOOP_CURRENT) {
    t->abi.strand_idx0 = (int64_t)j[0];
    t->abi.strand_idx1 = (int64_t)j[1];
    t->abi.strand_idx2 = (int64_t)j[2];
  }
  /* (Words of the element already decided are decided again: the same
   * access twice changes nothing.) */
  if (acc & ACC_ATOMIC) {
    if (!atomic_cell_decide(t, a, size, acc, pc, slot))
      access_range(t, a, size, acc, pc, FRAME, slot);
  } else if (size <= KKR_GRAN && !(size & (size - 1)))
    access_more(a, size, size_log(size), acc, pc, slot);
  else
    range_entry(a, size, acc, pc, slot);
  if (mode == LOOP_TEAM)
    t->team_nest = 0;
}

/* Where a gather's k-th access is (__kkrace_gather): base + idx[k] * scale. */
typedef struct {
  uintptr_t base;
  int64_t scale;
  const void *idx;
  uint32_t kind, every; /* KKR_GATHER_*; the skip + 1 */
  uint32_t cut;         /* 64 - the bits the index keeps (0: all) */
  uint32_t prefetch;    /* whether to prefetch cells ahead */
} loop_gather_src;

KKR_INLINE uintptr_t gather_addr(const loop_gather_src *g, uint64_t k) {
  k *= g->every;
  int64_t e = g->kind & KKR_GATHER_IDX64 ? ((const int64_t *)g->idx)[k]
              : g->kind & KKR_GATHER_UNSIGNED
                  ? (int64_t)((const uint32_t *)g->idx)[k]
                  : (int64_t)((const int32_t *)g->idx)[k];
  /* (A truncated index: its low bits, extended again.) */
  e = g->kind & KKR_GATHER_UNSIGNED
          ? (int64_t)((uint64_t)e << g->cut >> g->cut)
          : (int64_t)((uint64_t)e << g->cut) >> g->cut;
  return g->base + (uintptr_t)(e * g->scale);
}

/* The cell of a (if its chunk has cells), into the cache for writing. */
KKR_INLINE void prefetch_cell(uintptr_t a) {
  kkr_cell *chunk = kkr_dir[KKR_DIR_INDEX(a)];
  if (chunk)
    __builtin_prefetch(chunk + KKR_CELL_INDEX(a), 1, 3);
}

/* How many elements ahead a gather prefetches its cells, and the size of
 * the View below which it does not: a small target (a histogram's bins)
 * stays in the cache, and the prefetch would only cost its index's
 * second read. */
#define GATHER_AHEAD 16
#define GATHER_PREFETCH_MIN (512u << 10)

/* The accesses of one loop: the inline decision word by word in a tight
 * loop, which calls nothing; what it cannot decide leaves it for
 * loop_slow, and the loop resumes after that access.  A gather (g) computes
 * each address from its index instead of stepping a by stride. */
KKR_INLINE void loop_body(kkr_thread *t, uintptr_t a, uint64_t stride,
                          uint64_t count, uint32_t size, uint32_t acc,
                          uint32_t mode, uint32_t nidx, uint32_t vary,
                          uint64_t *idx, uint64_t step, uintptr_t pc,
                          site_slot *slot, const loop_gather_src *g) {
  uint64_t site =
      (uint64_t)kkr_site_index(t, slot, pc) << KKR_REC_SITE_SHIFT;
  uint64_t item = t->abi.item_rec, cur = t->abi.cur_rec;
  decide_ctx d = decide_ctx_of(t);
  uintptr_t plo = t->priv_lo, plen = t->priv_len;
  uintptr_t ulo = t->abi.upd_lo, ulen = t->abi.upd_len;
  kkr_item *it = mode != LOOP_CURRENT ? t->item_op->item : NULL;
  /* A nested loop of a team: its iterations are the team's threads. */
  uint32_t team_rec = kkr_team_strand(t, 0);
  /* Words: an element of up to a word, or whole aligned words. */
  uint32_t wsize = size < KKR_GRAN ? size : KKR_GRAN;
  int words = (g || (!(a & (wsize - 1)) && !(stride & (wsize - 1)))) &&
              !(size & (size - 1) && size < KKR_GRAN) &&
              (size <= KKR_GRAN || !(size & (KKR_GRAN - 1)));
  /* Inside a Kokkos atomic, or with several threads (the cells need their
   * locks): the full path for every access.  (The inline decision knows
   * vector lanes.) */
  if (kkr_nofast_single(t) || kkr_mt)
    words = 0;
  int lossy = 0;
  /* An atomic read-modify-write: decided as an atomic write. */
  uint64_t abit = acc & ACC_ATOMIC ? KKR_R_A : 0;
  /* The indices of the k-th strand: the fixed ones, and v for 'vary'. */
  uint64_t f0 = idx[0], f1 = idx[1], f2 = idx[2], v = idx[vary];
  /* A vector loop's lanes: the strand of index v is that of v's slot
   * (v % KKR_LANES_PER_LOOP, lane_sub), asked once per slot. */
  uint64_t lane_cur[KKR_LANES_PER_LOOP];
  uint32_t lanes_known = 0;
  const uint64_t v_first = v;
  uint64_t k = 0;
  while (k < count) {
    kkr_cell *chunk = NULL;
    kkr_split *hc = NULL; /* a chunk of halves */
    uintptr_t chunk_of = ~(uintptr_t)0;
    for (; k < count; k++, a += stride, v += step) {
      if (g) {
        a = gather_addr(g, k);
        /* (Random indices: each cell is a cache miss, which the next
         * elements' prefetches overlap.) */
        if (g->prefetch && k + GATHER_AHEAD < count)
          prefetch_cell(gather_addr(g, k + GATHER_AHEAD));
      }
      if (mode == LOOP_TEAM)
        cur = item | (uint64_t)(team_rec + (uint32_t)(v % 126) + 1)
                         << KKR_REC_STRAND_SHIFT;
      else if (mode == LOOP_LANES) {
        uint32_t q = (uint32_t)(v % KKR_LANES_PER_LOOP);
        if (KKR_UNLIKELY(!(lanes_known >> q & 1))) {
          lane_cur[q] = item | (uint64_t)kkr_lane_strand(t, v)
                                   << KKR_REC_STRAND_SHIFT;
          lanes_known |= 1u << q;
        }
        cur = lane_cur[q];
      } else if (mode != LOOP_CURRENT)
        cur = item | loop_strand_id(it, mode, vary == 0 ? v : f0,
                                    vary == 1 ? v : f1, vary == 2 ? v : f2,
                                    nidx, &lossy)
                         << KKR_REC_STRAND_SHIFT;
      /* (A gather's element: aligned, or the full path.) */
      int done = words && !(g && (a & (wsize - 1)));
      if (size <= KKR_GRAN) {
        /* One word (the common case): its chunk is likely the last one's. */
        if (a - plo < plen || a - ulo < ulen)
          continue;
        if ((a >> KKR_CHUNK_SHIFT) != chunk_of) {
          chunk_of = a >> KKR_CHUNK_SHIFT;
          chunk = kkr_dir[KKR_DIR_INDEX(a)];
          /* (A gather's elements are scattered: however many are left,
           * few may fall in this chunk -- unless many already did.) */
          hc = chunk ? NULL
                     : halves_for(KKR_DIR_INDEX(a), wsize,
                                  g && !gather_exc_full(KKR_DIR_INDEX(a))
                                      ? 0
                                      : count - k,
                                  g ? 0 : halves_how(mode, stride, wsize, acc));
          if (!chunk && !hc)
            chunk = kkr_dir[KKR_DIR_INDEX(a)]; /* (made from runs) */
        }
        if ((acc & ACC_WRITE) && chunk)
          kkr_shared_forget(a);
        if (KKR_UNLIKELY(!chunk && !hc))
          /* An element in a chunk of runs, decided on its word's records
           * and kept as an exception (run_single), as a single access is:
           * a random update of a large array that a loop filled (GUPS)
           * leaves its runs as they are instead of giving it cells. */
          done = done && kkr_runs_made && kkr_run_dir[KKR_DIR_INDEX(a)] &&
                 run_single(t, a, wsize, acc, cur | abit, site);
        else
          done =
              done && decide_at(d, chunk, hc, a, wsize, acc, cur | abit, site);
      } else {
        for (uintptr_t w = a; done && w < a + size; w += wsize) {
          if (w - plo < plen || w - ulo < ulen)
            continue;
          kkr_cell *c = kkr_dir[KKR_DIR_INDEX(w)];
          if ((acc & ACC_WRITE) && c)
            kkr_shared_forget(w);
          done = c && decide_with(d, c + KKR_CELL_INDEX(w), w, wsize, acc,
                                  cur | abit, site);
        }
      }
      if (KKR_UNLIKELY(!done))
        break;
    }
    if (k == count)
      break;
    uint64_t j[3] = {vary == 0 ? v : f0, vary == 1 ? v : f1,
                     vary == 2 ? v : f2};
    if (mode == LOOP_LANES)
      kkr_lane_strand(t, v); /* (its lane's index, for a report) */
    loop_slow(t, a, size, acc, cur, mode, j, pc, slot);
    k++;
    a += stride;
    v += step;
  }
  /* The lanes' indices as if each element had asked (the last of each
   * slot), for what a later report says of their records. */
  if (mode == LOOP_LANES)
    for (uint64_t i = count > KKR_LANES_PER_LOOP ? count - KKR_LANES_PER_LOOP
                                                  : 0;
         i < count; i++)
      kkr_lane_strand(t, v_first + i * step);
  if (lossy)
    it->lossy = 1;
}

/* Copies of the general loop for what the stepped ones (loop_inc_body)
 * leave and is common: an MDRange whose indices do not pack into a strand
 * id (its inner index varies: the backends' loops run the last index
 * innermost for LayoutRight, the first with Iterate::Left), 16-byte accesses of one strand (vector
 * loads and stores, complex<double>), and words of a vector loop's lanes
 * (a ThreadVectorRange's dot product).  The general one for the rest. */
typedef void loop_fn(kkr_thread *t, uintptr_t a, uint64_t stride,
                     uint64_t count, uint32_t nidx, uint32_t vary,
                     uint64_t *idx, uint64_t step, uintptr_t pc,
                     site_slot *slot);
#define LOOP_COPY(name, size, acc, mode, vary_)                               \
  static KKR_NOINLINE void name(kkr_thread *t, uintptr_t a, uint64_t stride, \
                                uint64_t count, uint32_t nidx, uint32_t vary, \
                                uint64_t *idx, uint64_t step, uintptr_t pc,   \
                                site_slot *slot) {                            \
    (void)vary;                                                               \
    loop_body(t, a, stride, count, size, acc, mode, nidx, vary_, idx, step,  \
              pc, slot, NULL);                                                \
  }
LOOP_COPY(loop_r8_md, 8, 0, LOOP_MD, 1)
LOOP_COPY(loop_w8_md, 8, ACC_WRITE, LOOP_MD, 1)
LOOP_COPY(loop_r8_md0, 8, 0, LOOP_MD, 0)
LOOP_COPY(loop_w8_md0, 8, ACC_WRITE, LOOP_MD, 0)
LOOP_COPY(loop_r16_cur, 16, 0, LOOP_CURRENT, vary)
LOOP_COPY(loop_w16_cur, 16, ACC_WRITE, LOOP_CURRENT, vary)
LOOP_COPY(loop_r8_lanes, 8, 0, LOOP_LANES, vary)
LOOP_COPY(loop_w8_lanes, 8, ACC_WRITE, LOOP_LANES, vary)

static KKR_NOINLINE void loop_any(kkr_thread *t, uintptr_t a, uint64_t stride,
                                  uint64_t count, uint32_t size, uint32_t acc,
                                  uint32_t mode, uint32_t nidx, uint32_t vary,
                                  uint64_t *idx, uint64_t step, uintptr_t pc,
                                  site_slot *slot) {
  loop_body(t, a, stride, count, size, acc, mode, nidx, vary, idx, step, pc,
            slot, NULL);
}

/* Gathers: copies of the loop for reads of 8-byte elements (a sparse
 * matrix's x(col(k))) and of 4-byte ones (`int`, `float`: an unstructured
 * mesh's connectivity gathers), and any other. */
#define GATHER_READ(name, size)                                               \
  static KKR_NOINLINE void name(kkr_thread *t, uint64_t count, uint32_t mode, \
                                uint32_t nidx, uint32_t vary, uint64_t *idx,  \
                                uint64_t step, uintptr_t pc, site_slot *slot, \
                                const loop_gather_src *g) {                   \
    loop_body(t, 0, 0, count, size, 0, mode, nidx, vary, idx, step, pc, slot, \
              g);                                                             \
  }
GATHER_READ(gather_r8, 8)
GATHER_READ(gather_r4, 4)

/* A RangePolicy's atomic updates of 8-byte elements through an index
 * (a histogram's atomic_add(&bins(key(i)), 1)). */
static KKR_NOINLINE void gather_aw8_range(kkr_thread *t, uint64_t count,
                                          uint64_t *idx, uint64_t step,
                                          uintptr_t pc, site_slot *slot,
                                          const loop_gather_src *g) {
  loop_body(t, 0, 0, count, 8, ACC_WRITE | ACC_ATOMIC, LOOP_RANGE, 1, 0, idx,
            step, pc, slot, g);
}

/* How many elements ahead gather_aw4_cur fetches records. */
#define AW4_AHEAD 16

/* The record of compact halves of the half at a, into the cache for
 * writing (halves made). */
KKR_INLINE void prefetch_half(uintptr_t a) {
  uint32_t di = KKR_DIR_INDEX(a);
  if (kkr_half_on[di] == KKR_HALVES_COMPACT)
    __builtin_prefetch(kkr_compact_rec(kkr_compact_dir[di], a), 1, 3);
}

/* The current strand's atomic updates of 4-byte elements through an index
 * (a histogram of int bins in a loop of the strand's: bins(key(j))++), in
 * compact halves, each decided as __kkrace_atomic decides one: a half
 * whose record is atomic, or ordered before, of no other bytes takes this
 * update's (kept when it is another strand's atomic write of the same
 * bytes, atomic_keeps).  The records AW4_AHEAD elements ahead are fetched
 * first: the bins' shadow misses the cache where the bins do.  Returns
 * how many it decided; the general loop goes on from the first it leaves
 * (another kind of shadow, another record). */
static KKR_NOINLINE uint64_t gather_aw4_cur(kkr_thread *t, uint64_t count,
                                            const loop_gather_src *g,
                                            site_slot *slot, uintptr_t pc) {
  if (!kkr_halves_made)
    return 0;
  const uint64_t site = (uint64_t)kkr_site_index(t, slot, pc)
                        << KKR_REC_SITE_SHIFT;
  const uintptr_t plo = t->priv_lo, plen = t->priv_len;
  const uintptr_t ulo = t->abi.upd_lo, ulen = t->abi.upd_len;
  const uint64_t hz = t->hz;
  const uint64_t rec = t->abi.cur_rec | KKR_R_A | KKR_R_W | site;
  uint64_t k = 0;
  for (; k < count; k++) {
    if (k + AW4_AHEAD < count)
      prefetch_half(gather_addr(g, k + AW4_AHEAD));
    const uintptr_t a = gather_addr(g, k);
    if (a & 3)
      break;
    if (a - plo < plen || a - ulo < ulen)
      continue;
    const uint32_t di = KKR_DIR_INDEX(a);
    if (kkr_half_on[di] != KKR_HALVES_COMPACT)
      break;
    uint64_t *p = kkr_compact_rec(kkr_compact_dir[di], a);
    const uint64_t v = *p, mask4 = rec_mask(a, 4);
    /* (A write or the reads since one.) */
    if (!atomic_rec_passes(v, mask4, hz))
      break;
    kkr_shared_forget(a);
    if (!(v & KKR_R_W) || !atomic_keeps(t, v, (uint32_t)(mask4 >> 4)))
      *p = rec | mask4;
  }
  return k;
}

static KKR_NOINLINE void gather_any(kkr_thread *t, uint64_t count,
                                    uint32_t size, uint32_t acc, uint32_t mode,
                                    uint32_t nidx, uint32_t vary,
                                    uint64_t *idx, uint64_t step, uintptr_t pc,
                                    site_slot *slot,
                                    const loop_gather_src *g) {
  loop_body(t, 0, 0, count, size, acc, mode, nidx, vary, idx, step, pc, slot,
            g);
}

/* How the strand of a loop's k-th access follows from the first's: its
 * record bits step by dcur, and its id, when it wraps (a team's 126
 * threads, RangePolicy ids beyond 2^20), goes back by span at wrap. */
typedef struct {
  uint64_t cur0, dcur;
  uint32_t id, wrap, span; /* wrap 0: no wrapping */
} loop_steps;

/* A stepped loop's element that the cells did not decide: loop_slow with
 * the element's indices (the varying one moved by off). */
static KKR_NOINLINE void loop_inc_slow(kkr_thread *t, uintptr_t a,
                                       uint32_t size, uint32_t acc,
                                       uint64_t cur, uint32_t mode,
                                       uint32_t vary, const uint64_t *idx,
                                       uint64_t off, uintptr_t pc,
                                       site_slot *slot) {
  uint64_t j[3] = {idx[0], idx[1], idx[2]};
  j[vary] += off;
  if (acc & ACC_RMW) {
    loop_slow(t, a, size, 0, cur, mode, j, pc, slot);
    acc = ACC_WRITE;
  }
  loop_slow(t, a, size, acc, cur, mode, j, pc, slot);
}

/* The key of an own block (kkr_shadow.h) whose first element of a loop is
 * the off-th word of the block, read by the strand of cur, the loop's
 * elements stride words apart and its strands step (0 or 1) apart. */
KKR_INLINE uint64_t own_key(uint64_t cur, uint64_t off, uint64_t kbits) {
  return cur | off | kbits;
}
#define OWN_KEY_LOW 0x3FFFFu /* (below a strand's bits: no site, no flag) */

/* Whether a loop from the strand of cur, its strands dcur apart, may have
 * own blocks: one strand, or strands one apart; no lanes. */
KKR_INLINE int own_may(decide_ctx d, uint64_t cur, uint64_t dcur) {
  return !d.lanes && !(cur & OWN_KEY_LOW) &&
         (dcur == 0 || dcur == (uint64_t)1 << KKR_REC_STRAND_SHIFT);
}

/* The key bits of own blocks of a loop of that stride, whose strands are
 * dcur apart (0 or one strand). */
KKR_INLINE uint64_t own_bits(uint64_t stride, uint64_t dcur) {
  return (stride >> KKR_GRAN_SHIFT) << 4 | (dcur ? 1u << 9 : 0) | 1u << 10;
}

/* A loop's whole words from *pa on, as long as their records are ordered
 * before it (below the horizon, or of a node above it that the full path
 * found ordered: kkr_thread.above): a write (w) replaces the last write
 * and the reads, a read replaces the reads, which is decide_with's
 * outcome for them, in fewer instructions (a stencil's sweep over the
 * array that the step before read, a kernel's reads of what the one
 * before wrote).  Returns how many it took; it stops at the first other
 * (a record of this kernel, a split cell, a read set). */
KKR_INLINE uint64_t words_ordered(decide_ctx d, kkr_cell *chunk,
                                  uintptr_t *pa, uint64_t *pcur,
                                  uint64_t stride, uint64_t dcur, uint64_t n,
                                  uint64_t site, int w, uint64_t *wlow) {
  const uint64_t hz = d.hz;
  uintptr_t a = *pa;
  uint64_t rec = *pcur | site | 0xFF0 | (w ? KKR_R_W : 0), i = 0;
  uint64_t okn = ~(uint64_t)0; /* (a node above hz found ordered) */
  uint64_t low = 1; /* (the last writes of those it took below hz) */
  for (; i < n; i++, a += stride, rec += dcur) {
    kkr_cell *c = chunk + KKR_CELL_INDEX(a);
    /* (Cells a KiB ahead: a stencil's sweep runs over several rows of
     * cells at once, more streams than the hardware follows.) */
    __builtin_prefetch(c + 64, 1);
    uint64_t cw = c->w, cr = c->r;
    if (KKR_UNLIKELY(cw >= hz) && (cw >> KKR_REC_NODE_SHIFT) != okn) {
      if (!above_known(d.t, hz, cw))
        break;
      okn = cw >> KKR_REC_NODE_SHIFT;
    }
    if (KKR_UNLIKELY(cr >= hz) && (cr >> KKR_REC_NODE_SHIFT) != okn) {
      if (!above_known(d.t, hz, cr))
        break;
      okn = cr >> KKR_REC_NODE_SHIFT;
    }
    low &= cw < hz;
    if (w) {
      c->w = rec;
      c->r = 0;
    } else {
      c->r = rec;
    }
  }
  *pa = a;
  *pcur += i * dcur;
  if (wlow)
    *wlow = low;
  return i;
}

/* A read loop's whole words in compact words ww from *pa on, as long as
 * each holds a read ordered before it (below the horizon) or a settled
 * write, which the read replaces (decide_with's outcome, stored as
 * packed_decide stores it: a kernel's repeat over a matrix that the one
 * before read), or this very read (the same strand's same check again:
 * no change).  Returns how many it took; it stops at the first other. */
KKR_INLINE uint64_t words_reads_ordered(decide_ctx d, uint64_t *ww,
                                        uintptr_t *pa, uint64_t *pcur,
                                        uint64_t stride, uint64_t dcur,
                                        uint64_t n, uint64_t site) {
  const uint64_t hz = d.hz;
  const uint32_t settled =
      __atomic_load_n(&kkr_nodes_settled, __ATOMIC_RELAXED);
  uintptr_t a = *pa;
  uint64_t rec = *pcur | site | 0xFF0, i = 0;
  for (; i < n; i++, a += stride, rec += dcur) {
    uint64_t *p = kkr_words_rec(ww, a), v = *p;
    if (v == rec)
      continue;
    if (v >= hz || ((v & KKR_R_W) && KKR_REC_NODE(v) >= settled))
      break;
    *p = rec;
  }
  *pa = a;
  *pcur += i * dcur;
  return i;
}

/* Whether a read loop's first pass (kkr_shadow.h, pending blocks) may tag
 * the blocks it leaves read by one strand each, noting the key of their
 * first cell's strand (cur | 1, or | 3 when its strands step by one), and
 * make such a block of another loop's strands pending: a kernel's
 * strands, not a team's nor vector lanes (whose phases and forks order
 * some reads before others), over whole words one after the other, one
 * thread running instrumented code. */
KKR_INLINE int pend_may(decide_ctx d, uint64_t cur, uint64_t dcur,
                        uint64_t stride) {
  return own_may(d, cur, dcur) && !d.team && d.t->cur_is_item &&
         stride == KKR_GRAN &&
         (cur & KKR_REC_STRAND_BITS) != KKR_BACKEND_BITS && !kkr_mt;
}

/* The thread's slot for the block at bstart. */
#define FIRST_SLOT(bstart)                                                     \
  (((bstart) >> (KKR_BLOCK_SHIFT + KKR_GRAN_SHIFT)) & (KKR_FIRST_SLOTS - 1))

/* The block at bstart, tagged KKR_PEND_FIRST, was left read by one strand
 * each in this era by a loop whose key is not key but steps its strands
 * the same way. */
KKR_INLINE int first_of_others(const kkr_thread *t, uintptr_t bstart,
                               uint32_t era, uint64_t key) {
  const kkr_first_slot *f = &t->first[FIRST_SLOT(bstart)];
  return f->addr == bstart && f->era == era && f->key != key &&
         !((f->key ^ key) & OWN_KEY_LOW);
}

/* Whether each cell of the block at c is read by one strand, the first
 * by the strand of cur and the next ones by strands dcur apart, with the
 * last write ordered before. */
KKR_INLINE int block_first(decide_ctx d, const kkr_cell *c, uint64_t cur,
                           uint64_t dcur) {
  uint64_t ok = 1;
  for (uint32_t j = 0; j < KKR_BLOCK_CELLS; j++, cur += dcur)
    ok &= (c[j].w < d.hz) & !((c[j].r ^ cur) & d.same) &
          ((c[j].r & (0xFF0 | KKR_R_A | KKR_R_X)) == 0xFF0);
  return (int)ok;
}

/* The block at bstart is left read by one strand each, the first cell's
 * with the key key. */
KKR_INLINE void first_note(kkr_thread *t, uintptr_t bstart, uint32_t era,
                           uint64_t key) {
  kkr_first_slot *f = &t->first[FIRST_SLOT(bstart)];
  f->addr = bstart;
  f->era = era;
  f->key = key;
}

/* The reciprocal of a loop's stride over blocks (less than a block's
 * bytes), for block_span: (x * rc) >> 32 is x / stride for every x below
 * 2^16 (rc * stride is 2^32 plus at most stride). */
KKR_INLINE uint64_t block_recip(uint64_t stride) {
  return ((uint64_t)1 << 32) / stride + 1;
}

/* How many of a loop's next left elements, from a on (sh: the stride's
 * shift, or 0; rc: block_recip), lie in a's block; *whole: the loop covers
 * all of its elements there, from the block's first. */
KKR_INLINE uint64_t block_span(uintptr_t a, uint64_t stride, uint32_t sh,
                               uint64_t rc, uint64_t left, int *whole) {
  const uintptr_t bbytes = (uintptr_t)KKR_BLOCK_CELLS << KKR_GRAN_SHIFT;
  uintptr_t bstart = a & ~(bbytes - 1), bend = bstart + bbytes;
  uint64_t m = sh ? (bend - a + stride - 1) >> sh
                  : ((bend - a + stride - 1) * rc) >> 32;
  *whole = a - bstart < stride && m <= left;
  return m < left ? m : left;
}

/* Part-shared blocks: a read loop over some of a block's cells only (a
 * row's first or last block, shared with the next row), one word apart,
 * that leaves them all shared, with the write ordered before, stamps the
 * block with a key of their cells (bit j: cell j), which later such loops
 * add to; a loop whose cells there the key all holds skips them.  (Bit 10
 * of an own block's key is set, never a part key's; all 16 bits make the
 * block shared, key 0.) */
#define PART_KEY_SHIFT 16
#define PART_KEY_FLAG (1u << 11)
KKR_INLINE int part_key(uint64_t key) {
  return (key & (PART_KEY_FLAG | 1u << 10)) == PART_KEY_FLAG;
}
/* The bits of m cells from cell j on. */
KKR_INLINE uint64_t part_bits(uint64_t j, uint64_t m) {
  return (((uint64_t)1 << m) - 1) << j;
}

/* A read loop's whole words in chunk (a stride of one block at most), from
 * *a on, block by block (kkr_shadow.h): the loop's elements in a shared
 * block, or in an own block of the same key, are skipped; the others are
 * decided, and the block is stamped when all of its cells are then shared,
 * or all of the loop's elements there its strands' own.  Stops at an
 * element that the cells do not decide; returns how many elements it did,
 * with *a and *cur advanced past them. */
KKR_INLINE uint64_t read_blocks_in(decide_ctx d, kkr_cell *chunk,
                                   uintptr_t *pa, uint64_t *pcur,
                                   uint64_t dcur, uint64_t stride, uint64_t n,
                                   uint64_t site, uint64_t item_rec,
                                   int owns) {
  const uint64_t pmask = KKR_REC_NODE_BITS | 0xFFF;
  const uint64_t shared = item_rec | 0xFF0 | KKR_R_M;
  const uintptr_t bbytes = (uintptr_t)KKR_BLOCK_CELLS << KKR_GRAN_SHIFT;
  uintptr_t a = *pa;
  uint64_t cur = *pcur, i = 0;
  uint32_t di = KKR_DIR_INDEX(a);
  uint32_t *stamps = kkr_shared_get(di);
  uint64_t *keys = kkr_shared_key_dir[di];
  /* (Own blocks in the era, shared ones in the node's: kkr_shadow.h.) */
  uint32_t era = kkr_shared_era, nera = kkr_shared_node_era;
  /* (Elements of the loop per block: a shift for the usual strides.) */
  uint32_t sh = (stride & (stride - 1)) ? 0 : (uint32_t)__builtin_ctzll(stride);
  const uint64_t rc = sh ? 0 : block_recip(stride);
  uint64_t kbits = owns && own_may(d, cur, dcur) ? own_bits(stride, dcur) : 0;
  /* (A first pass over whole words may tag the blocks it leaves read by
   * one strand each, and make those of other strands pending: pend_may.) */
  const uint64_t pcode = !owns && pend_may(d, cur, dcur, stride)
                             ? (dcur ? 3u : 1u)
                             : 0;
  uint32_t *pend = pcode ? kkr_pend_dir[di] : NULL;
  while (i < n) {
    uintptr_t bstart = a & ~(bbytes - 1);
    /* (A block that the loop covers from its first element of the block
     * to its last is stamped when its elements' cells, and then the other
     * cells of the block, are shared, or when its elements' are the loop's
     * own.) */
    int whole;
    uint64_t m = block_span(a, stride, sh, rc, n - i, &whole);
    uint32_t b = KKR_BLOCK_INDEX(a);
    if (stamps[b] == nera && (!keys || !keys[b])) {
      /* (Shared, and the blocks after it that are too, up to the loop's
       * last element: skipped at once, an array that every strand reads.) */
      uint32_t last = KKR_BLOCK_INDEX(a + (n - i - 1) * stride), e = b + 1;
      while (e <= last && stamps[e] == nera && (!keys || !keys[e]))
        e++;
      if (e > last) {
        m = n - i;
      } else if (e > b + 1) {
        uintptr_t stop = bstart + (uintptr_t)(e - b) * bbytes;
        m = (stop - a + stride - 1) / stride;
      }
      i += m;
      a += m * stride;
      cur += m * dcur;
      continue;
    }
    uint64_t key = own_key(cur, (a - bstart) >> KKR_GRAN_SHIFT, kbits);
    uint64_t part = 0; /* (a part of the block, one word apart: its cells) */
    if (!whole && stride == KKR_GRAN)
      part = part_bits((a - bstart) >> KKR_GRAN_SHIFT, m) << PART_KEY_SHIFT;
    if ((kbits && stamps[b] == era && keys[b] == key) ||
        (part && stamps[b] == nera && part_key(keys[b]) &&
         !(part & ~keys[b]))) {
      i += m;
      a += m * stride;
      cur += m * dcur;
      continue;
    }
    /* Each cell read by one strand of an earlier loop, which another
     * loop's strands now read: read by several, without a visit. */
    if (pcode && whole && pend && pend[b] == KKR_PEND_FIRST &&
        first_of_others(d.t, bstart, era, cur | pcode)) {
      stamps[b] = nera;
      if (keys)
        keys[b] = 0;
      kkr_pend_mark(pend, b, KKR_REC_NODE(cur));
      i += m;
      a += m * stride;
      cur += m * dcur;
      continue;
    }
    const uint64_t cur0 = cur;
    uint64_t all = 1, wlow = 1, own = kbits != 0;
    /* (The cells whose records are ordered before the loop first: each
     * is left read by its strand, which is not several strands' read, nor
     * the strand's own unless the last write is below the horizon.) */
    uint64_t j = words_ordered(d, chunk, &a, &cur, stride, dcur, m, site, 0,
                               &wlow);
    const uint64_t taken = j;
    if (j) {
      all = 0;
      own &= wlow;
    }
    for (; j < m; j++, a += stride, cur += dcur) {
      kkr_cell *c = chunk + KKR_CELL_INDEX(a);
      if (KKR_UNLIKELY(!decide_with(d, c, a, KKR_GRAN, 0, cur, site))) {
        i += j;
        goto out;
      }
      uint64_t w = c->w, r = c->r, ms = (r & pmask) == shared;
      all &= ms;
      wlow &= w < d.hz;
      /* (The strand's own read of the whole word, or several strands'; the
       * write ordered before, or the strand's own.) */
      own &= ((w < d.hz) | !((w ^ cur) & d.same)) &
             ((!((r ^ cur) & d.same) & ((r & 0xFF0) == 0xFF0)) | ms);
    }
    i += m;
    if (all && whole) {
      /* (The other cells of the block, and writes above the horizon that
       * the full path found ordered before: kkr_thread.above.) */
      const kkr_cell *c = chunk + KKR_CELL_INDEX(bstart);
      uint32_t j = 0;
      if (stride > KKR_GRAN || !wlow)
        while (j < KKR_BLOCK_CELLS && (c[j].r & pmask) == shared &&
               (c[j].w < d.hz || above_known(d.t, d.hz, c[j].w)))
          j++;
      if ((stride == KKR_GRAN && wlow) || j == KKR_BLOCK_CELLS) {
        stamps[b] = nera;
        if (keys)
          keys[b] = 0;
        continue;
      }
    }
    if (part && all && wlow) {
      if (!keys)
        keys = kkr_shared_keys_get(di);
      if (stamps[b] != nera) {
        stamps[b] = nera;
        keys[b] = part | PART_KEY_FLAG;
      } else if (part_key(keys[b])) {
        keys[b] |= part;
        if ((keys[b] >> PART_KEY_SHIFT) == (1u << KKR_BLOCK_CELLS) - 1)
          keys[b] = 0;
      }
    } else if (own && whole) {
      if (!keys)
        keys = kkr_shared_keys_get(di);
      stamps[b] = era;
      keys[b] = key;
    } else if (pcode && whole) {
      /* (Looked at after the block, in cells just visited: the tight loop
       * above keeps its values in registers.  All taken by words_ordered:
       * each cell is read by its strand alone, what block_first looks
       * for but the writes below the horizon.) */
      if (taken == m ? wlow != 0
                     : block_first(d, chunk + KKR_CELL_INDEX(bstart), cur0,
                                   dcur)) {
        if (!pend)
          pend = kkr_pend_get(di);
        kkr_pend_set(pend, b, KKR_PEND_FIRST);
        first_note((kkr_thread *)d.t, bstart, era, cur0 | pcode);
      } else if (pend && pend[b] == KKR_PEND_FIRST) {
        pend[b] = 0;
      }
    }
  }
out:
  *pa = a;
  *pcur = cur;
  return i;
}

/* read_blocks_in without own blocks (a loop's first pass), and with. */
static uint64_t read_blocks(decide_ctx d, kkr_cell *chunk, uintptr_t *pa,
                            uint64_t *pcur, uint64_t dcur, uint64_t stride,
                            uint64_t n, uint64_t site, uint64_t item_rec) {
  return read_blocks_in(d, chunk, pa, pcur, dcur, stride, n, site, item_rec,
                        0);
}
static uint64_t read_blocks_own(decide_ctx d, kkr_cell *chunk, uintptr_t *pa,
                                uint64_t *pcur, uint64_t dcur, uint64_t stride,
                                uint64_t n, uint64_t site, uint64_t item_rec) {
  return read_blocks_in(d, chunk, pa, pcur, dcur, stride, n, site, item_rec,
                        1);
}

/* Whether the thread began a loop over blocks at a (a write loop: w),
 * with the strand cur there, in this era, before: a pass of the same
 * strands over the same elements again, whose own blocks (kkr_shadow.h)
 * it looks for and stamps.  A first pass, which could not skip any, makes
 * none; nor do the loops of other strands over the same elements (each
 * iteration of an n-body kernel over all bodies). */
KKR_INLINE int loop_repeats(kkr_thread *t, uintptr_t a, uint64_t cur,
                            uint32_t w) {
  uint32_t h = (uint32_t)((a >> KKR_GRAN_SHIFT) * 0x9E3779B1u) >> 26;
  uintptr_t key = (a | w) ^ (uintptr_t)cur;
  uint32_t era = kkr_shared_era;
  int hit = t->rep_addr[h] == key && t->rep_era[h] == era;
  t->rep_addr[h] = key;
  t->rep_era[h] = era;
  return hit;
}

/* A write loop's whole words in chunk (acc: a write, or a read-then-write
 * of each element), as read_blocks: the loop's elements in an own block
 * of the same key and site are skipped (a cell that its strand wrote, with
 * no read since, which the same write leaves as it is); the others are
 * decided, their blocks' stamps cleared first, and a block whose elements
 * the loop all decided is stamped with that key.  (A read of the strand's
 * own between the two writes, which does not clear the stamp, stays
 * beside the write instead of being dropped by it.) */
static uint64_t write_blocks(decide_ctx d, kkr_cell *chunk, uintptr_t *pa,
                             uint64_t *pcur, uint64_t dcur, uint64_t stride,
                             uint64_t n, uint32_t acc, uint64_t site) {
  const uintptr_t bbytes = (uintptr_t)KKR_BLOCK_CELLS << KKR_GRAN_SHIFT;
  uintptr_t a = *pa;
  uint64_t cur = *pcur, i = 0;
  uint32_t di = KKR_DIR_INDEX(a);
  uint32_t *stamps = kkr_shared_get(di);
  uint64_t *keys = kkr_shared_keys_get(di);
  uint32_t era = kkr_shared_era;
  uint32_t sh = (stride & (stride - 1)) ? 0 : (uint32_t)__builtin_ctzll(stride);
  const uint64_t rc = sh ? 0 : block_recip(stride);
  uint64_t kbits = own_bits(stride, dcur) | 1u << 11 | site;
  while (i < n) {
    int whole;
    uint64_t m = block_span(a, stride, sh, rc, n - i, &whole);
    uint32_t b = KKR_BLOCK_INDEX(a);
    uint64_t key = own_key(cur, (a & (bbytes - 1)) >> KKR_GRAN_SHIFT, kbits);
    if (stamps[b] == era && keys[b] == key) {
      i += m;
      a += m * stride;
      cur += m * dcur;
      continue;
    }
    stamps[b] = 0;
    kkr_pend_check(a);
    for (uint64_t j = 0; j < m; j++, a += stride, cur += dcur)
      if (KKR_UNLIKELY(!decide_with(d, chunk + KKR_CELL_INDEX(a), a,
                                    KKR_GRAN, acc, cur, site))) {
        i += j;
        goto out;
      }
    i += m;
    if (whole) {
      stamps[b] = era;
      keys[b] = key;
    }
  }
out:
  *pa = a;
  *pcur = cur;
  return i;
}

/* A loop's whole words in chunk, over two blocks at least, block by block:
 * a read loop through read_blocks (looking for own blocks when it passes
 * again), a write loop that passes again through write_blocks; 0 for a
 * write loop's first pass, which loop_inc_body decides. */
static KKR_NOINLINE uint64_t loop_blocks(kkr_thread *t, kkr_cell *chunk,
                                         uintptr_t *pa, uint64_t *pcur,
                                         uint64_t dcur, uint64_t stride,
                                         uint64_t n, uint32_t acc,
                                         uint64_t site) {
  decide_ctx d = decide_ctx_of(t);
  int again = loop_repeats(t, *pa, *pcur, (acc & ACC_WRITE) != 0);
  if (!(acc & ACC_WRITE))
    return (again ? read_blocks_own : read_blocks)(
        d, chunk, pa, pcur, dcur, stride, n, site, t->abi.item_rec);
  if (again && own_may(d, *pcur, dcur))
    return write_blocks(d, chunk, pa, pcur, dcur, stride, n, acc, site);
  return 0;
}

/* The loops whose strands follow one another (a RangePolicy's iterations,
 * an MDRange's inner index, a team's nested range, or one strand
 * throughout): no strand id to compute per access. */
KKR_INLINE void loop_inc_body(kkr_thread *t, uintptr_t a, uint64_t stride,
                              uint64_t count, uint32_t size, uint32_t acc,
                              const loop_steps *ls, int wraps, uint32_t mode,
                              uint32_t vary, const uint64_t *idx,
                              uint64_t step, uintptr_t pc, site_slot *slot) {
  uint64_t site = (uint64_t)kkr_site_index(t, slot, pc) << KKR_REC_SITE_SHIFT;
  decide_ctx d = decide_ctx_of(t);
  uintptr_t plo = t->priv_lo, plen = t->priv_len;
  uintptr_t ulo = t->abi.upd_lo, ulen = t->abi.upd_len;
  uint64_t cur = ls->cur0, dcur = ls->dcur;
  uint32_t id = ls->id;
  /* (Atomic reads: the records say so; cur itself stays the strand's.) */
  const uint64_t af = acc & ACC_ATOMIC ? KKR_R_A : 0;
  /* A loop forward whose addresses miss the private ranges is decided in
   * segments (the elements of one chunk before the strand ids wrap), each
   * in a loop that only decides. */
  uintptr_t lo = a, hi = a + (count - 1) * stride + size;
  int segments = (int64_t)stride > 0 && stride < ((uint64_t)1 << 40) &&
                 (!plen || hi <= plo || lo >= plo + plen) &&
                 (!ulen || hi <= ulo || lo >= ulo + ulen);
  uint64_t k = 0;
  while (k < count) {
    kkr_cell *chunk = kkr_dir[KKR_DIR_INDEX(a)];
    int one = 1; /* an element done the general way, to step past */
    /* (In a chunk of halves: the half-cells.) */
    kkr_split *hc = !chunk ? halves_for(KKR_DIR_INDEX(a), size, count - k,
                                          halves_how(mode, stride, size, acc))
                               : NULL;
    if (!chunk && !hc)
      chunk = kkr_dir[KKR_DIR_INDEX(a)]; /* (made from runs) */
    if (segments && (chunk || hc)) {
      uint64_t n = count - k;
      uintptr_t end = KKR_CHUNK_END(a);
      if (hi > end) { /* (the loop goes on in the next chunk) */
        uint64_t in_chunk = (end - a + stride - 1) / stride;
        if (n > in_chunk)
          n = in_chunk;
      }
      if (wraps && n > ls->wrap - id)
        n = ls->wrap - id;
      uint64_t i = 0;
      /* (Blocks: a loop of whole words of a kernel, a block's stride at
       * most, over two blocks at least.) */
      int blocks = chunk && size == KKR_GRAN && !af &&
                   stride < KKR_BLOCK_CELLS * KKR_GRAN &&
                   n * stride >= 2 * KKR_BLOCK_CELLS * KKR_GRAN &&
                   t->cur_is_item;
      if (blocks && (mode == LOOP_TEAM || mode == LOOP_CURRENT)) {
        /* (Loops that may pass over the same elements again: a team's
         * nested ones and a strand's own.  Through copies: a and cur stay
         * in registers here.) */
        uintptr_t ba = a;
        uint64_t bcur = cur;
        i = loop_blocks(t, chunk, &ba, &bcur, dcur, stride, n, acc, site);
        a = ba;
        cur = bcur;
      } else if (blocks && !(acc & ACC_WRITE)) {
        i = read_blocks(d, chunk, &a, &cur, dcur, stride, n, site,
                        t->abi.item_rec);
      }
      if (chunk && (acc & ACC_WRITE) && i < n)
        kkr_shared_forget_range(a, a + (n - i - 1) * stride + size);
      if (chunk) {
        if (size == KKR_GRAN && !(acc & ~(ACC_WRITE | ACC_RMW)) && i < n)
          i += words_ordered(d, chunk, &a, &cur, stride, dcur, n - i, site,
                             (acc & ACC_WRITE) != 0, NULL);
        for (; i < n; i++, a += stride, cur += dcur)
          if (KKR_UNLIKELY(!decide_with(d, chunk + KKR_CELL_INDEX(a), a, size,
                                        acc, cur | af, site)))
            break;
      } else {
        if (((uintptr_t)hc & KKR_HC_WORDS) && size == KKR_GRAN && !acc)
          i = words_reads_ordered(
              d, (uint64_t *)((uintptr_t)hc & ~KKR_HC_TAGS), &a, &cur, stride,
              dcur, n, site);
        for (; i < n; i++, a += stride, cur += dcur)
          if (KKR_UNLIKELY(
                  !decide_in_halves(d, hc, a, size, acc, cur | af, site)))
            break;
      }
      k += i;
      id += (uint32_t)i;
      if (i < n) /* (the element that the cells did not decide) */
        loop_inc_slow(t, a, size, acc, cur, mode, vary, idx, k * step, pc,
                      slot);
      else
        one = 0;
    } else if (!(a - plo < plen || a - ulo < ulen) &&
               ((acc & ACC_WRITE) && chunk ? kkr_shared_forget(a) : (void)0,
                !decide_at(d, chunk, hc, a, size, acc, cur | af, site))) {
      loop_inc_slow(t, a, size, acc, cur, mode, vary, idx, k * step, pc, slot);
    }
    if (one) {
      k++;
      id++;
      a += stride;
      cur += dcur;
    }
    if (wraps && id == ls->wrap) {
      id -= ls->span;
      cur -= ls->span * dcur;
    }
  }
}

/* One copy per size, kind and wrapping, so that each is tight. */
#define LOOP_INC(name, size, acc, wraps)                                      \
  static KKR_NOINLINE void name(kkr_thread *t, uintptr_t a, uint64_t stride, \
                                uint64_t count, const loop_steps *ls,         \
                                uint32_t mode, uint32_t vary,                 \
                                const uint64_t *idx, uint64_t step,           \
                                uintptr_t pc, site_slot *slot) {              \
    loop_inc_body(t, a, stride, count, size, acc, ls, wraps, mode, vary, idx, \
                  step, pc, slot);                                            \
  }
typedef void loop_inc_fn(kkr_thread *t, uintptr_t a, uint64_t stride,
                         uint64_t count, const loop_steps *ls, uint32_t mode,
                         uint32_t vary, const uint64_t *idx, uint64_t step,
                         uintptr_t pc, site_slot *slot);
LOOP_INC(loop_inc_r8, 8, 0, 0)
LOOP_INC(loop_inc_w8, 8, ACC_WRITE, 0)
LOOP_INC(loop_inc_r4, 4, 0, 0)
LOOP_INC(loop_inc_w4, 4, ACC_WRITE, 0)
LOOP_INC(loop_inc_r8_wrap, 8, 0, 1)
LOOP_INC(loop_inc_w8_wrap, 8, ACC_WRITE, 1)
LOOP_INC(loop_inc_r4_wrap, 4, 0, 1)
LOOP_INC(loop_inc_w4_wrap, 4, ACC_WRITE, 1)
/* An element of a whole word read, then written by its strand: the write's
 * decision alone leaves the cell as the two would (the write drops the
 * strand's read of the same bytes, and both need the cell's records to be
 * ordered or the strand's own); what it cannot decide is read, then
 * written, the general way. */
LOOP_INC(loop_inc_rw8, 8, ACC_WRITE | ACC_RMW, 0)
LOOP_INC(loop_inc_rw8_wrap, 8, ACC_WRITE | ACC_RMW, 1)
/* Atomic reads (a reduction over a View with the Atomic trait). */
LOOP_INC(loop_inc_ra8, 8, ACC_ATOMIC, 0)
LOOP_INC(loop_inc_ra4, 4, ACC_ATOMIC, 0)
LOOP_INC(loop_inc_ra8_wrap, 8, ACC_ATOMIC, 1)
LOOP_INC(loop_inc_ra4_wrap, 4, ACC_ATOMIC, 1)

/* The stepped copy for a loop of elements of size bytes (4 or 8) and kind
 * acc (a read-then-write only of 8; atomic: reads only), with or without
 * the wrap of ids. */
KKR_INLINE loop_inc_fn *loop_inc_for(int wraps, uint32_t size, uint32_t acc) {
  if (acc & ACC_ATOMIC)
    return wraps ? (size == 8 ? loop_inc_ra8_wrap : loop_inc_ra4_wrap)
                 : (size == 8 ? loop_inc_ra8 : loop_inc_ra4);
  static loop_inc_fn *const incs[2][3][2] = {
      {{loop_inc_r4, loop_inc_w4},
       {loop_inc_r8, loop_inc_w8},
       {loop_inc_rw8, loop_inc_rw8}},
      {{loop_inc_r4_wrap, loop_inc_w4_wrap},
       {loop_inc_r8_wrap, loop_inc_w8_wrap},
       {loop_inc_rw8_wrap, loop_inc_rw8_wrap}}};
  return incs[wraps != 0][acc & ACC_RMW ? 2 : size == 8][(acc & ACC_WRITE) != 0];
}

/* Whether the strands of a loop follow one another (loop_steps), with the
 * ids loop_body would give them: the number of its first elements that do
 * (all of them, or a piece of a row of an MDRange whose ids go from packed
 * to hashed), 0 if none. */
static uint64_t loop_inc_strands(kkr_thread *t, uint32_t mode, uint32_t nidx,
                                 uint32_t vary, const uint64_t *idx,
                                 uint64_t count, uint64_t step,
                                 loop_steps *ls) {
  ls->wrap = ls->span = ls->id = 0;
  ls->dcur = (uint64_t)1 << KKR_REC_STRAND_SHIFT;
  if (mode == LOOP_CURRENT) {
    ls->cur0 = t->abi.cur_rec;
    ls->dcur = 0;
    return count;
  }
  int64_t v0 = (int64_t)idx[vary];
  int64_t v1 = v0 + (int64_t)(count - 1) * (int64_t)step;
  int64_t lo = v0 < v1 ? v0 : v1, hi = v0 < v1 ? v1 : v0;
  uint64_t id0;
  if (mode == LOOP_TEAM) {
    /* Iteration v is the team's thread (v % 126) + 1. */
    if (vary != 0 || step != 1)
      return 0;
    ls->id = (uint32_t)(idx[0] % 126) + 1;
    ls->wrap = 127;
    ls->span = 126;
    id0 = kkr_team_strand(t, ls->id);
  } else if (mode == LOOP_RANGE && vary == 0) {
    /* Iteration v is strand v % KKR_RUN_STRANDS + 2. */
    if (lo < 0)
      return 0;
    if (hi >= (int64_t)KKR_RUN_STRANDS) {
      if (step != 1)
        return 0;
      t->item_op->item->lossy = 1;
      ls->wrap = KKR_RUN_STRANDS + 2;
      ls->span = KKR_RUN_STRANDS;
    }
    id0 = ls->id = (uint32_t)((uint64_t)v0 % KKR_RUN_STRANDS) + 2;
    ls->dcur *= step;
  } else if (mode == LOOP_MD && (nidx == 2 || nidx == 3) && lo >= 0) {
    /* (The indices one by one: a copy of two at once from the array the
     * caller just wrote stalls on its stores.) */
    uint64_t i0 = idx[0], i1 = idx[1], i2 = nidx == 3 ? idx[2] : 0;
    uint64_t e0 = vary == 0 ? (uint64_t)hi : i0;
    uint64_t e1 = vary == 1 ? (uint64_t)hi : i1;
    uint64_t e2 = vary == 2 ? (uint64_t)hi : i2;
    kkr_item *it = t->item_op->item;
    uint64_t l = kkr_md_layout(it, nidx);
    uint64_t m1 = KKR_MD_M1(l), m2 = KKR_MD_M2(l);
    /* The packed id of element k is id0 + k * step * mul (of the index
     * that varies). */
    uint64_t mul = vary == 2 ? 1 : vary == 1 ? m2 : m1 * m2;
    if (e0 < KKR_MD_LIM0(l) && e1 < m1 && e2 < m2) {
      /* All packed (lo >= 0 too): the ids step by a constant (those of
       * kkr_strand_id, whose layout holds them: nothing to learn). */
      id0 = kkr_md_packed(l, i0, i1, i2) + 2;
      ls->dcur *= step * mul;
    } else {
      /* (The kernel's next items lay their ids out to hold these.) */
      kkr_md_seen(t, e0, e1, e2);
      if (vary != nidx - 1 || step != 1)
        return 0;
      /* A row (the last index varies by one) of ids that kkr_strand_id
       * packs while its indices fit the layout and hashes as a row hash
       * plus the last index beyond: a piece of each. */
      uint64_t v = (uint64_t)v0, limit = nidx == 2 ? m1 : m2;
      id0 = nidx == 2 ? kkr_strand_id(it, i0, v, 0, 2, 0)
                      : kkr_strand_id(it, i0, i1, v, 3, 0);
      if (i0 < KKR_MD_LIM0(l) && (nidx == 2 || i1 < m1) && v < limit) {
        if (count > limit - v) /* (packed up to the limit) */
          count = limit - v;
      } else {
        ls->id = (uint32_t)id0;
        ls->wrap = KKR_RUN_STRANDS + 2;
        ls->span = KKR_RUN_STRANDS;
      }
    }
  } else {
    return 0;
  }
  ls->cur0 = t->abi.item_rec | id0 << KKR_REC_STRAND_SHIFT;
  return count;
}

/* One loop's accesses, in the copy of the loop that fits, when the strands
 * do not follow one another. */
static void loop_other(kkr_thread *t, uintptr_t a, uint64_t stride,
                       uint64_t count, uint32_t size, uint32_t acc,
                       uint32_t mode, uint32_t nidx, uint32_t vary,
                       uint64_t *idx, uint64_t step, uintptr_t pc,
                       site_slot *slot) {
  loop_fn *fn = NULL;
  /* (Inside a Kokkos atomic, or with several threads: the full path only,
   * through loop_any.  Vector lanes: the copies know them, as loop_any.) */
  int general = kkr_nofast_single(t) || kkr_mt || (acc & ACC_ATOMIC);
  if (!general && mode == LOOP_MD && vary == 1 && size == 8)
    fn = acc & ACC_WRITE ? loop_w8_md : loop_r8_md;
  else if (!general && mode == LOOP_MD && vary == 0 && size == 8)
    fn = acc & ACC_WRITE ? loop_w8_md0 : loop_r8_md0;
  else if (!general && mode == LOOP_CURRENT && size == 16)
    fn = acc & ACC_WRITE ? loop_w16_cur : loop_r16_cur;
  else if (!general && mode == LOOP_LANES && size == 8)
    fn = acc & ACC_WRITE ? loop_w8_lanes : loop_r8_lanes;
  if (fn)
    fn(t, a, stride, count, nidx, vary, idx, step, pc, slot);
  else
    loop_any(t, a, stride, count, size, acc, mode, nidx, vary, idx, step, pc,
             slot);
}

/* One loop's accesses word by word, in the copy of the loop that fits. */
KKR_INLINE void loop_dispatch(kkr_thread *t, uintptr_t a, uint64_t stride,
                              uint64_t count, uint32_t size, uint32_t acc,
                              uint32_t mode, uint32_t nidx, uint32_t vary,
                              uint64_t *idx, uint64_t step, uintptr_t pc,
                              site_slot *slot) {
  loop_steps ls;
  uint64_t n;
  if (!kkr_nofast_single(t) && !kkr_mt && (size == 8 || size == 4) &&
      !(a & (size - 1)) && !(stride & (size - 1)) &&
      (size == 8 || !(acc & ACC_RMW)) &&
      (n = loop_inc_strands(t, mode, nidx, vary, idx, count, step, &ls))) {
    for (;;) {
      /* (A loop whose ids cannot reach the wrap: the copy without it.) */
      loop_inc_for(ls.wrap != 0 && n > ls.wrap - ls.id, size, acc)(
          t, a, stride, n, &ls, mode, vary, idx, step, pc, slot);
      if (n == count)
        return;
      /* (The next piece of an MDRange row.) */
      count -= n;
      a += n * stride;
      idx[vary] += n * step;
      n = loop_inc_strands(t, mode, nidx, vary, idx, count, step, &ls);
      if (!n)
        break;
    }
  }
  if (acc & ACC_RMW) {
    loop_other(t, a, stride, count, size, 0, mode, nidx, vary, idx, step, pc,
               slot);
    acc = ACC_WRITE;
  }
  loop_other(t, a, stride, count, size, acc, mode, nidx, vary, idx, step, pc,
             slot);
}

/* Whether an MDRange kernel's loop of count elements (idx: the first's
 * indices) is a row whose strands' ids follow one another as a RangePolicy
 * kernel's do: its last index varies by one, and the row lies within the
 * item's layout but for its first index (the ids of rows beyond it go on,
 * modulo the ids' count: kkr_md_row_base). */
KKR_INLINE int md_row_linear(const kkr_thread *t, uint32_t nidx,
                             uint32_t vary, const uint64_t *idx,
                             uint64_t count, uint64_t step) {
  /* (A first index below 2^32, not negative: its packed index does not
   * overflow, and is kkr_strand_id's modulo the ids' count.) */
  if ((nidx != 2 && nidx != 3) || vary != nidx - 1 || step != 1 ||
      idx[0] >> 32)
    return 0;
  uint64_t l = kkr_md_layout(t->item_op->item, nidx);
  uint64_t m1 = KKR_MD_M1(l), m2 = KKR_MD_M2(l);
  return nidx == 2 ? idx[1] < m1 && count <= m1 - idx[1]
                   : idx[1] < m1 && idx[2] < m2 && count <= m2 - idx[2];
}

/* The strand index (before the wrap) of a loop's first element, whose
 * indices are idx: a RangePolicy kernel's index, or for an MDRange row
 * (md_row_linear) the packed index of its first element, from which the
 * row's ids step by one as a RangePolicy kernel's do. */
KKR_INLINE uint64_t loop_strand0(const kkr_thread *t, uint32_t mode,
                                 uint32_t nidx, const uint64_t *idx) {
  if (mode != LOOP_MD)
    return idx[0];
  return kkr_md_packed(kkr_md_layout(t->item_op->item, nidx), idx[0], idx[1],
                       nidx == 2 ? 0 : idx[2]);
}

/* A loop whose k-th iteration accesses the k-th element of size esz (8,
 * or 4 with a word-aligned a and an even count) of [a, a + esz count):
 * chunk by chunk through runs, each element by its strand (a RangePolicy
 * kernel's iterations, or those of an MDRange row, whose index vary goes
 * on by one) or all by the current one. */
static void loop_runs(kkr_thread *t, uintptr_t a, uint64_t count,
                      uint32_t esz, uint32_t acc, uint32_t mode,
                      uint32_t nidx, uint32_t vary, const uint64_t *idx,
                      uintptr_t pc, site_slot *slot) {
  uint64_t site = (uint64_t)kkr_site_index(t, slot, pc) << KKR_REC_SITE_SHIFT;
  run_acc in = {(mode == LOOP_CURRENT ? t->abi.cur_rec : t->abi.item_rec) |
                    site | 0xFF0 | (acc & ACC_WRITE ? KKR_R_W : 0),
                0, mode == LOOP_CURRENT ? 0 : esz == KKR_GRAN ? 1 : 2};
  uint64_t i = loop_strand0(t, mode, nidx, idx);
  if (mode != LOOP_CURRENT && i + count > KKR_RUN_STRANDS)
    t->item_op->item->lossy = 1; /* (as loop_strand_id) */
  uintptr_t end = a + count * esz;
  uint64_t done = 0;
  while (a < end) {
    uintptr_t hi = KKR_CHUNK_END(a);
    if (hi > end)
      hi = end;
    uint64_t n = (hi - a) / esz;
    in.base = i;
    if (!run_segment(t, a, hi, &in)) {
      uint64_t j[3] = {idx[0], idx[1], idx[2]};
      j[vary] += done;
      loop_dispatch(t, a, esz, n, esz, acc, mode, nidx, vary, j, 1, pc, slot);
      /* The run from now on, if the cells follow a rule (after a write
       * loop they do; split cells never do). */
      if ((hi - a) >> KKR_GRAN_SHIFT >= 4 * RUN_MIN_WORDS &&
          (esz == KKR_GRAN || mode == LOOP_CURRENT))
        kkr_runs_try_convert(KKR_DIR_INDEX(a), a, hi);
    }
    a = hi;
    i += n;
    done += n;
  }
}

/* The same for elements of 4 bytes (int, float) from any 4-byte aligned
 * a: an element before the first whole word, and one after the last, go
 * to the cells. */
static void loop_runs4(kkr_thread *t, uintptr_t a, uint64_t count,
                       uint32_t acc, uint32_t mode, uint32_t nidx,
                       uint32_t vary, const uint64_t *idx, uintptr_t pc,
                       site_slot *slot) {
  uint64_t j[3] = {idx[0], idx[1], idx[2]};
  if (a & 4) {
    uint64_t k[3] = {j[0], j[1], j[2]};
    loop_dispatch(t, a, 4, 1, 4, acc, mode, nidx, vary, k, 1, pc, slot);
    a += 4;
    count--;
    j[vary]++;
  }
  loop_runs(t, a, count & ~(uint64_t)1, 4, acc, mode, nidx, vary, j, pc, slot);
  if (count & 1) {
    j[vary] += count - 1;
    loop_dispatch(t, a + 4 * (count - 1), 4, 1, 4, acc, mode, nidx, vary, j, 1,
                  pc, slot);
  }
}

/* The thread of a loop's check, or null when it checks nothing (before the
 * runtime starts, or while the thread is ignored). */
KKR_INLINE kkr_thread *loop_thread(void) {
  kkr_thread *t = kkr_tls;
  if (KKR_UNLIKELY(!t)) {
    if (!kkr_inited)
      return NULL;
    t = kkr_thread_slow();
  }
  return t->ignore ? NULL : t;
}

/* What a loop check's packed argument says (kkr_abi.h): the elements' size,
 * the kind of access (ACC_*), and the strands' indices. */
KKR_INLINE void loop_kind(uint32_t packed, uint32_t *size, uint32_t *acc,
                          uint32_t *nidx, uint32_t *vary) {
  *size = packed & KKR_LOOP_SIZE_MASK;
  *acc = packed & KKR_LOOP_WRITE ? ACC_WRITE : 0;
  if ((packed & KKR_LOOP_READ) && *acc)
    *acc |= ACC_RMW;
  if (packed & KKR_LOOP_ATOMIC)
    *acc |= ACC_ATOMIC; /* (an atomic read, or read-modify-write) */
  *nidx = (packed >> KKR_LOOP_NIDX_SHIFT) & 3;
  *vary = (packed >> KKR_LOOP_VARY_SHIFT) & 3;
}

/* In a team's own code, with no nested loop of the team open (where a
 * TeamThreadRange loop's iterations are nested strands). */
KKR_INLINE int in_team_code(const kkr_thread *t) {
  return t->item_op && t->abi.strand_depth == 1 && t->team_nest == 0 &&
         kkr_in_team_item(t);
}

/* Who makes a loop's accesses (LOOP_*): the iterations of a team's nested
 * range, those of the running kernel (opened here as its strands), or the
 * current strand. */
KKR_INLINE uint32_t loop_mode_begin(kkr_thread *t, uint32_t nidx,
                                    uint32_t packed, uint64_t count) {
  uint32_t mode = LOOP_CURRENT;
  if (packed & KKR_LOOP_VECTOR) {
    /* A vector loop's lanes: strands of their own, or the current one. */
    if (kkr_lanes_loop(t))
      mode = LOOP_LANES;
  } else if (nidx == 1 && in_team_code(t)) {
    /* A nested TeamThreadRange loop in a team's own code. */
    mode = LOOP_TEAM;
  } else if (nidx && t->item_op && !t->abi.strand_depth) {
    /* Each iteration is a strand of the running kernel. */
    mode = nidx == 1 ? LOOP_RANGE : LOOP_MD;
    kkr_op *op = t->item_op;
    if (t->strand_count == 0) {
      op->item->nidx = (uint8_t)nidx;
      kkr_strand_mode(t, nidx);
    }
    t->strand_count += (uint32_t)count;
    t->abi.strand_depth = 1;
  }
  halves_settle(t);
  return mode;
}

/* After the loop's check: back to the strand before it. */
KKR_INLINE void loop_mode_end(kkr_thread *t, uint32_t mode,
                              uint64_t saved_rec) {
  if (mode != LOOP_CURRENT && mode != LOOP_TEAM && mode != LOOP_LANES) {
    t->abi.strand_depth = 0;
    t->team_on = 0;
    t->abi.cur_rec = t->abi.item_rec |
                     (uint64_t)KKR_STRAND_BACKEND << KKR_REC_STRAND_SHIFT;
  } else {
    t->abi.cur_rec = saved_rec;
  }
}

/* An unrolled and vectorized loop of the current strand comes as several
 * checks, one per instruction, each of every stride-th group of bytes at
 * its offset (four of 16 bytes in 64, say).  After the one that completes
 * the stride, the cells of the whole range may follow a rule (the sites in
 * turn): runs from now on, as after a loop of words.  A host loop filling
 * a pinned buffer then makes each later copy of it cheap. */
static __thread struct {
  uintptr_t lo, next;
  uint64_t stride, count;
} interleaved;

static void interleaved_done(kkr_thread *t, uintptr_t a, uint64_t stride,
                             uint64_t count, uint32_t size) {
  if (stride % KKR_GRAN || count * stride < KKR_BULK_BYTES ||
      count > UINT64_MAX / stride)
    return;
  if (a != interleaved.next || stride != interleaved.stride ||
      count != interleaved.count) {
    interleaved.lo = a;
    interleaved.stride = stride;
    interleaved.count = count;
  }
  interleaved.next = a + size;
  if (interleaved.next != interleaved.lo + stride)
    return;
  uintptr_t lo = (interleaved.lo + KKR_GRAN - 1) & ~(uintptr_t)(KKR_GRAN - 1);
  uintptr_t end = (interleaved.lo + stride * count) & ~(uintptr_t)(KKR_GRAN - 1);
  interleaved.next = 0;
  if (lo >= end || !runs_allowed(t, lo, end))
    return;
  while (lo < end) {
    uintptr_t hi = KKR_CHUNK_END(lo);
    if (hi > end)
      hi = end;
    if ((hi - lo) >> KKR_GRAN_SHIFT >= 4 * RUN_MIN_WORDS)
      kkr_runs_try_convert(KKR_DIR_INDEX(lo), lo, hi);
    lo = hi;
  }
}

static void loop_at(void *base, unsigned long long stride,
                    unsigned long long count, unsigned int packed,
                    unsigned long long i0, unsigned long long i1,
                    unsigned long long i2, unsigned long long step,
                    void *slot_, uintptr_t pc) {
  site_slot *slot = slot_;
  kkr_thread *t = loop_thread();
  if (!t || count == 0)
    return;
  uint32_t size, acc, nidx, vary;
  loop_kind(packed, &size, &acc, &nidx, &vary);
  uintptr_t a = (uintptr_t)base;
  uint64_t idx[3] = {i0, i1, i2};
  /* Every iteration at one address: after two, nothing new is learned
   * (the reads are shared, or the writes race). */
  if (stride == 0 && count > 2)
    count = 2;
  /* A nested loop of several indices in a team's own code (Kokkos 4's
   * TeamThreadMDRange): each iteration is begun as a nested strand, as the
   * loop's own code would, and its access checked in it. */
  if (nidx >= 2 && in_team_code(t)) {
    for (uint64_t k = 0; k < count; k++) {
      uint64_t j[3] = {i0, i1, i2};
      j[vary] += k * step;
      __kkrace_strand_begin(j[0], j[1], j[2], nidx, NULL, 0);
      uintptr_t e = a + k * stride;
      if (acc & ACC_RMW)
        access_range(t, e, size, 0, pc, FRAME, slot);
      access_range(t, e, size, acc & ~ACC_RMW, pc, FRAME, slot);
      __kkrace_strand_end();
    }
    return;
  }
  /* (An MDRange item's first loop over its last index: the row whose
   * length its first layout may take, kkr_md_begin.) */
  if (nidx >= 2 && t->strand_count == 0)
    t->md_row_end = vary == nidx - 1 && step == 1
                        ? (vary == 1 ? i1 : i2) + count
                        : 0;
  uint32_t mode = loop_mode_begin(t, nidx, packed, count);
  t->md_row_end = 0;
  uint64_t saved_rec = t->abi.cur_rec;
  /* A vectorized loop of the current strand over contiguous elements of
   * several words (16, 32 or 64 bytes an iteration): the same accesses as
   * a loop over its words, which runs can hold.  (A host loop filling a
   * buffer: its runs make a later copy of the whole buffer cheap.) */
  if (mode == LOOP_CURRENT && size > KKR_GRAN && size % KKR_GRAN == 0 &&
      stride == size && !(a & (KKR_GRAN - 1)) &&
      count <= UINT64_MAX / size) {
    count *= size / KKR_GRAN;
    stride = size = KKR_GRAN;
  }
  /* The host's loop filling an array (host_fill), each chunk's part on
   * its own. */
  if (mode == LOOP_CURRENT && !t->cur_is_item && acc == ACC_WRITE &&
      stride == size && (size == 4 || size == 8) && !(a & (size - 1)) &&
      count <= KKR_CELLS_PER_CHUNK && !kkr_mt &&
      !__atomic_load_n(&kkr_spawned, __ATOMIC_RELAXED)) {
    uint64_t site = (uint64_t)kkr_site_index(t, slot, pc)
                    << KKR_REC_SITE_SHIFT;
    uintptr_t hi = a + count * size;
    while (a < hi) {
      uintptr_t e = KKR_CHUNK_END(a) < hi ? KKR_CHUNK_END(a) : hi;
      uint64_t done = host_fill(t, a, e, size, site);
      a += done;
      if (a < e)
        break;
    }
    if (a == hi) {
      loop_mode_end(t, mode, saved_rec);
      return;
    }
    count = (hi - a) / size;
  }
  /* The current strand's row in a chunk of runs (`conn(i, j)` for j < K,
   * `A(j, i)` for i < M, at the front of the run that the kernel's
   * iterations sweep): one decision for all of it (rows_range).  A row is
   * a chunk's words at most, so that it lies in two chunks at most. */
  if (mode == LOOP_CURRENT && stride == size && (size == 4 || size == 8) &&
      !(acc & ACC_ATOMIC) && count <= KKR_CELLS_PER_CHUNK && !kkr_mt) {
    uintptr_t hi = a + count * size, mid = KKR_CHUNK_END(a);
    uint64_t site = (uint64_t)kkr_site_index(t, slot, pc)
                    << KKR_REC_SITE_SHIFT;
    int rows_lo, rows_hi;
    if (hi <= mid) {
      if (rows_chunk(t, a) && rows_range(t, a, hi, acc, site)) {
        loop_mode_end(t, mode, saved_rec);
        return;
      }
    } else if ((rows_lo = rows_chunk(t, a)) | (rows_hi = rows_chunk(t, mid))) {
      /* (A row across two chunks: each part on its own, in its chunk's
       * runs or through the loop as usual.) */
      uint64_t n = (mid - a) / size;
      /* (The elements' size as counted here: a vector loop's are words
       * by now.) */
      uint32_t p = (packed & ~KKR_LOOP_SIZE_MASK) | size;
      if (!rows_lo || !rows_range(t, a, mid, acc, site))
        loop_at(base, stride, n, p, i0, i1, i2, step, slot_, pc);
      if (!rows_hi || !rows_range(t, mid, hi, acc, site))
        loop_at((void *)mid, stride, count - n, p, i0, i1, i2, step, slot_,
                pc);
      loop_mode_end(t, mode, saved_rec);
      return;
    }
  }
  /* The current strand's column of a matrix in chunks of runs (`A(j, i)`
   * for i < M in a LayoutLeft View: iteration j's reads or writes, a host
   * loop's fill): a rule of columns (cols_range) for what it decides, the
   * cells for the rest. */
  if (mode == LOOP_CURRENT && size == KKR_GRAN &&
      (acc == 0 || acc == ACC_WRITE) && stride > KKR_GRAN &&
      !(stride & (KKR_GRAN - 1)) && stride <= KKR_CELLS_PER_CHUNK * KKR_GRAN &&
      !(a & (KKR_GRAN - 1)) && count >= COLS_MIN && !kkr_mt && !t->nofast) {
    uint64_t done = cols_range(
        t, a, stride, count, acc,
        (uint64_t)kkr_site_index(t, slot, pc) << KKR_REC_SITE_SHIFT);
    if (done == count) {
      loop_mode_end(t, mode, saved_rec);
      return;
    }
    a += done * stride;
    count -= done;
  }
  /* A team's nested loop over a row of words in a chunk of runs (`A(j, i)`
   * for i < M, in team j's TeamThreadRange): one decision for all of it
   * (team_rows_range), each chunk's part on its own. */
  if (mode == LOOP_TEAM && size == KKR_GRAN && stride == KKR_GRAN &&
      vary == 0 && step == 1 && !(a & (KKR_GRAN - 1)) &&
      !(acc & ACC_ATOMIC) && count >= TEAM_ROWS_MIN &&
      count <= KKR_CELLS_PER_CHUNK && !kkr_mt && !t->nofast) {
    uintptr_t hi = a + count * KKR_GRAN, mid = KKR_CHUNK_END(a);
    uint64_t site = (uint64_t)kkr_site_index(t, slot, pc)
                    << KKR_REC_SITE_SHIFT;
    uint64_t n = hi <= mid ? count : (mid - a) >> KKR_GRAN_SHIFT;
    int done_lo = rows_chunk(t, a) &&
                  team_rows_range(t, a, a + n * KKR_GRAN, acc, site, i0,
                                  count, 0);
    int done_hi = n == count ||
                  (rows_chunk(t, mid) &&
                   team_rows_range(t, mid, hi, acc, site, i0, count, n));
    if (!done_lo || !done_hi) {
      /* (The parts left: the nested loop's copies, through the cells.) */
      uint64_t j[3] = {i0, i1, i2};
      if (!done_lo)
        loop_dispatch(t, a, stride, n, size, acc, mode, nidx, vary, j, step,
                      pc, slot);
      j[0] = i0 + n;
      if (!done_hi)
        loop_dispatch(t, mid, stride, count - n, size, acc, mode, nidx, vary,
                      j, step, pc, slot);
    }
    loop_mode_end(t, mode, saved_rec);
    return;
  }
  uint64_t span = (int64_t)stride < 0 ? -stride : stride;
  /* (count >= ceil(KKR_BULK_BYTES / span), without a division.) */
  uint64_t swept;
  kkr_shadow_bulk = span && (__builtin_mul_overflow(count, span, &swept) ||
                             swept >= KKR_BULK_BYTES);
  /* Common short loops straight to their stepped copy: a RangePolicy
   * kernel's (strands i0, i0 + 1, ... of packed ids, too short for runs), a
   * team's nested one whose thread ids do not wrap (loop_inc_strands), and
   * one of the current strand over elements in cells (a row that the
   * kernel's iteration reads, `A(i, j)` for j < m). */
  loop_steps ls = {0, (uint64_t)1 << KKR_REC_STRAND_SHIFT, 0, 0, 0};
  int tight = stride == size && !(a & (size - 1)) && !t->nofast && !kkr_mt &&
              (!(acc & ACC_ATOMIC) || acc == ACC_ATOMIC);
  int stepped = tight && vary == 0 && step == 1;
  int words = size == 8 || (size == 4 && !(acc & ACC_RMW));
  int direct = 1;
  if (stepped && mode == LOOP_RANGE && size == 8 && count < RUN_MIN_WORDS &&
      i0 < KKR_RUN_STRANDS - count) {
    ls.cur0 = t->abi.item_rec | (i0 + 2) << KKR_REC_STRAND_SHIFT;
  } else if (stepped && mode == LOOP_TEAM && words &&
             i0 % 126 + count <= 126) {
    ls.cur0 = t->abi.item_rec | (uint64_t)kkr_team_strand(t, i0 % 126 + 1)
                                    << KKR_REC_STRAND_SHIFT;
  } else if (tight && mode == LOOP_CURRENT && words &&
             count < RUN_MIN_WORDS && kkr_dir[KKR_DIR_INDEX(a)]) {
    ls.cur0 = t->abi.cur_rec;
    ls.dcur = 0;
  } else {
    direct = 0;
  }
  if (direct) {
    loop_inc_for(0, size, acc)(t, a, stride, count, &ls, mode, vary, idx, step,
                               pc, slot);
  } else if (acc == ACC_ATOMIC && (size == 4 || size == 8)) {
    /* (Atomic reads: the stepped copies where the strands follow one
     * another, which decide them as atomic.) */
    loop_dispatch(t, a, stride, count, size, acc, mode, nidx, vary, idx, step,
                  pc, slot);
  } else if (acc & ACC_ATOMIC) {
    /* (Atomic updates: the general loop, which decides them as atomic.) */
    loop_any(t, a, stride, count, size, acc, mode, nidx, vary, idx, step, pc,
             slot);
  } else if (stride == KKR_GRAN && size == KKR_GRAN && !(a & (KKR_GRAN - 1)) &&
      (mode == LOOP_CURRENT || (mode == LOOP_RANGE && vary == 0 && step == 1) ||
       (mode == LOOP_MD && md_row_linear(t, nidx, vary, idx, count, step))) &&
      runs_allowed(t, a, a + count * KKR_GRAN)) {
    if (acc & ACC_RMW)
      loop_runs(t, a, count, KKR_GRAN, 0, mode, nidx, vary, idx, pc, slot);
    loop_runs(t, a, count, KKR_GRAN, acc & ~ACC_RMW, mode, nidx, vary, idx,
              pc, slot);
  } else if (stride == 4 && size == 4 && !(a & 3) &&
             (mode == LOOP_CURRENT ||
              (mode == LOOP_RANGE && vary == 0 && step == 1) ||
              (mode == LOOP_MD &&
               md_row_linear(t, nidx, vary, idx, count, step))) &&
             runs_allowed(t, (a + 7) & ~(uintptr_t)7,
                          (a + 4 * count) & ~(uintptr_t)7)) {
    if (acc & ACC_RMW)
      loop_runs4(t, a, count, 0, mode, nidx, vary, idx, pc, slot);
    loop_runs4(t, a, count, acc & ~ACC_RMW, mode, nidx, vary, idx, pc, slot);
  } else if (size == 4 && (acc & ACC_RMW) &&
             ((int64_t)stride >= 4 || (int64_t)stride <= -4)) {
    /* Elements of 4 bytes read, then written, by their strands: the reads,
     * then the writes, each in its stepped loop (the elements are
     * distinct: the order between two of them does not matter). */
    uint64_t v0 = idx[vary];
    loop_dispatch(t, a, stride, count, size, 0, mode, nidx, vary, idx, step,
                  pc, slot);
    idx[vary] = v0;
    loop_dispatch(t, a, stride, count, size, ACC_WRITE, mode, nidx, vary, idx,
                  step, pc, slot);
  } else {
    /* Elements of several words that do not overlap (two fields of a
     * struct loaded as one vector) go word by word, each a loop of its own
     * in the stepped copies: each word is accessed once, in the same order
     * as before, and its decisions do not depend on the others'. */
    uint32_t part = size > KKR_GRAN && size <= 64 &&
                            !(size & (KKR_GRAN - 1)) &&
                            !(a & (KKR_GRAN - 1)) &&
                            !(stride & (KKR_GRAN - 1)) && span >= size
                        ? KKR_GRAN
                        : size;
    uint64_t v0 = idx[vary];
    for (uint32_t w = 0; w < size; w += part) {
      idx[vary] = v0;
      loop_dispatch(t, a + w, stride, count, part, acc, mode, nidx, vary, idx,
                    step, pc, slot);
    }
    if (mode == LOOP_CURRENT && stride > size)
      interleaved_done(t, a, stride, count, size);
  }
  kkr_shadow_bulk = 0;
  loop_mode_end(t, mode, saved_rec);
}

/* One access of a loop of the current strand that reaches one element: a
 * loop of one iteration, or at one address (after the first, the same
 * strand's same access learns nothing).  An inner loop whose trip count
 * the kernel's iteration computes (`for (j = 0; j < K; ++j) a(i) += ...`,
 * the store left in the loop) is checked once per iteration: through the
 * single accesses' inline decision, not the loops' set-up. */
static KKR_NOINLINE void loop_one(uintptr_t a, uint32_t size, uint32_t packed,
                                  site_slot *slot, uintptr_t pc) {
  uint32_t lg = (uint32_t)__builtin_ctz(size); /* (size: 4 or 8) */
  if ((packed & KKR_LOOP_READ) && (packed & KKR_LOOP_WRITE) &&
      !access_fast(a, size, 0, slot))
    access_more(a, size, lg, 0, pc, slot);
  uint32_t acc = packed & KKR_LOOP_WRITE ? ACC_WRITE : 0;
  if (!access_fast(a, size, acc, slot))
    access_more(a, size, lg, acc, pc, slot);
}

KKR_EXPORT void __kkrace_loop(void *base, unsigned long long stride,
                              unsigned long long count, unsigned int packed,
                              unsigned long long i0, unsigned long long i1,
                              unsigned long long i2, unsigned long long step,
                              void *slot) {
  uint32_t size = packed & KKR_LOOP_SIZE_MASK;
  kkr_thread *t = kkr_tls;
  if ((count == 1 || (stride == 0 && count)) && (size == 8 || size == 4) &&
      !(packed & (KKR_LOOP_VECTOR | KKR_LOOP_ATOMIC |
                  (3u << KKR_LOOP_NIDX_SHIFT))) &&
      t && !t->nofast) {
    loop_one((uintptr_t)base, size, packed, slot, RET_PC);
    return;
  }
  /* Every lane of a vector loop reading one address (a field of the
   * closure: the nested iteration's index, a View's data pointer), where
   * the lanes are their thread (it has no strand id left for lanes): one
   * read of the current strand. */
  if (stride == 0 && count && (size == 8 || size == 4) &&
      (packed & (KKR_LOOP_VECTOR | KKR_LOOP_WRITE | KKR_LOOP_ATOMIC |
                 (3u << KKR_LOOP_NIDX_SHIFT))) ==
          (KKR_LOOP_VECTOR | 1u << KKR_LOOP_NIDX_SHIFT) &&
      t && !kkr_nofast_single(t) && !kkr_lanes_loop(t)) {
    loop_one((uintptr_t)base, size, packed, slot, RET_PC);
    return;
  }
  loop_at(base, stride, count, packed, i0, i1, i2, step, slot, RET_PC);
}

/* Iterations [k, k + n) of a loop checked in pieces, from address a: the
 * varying strand index advanced by k steps. */
static void loop_piece(uintptr_t a, uint64_t stride, uint64_t n,
                       uint32_t packed, uint64_t i0, uint64_t i1, uint64_t i2,
                       uint64_t step, uint64_t k, void *slot, uintptr_t pc) {
  uint64_t idx[3] = {i0, i1, i2};
  idx[(packed >> KKR_LOOP_VARY_SHIFT) & 3] += k * step;
  loop_at((void *)a, stride, n, packed, idx[0], idx[1], idx[2], step, slot,
          pc);
}

/* __kkrace_loop for the iterations [0, count) but x0 and x1 (a loop's
 * access under `if (j != 0)`: the excluded iterations, or any value out of
 * [0, count) for none): in up to three pieces. */
KKR_EXPORT void __kkrace_loop_except(void *base, unsigned long long stride,
                                     unsigned long long count,
                                     unsigned int packed,
                                     unsigned long long i0,
                                     unsigned long long i1,
                                     unsigned long long i2,
                                     unsigned long long step, void *slot,
                                     unsigned long long x0,
                                     unsigned long long x1) {
  uintptr_t pc = RET_PC;
  if (x0 > x1) {
    unsigned long long x = x0;
    x0 = x1;
    x1 = x;
  }
  unsigned long long cut[3] = {x0, x1, count}, k = 0;
  for (int c = 0; c < 3; c++) {
    unsigned long long e = cut[c] < count ? cut[c] : count;
    if (e > k)
      loop_piece((uintptr_t)base + k * stride, stride, e - k, packed, i0, i1,
                 i2, step, k, slot, pc);
    if (e >= k)
      k = e + 1;
  }
}

/* __kkrace_loop for a wrapped index, in pieces between its wraps: on
 * iterations [k, k + len) the remainder e runs up by one, so that the
 * accesses are a loop's from base + e * scale.  After two whole rounds of
 * the remainder's values nothing new is learned (each element was reached
 * by two iterations: its reads are shared, or its writes race, as with
 * every iteration at one address), so the pieces stop there. */
KKR_EXPORT void __kkrace_loop_wrap(void *base, unsigned long long scale,
                                   unsigned long long count,
                                   unsigned int packed, unsigned long long i0,
                                   unsigned long long i1,
                                   unsigned long long i2,
                                   unsigned long long step, void *slot,
                                   unsigned long long x0,
                                   unsigned long long n) {
  uintptr_t pc = RET_PC;
  int is_signed = !(packed & KKR_WRAP_UNSIGNED);
  uint64_t top = packed & KKR_WRAP_32 ? 0xFFFFFFFFull : ~0ull;
  packed &= ~(KKR_WRAP_UNSIGNED | KKR_WRAP_32);
  if (is_signed && (int64_t)n < 0)
    n = -n; /* (C's x % n is x % -n) */
  if (n == 0 || (is_signed && (int64_t)n < 0))
    return; /* (the program divides by zero, or by INT64_MIN) */
  uint64_t k = 0, first = 0;
  int wrapped = 0;
  while (k < count) {
    int64_t e;
    uint64_t len;
    if (is_signed) {
      int64_t x = (int64_t)(x0 + k);
      e = x % (int64_t)n;
      if (x >= 0)
        len = n - (uint64_t)e;
      else if (x == e) /* (up to -1, then on from 0 to n - 1) */
        len = (uint64_t)-e + n;
      else /* (up to 0, which is a multiple of n below 0) */
        len = (uint64_t)-e + 1;
    } else {
      uint64_t x = (x0 + k) & top;
      e = (int64_t)(x % n);
      len = n - (uint64_t)e;
      if (top - x < len - 1) { /* (x wraps around first) */
        len = top - x + 1;
        wrapped = 1;
      }
    }
    if (len > count - k)
      len = count - k;
    loop_piece((uintptr_t)base + (uint64_t)e * scale, scale, len, packed, i0,
               i1, i2, step, k, slot, pc);
    if (!k)
      first = len;
    k += len;
    if (k >= first + 2 * n && !wrapped)
      break;
  }
}

/* The bits of a loop's or a gather's packed argument that say whose its
 * iterations are (a loop check of the same strands takes them). */
#define LOOP_STRAND_FLAGS                                                     \
  ((3u << KKR_LOOP_NIDX_SHIFT) | KKR_LOOP_VECTOR | (3u << KKR_LOOP_VARY_SHIFT))

/* The kinds of gathers that the tight loop has copies for (gather_fast). */
enum { GATHER_ANY, GATHER_CUR, GATHER_TEAM_IDX };

/* A gather's companion (__kkrace_gather_with): the elements at base, base
 * + size, ... that the same strands read at its iterations (val(k) beside
 * x(col(k))); size 0 for none. */
typedef struct {
  uintptr_t base;
  uint32_t size;
  site_slot *slot;
} gather_with;

/* decide_at out of line, for the cases that a gather's tight loop does
 * not take itself (gather_read_at). */
static KKR_NOINLINE int gather_decide(const decide_ctx *d, kkr_cell *chunk,
                                      kkr_split *hc, uintptr_t a,
                                      uint32_t size, uint64_t cur,
                                      uint64_t site) {
  return decide_at(*d, chunk, hc, a, size, 0, cur, site);
}

/* A gather's read of size bytes at a by cur, decided in the cells or
 * half-cells of its chunk (*of: the chunk that *chunk and *hc are of,
 * looked up again when a leaves it), the common cases inline and the rest
 * out of line: 0 when they do not decide it, or its chunk has neither
 * yet. */
KKR_INLINE int gather_read_at(const decide_ctx *d, uintptr_t a, uint32_t size,
                              uint64_t cur, uint64_t site, uintptr_t *of,
                              kkr_cell **chunk, kkr_split **hc) {
  if ((a >> KKR_CHUNK_SHIFT) != *of) {
    *of = a >> KKR_CHUNK_SHIFT;
    *chunk = kkr_dir[KKR_DIR_INDEX(a)];
    *hc = *chunk ? NULL : kkr_half_any(KKR_DIR_INDEX(a));
  }
  /* (A 4-byte element of a split cell in its half-cell: an array of int
   * whose words strands split, `col(k)` of a sparse row; or its record
   * in compact halves.) */
  kkr_cell *c = NULL;
  if (*chunk)
    c = access_cell_of(*chunk + KKR_CELL_INDEX(a), a, size);
  else if (KKR_UNLIKELY((uintptr_t)*hc & KKR_HC_WORDS)) {
    if (words_read(d,
                   kkr_words_rec((uint64_t *)((uintptr_t)*hc & ~KKR_HC_TAGS),
                                 a),
                   a, size, cur, site))
      return 1;
  } else if (KKR_UNLIKELY((uintptr_t)*hc & KKR_HC_COMPACT)) {
    if (compact_read(d,
                     kkr_compact_rec(
                         (uint64_t *)((uintptr_t)*hc & ~KKR_HC_COMPACT), a),
                     a, size, cur, site))
      return 1;
  } else if (*hc)
    c = kkr_half_cell(*hc, a);
  if (c && decide_read_common(d, c, rec_mask(a, size), cur, site))
    return 1;
  return gather_decide(d, *chunk, *hc, a, size, cur, site);
}

/* A gather's reads of 4- or 8-byte elements by the current strand or by a
 * team's nested iterations (`x(col(k))` in a row, `A(conn(i, j))` for the
 * j of an element), through an index that is not cut: each element
 * decided inline in its cells or half-cells, with nothing else in the
 * loop (loop_body asks for every element what kind of index, loop and
 * access it is).  With pf (a long gather into a large View), the cell of
 * the element GATHER_AHEAD further on is prefetched, as loop_body does.
 * With a companion of wsize bytes (w), its element of each iteration is
 * decided first, as the index's and the element's are.
 * Returns how many elements it decided: it stops at the first that the
 * cells do not decide, that is not aligned, or whose chunk has neither
 * cells nor halves yet, and loop_body goes on from there. */
KKR_INLINE uint64_t gather_fast(kkr_thread *t, uint64_t count, uint32_t size,
                                int idx64, int pf, int kind, uint32_t mode,
                                uint64_t v, uint64_t step,
                                const loop_gather_src *g, int reads_index,
                                site_slot *slot, uintptr_t pc,
                                uint32_t wsize, const gather_with *w) {
  /* (The common kinds in copies of their own, with fewer values to keep:
   * GATHER_CUR, the current strand's, its index's reads not checked here
   * (an entity's neighbours); GATHER_TEAM_IDX, a team's nested iterations',
   * the index's reads checked too (x(col(k)) in a row).) */
  if (kind == GATHER_CUR) {
    mode = LOOP_CURRENT;
    reads_index = 0;
  } else if (kind == GATHER_TEAM_IDX) {
    mode = LOOP_TEAM;
    reads_index = 1;
  }
  const uint64_t site = (uint64_t)kkr_site_index(t, slot, pc)
                        << KKR_REC_SITE_SHIFT;
  const decide_ctx d = decide_ctx_of(t);
  const uintptr_t plo = t->priv_lo, plen = t->priv_len;
  const uintptr_t ulo = t->abi.upd_lo, ulen = t->abi.upd_len;
  const uint64_t item = t->abi.item_rec;
  const uint32_t team_rec = kkr_team_strand(t, 0);
  const uintptr_t base = g->base;
  const int64_t scale = g->scale;
  const uint64_t every = g->every;
  uint64_t cur = t->abi.cur_rec;
  const uint32_t isize = idx64 ? 8 : 4;
  uintptr_t chunk_of = ~(uintptr_t)0, ichunk_of = ~(uintptr_t)0;
  kkr_cell *chunk = NULL, *ichunk = NULL;
  kkr_split *hc = NULL, *ihc = NULL;
  uintptr_t wchunk_of = ~(uintptr_t)0, wa = wsize ? w->base : 0;
  kkr_cell *wchunk = NULL;
  kkr_split *whc = NULL;
  const uint64_t wsite =
      wsize ? (uint64_t)kkr_site_index(t, w->slot, pc) << KKR_REC_SITE_SHIFT
            : 0;
  /* The last element decided, while one strand reads them all: the same
   * element again (a connectivity that names one node twice in a row)
   * changes nothing. */
  uintptr_t last = 0;
  uint64_t k = 0;
  for (; k < count; k++, v += step, wa += wsize) {
    if (mode == LOOP_TEAM)
      cur = item | (uint64_t)(team_rec + (uint32_t)(v % 126) + 1)
                       << KKR_REC_STRAND_SHIFT;
    if (wsize && !(wa - plo < plen || wa - ulo < ulen) &&
        KKR_UNLIKELY((wa & (wsize - 1)) ||
                     !gather_read_at(&d, wa, wsize, cur, wsite, &wchunk_of,
                                     &wchunk, &whc)))
      break;
    /* (The index's read first, as the program makes them.) */
    uintptr_t ia = (uintptr_t)g->idx + k * every * isize;
    if (reads_index && !(ia - plo < plen || ia - ulo < ulen)) {
      if (KKR_UNLIKELY((ia & (isize - 1)) ||
                       !gather_read_at(&d, ia, isize, cur, site, &ichunk_of,
                                       &ichunk, &ihc)))
        break;
    }
    int64_t e = idx64 ? *(const int64_t *)ia : *(const int32_t *)ia;
    uintptr_t a = base + (uintptr_t)(e * scale);
    if (KKR_UNLIKELY(a & (size - 1)))
      break;
    /* (Random indices: each cell is a cache miss, which the next
     * elements' prefetches overlap.) */
    if (pf && k + GATHER_AHEAD < count) {
      const char *ib = (const char *)ia + GATHER_AHEAD * every * isize;
      int64_t en = idx64 ? *(const int64_t *)ib : *(const int32_t *)ib;
      prefetch_cell(base + (uintptr_t)(en * scale));
    }
    if (a == last || a - plo < plen || a - ulo < ulen)
      continue;
    if (KKR_UNLIKELY(
            !gather_read_at(&d, a, size, cur, site, &chunk_of, &chunk, &hc)))
      break;
    if (mode == LOOP_CURRENT)
      last = a;
  }
  return k;
}

#define GATHER_FAST(name, size, idx64, pf, kind)                              \
  static KKR_NOINLINE uint64_t name(kkr_thread *t, uint64_t count,           \
                                    uint32_t mode, uint64_t v, uint64_t step, \
                                    const loop_gather_src *g,                 \
                                    int reads_index, site_slot *slot,         \
                                    uintptr_t pc) {                           \
    return gather_fast(t, count, size, idx64, pf, kind, mode, v, step, g,    \
                       reads_index, slot, pc, 0, NULL);                       \
  }
#define GATHER_FAST4(name, size, idx64)                                       \
  GATHER_FAST(name, size, idx64, 0, GATHER_ANY)                               \
  GATHER_FAST(name##_pf, size, idx64, 1, GATHER_ANY)                          \
  GATHER_FAST(name##_cur, size, idx64, 0, GATHER_CUR)                         \
  GATHER_FAST(name##_pf_cur, size, idx64, 1, GATHER_CUR)
GATHER_FAST4(gather_fast_r4, 4, 0)
GATHER_FAST4(gather_fast_r8, 8, 0)
GATHER_FAST4(gather_fast_r4_i64, 4, 1)
GATHER_FAST4(gather_fast_r8_i64, 8, 1)
GATHER_FAST(gather_fast_r4_team, 4, 0, 0, GATHER_TEAM_IDX)
GATHER_FAST(gather_fast_r8_team, 8, 0, 0, GATHER_TEAM_IDX)

/* A team's gather of 8-byte elements through a 32-bit index with a
 * companion of 8-byte elements (a sparse row's x(col(k)) and val(k)). */
static KKR_NOINLINE uint64_t gather_fast_r8_team_with8(
    kkr_thread *t, uint64_t count, uint64_t v, uint64_t step,
    const loop_gather_src *g, site_slot *slot, uintptr_t pc,
    const gather_with *w) {
  return gather_fast(t, count, 8, 0, 0, GATHER_TEAM_IDX, LOOP_TEAM, v, step, g,
                     1, slot, pc, 8, w);
}

/* A 4-byte read of the half at a of compact halves whose record p is a
 * write (the first read of an index after its fill), out of line: 1 if
 * decided and the halves are still compact. */
static KKR_NOINLINE int compact_read_after_write(const decide_ctx *d,
                                                 uint64_t *p, uintptr_t a,
                                                 uint64_t cur, uint64_t site) {
  return compact_read(d, p, a, 4, cur, site) &&
         kkr_half_on[KKR_DIR_INDEX(a)] == KKR_HALVES_COMPACT;
}

/* A team's sparse row of unit steps, as gather_fast_r8_team_with8 decides
 * it, in its commonest cases only and with fewer values to keep: its index
 * and companion each in one chunk and outside the thread's own memory,
 * the companion's and the elements' cells not split, the index's in cells,
 * half-cells or compact halves.  Returns how many iterations it decided:
 * gather_fast_r8_team_with8 goes on from the first that it leaves. */
static KKR_NOINLINE uint64_t gather_team_row(kkr_thread *t, uint64_t count,
                                             uint64_t v,
                                             const loop_gather_src *g,
                                             site_slot *slot, uintptr_t pc,
                                             const gather_with *w) {
  const uintptr_t ia0 = (uintptr_t)g->idx, wa0 = w->base;
  const uintptr_t plo = t->priv_lo, plen = t->priv_len;
  const uintptr_t ulo = t->abi.upd_lo, ulen = t->abi.upd_len;
  if (g->every != 1 || (ia0 & 3) || (wa0 & 7) ||
      count > KKR_CELLS_PER_CHUNK ||
      KKR_DIR_INDEX(ia0) != KKR_DIR_INDEX(ia0 + 4 * count - 1) ||
      KKR_DIR_INDEX(wa0) != KKR_DIR_INDEX(wa0 + 8 * count - 1) ||
      !outside_own(t, ia0, ia0 + 4 * count) ||
      !outside_own(t, wa0, wa0 + 8 * count))
    return 0;
  kkr_cell *const wcells = kkr_dir[KKR_DIR_INDEX(wa0)];
  kkr_cell *const icells = kkr_dir[KKR_DIR_INDEX(ia0)];
  kkr_split *ihalves = NULL;
  uint64_t *icompact = NULL;
  /* (The companion in cells, or in compact words.) */
  uint64_t *wwords = NULL;
  if (!wcells) {
    kkr_split *whc = kkr_half_any(KKR_DIR_INDEX(wa0));
    if (!((uintptr_t)whc & KKR_HC_WORDS))
      return 0;
    wwords = (uint64_t *)((uintptr_t)whc & ~KKR_HC_TAGS);
  }
  if (icells) {
    ihalves = kkr_split_dir[KKR_DIR_INDEX(ia0)]; /* (its split cells') */
  } else {
    kkr_split *hc = kkr_half_any(KKR_DIR_INDEX(ia0));
    if (!hc || ((uintptr_t)hc & KKR_HC_WORDS))
      return 0;
    if ((uintptr_t)hc & KKR_HC_COMPACT)
      icompact = (uint64_t *)((uintptr_t)hc & ~KKR_HC_COMPACT);
    else
      ihalves = hc;
  }
  const uint64_t site = (uint64_t)kkr_site_index(t, slot, pc)
                        << KKR_REC_SITE_SHIFT;
  const uint64_t wsite = (uint64_t)kkr_site_index(t, w->slot, pc)
                         << KKR_REC_SITE_SHIFT;
  const decide_ctx d = decide_ctx_of(t);
  const uint64_t item = t->abi.item_rec;
  const uint32_t team_rec = kkr_team_strand(t, 0) + 1;
  const uintptr_t base = g->base;
  const int64_t scale = g->scale;
  uint32_t m = (uint32_t)(v % 126);
  uintptr_t x_of = ~(uintptr_t)0;
  kkr_cell *xcells = NULL;
  uint64_t k = 0;
  for (; k < count; k++) {
    const uint64_t cur = item | (uint64_t)(team_rec + m) << KKR_REC_STRAND_SHIFT;
    m = m == 125 ? 0 : m + 1;
    /* The companion's element, then the index's, then the element. */
    kkr_cell *c;
    if (KKR_LIKELY(wcells != NULL)) {
      c = wcells + KKR_CELL_INDEX(wa0 + 8 * k);
      if (c->w == KKR_W_SPLIT ||
          !decide_read_common(&d, c, 0xFF0, cur, wsite))
        break;
    } else if (!words_read(&d, kkr_words_rec(wwords, wa0 + 8 * k),
                           wa0 + 8 * k, 8, cur, wsite)) {
      break;
    }
    const uintptr_t ia = ia0 + 4 * k;
    const uint64_t imask = rec_mask(ia, 4);
    if (icompact) {
      uint64_t *p = kkr_compact_rec(icompact, ia);
      kkr_cell one = {0, *p};
      if (KKR_UNLIKELY(one.r & KKR_R_W)) {
        if (!compact_read_after_write(&d, p, ia, cur, site))
          break;
      } else {
        if (!decide_read_common(&d, &one, imask, cur, site))
          break;
        *p = one.r;
      }
    } else {
      c = icells ? icells + KKR_CELL_INDEX(ia) : NULL;
      if (!c || c->w == KKR_W_SPLIT) {
        if (!ihalves)
          break;
        c = kkr_half_cell(ihalves, ia);
      }
      if (!decide_read_common(&d, c, imask, cur, site))
        break;
    }
    const uintptr_t a = base + (uintptr_t)(*(const int32_t *)ia * scale);
    if (a & 7)
      break;
    if (a - plo < plen || a - ulo < ulen)
      continue;
    if (a >> KKR_CHUNK_SHIFT != x_of) {
      x_of = a >> KKR_CHUNK_SHIFT;
      xcells = kkr_dir[KKR_DIR_INDEX(a)];
    }
    if (!xcells)
      break;
    c = xcells + KKR_CELL_INDEX(a);
    if (c->w == KKR_W_SPLIT || !decide_read_common(&d, c, 0xFF0, cur, site))
      break;
  }
  return k;
}

typedef uint64_t gather_fast_fn(kkr_thread *t, uint64_t count, uint32_t mode,
                                uint64_t v, uint64_t step,
                                const loop_gather_src *g, int reads_index,
                                site_slot *slot, uintptr_t pc);
#define GATHER_FAST_FNS(name, team)                                           \
  {{name, name##_cur, team}, {name##_pf, name##_pf_cur, name##_pf}}
/* [4- or 8-byte elements][64-bit index][prefetching][kind] (a team's
 * gather through a 32-bit index that prefetches nothing has a copy of
 * its own; the other kinds GATHER_TEAM_IDX take the general one) */
static gather_fast_fn *const gather_fast_fns[2][2][2][3] = {
    {GATHER_FAST_FNS(gather_fast_r4, gather_fast_r4_team),
     GATHER_FAST_FNS(gather_fast_r4_i64, gather_fast_r4_i64)},
    {GATHER_FAST_FNS(gather_fast_r8, gather_fast_r8_team),
     GATHER_FAST_FNS(gather_fast_r8_i64, gather_fast_r8_i64)}};

/* Whether the View at a is under GATHER_PREFETCH_MIN (no prefetching: a
 * hint only), from the thread's last answers while no View came or went
 * (several: the gathers of a loop through one index, A(j) and B(j)). */
static int gather_target_small(kkr_thread *t, uintptr_t a) {
  uint32_t gen = __atomic_load_n(&kkr_views_gen, __ATOMIC_RELAXED);
  if (t->gview_gen != gen) {
    memset(t->gview_len, 0, sizeof t->gview_len);
    t->gview_gen = gen;
  }
  for (uint32_t i = 0; i < KKR_GVIEWS; i++)
    if (a - t->gview_lo[i] < t->gview_len[i])
      return t->gview_len[i] < GATHER_PREFETCH_MIN;
  kkr_view_alloc v;
  if (!kkr_views_find(a, &v))
    return 0;
  uint32_t i = t->gview_next++ % KKR_GVIEWS;
  t->gview_lo[i] = v.lo;
  t->gview_len[i] = v.hi - v.lo;
  return t->gview_len[i] < GATHER_PREFETCH_MIN;
}

/* A gather's index and target, as its call's arguments give them. */
KKR_INLINE loop_gather_src gather_src_of(void *base, unsigned long long scale,
                                         void *idx, unsigned long long count,
                                         unsigned int packed) {
  uint32_t bits = ((packed & KKR_LOOP_SIZE_MASK) >> KKR_GATHER_BITS_SHIFT) & 63;
  loop_gather_src g = {(uintptr_t)base, (int64_t)scale, idx,
                       packed & (KKR_GATHER_IDX64 | KKR_GATHER_UNSIGNED),
                       1 + (packed >> KKR_GATHER_SKIP_SHIFT),
                       bits ? 64 - bits : 0, count > GATHER_AHEAD};
  return g;
}

/* The companion's elements [from, count) of a gather with one
 * (gather_with), as a loop of the gather's strands: those that its tight
 * loop did not decide. */
static void gather_with_rest(const gather_with *w, uint64_t from,
                             uint64_t count, uint32_t packed, uint64_t i0,
                             uint64_t i1, uint64_t step, uintptr_t pc) {
  if (from >= count)
    return;
  uint32_t vary = (packed >> KKR_LOOP_VARY_SHIFT) & 3;
  uint64_t j[2] = {i0, i1};
  if (vary < 2)
    j[vary] += from * step;
  loop_at((void *)(w->base + from * w->size), w->size, count - from,
          w->size | (packed & LOOP_STRAND_FLAGS),
          j[0], j[1], 0, step, w->slot, pc);
}

/* __kkrace_gather, and __kkrace_gather_with with its companion w (NULL
 * for none). */
KKR_INLINE void gather_at(void *base, unsigned long long scale, void *idx,
                          unsigned long long count, unsigned int packed,
                          unsigned long long i0, unsigned long long i1,
                          unsigned long long step, void *slot_, uintptr_t pc,
                          const gather_with *w) {
  /* One element of the current strand (a gather whose count, known at run
   * time, is 1: an entity with one neighbour): its index's read and its
   * own as single accesses, through their inline decision, as
   * __kkrace_loop does. */
  if (count == 1 && !(packed & (KKR_LOOP_VECTOR | KKR_LOOP_ATOMIC |
                                (3u << KKR_LOOP_NIDX_SHIFT)))) {
    kkr_thread *t1 = kkr_tls;
    uint32_t size1 = packed & KKR_GATHER_SIZE_MASK;
    if (t1 && !t1->nofast && (size1 == 8 || size1 == 4)) {
      loop_gather_src g1 = gather_src_of(base, scale, idx, count, packed);
      if (w)
        loop_one(w->base, w->size, 0, w->slot, pc);
      if (packed & KKR_GATHER_READS_INDEX)
        loop_one((uintptr_t)idx, packed & KKR_GATHER_IDX64 ? 8 : 4, 0, slot_,
                 pc);
      loop_one(gather_addr(&g1, 0), size1, packed, slot_, pc);
      return;
    }
  }
  kkr_thread *t = loop_thread();
  if (!t || count == 0)
    return;
  uint32_t size, acc, nidx, vary;
  loop_kind(packed, &size, &acc, &nidx, &vary);
  size &= KKR_GATHER_SIZE_MASK;
  uint64_t j[3] = {i0, i1, 0};
  const uint64_t count0 = count;
  uint64_t wdone = 0; /* (the companion's elements decided) */
  loop_gather_src g = gather_src_of(base, scale, idx, count, packed);
  if (g.prefetch && gather_target_small(t, (uintptr_t)base))
    g.prefetch = 0;
  int reads_index = !!(packed & KKR_GATHER_READS_INDEX);
  uint32_t isize = g.kind & KKR_GATHER_IDX64 ? 8 : 4;
  uint32_t mode = loop_mode_begin(t, nidx, packed, count);
  uint64_t saved_rec = t->abi.cur_rec;
  /* The current strand's row of the index (an entity's connectivity) in a
   * chunk of runs: its reads decided once, before the elements'
   * (rows_range). */
  if (reads_index && mode == LOOP_CURRENT && g.every == 1 && kkr_runs_made &&
      !kkr_dir[KKR_DIR_INDEX((uintptr_t)idx)] &&
      kkr_run_dir[KKR_DIR_INDEX((uintptr_t)idx)] &&
      rows_range(t, (uintptr_t)idx, (uintptr_t)idx + count * isize, 0,
                 (uint64_t)kkr_site_index(t, slot_, pc) << KKR_REC_SITE_SHIFT))
    reads_index = 0;
  if (!acc && (size == 4 || size == 8) && !g.cut &&
      (!(g.kind & KKR_GATHER_UNSIGNED) || (g.kind & KKR_GATHER_IDX64)) &&
      (mode == LOOP_CURRENT || mode == LOOP_TEAM) &&
      !kkr_nofast_single(t) && !kkr_mt) {
    int kind = mode == LOOP_CURRENT && !reads_index ? GATHER_CUR
               : mode == LOOP_TEAM && reads_index   ? GATHER_TEAM_IDX
                                                    : GATHER_ANY;
    uint64_t done;
    /* (A sparse row's val(k) beside x(col(k)): all three in one loop.) */
    if (w && w->size == 8 && kind == GATHER_TEAM_IDX && size == 8 &&
        isize == 4 && !g.prefetch) {
      done = step == 1 ? gather_team_row(t, count, j[vary], &g, slot_, pc, w)
                       : 0;
      if (done < count) {
        loop_gather_src g2 = g;
        gather_with w2 = {w->base + done * 8, 8, w->slot};
        g2.idx = (const char *)g.idx + done * 4;
        done += gather_fast_r8_team_with8(t, count - done,
                                          j[vary] + done * step, step, &g2,
                                          slot_, pc, &w2);
      }
      wdone = done;
    } else {
      done = gather_fast_fns[size == 8][isize == 8][!!g.prefetch][kind](
          t, count, mode, j[vary], step, &g, reads_index, slot_, pc);
    }
    if (done == count) {
      loop_mode_end(t, mode, saved_rec);
      if (w && wdone < count0)
        gather_with_rest(w, wdone, count0, packed, i0, i1, step, pc);
      return;
    }
    /* (The rest from the element it stopped at.) */
    g.idx = (const char *)g.idx + done * g.every * isize;
    j[vary] += done * step;
    count -= done;
  }
  /* (A strand's atomic updates of int bins: their tight loop first.) */
  if (size == 4 && acc == (ACC_WRITE | ACC_ATOMIC) && mode == LOOP_CURRENT &&
      !t->nofast && !kkr_mt && !kkr_gpu_trace_host_on) {
    uint64_t done = gather_aw4_cur(t, count, &g, slot_, pc);
    if (done == count) {
      loop_mode_end(t, mode, saved_rec);
      return;
    }
    g.idx = (const char *)g.idx + done * g.every * isize;
    j[vary] += done * step;
    count -= done;
  }
  if (size == 8 && !acc)
    gather_r8(t, count, mode, nidx, vary, j, step, pc, slot_, &g);
  else if (size == 4 && !acc)
    gather_r4(t, count, mode, nidx, vary, j, step, pc, slot_, &g);
  else if (size == 8 && acc == (ACC_WRITE | ACC_ATOMIC) && mode == LOOP_RANGE)
    gather_aw8_range(t, count, j, step, pc, slot_, &g);
  else
    gather_any(t, count, size, acc, mode, nidx, vary, j, step, pc, slot_, &g);
  loop_mode_end(t, mode, saved_rec);
  /* The index's reads (KKR_GATHER_READS_INDEX) that the tight loop left,
   * those of the elements left to the general loop: a loop check of their
   * own, by the same strands; the companion's likewise. */
  if (reads_index)
    loop_at((void *)g.idx, g.every * isize, count,
            isize | (packed & LOOP_STRAND_FLAGS),
            j[0], j[1], j[2], step, slot_, pc);
  if (w)
    gather_with_rest(w, wdone, count0, packed, i0, i1, step, pc);
}

KKR_EXPORT void __kkrace_gather(void *base, unsigned long long scale, void *idx,
                                unsigned long long count, unsigned int packed,
                                unsigned long long i0, unsigned long long i1,
                                unsigned long long step, void *slot_) {
  gather_at(base, scale, idx, count, packed, i0, i1, step, slot_, RET_PC,
            NULL);
}

KKR_EXPORT unsigned int __kkrace_gather_apart(
    void *base, unsigned long long scale, void *idx, unsigned long long count,
    unsigned int packed, unsigned long long i0, unsigned long long i1,
    unsigned long long step, void *slot_) {
  /* Only the current strand's atomic updates of 4-byte elements (int bins)
   * take the check before the loop: gather_aw4_cur decides them faster
   * than their checks in the loop would; the rest stay there. */
  if ((packed & (KKR_GATHER_SIZE_MASK | KKR_LOOP_WRITE | KKR_LOOP_ATOMIC |
                 (3u << KKR_LOOP_NIDX_SHIFT) | KKR_LOOP_VECTOR)) !=
      (4u | KKR_LOOP_WRITE | KKR_LOOP_ATOMIC))
    return 0;
  /* (An element in the span of the indices that the loop reads: its write
   * may change an index not read yet.) */
  loop_gather_src g = gather_src_of(base, scale, idx, count, packed);
  const uintptr_t isz = packed & KKR_GATHER_IDX64 ? 8 : 4;
  const uintptr_t size = packed & KKR_GATHER_SIZE_MASK;
  const uintptr_t ilo = (uintptr_t)idx, ihi = ilo + count * g.every * isz;
  for (uint64_t k = 0; k < count; k++) {
    uintptr_t a = gather_addr(&g, k);
    if (a < ihi && a + size > ilo)
      return 0;
    /* (The first elements' records, which gather_aw4_cur does not fetch
     * ahead.) */
    if (k < AW4_AHEAD && kkr_halves_made)
      prefetch_half(a);
  }
  gather_at(base, scale, idx, count, packed, i0, i1, step, slot_, RET_PC,
            NULL);
  return 1;
}

KKR_EXPORT void __kkrace_gather_with(void *base, unsigned long long scale,
                                     void *idx, unsigned long long count,
                                     unsigned int packed,
                                     unsigned long long i0,
                                     unsigned long long i1,
                                     unsigned long long step, void *slot_,
                                     void *with, void *with_slot) {
  gather_with w = {(uintptr_t)with, packed & KKR_GATHER_WITH8 ? 8u : 4u,
                   with_slot};
  /* A team's sparse row of up to GATHER_AHEAD elements, the commonest
   * call: straight to its tight loop, where gather_at would take it (the
   * same mode, and nothing to prefetch); from the start in gather_at if
   * the loop leaves some. */
  kkr_thread *t = kkr_tls;
  if (packed == (8u | KKR_GATHER_READS_INDEX | 1u << KKR_LOOP_NIDX_SHIFT |
                 KKR_GATHER_WITH8) &&
      step == 1 && count - 1 < GATHER_AHEAD && t && !t->ignore &&
      in_team_code(t) && !kkr_nofast_single(t) && !kkr_mt &&
      !kkr_halves_pending) {
    loop_gather_src g = gather_src_of(base, scale, idx, count, packed);
    if (gather_team_row(t, count, i0, &g, slot_, RET_PC, &w) == count)
      return;
  }
  gather_at(base, scale, idx, count, packed & ~KKR_GATHER_WITH8, i0, i1, step,
            slot_, RET_PC, &w);
}

KKR_EXPORT void __kkrace_atomic(void *p, unsigned long long size,
                                unsigned int aflags, void *slot) {
  /* The common cases first: an atomic write (a read-modify-write such as
   * atomic_add) of an aligned word or less, of a site already known, whose
   * cell holds nothing but atomic records of bytes that it covers: it
   * passes them all (decide_with) and becomes the cell's write.  An atomic
   * read of such a cell with no read record (a random pool's state taken
   * after the last strand gave it back) becomes its read. */
  kkr_thread *ft = kkr_tls;
  uintptr_t a = (uintptr_t)p;
  /* (As access_fast: the program's line fetched beside the shadow's.) */
  __builtin_prefetch(p, 1);
  if (KKR_LIKELY(ft && !ft->nofast && !kkr_mt && !kkr_gpu_trace_host_on &&
                 !(aflags & KKR_AF_RELEASE) &&
                 size - 1 < KKR_GRAN && !(a & (size - 1)) && slot)) {
    /* (A site met for the first time is looked up here, so that its first
     * access is decided as the next ones: the full path would turn a
     * chunk of halves back into cells for it.) */
    kkr_site_index(ft, slot, RET_PC);
    if (a - ft->priv_lo < ft->priv_len || a - ft->abi.upd_lo < ft->abi.upd_len)
      return;
    kkr_cell *chunk = kkr_dir[KKR_DIR_INDEX(a)], *c = NULL;
    /* (Compact halves: the decision on a cell made of the half's record,
     * stored back by compact_store.) */
    kkr_cell one;
    uint64_t *cp = NULL;
    if (KKR_LIKELY(chunk != NULL)) {
      half_prefetch(a, (uint32_t)size);
      c = access_cell_of(chunk + KKR_CELL_INDEX(a), a, size);
    } else if (in_one_half(a, size)) {
      /* (A chunk of halves: an array of int that strands update one
       * element each, a histogram's bins.) */
      kkr_split *hc = kkr_half_any(KKR_DIR_INDEX(a));
      if ((uintptr_t)hc & KKR_HC_WORDS) {
        /* (Compact words: atomic_cell_decide's.) */
      } else if (hc && ((uintptr_t)hc & KKR_HC_COMPACT)) {
        cp = kkr_compact_rec((uint64_t *)((uintptr_t)hc & ~KKR_HC_COMPACT), a);
        one = kkr_compact_cell(*cp);
        c = &one;
      } else if (hc) {
        c = kkr_half_cell(hc, a);
      }
    }
    if (KKR_LIKELY(c != NULL)) {
      uint64_t mask4 = rec_mask(a, size);
      uint64_t w = c->w, r = c->r;
      int wok = atomic_rec_passes(w, mask4, ft->hz);
      if (!(aflags & KKR_AF_WRITE)) {
        if (wok && !r) {
          kkr_shared_forget(a);
          c->r = ft->abi.cur_rec | KKR_R_A | mask4 |
                 ((site_slot *)slot)->idx << KKR_REC_SITE_SHIFT;
          if (KKR_UNLIKELY(cp != NULL))
            compact_store(cp, c, a);
          return;
        }
      } else if (wok && atomic_rec_passes(r, mask4, ft->hz)) {
        kkr_shared_forget(a);
        if (!w || !atomic_keeps(ft, w, (uint32_t)(mask4 >> 4)))
          c->w = ft->abi.cur_rec | KKR_R_A | KKR_R_W | mask4 |
                 ((site_slot *)slot)->idx << KKR_REC_SITE_SHIFT;
        c->r = 0;
        /* (In compact halves: one write, not split (wok), stored as it
         * is, as compact_half stores one record.) */
        if (cp != NULL)
          *cp = c->w;
        return;
      }
    }
  }
  kkr_thread *t = entry_thread((uintptr_t)p);
  if (!t)
    return;
  uint32_t acc = ACC_ATOMIC | (aflags & KKR_AF_WRITE ? ACC_WRITE : 0);
  if (!atomic_cell_decide(t, (uintptr_t)p, (uint32_t)size, acc, RET_PC, slot))
    access_range(t, (uintptr_t)p, size ? size : 1, acc, RET_PC, FRAME, slot);
  halves_settle(t);
  /* Host threads publish through release atomics (the check above saw the
   * access; the release comes with the write). */
  if (KKR_UNLIKELY(__atomic_load_n(&kkr_spawned, __ATOMIC_RELAXED)) &&
      (aflags & KKR_AF_RELEASE))
    kkr_sync_atomic((uintptr_t)p, aflags);
}


KKR_EXPORT void __kkrace_copy_range(void *dst, void *src,
                                    unsigned long long n) {
  kkr_thread *t = kkr_tls;
  if (!t || t->ignore)
    return;
  kkr_access_range(t, (uintptr_t)src, n, 0, RET_PC, FRAME);
  kkr_access_range(t, (uintptr_t)dst, n, ACC_WRITE, RET_PC, FRAME);
}

/* Whether any of n records (a range's cells, half-cells, or records of
 * compact halves or words, one chunk) is not below the horizon: those
 * need the full check of a free. */
static int free_needs_check(const kkr_thread *t, const uint64_t *r,
                            uintptr_t n) {
  uint64_t hz = t->hz, bad = 0;
  for (uintptr_t i = 0; i < n; i++)
    bad |= (uint64_t)(r[i] >= hz);
  return bad != 0;
}

void kkr_memory_freed(kkr_thread *t, uintptr_t addr, uintptr_t size,
                      uintptr_t pc, uintptr_t fp) {
  /* A free inside a Kokkos operation (a fence's bookkeeping) is Kokkos'
   * own: only the program's frees are checked -- and those of resize and
   * realloc, which drop the program's old allocation (Kokkos 3.4 without a
   * fence: work still reading it races with the free), against what came
   * before them (not their own copy of the old contents). */
  int resizing = t && t->nops && t->ops[0].kind == KKR_OP_RESIZE;
  if (t && !t->ignore && (t->nops == 0 || resizing) && size) {
    t->free_size = size;
    t->free_from_node = resizing ? t->ops[0].first_node : 0;
    /* Chunk by chunk: what happened before the free (below the horizon)
     * is skipped in bulk; the rest gets the full check. */
    uintptr_t lo = addr & ~(uintptr_t)(KKR_GRAN - 1), end = addr + size;
    while (lo < end) {
      uintptr_t hi = KKR_CHUNK_END(lo);
      if (hi > end)
        hi = end;
      uint32_t di = KKR_DIR_INDEX(lo);
      if (kkr_runs_made && !kkr_dir[di] && kkr_run_dir[di] &&
          runs_free_ok(t, di, lo, hi)) {
        lo = hi;
        continue;
      }
      uintptr_t n = (hi - lo + KKR_GRAN - 1) >> KKR_GRAN_SHIFT;
      /* (Compact words: each record the word's write or reads.) */
      uint64_t *ww = kkr_dir[di] ? NULL : kkr_words_chunk(di);
      if (ww && !free_needs_check(t, ww + KKR_CELL_INDEX(lo), n)) {
        lo = hi;
        continue;
      }
      /* (Compact halves: their records two by two, as cells' are.) */
      uint64_t *cc = kkr_dir[di] ? NULL : kkr_compact_chunk(di);
      if (cc && !free_needs_check(t, cc + 2 * KKR_CELL_INDEX(lo), 2 * n)) {
        lo = hi;
        continue;
      }
      kkr_split *hs = kkr_dir[di] ? NULL : kkr_half_chunk(di);
      if (hs && !free_needs_check(t, &hs[KKR_CELL_INDEX(lo)].half[0].w,
                                  4 * n)) {
        lo = hi; /* (a chunk of halves, all ordered before the free) */
        continue;
      }
      kkr_cell *c = kkr_shadow_cell_if_mapped(lo);
      if (c && free_needs_check(t, &c->w, 2 * n)) {
        uintptr_t from = lo > addr ? lo : addr;
        kkr_access_range(t, from, hi - from, ACC_WRITE | ACC_FREE, pc, fp);
      }
      lo = hi;
    }
    t->free_size = 0;
    t->free_from_node = 0;
  }
  kkr_shadow_clear(addr, size);
  kkr_instance_freed(addr);
}

/* A stack slot starts holding a new variable: what the slot's previous
 * variables saw is not this one's history.  After inlining, Kokkos' locals
 * (closures, policies, labels) and the functor's locals live in the
 * dispatching function's frame and share slots from one dispatch or one
 * iteration to the next; without this, their reuse would look like races. */
KKR_EXPORT void __kkrace_stack_scope(void *p, unsigned long long n) {
  uintptr_t a = (uintptr_t)p;
  if (KKR_UNLIKELY(kkr_dir == NULL))
    return;
  kkr_cell *c = kkr_shadow_cell_if_mapped(a);
  if (!c)
    return;
  /* Small locals in one chunk, with no split cells or read sets: inline. */
  uintptr_t first = a >> KKR_GRAN_SHIFT, last = (a + n - 1) >> KKR_GRAN_SHIFT;
  if (n && n <= 256 && (a >> KKR_CHUNK_SHIFT) == ((a + n - 1) >> KKR_CHUNK_SHIFT)) {
    uint64_t any = 0;
    /* (No split cell in a chunk without half-cells, no read set while
     * none lives: nothing to look for.) */
    if (kkr_split_dir[KKR_DIR_INDEX(a)] ||
        __atomic_load_n(&kkr_readsets_live, __ATOMIC_RELAXED))
      for (uintptr_t i = 0; i <= last - first; i++)
        any |= c[i].w | c[i].r;
    if (!(any & KKR_R_X)) {
      /* (A few cells: cleared here, not through a call of memset.) */
      for (uintptr_t i = 0; i <= last - first; i++)
        c[i].w = c[i].r = 0;
      if (KKR_UNLIKELY(kkr_shared_dir[KKR_DIR_INDEX(a)] != NULL))
        kkr_shared_forget_range(a, a + n);
      return;
    }
  }
  kkr_shadow_clear_keep(a, n);
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
