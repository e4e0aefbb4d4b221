/* Shadow memory: for every aligned 8-byte word of the program that
 * instrumented code touches, the last write and the reads since it.
 *
 * Layout: a two-level table.  kkr_dir[addr >> 20] points to the shadow chunk
 * of one MiB of program memory (128 Ki cells of 16 bytes: twice the memory it
 * shadows), mapped without reserve when first touched; memory that no
 * instrumented code touches gets no shadow.
 *
 * A record (64 bits) is one access:
 *   [63:38] node   the host segment or work item that made it (kkr_nodes)
 *   [37:18] strand the logical thread within a work item
 *   [17:12] site   where: an index into the node's site table (kkr_sites)
 *   [11:4]  mask   the bytes of the word it touched
 *   [3:0]   flags  KKR_R_*
 * Host records have no strand: their site index is the 26 bits [37:12].
 * A zero record is empty.
 *
 * Elements smaller than a word (int, float) that unordered nodes touch side
 * by side split the cell in two half-cells of 4 bytes each: the write record
 * then carries KKR_R_X and the halves live in a parallel region (kkr_split),
 * mapped only for chunks that have splits.  The read record may instead point
 * to a read set (KKR_R_X on the read record) when nodes that nothing orders
 * read the same bytes (FastTrack's read-shared state), or read bytes side
 * by side.  A half-cell's write record may likewise point to a write set
 * (KKR_R_X, the same structure) when unordered strands write elements of 1
 * or 2 bytes side by side within it: one record per element, their bytes
 * disjoint. */
#ifndef KKR_SHADOW_H
#define KKR_SHADOW_H

#include <stdint.h>

#include "kkr_common.h"

/* Record flags. */
enum {
  KKR_R_W = 1, /* a write (else a read) */
  KKR_R_A = 2, /* atomic */
  KKR_R_M = 4, /* read by several strands of one work item */
  KKR_R_X = 8, /* w: the cell is split; r: points to a read set */
};

#define KKR_REC_NODE_SHIFT 38
#define KKR_REC_STRAND_SHIFT 18
#define KKR_REC_SITE_SHIFT 12
#define KKR_REC_NODE_BITS (~(uint64_t)0 << KKR_REC_NODE_SHIFT)
#define KKR_REC_STRAND_BITS ((uint64_t)0xFFFFF << KKR_REC_STRAND_SHIFT)
#define KKR_REC_NODE(r) ((uint32_t)((r) >> KKR_REC_NODE_SHIFT))
#define KKR_REC_STRAND(r) ((uint32_t)((r) >> KKR_REC_STRAND_SHIFT) & 0xFFFFF)
#define KKR_REC_SITE(r) ((uint32_t)((r) >> KKR_REC_SITE_SHIFT) & 0x3F)
#define KKR_REC_HOST_SITE(r) ((uint32_t)((r) >> KKR_REC_SITE_SHIFT) & 0x3FFFFFF)
#define KKR_REC_MASK(r) ((uint32_t)((r) >> 4) & 0xFF)
/* A read record pointing to a read set, and the write record of a split
 * cell, have all their node bits set: no node id reaches them, so that
 * "rec < horizon" is false for both (kkr_rt.h, kkr_thread.hz). */
#define KKR_REC_TAG ((uint64_t)0xFFFF << 48)
#define KKR_REC_PTR(r) ((void *)(uintptr_t)((r) & 0x0000FFFFFFFFFFF0ull))
#define KKR_REC_SET(p) ((uint64_t)(uintptr_t)(p) | KKR_REC_TAG | KKR_R_X)
#define KKR_W_SPLIT (~(uint64_t)0xF | KKR_R_X)
#define KKR_NODE_BITS 26
/* Node ids stay below the tagged records' node bits. */
#define KKR_NODE_MAX ((1u << KKR_NODE_BITS) - (1u << 10))
#define KKR_STRAND_BITS 20
#define KKR_SITE_OTHER 63 /* a work item's access site beyond its table */

typedef struct {
  uint64_t w; /* last write */
  uint64_t r; /* reads since the last write */
} kkr_cell;

/* The two half-cells of a split cell: bytes 0-3 and 4-7. */
typedef struct {
  kkr_cell half[2];
} kkr_split;

typedef struct {
  uint32_t n, cap;
  uint64_t recs[];
} kkr_readset;

#define KKR_GRAN 8
#define KKR_GRAN_SHIFT 3
#define KKR_CHUNK_SHIFT 20
#define KKR_DIR_BITS 28 /* 2^(20+28) = 256 TiB of address space */
#define KKR_CELLS_PER_CHUNK (1u << (KKR_CHUNK_SHIFT - KKR_GRAN_SHIFT))
#define KKR_DIR_INDEX(a) \
  (((a) >> KKR_CHUNK_SHIFT) & ((1u << KKR_DIR_BITS) - 1))
#define KKR_CELL_INDEX(a) \
  (((a) >> KKR_GRAN_SHIFT) & (KKR_CELLS_PER_CHUNK - 1))

/* The end of the chunk holding a (the start of the next one). */
#define KKR_CHUNK_END(a) \
  (((a) | (((uintptr_t)1 << KKR_CHUNK_SHIFT) - 1)) + 1)

KKR_HIDDEN extern kkr_cell **kkr_dir;
KKR_HIDDEN extern kkr_split **kkr_split_dir;

/* Chunks of halves: a chunk whose words are nearly all split (an array of
 * int or float that strands touch element by element) keeps only its
 * half-cells (kkr_split_dir), with no cells in front of them: kkr_dir NULL
 * and kkr_half_on set.  The inline decisions on 4-byte elements (and on
 * words, half by half) use the half-cells directly; everything else sees
 * NULL and expands the chunk into cells that are all split
 * (kkr_shadow_chunk_slow).  Made only while one thread runs instrumented
 * code: from cells at the start of a loop (kkr_halves_convert), and from
 * runs of 4-byte elements that a loop or an access cannot decide as runs
 * (kkr_halves_from_runs). */
KKR_HIDDEN extern uint8_t *kkr_half_on;
KKR_HIDDEN extern int kkr_halves_made;

/* kkr_half_on[di]: chunk di is one of halves, whole (KKR_HALVES_FULL) or
 * compact (KKR_HALVES_COMPACT).
 *
 * Compact halves: one 8-byte record per half (kkr_compact_dir[di], 16
 * bytes a word instead of 32), for the common case of an array of int or
 * float whose halves each hold one live record: a write (KKR_R_W) with no
 * read after it, or the reads since a write that is settled (ordered
 * before everything that can still run: no access to come can race with
 * it, so it is dropped) or that never was.  A fill, then kernels that read
 * the array (a sparse matrix's indices, a table read by column), or that
 * update it atomically (a histogram's bins).  The inline decisions that
 * know them (decide_in_halves, through a tagged pointer: KKR_HC_COMPACT)
 * decide a half on a cell made of its record and store the outcome back
 * when it is one record again; when it is two, the chunk becomes one of
 * whole halves (kkr_compact_expand) and the access takes the full path.
 * Everything else asks kkr_half_chunk, which makes the whole halves first:
 * compact halves only make accesses cheaper, never change a decision.
 * Made only while one thread runs instrumented code, as halves are. */
enum { KKR_HALVES_FULL = 1, KKR_HALVES_COMPACT = 2, KKR_WORDS_COMPACT = 3 };
KKR_HIDDEN extern uint64_t **kkr_compact_dir;
#define KKR_HC_COMPACT ((uintptr_t)1)

/* Compact words (kkr_half_on[di] KKR_WORDS_COMPACT): one 8-byte record per
 * word (kkr_words_dir[di], 8 bytes of shadow a word instead of a cell's
 * 16), for the common case of an array of 8-byte elements whose words each
 * hold one live record, with the rule of compact halves (kkr_compact_of):
 * a write with no read after it, or the reads since a write that is
 * settled or never was.  A kernel's strands writing a fresh array one row
 * or one column at a time (a sparse matrix's values, an MDRange fill),
 * then kernels that read it after a fence (the matrix of a product, read
 * by every repeat).  Such a chunk counts as one of halves for the code
 * that asks (kkr_half_is: no runs, no cells are made over it), and
 * kkr_half_any gives its records tagged with KKR_HC_WORDS: the inline
 * decisions that know them (decide_in_halves, the gathers) decide a word
 * on a cell made of its record and store the outcome back when it is one
 * record again; when it is two, the chunk becomes cells
 * (kkr_words_expand), which take them.  Everything else asks for cells
 * (kkr_half_chunk gives NULL and makes them): compact words only make
 * accesses cheaper, never change a decision.  Made only while one thread
 * runs instrumented code. */
KKR_HIDDEN extern uint64_t **kkr_words_dir;
#define KKR_HC_WORDS ((uintptr_t)2)
#define KKR_HC_TAGS (KKR_HC_COMPACT | KKR_HC_WORDS)

/* The record of the word holding addr in compact words ww. */
KKR_INLINE uint64_t *kkr_words_rec(uint64_t *ww, uintptr_t addr) {
  return &ww[KKR_CELL_INDEX(addr)];
}

/* Chunk di, of compact words, becomes one of cells: its cells (under the
 * chunk lock), or NULL if it is not (any more) of compact words. */
kkr_cell *kkr_words_expand(uint32_t di);
/* Chunk di, which nothing touched yet (or since it was cleared), becomes
 * one of compact words, all empty: a kernel's strands write it in a loop
 * of 8-byte elements that no rule of runs holds (a row of 7 doubles per
 * iteration, a strided store of an unrolled loop).  Its records, or NULL
 * if it is touched (or was turned into cells too often).  Only with one
 * thread running instrumented code. */
uint64_t *kkr_words_fresh(uint32_t di);
/* Chunk di, of runs with no parked cells, whose every word holds one
 * record (a settled fill, the writes of a loop), becomes one of compact
 * words for an access that the runs do not take (reading: a read, which
 * wants the writes settled): its records, or NULL if it does not qualify.
 * Only with one thread running instrumented code. */
uint64_t *kkr_words_from_runs(uint32_t di, int reading);

/* The half-cell holding addr, in the split cells hc of its chunk. */
KKR_INLINE kkr_cell *kkr_half_cell(kkr_split *hc, uintptr_t addr) {
  return &hc[KKR_CELL_INDEX(addr)].half[(addr >> 2) & 1];
}

/* The record of the half holding addr in compact halves cc. */
KKR_INLINE uint64_t *kkr_compact_rec(uint64_t *cc, uintptr_t addr) {
  return &cc[2 * KKR_CELL_INDEX(addr) + ((addr >> 2) & 1)];
}

/* The one record that stands for a half whose records are w (its last
 * write) and r (the reads since), in *out, with the nodes below settled
 * settled: 0 if it takes both (a read after a write that is not settled),
 * or a set. */
KKR_INLINE int kkr_compact_of(uint64_t w, uint64_t r, uint32_t settled,
                              uint64_t *out) {
  if (((w | r) & KKR_R_X) || (w && !(w & KKR_R_W)))
    return 0;
  if (!r || !w || KKR_REC_NODE(w) < settled) {
    *out = r ? r : w;
    return 1;
  }
  return 0;
}

/* Chunk di, of compact halves, becomes one of whole halves: they, or NULL
 * if it is not (any more) of compact halves. */
kkr_split *kkr_compact_expand(uint32_t di);

/* Whether chunk di is one of halves, of either kind. */
KKR_INLINE int kkr_half_is(uint32_t di) {
  return KKR_UNLIKELY(kkr_halves_made) && kkr_half_on[di];
}

/* The compact words of chunk di, or NULL if it is not of them. */
KKR_INLINE uint64_t *kkr_words_chunk(uint32_t di) {
  return kkr_half_is(di) && kkr_half_on[di] == KKR_WORDS_COMPACT
             ? kkr_words_dir[di]
             : NULL;
}

/* The compact halves of chunk di, or NULL if it is not of them. */
KKR_INLINE uint64_t *kkr_compact_chunk(uint32_t di) {
  return kkr_half_is(di) && kkr_half_on[di] == KKR_HALVES_COMPACT
             ? kkr_compact_dir[di]
             : NULL;
}

/* The half-cells of chunk di as decide_in_halves takes them: whole, or
 * compact (the pointer tagged with KKR_HC_COMPACT), or the records of
 * compact words (tagged with KKR_HC_WORDS); NULL if none. */
KKR_INLINE kkr_split *kkr_half_any(uint32_t di) {
  if (!kkr_half_is(di))
    return NULL;
  switch (kkr_half_on[di]) {
  case KKR_HALVES_COMPACT:
    return (kkr_split *)((uintptr_t)kkr_compact_dir[di] | KKR_HC_COMPACT);
  case KKR_WORDS_COMPACT:
    return (kkr_split *)((uintptr_t)kkr_words_dir[di] | KKR_HC_WORDS);
  default:
    return kkr_split_dir[di];
  }
}

/* The whole half-cells of chunk di if it is a chunk of halves (compact
 * ones made whole first), else NULL (compact words made cells first). */
KKR_INLINE kkr_split *kkr_half_chunk(uint32_t di) {
  kkr_split *hc = kkr_half_any(di);
  if (KKR_UNLIKELY((uintptr_t)hc & KKR_HC_WORDS)) {
    kkr_words_expand(di);
    return NULL;
  }
  return KKR_UNLIKELY((uintptr_t)hc & KKR_HC_COMPACT) ? kkr_compact_expand(di)
                                                      : hc;
}

/* The same, without making compact halves whole: NULL for them. */
KKR_INLINE kkr_split *kkr_half_full(uint32_t di) {
  return kkr_half_is(di) && kkr_half_on[di] == KKR_HALVES_FULL
             ? kkr_split_dir[di]
             : NULL;
}

/* The two records of a half that its compact record v stands for: v is
 * the write (KKR_R_W) or the reads. */
KKR_INLINE kkr_cell kkr_compact_cell(uint64_t v) {
  kkr_cell c = {v & KKR_R_W ? v : 0, v & KKR_R_W ? 0 : v};
  return c;
}

/* Chunk di, whose runs are all of 4-byte elements (kkr_runrec step 2, or
 * step 0 over a View of 4-byte elements: a fill of an array of int) and
 * which has no parked cells, becomes a chunk of halves, compact where its
 * records allow: its half-cells as kkr_half_any gives them, or NULL if it
 * does not qualify (only with one thread running instrumented code). */
kkr_split *kkr_halves_from_runs(uint32_t di);

/* Chunk di, which nothing touched yet (or since it was cleared), becomes
 * a chunk of halves: the first access to it is a kernel strand's of a
 * 4-byte element, and the elements of an array of int or float are mostly
 * their strands' own, so that its cells would split: compact halves, as
 * kkr_half_any gives them.  NULL if it is touched (or was turned back into
 * cells too often).  Only with one thread running instrumented code. */
kkr_split *kkr_halves_fresh(uint32_t di);

/* n more words of chunk di were split.  Chunks with many splits wait for
 * kkr_halves_convert (kkr_halves_pending set). */
void kkr_split_noted(uint32_t di, uint32_t n);
KKR_HIDDEN extern int kkr_halves_pending;
/* Chunks of whole halves wait for their writes to be settled, to become
 * compact halves (kkr_settled_rose). */
KKR_HIDDEN extern int kkr_recompact_waiting;
/* The settled bound rose: the chunks waiting are looked at again at the
 * next kkr_halves_convert. */
KKR_INLINE void kkr_settled_rose(void) {
  if (KKR_UNLIKELY(kkr_recompact_waiting))
    kkr_halves_pending = 1;
}
/* The waiting chunks whose words are nearly all split become chunks of
 * halves (their other words' records restricted to halves through split):
 * only with one thread running instrumented code, and no cell pointer
 * held. */
void kkr_halves_convert(void (*split)(kkr_cell *c, kkr_split *s));

/* Runs: the words [lo, hi) of one chunk, all last accessed by one loop (or
 * one large range access) whose records follow one rule, kept as that rule
 * instead of one cell per word.  A loop over an array then costs one check
 * per chunk, and its shadow is never mapped.
 *
 * A run's w and r are the records of its words without their strand when
 * the step is 1 (word k of the run was accessed by strand (base + k) of a
 * RangePolicy kernel) or 2 (its 4-byte element e, half e & 1 of word e / 2,
 * by strand (base + e): a loop over an array of int or float), or the
 * records themselves when the step is 0 (every word by one strand, or by
 * the host).  Zero: no such access.  The words of a run of step 2 become
 * split cells when it is expanded.
 *
 * A chunk is in one of four states: untouched (no cells, no runs), runs
 * (kkr_run_dir set, kkr_dir NULL: the words outside its runs hold nothing,
 * or what its parked cells say), halves (above: whole or compact, or
 * compact words), or cells (kkr_dir set).
 * A write loop that the cells decided whole turns its range into a run
 * (kkr_runs_try_convert); the cells of a run's words are stale until it is
 * expanded.  A loop over some of a run's words splits it at the loop's
 * ends (kkr_runs_split), and runs side by side whose rules go on from one
 * another join again; a read loop of a kernel whose strands are not the
 * ones that the rule of the run's reads gives (a stencil's u(i - 1), then
 * u(i + 1)) leaves that rule with KKR_R_M, as it leaves each cell.
 * Everything that reads cells through kkr_dir sees NULL for a chunk of
 * runs and takes the slow path, which expands the runs into cells
 * (kkr_shadow_chunk_slow): runs only make loops faster, never change a
 * decision.  Runs are made and changed only while one thread runs
 * instrumented code (!kkr_mt); expanding and dropping them takes the chunk
 * lock. */

/* Strand ids of RangePolicy iterations: index % KKR_RUN_STRANDS + 2. */
#define KKR_RUN_STRANDS ((1u << KKR_STRAND_BITS) - 2)
#define KKR_RUN_SITES 16

/* The records of a run's words, the writes or the reads: word k's is rec,
 * with the strand (base + k) of rec's work item when step is 1 (step 2:
 * kkr_run_half_rec), and with
 * the site site[k % per] when per > 1 (a loop that the compiler unrolled
 * or vectorized reaches the words from several instructions in turn).
 *
 * Rows: with group g > 0, the elements go by g to a strand, from the
 * phase-th element of the first group: element e (word k for step 1) is of
 * strand base + (e + phase) / g, so that the row of each iteration of a
 * kernel (`conn(i, j)` for j < K, written or read by iteration i) is one
 * rule however many rows there are.  KKR_RUN_GROUP_OPEN: one strand's row
 * whose length the next strand's will tell (kkr_access.c, rows_absorb).
 *
 * Team rows (step KKR_RUN_TEAM): rows of group words, row k by the team
 * base + k (the next league rank) in the barrier phase team >> 8, word j
 * of a row by the team's thread of the nested iteration i0 + j, thread
 * (i0 + j) % 126 + 1, with i0 % 126 in team's low byte (`A(j, i)` for i <
 * M in team j's TeamThreadRange); phase is the first row's words before
 * the run's start, as for rows of strands (kkr_access.c,
 * team_rows_range).
 *
 * Columns (step KKR_RUN_COLS): iteration j reading its row of a
 * LayoutLeft matrix of Q rows (`A(j, i)` for i < M, a word every Q words)
 * reads its column, in u checks when the compiler unrolled the loop u
 * times (each of a word every group = u Q words).  Word k is of the
 * check's column c = (k + phase) % group: of column c % cols of the
 * matrix (cols: Q), the (c / cols)-th check's.  Column q < team (the
 * front) was read by strand base + q, and so were the first part checks'
 * words of column team (base KKR_RUN_COLS_FLAT: one record for all); the
 * other words hold no record of the rule's kind, or one that is settled
 * (kkr_nodes_settled: as good as none), which the rule drops
 * (kkr_access.c, cols_range).  Reads or writes; the reads of a rule of
 * written columns are none. */
typedef struct {
  uint64_t rec, base;
  uint64_t site_bits; /* per > 1: the bits of rec that hold its site */
  uint8_t step, per;
  uint32_t group, phase; /* 0: an element (or word) per strand */
  uint32_t team; /* step KKR_RUN_TEAM: barrier phase << 8 | i0 % 126;
                    step KKR_RUN_COLS: the front */
  uint32_t cols, part; /* step KKR_RUN_COLS */
  uint32_t site[KKR_RUN_SITES];
} kkr_runrec;
#define KKR_RUN_GROUP_OPEN 0x80000000u
#define KKR_RUN_TEAM 3
#define KKR_RUN_COLS 4
/* The base of a rule of columns whose record is one for all of its words
 * (the host's, a strand's own): no strand per column. */
#define KKR_RUN_COLS_FLAT (~(uint64_t)0)

typedef struct {
  uintptr_t lo, hi;
  kkr_runrec w, r;
  uint8_t row_lo; /* lo is where a strand's row begins (rows_absorb) */
} kkr_run;

/* The strand index (before base and the wrap) of element e of a rule. */
KKR_INLINE uint64_t kkr_run_elem(const kkr_runrec *x, uint64_t e) {
  if (!x->group)
    return e;
  /* (An open row is one strand's; a run's elements and a row's phase are
   * each under a MiB's.) */
  return x->group == KKR_RUN_GROUP_OPEN
             ? 0
             : ((uint32_t)e + x->phase) / x->group;
}

/* Exceptions: words inside a chunk's runs whose records no longer follow
 * their run's rule because single accesses changed them (a conditional
 * write in a loop, a boundary element), kept in a small hash table of the
 * chunk instead of expanding it.  A word's exception holds its cell, or
 * its two half-cells in a run of 4-byte elements, and only records that
 * the inline decision makes (no read sets, no split): anything else
 * expands the chunk, exceptions included. */
typedef struct {
  uint32_t key;    /* the word's cell index in the chunk + 1 (0: empty) */
  uint32_t halves; /* h[0] and h[1] are its half-cells; else h[0] its cell */
  kkr_cell h[2];
} kkr_exc;

typedef struct {
  uint32_t n, dead, cap; /* entries, tombstones, slots (a power of two) */
  /* Bit k: cell index k has an exception.  A look-up of a word with none
   * (most of them: a run's words that single accesses meet, whose rule
   * holds) reads its bit, from 16 KiB that stay in cache, not a slot of a
   * table of up to 1.3 MiB. */
  uint64_t *bits;
  kkr_exc e[];
} kkr_excs;

/* Exceptions per chunk at most (then it expands): one for every
 * KKR_EXC_RUN_SHARE words of its runs, at least KKR_EXC_FLOOR
 * (kkr_exc_add).  A whole MiB of runs keeps KKR_EXC_MAX: a sixth of its
 * words, at about 53 bytes each, cost half of its cells. */
#define KKR_EXC_RUN_SHARE 6u
#define KKR_EXC_FLOOR 256u
#define KKR_EXC_MAX (KKR_CELLS_PER_CHUNK / KKR_EXC_RUN_SHARE)

#define KKR_RUNS_MAX 6
typedef struct {
  uint32_t n;
  uint32_t front_a, front_b; /* the row front's runs (kkr_access.c) */
  uint32_t singles; /* kernel strands' single accesses (run_single) */
  uintptr_t front;           /* the row front (0: none) */
  kkr_cell *cells; /* parked: the words outside the runs (NULL: none) */
  kkr_excs *exc;   /* exceptions (NULL: none) */
  kkr_run run[KKR_RUNS_MAX];
} kkr_runs;

/* The exception of cell index k in runs rs, or NULL. */
kkr_exc *kkr_exc_find(const kkr_runs *rs, uint32_t k);
/* A new exception for cell index k (none yet) of chunk di's runs, its
 * records zero; NULL when the chunk has all it may have. */
kkr_exc *kkr_exc_add(uint32_t di, uint32_t k);
/* Exception e of rs goes (its slot becomes a tombstone). */
void kkr_exc_drop(kkr_runs *rs, kkr_exc *e);
#define KKR_EXC_DEAD 0x80000000u

/* Whether slot e holds an exception (not empty, not a tombstone). */
KKR_INLINE int kkr_exc_live(const kkr_exc *e) {
  return e->key && !(e->key & KKR_EXC_DEAD);
}

/* The word of exception e, in the chunk holding addr. */
KKR_INLINE uintptr_t kkr_exc_word(const kkr_exc *e, uintptr_t addr) {
  return (addr & ~(((uintptr_t)1 << KKR_CHUNK_SHIFT) - 1)) +
         ((uintptr_t)(e->key - 1) << KKR_GRAN_SHIFT);
}

KKR_HIDDEN extern kkr_runs **kkr_run_dir;
/* Runs were made at least once (else no code needs to look for them). */
KKR_HIDDEN extern int kkr_runs_made;

/* The record of word k of a run. */
/* The strand bits of a rule's strand index i (before base and the wrap). */
KKR_INLINE uint64_t kkr_run_strand_bits(const kkr_runrec *x, uint64_t i) {
  return (uint64_t)((x->base + i) % KKR_RUN_STRANDS + 2)
         << KKR_REC_STRAND_SHIFT;
}

KKR_INLINE uint64_t kkr_run_rec(const kkr_runrec *x, uint64_t k) {
  uint64_t rec = x->rec;
  if (!rec)
    return 0;
  if (x->per > 1)
    rec = (rec & ~x->site_bits) | (uint64_t)x->site[k % x->per]
                                      << KKR_REC_SITE_SHIFT;
  if (x->step == KKR_RUN_TEAM) {
    /* (A team's strand id: kkr_rt.h, KKR_TEAM_ID.) */
    uint64_t q = (uint32_t)k + x->phase;
    uint64_t team = (x->base + q / x->group) % 1022u;
    uint64_t sub = (q % x->group + (x->team & 0xFF)) % 126u + 1;
    return rec | (2u + (team << 10 | (uint64_t)(x->team >> 8 & 7u) << 7 |
                        sub))
                     << KKR_REC_STRAND_SHIFT;
  }
  if (x->step == KKR_RUN_COLS) {
    uint64_t c = ((uint32_t)k + x->phase) % x->group;
    uint64_t q = c % x->cols, n = c / x->cols;
    if (!(q < x->team || (q == x->team && n < x->part)))
      return 0;
    return x->base == KKR_RUN_COLS_FLAT ? rec
                                        : rec | kkr_run_strand_bits(x, q);
  }
  if (x->step)
    rec |= kkr_run_strand_bits(x, kkr_run_elem(x, k));
  return rec;
}

/* The byte mask bits of half h of a word (bytes 4h to 4h + 3). */
#define KKR_HALF_MASK(h) ((uint64_t)((h) ? 0xF0 : 0x0F) << 4)

/* Record rec on the bytes it has in half h of its word, or 0 if none. */
KKR_INLINE uint64_t kkr_rec_half(uint64_t rec, uint32_t h) {
  return rec & KKR_HALF_MASK(h)
             ? (rec & ~(uint64_t)0xFF0) | (rec & KKR_HALF_MASK(h))
             : 0;
}

/* The record of half h (bytes 4h to 4h + 3) of word k of a run: that of
 * element 2k + h for step 2, else the word's record on those bytes. */
KKR_INLINE uint64_t kkr_run_half_rec(const kkr_runrec *x, uint64_t k,
                                     uint32_t h) {
  if (x->step != 2)
    return kkr_rec_half(kkr_run_rec(x, k), h);
  if (!x->rec)
    return 0;
  return (x->rec & ~(uint64_t)0xFF0) | KKR_HALF_MASK(h) |
         kkr_run_strand_bits(x, kkr_run_elem(x, 2 * k + h));
}

/* The records of both halves of word k of a run, kkr_run_half_rec's: of a
 * rule of rows of 4-byte elements with one division for the two. */
KKR_INLINE void kkr_run_halves_rec(const kkr_runrec *x, uint64_t k,
                                   uint64_t out[2]) {
  if (x->step != 2 || !x->rec || !x->group ||
      x->group == KKR_RUN_GROUP_OPEN) {
    out[0] = kkr_run_half_rec(x, k, 0);
    out[1] = kkr_run_half_rec(x, k, 1);
    return;
  }
  uint32_t e = (uint32_t)(2 * k) + x->phase;
  uint64_t q = e / x->group;
  uint64_t q1 = q + (e - q * x->group + 1 == x->group);
  uint64_t rec = x->rec & ~(uint64_t)0xFF0;
  out[0] = rec | KKR_HALF_MASK(0) | kkr_run_strand_bits(x, q);
  out[1] = rec | KKR_HALF_MASK(1) | kkr_run_strand_bits(x, q1);
}

KKR_INLINE void kkr_runrec_set(kkr_runrec *x, uint64_t rec, uint64_t base,
                               uint32_t step) {
  x->rec = rec;
  x->base = base;
  x->step = (uint8_t)step;
  x->per = 1;
  x->group = x->phase = x->team = x->cols = x->part = 0;
}

/* In chunk di, which has no cells now, a new run for [lo, hi) (which no
 * run covers) that holds what those words hold: nothing, or what the
 * parked cells say if they follow a rule.  NULL if they do not, or the
 * chunk has all the runs it may have. */
kkr_run *kkr_runs_take(uint32_t di, uintptr_t lo, uintptr_t hi);
/* The cells of chunk di decided an access of all of [lo, hi): if what they
 * hold now follows a run's rule (every word the same records, or records
 * of successive strands, with one site or a short cycle of them), that
 * range becomes a run and the other cells are parked -- unless the chunk's
 * runs were expanded too often already (an array that loops access and
 * single accesses read in turn). */
void kkr_runs_try_convert(uint32_t di, uintptr_t lo, uintptr_t hi);
/* A new run for [lo, hi) of chunk di (which no run covers, and that holds
 * nothing the run does not say), its records zero; NULL when the chunk has
 * all the runs it may have.  One thread only. */
kkr_run *kkr_runs_add(uint32_t di, uintptr_t lo, uintptr_t hi);
/* Run r of chunk di ends at w, inside it, and a new run of the words from
 * w on holds the rules w and r (r's from there); the new run, or NULL
 * when the chunk has all the runs it may have.  One thread only. */
kkr_run *kkr_runs_split(uint32_t di, kkr_run *r, uintptr_t w,
                        const kkr_runrec *rw, const kkr_runrec *rr);
/* Run i of chunk di goes (the last one takes its place). */
void kkr_runs_remove(uint32_t di, uint32_t i);
/* Turns chunk di's runs into cells; its cells (under the chunk lock). */
kkr_cell *kkr_runs_expand_locked(uint32_t di);
void kkr_chunk_lock(void);
void kkr_chunk_unlock(void);

/* Set while the thread makes a large access (a loop or a range of at least
 * KKR_BULK_BYTES): the chunks it maps take huge pages (kkr_shadow.c). */
extern __thread uint8_t kkr_shadow_bulk __attribute__((tls_model("initial-exec")));
#define KKR_BULK_BYTES ((uintptr_t)64 << 10)

kkr_cell *kkr_shadow_chunk_slow(uintptr_t addr);
kkr_split *kkr_split_chunk_slow(uintptr_t addr);

/* The half-cells of chunk di if it is a chunk of halves or can become one
 * from its runs (kkr_dir[di] NULL), as kkr_half_any gives them. */
KKR_INLINE kkr_split *kkr_half_chunk_make(uint32_t di) {
  kkr_split *hc = kkr_half_any(di);
  if (!hc && kkr_runs_made && kkr_run_dir[di])
    hc = kkr_halves_from_runs(di);
  return hc;
}

/* The cell of the word holding addr; maps its chunk if needed. */
KKR_INLINE kkr_cell *kkr_shadow_cell(uintptr_t addr) {
  kkr_cell *chunk = kkr_dir[KKR_DIR_INDEX(addr)];
  if (KKR_UNLIKELY(!chunk))
    chunk = kkr_shadow_chunk_slow(addr);
  return chunk + KKR_CELL_INDEX(addr);
}

/* The cell of addr, or NULL when its chunk was never touched (a chunk of
 * runs or of halves is expanded). */
KKR_INLINE kkr_cell *kkr_shadow_cell_if_mapped(uintptr_t addr) {
  kkr_cell *chunk = kkr_dir[KKR_DIR_INDEX(addr)];
  if (KKR_UNLIKELY(!chunk && ((kkr_runs_made &&
                               kkr_run_dir[KKR_DIR_INDEX(addr)]) ||
                              kkr_half_is(KKR_DIR_INDEX(addr)))))
    chunk = kkr_shadow_chunk_slow(addr);
  return chunk ? chunk + KKR_CELL_INDEX(addr) : NULL;
}

/* The half-cells of the word holding addr. */
KKR_INLINE kkr_split *kkr_shadow_split(uintptr_t addr) {
  kkr_split *chunk = kkr_split_dir[KKR_DIR_INDEX(addr)];
  if (KKR_UNLIKELY(!chunk))
    chunk = kkr_split_chunk_slow(addr);
  return chunk + KKR_CELL_INDEX(addr);
}

/* Shared blocks: a read loop that leaves all 16 cells of a block (128
 * bytes of memory) read by several strands of the running work item, with
 * a write ordered before it (the state a stencil's neighbours or an n-body
 * step's bodies reach after their second reader), stamps the block with
 * the current era; the next read loop over the block in the same era skips
 * its cells, whose decision could only be "no change".  The era changes
 * with the node (and its horizon) that the thread runs, so a stamp speaks
 * of the running item only.  Every change of a cell that is not such a
 * read clears its block's stamp first (kkr_shared_forget*), and a chunk's
 * stamps are cleared when its cells are made anew (runs, halves).  Used
 * only while one thread runs instrumented code.  A read loop over part of
 * a block (a row's first or last block, which the next row shares) stamps
 * the cells it leaves so, their bits kept as the block's key
 * (kkr_access.c, part-shared blocks).
 *
 * Own blocks: a team's nested loop, or a strand's own, that passes over
 * the same elements again in one era (kkr_access.c, loop_repeats) and
 * leaves each of its elements in a block read by the element's own strand
 * (or by several strands of the item), with a write ordered before it or
 * the same strand's, stamps the block with the era and a key
 * (kkr_shared_key_dir): the strand of its first element there, that
 * element's place in the block, the stride and the step between strands.
 * A later read loop of the same era whose first element in the block has
 * the same key (the same strands on the same elements: a team's threads
 * passing over a row again) skips them; write loops do the same with keys
 * of their own (the site too), over cells that the strand wrote and
 * nothing read since.  Reads of other strands can only make such a read
 * several strands' read, which leaves the repeat "no change" too (and fail
 * on such a write, to the full path, which clears the stamp); a team's
 * barrier, a team's start and the first vector lanes of a phase (whose
 * accesses may replace a record that an earlier phase or the lanes'
 * thread made, without a call) begin a new era for own blocks
 * (kkr_shared_node_era: shared blocks keep theirs). */
#define KKR_BLOCK_SHIFT 4 /* cells per block: 16 */
#define KKR_BLOCK_CELLS (1u << KKR_BLOCK_SHIFT)
#define KKR_BLOCKS_PER_CHUNK (KKR_CELLS_PER_CHUNK >> KKR_BLOCK_SHIFT)
#define KKR_BLOCK_INDEX(addr) (KKR_CELL_INDEX(addr) >> KKR_BLOCK_SHIFT)

/* kkr_shared_dir[di]: the stamps of chunk di's blocks (NULL: none yet). */
KKR_HIDDEN extern uint32_t **kkr_shared_dir;
KKR_HIDDEN extern uint32_t kkr_shared_era; /* never 0 */
/* The era of shared blocks (key 0) and part-shared ones: it changes with
 * the node and its horizon, but not when a team starts, passes a barrier
 * or forks vector lanes (kkr_shared_new_own_era): what those let an
 * access replace without a call is a record of one strand (team_before,
 * lanes_before), never a read of several (KKR_R_M).  The teams of a
 * kernel then skip the blocks of a vector that every team reads.  (Own
 * blocks speak of one team's strands in one phase, whose ids the teams
 * after the 1022nd take again.) */
KKR_HIDDEN extern uint32_t kkr_shared_node_era;

/* Pending blocks: a read loop of a kernel's strands that leaves each cell
 * of a block read by one of them (the write ordered before) tags the
 * block KKR_PEND_FIRST and keeps the key of its first cell's strand in
 * the thread's table (kkr_thread.first).  A second read loop of other
 * strands over the whole block in the same era would leave every cell
 * read by several strands (KKR_R_M added to each read record): it stamps
 * the block shared (later read loops skip it) and marks it pending
 * instead, kkr_pend_dir[di][b] holding the generation kkr_pend_gen of the
 * kernel kkr_pend_node, without visiting the cells.  Only the running
 * kernel's own later decisions tell a read by several strands from a read
 * by one: a write, a free, a clearing or a change of the chunk's form
 * first tells the cells of a pending block (and drops a tag:
 * kkr_pend_check, kkr_pend_settle_range and _chunk, which
 * kkr_shared_forget and kkr_shared_forget_range call); a read decides
 * the same either way.  Marks of an earlier kernel are stale: a new
 * generation (below KKR_PEND_FIRST) begins with the next kernel that
 * marks blocks.  The last slot of a chunk's entries is set while any
 * entry may be. */
#define KKR_PEND_FIRST 0x80000000u
KKR_HIDDEN extern uint32_t **kkr_pend_dir;
KKR_HIDDEN extern uint32_t kkr_pend_gen; /* never 0 */
KKR_HIDDEN extern uint32_t kkr_pend_node;
/* The entries of chunk di (made if needed). */
uint32_t *kkr_pend_get(uint32_t di);
/* Entry b of a chunk's entries p becomes v (a tag or a generation). */
KKR_INLINE void kkr_pend_set(uint32_t *p, uint32_t b, uint32_t v) {
  p[b] = v;
  p[KKR_BLOCKS_PER_CHUNK] = 1;
}
/* The marks that follow are node's: a new generation (kkr_shadow.c). */
void kkr_pend_new_gen(uint32_t node);
/* Block b, whose chunk's entries are p, is pending for node's reads. */
KKR_INLINE void kkr_pend_mark(uint32_t *p, uint32_t b, uint32_t node) {
  if (KKR_UNLIKELY(node != kkr_pend_node))
    kkr_pend_new_gen(node);
  kkr_pend_set(p, b, kkr_pend_gen);
}
/* Block b of chunk di: its cells are told if it is pending, and its entry
 * goes (kkr_access.c). */
void kkr_pend_settle_block(uint32_t di, uint32_t b);
/* Entry b of chunk di (entries p), not 0: a pending block's cells are
 * told, a tag or a mark of an earlier kernel only goes. */
KKR_INLINE void kkr_pend_settle_entry(uint32_t *p, uint32_t di, uint32_t b) {
  if (p[b] == kkr_pend_gen)
    kkr_pend_settle_block(di, b);
  else
    p[b] = 0;
}
/* The same for the blocks of [lo, hi) (any length) and of chunk di. */
void kkr_pend_settle_range(uintptr_t lo, uintptr_t hi);
void kkr_pend_settle_chunk(uint32_t di);
/* The cells of the block holding addr are about to change otherwise than
 * by a read. */
KKR_INLINE void kkr_pend_check(uintptr_t addr) {
  uint32_t *p = kkr_pend_dir[KKR_DIR_INDEX(addr)];
  if (KKR_UNLIKELY(p != NULL) && KKR_UNLIKELY(p[KKR_BLOCK_INDEX(addr)] != 0))
    kkr_pend_settle_entry(p, KKR_DIR_INDEX(addr), KKR_BLOCK_INDEX(addr));
}

/* The cell of addr changes: its block is no longer shared (nor pending). */
KKR_INLINE void kkr_shared_forget(uintptr_t addr) {
  kkr_pend_check(addr);
  uint32_t *s = kkr_shared_dir[KKR_DIR_INDEX(addr)];
  if (KKR_UNLIKELY(s != NULL))
    s[KKR_BLOCK_INDEX(addr)] = 0;
}
/* The same for the cells of [lo, hi) (any length). */
void kkr_shared_forget_range(uintptr_t lo, uintptr_t hi);
/* The cells of chunk di are made anew. */
void kkr_shared_forget_chunk(uint32_t di);
/* The stamps of chunk di (made if needed). */
uint32_t *kkr_shared_get(uint32_t di);
/* kkr_shared_key_dir[di]: the keys of chunk di's stamped blocks, 0 for a
 * block shared by several strands (NULL: no own block yet, all 0). */
KKR_HIDDEN extern uint64_t **kkr_shared_key_dir;
/* The keys of chunk di (made if needed). */
uint64_t *kkr_shared_keys_get(uint32_t di);
/* A new era: the thread runs another node, or the same with another
 * horizon. */
void kkr_shared_new_era(void);
/* A new era for own blocks only: a team starts, passes a barrier or forks
 * vector lanes. */
void kkr_shared_new_own_era(void);

void kkr_shadow_init(void);
/* Forgets every access to [addr, addr + size): the memory was freed or is new.
 * Whole shadow pages are returned to the system. */
void kkr_shadow_clear(uintptr_t addr, uintptr_t size);
/* The same for memory about to be used again (a stack slot): its shadow's
 * pages are zeroed, not given back (a dispatch's 240 KiB functor copy
 * faulted its shadow in anew at every dispatch). */
void kkr_shadow_clear_keep(uintptr_t addr, uintptr_t size);
/* Forgets every access everywhere (node ids wrapped around). */
void kkr_shadow_clear_all(void);
/* Bytes of shadow mapped so far (virtual). */
uintptr_t kkr_shadow_mapped_bytes(void);
/* Writes one line to fd: the chunks in each form, and the resident bytes
 * of their cells and half-cells (verbosity=1). */
void kkr_shadow_summary(int fd);

/* Read sets (rare: reads by nodes that nothing orders). */
kkr_readset *kkr_readset_new(uint32_t cap);
kkr_readset *kkr_readset_grow(kkr_readset *s);
void kkr_readset_free(kkr_readset *s);
/* Live read sets: when zero, clearing need not look for them. */
KKR_HIDDEN extern uint64_t kkr_readsets_live;

#endif /* KKR_SHADOW_H */
