/* Shadow memory: the directories, chunk mapping, clearing and read sets. */
#include "kkr_shadow.h"

#include "kkr_rt.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

kkr_cell **kkr_dir;
kkr_split **kkr_split_dir;
kkr_runs **kkr_run_dir;
uint32_t **kkr_shared_dir;
uint64_t **kkr_shared_key_dir;
uint32_t kkr_shared_era = 1;
uint32_t kkr_shared_node_era = 1;
uint32_t **kkr_pend_dir;
uint32_t kkr_pend_gen = 1;
uint32_t kkr_pend_node;
int kkr_runs_made;
uint8_t *kkr_half_on;
uint64_t **kkr_compact_dir;
uint64_t **kkr_words_dir;
/* The regions of compact words, one for each two chunks (di >> 1): 2 MiB
 * that one huge page holds. */
static uint64_t **words_pairs;
int kkr_halves_made;
static uint32_t *split_counts;
/* A chunk becomes one of halves once this many of its words are split,
 * and twice as many as its words accessed whole (doubles, pointers: words
 * that would turn it back into cells): an array of int smaller than the
 * chunk (a histogram's bins) qualifies as one that fills it. */
#define HALVES_SPLITS (KKR_CELLS_PER_CHUNK / 32)

/* Whether the record rec (not split) is of an access of the whole word,
 * or of bytes in both halves, that a later access may still race with (a
 * settled one, kkr_nodes_settled, is the past: the fill of an array of
 * int). */
static int rec_wide(uint64_t rec, uint32_t settled) {
  uint32_t m = KKR_REC_MASK(rec);
  return rec && ((rec & KKR_R_X) || ((m & 0x0F) && (m & 0xF0) &&
                                     KKR_REC_NODE(rec) >= settled));
}
int kkr_halves_pending;
/* Chunks that reached the count, to look at (a few at a time). */
#define PENDING_MAX 16
static uint32_t pending[PENDING_MAX], npending;

/* Chunks made of whole halves because a half held a write that was not
 * settled yet (halves_to_compact): a small View of int sharing its MiB
 * with other data, whose kernel's writes split its cells before the fence
 * after it.  They become compact halves once the writes are settled, at
 * the first halves_settle after the settled bound rose (kkr_settled_rose),
 * RECOMPACT_TRIES times at most, each at a higher bound. */
#define RECOMPACT_MAX 16
#define RECOMPACT_TRIES 4
static struct {
  uint32_t di, settled, tries;
} recompact[RECOMPACT_MAX];
static uint32_t nrecompact;
int kkr_recompact_waiting;
uint64_t kkr_readsets_live;
static kkr_spin chunk_lock;
static uintptr_t mapped_bytes;

#define CHUNK_BYTES ((uintptr_t)KKR_CELLS_PER_CHUNK * sizeof(kkr_cell))
/* View memory in a chunk from which its shadow takes huge pages. */
#define DENSE_VIEW_BYTES ((uintptr_t)512 << 10)
#define SPLIT_BYTES ((uintptr_t)KKR_CELLS_PER_CHUNK * sizeof(kkr_split))
#define COMPACT_BYTES ((uintptr_t)KKR_CELLS_PER_CHUNK * 2 * sizeof(uint64_t))
#define WORDS_BYTES ((uintptr_t)KKR_CELLS_PER_CHUNK * sizeof(uint64_t))

/* The directories (a pointer per MiB of address space each) begin 64
 * bytes apart modulo a page, k lines in for the k-th: the entries of one
 * MiB, which an access reads from several of them at once, then lie in
 * different sets of the processor's first-level cache.  At a page's start
 * each, the eight entries of a MiB took eight lines of one set of an
 * 8-way cache, with whatever else fell there: an atomic update of a
 * histogram's bins, or a loop's piece, missed them in turn. */
#define DIR_STAGGER 64
static void *dir_map(uintptr_t entries, const char *what, unsigned k) {
  return (char *)kkr_mmap_noreserve((entries << 3) + 4096, what) +
         DIR_STAGGER * k;
}

/* The first page of directory d (its mapping's start). */
static void *dir_page(void *d) {
  return (void *)((uintptr_t)d & ~(uintptr_t)4095);
}

void kkr_shadow_init(void) {
  if (kkr_dir)
    return;
  const uintptr_t n = (uintptr_t)1 << KKR_DIR_BITS;
  kkr_dir = dir_map(n, "the shadow directory", 0);
  kkr_split_dir = dir_map(n, "the split-cell directory", 1);
  kkr_compact_dir = dir_map(n, "the compact-halves directory", 2);
  kkr_words_dir = dir_map(n, "the compact-words directory", 3);
  kkr_run_dir = dir_map(n, "the run directory", 4);
  kkr_shared_dir = dir_map(n, "the shared-block directory", 5);
  kkr_shared_key_dir = dir_map(n, "the own-block directory", 6);
  kkr_pend_dir = dir_map(n, "the pending-block directory", 7);
  words_pairs = kkr_mmap_noreserve(sizeof(uint64_t *) << (KKR_DIR_BITS - 1),
                                   "the compact-words regions");
}

#define SHARED_BYTES ((uintptr_t)KKR_BLOCKS_PER_CHUNK * sizeof(uint32_t))

uint32_t *kkr_shared_get(uint32_t di) {
  uint32_t *s = kkr_shared_dir[di];
  if (!s) {
    s = kkr_alloc(SHARED_BYTES); /* (zeroed) */
    kkr_shared_dir[di] = s;
  }
  return s;
}

uint64_t *kkr_shared_keys_get(uint32_t di) {
  uint64_t *k = kkr_shared_key_dir[di];
  if (!k) {
    k = kkr_alloc((uintptr_t)KKR_BLOCKS_PER_CHUNK * sizeof(uint64_t));
    kkr_shared_key_dir[di] = k;
  }
  return k;
}

/* ---- Pending blocks (kkr_shadow.h) --------------------------------------- */

#define PEND_BYTES (((uintptr_t)KKR_BLOCKS_PER_CHUNK + 1) * sizeof(uint32_t))
/* The chunks that have entries, for a wrap of the generations. */
static uint32_t *pend_chunks, npend_chunks, pend_chunks_cap;

uint32_t *kkr_pend_get(uint32_t di) {
  uint32_t *p = kkr_pend_dir[di];
  if (p)
    return p;
  if (npend_chunks == pend_chunks_cap) {
    uint32_t cap = pend_chunks_cap ? 2 * pend_chunks_cap : 64;
    pend_chunks = kkr_realloc(pend_chunks, pend_chunks_cap * sizeof(uint32_t),
                              cap * sizeof(uint32_t));
    pend_chunks_cap = cap;
  }
  pend_chunks[npend_chunks++] = di;
  p = kkr_alloc(PEND_BYTES); /* (zeroed) */
  __atomic_store_n(&kkr_pend_dir[di], p, __ATOMIC_RELEASE);
  return p;
}

void kkr_pend_new_gen(uint32_t node) {
  /* (The marks of the last kernel become stale.  Before the generations
   * reach the tag, every entry is cleared.) */
  if (++kkr_pend_gen == KKR_PEND_FIRST) {
    for (uint32_t i = 0; i < npend_chunks; i++)
      memset(kkr_pend_dir[pend_chunks[i]], 0, PEND_BYTES);
    kkr_pend_gen = 1;
  }
  kkr_pend_node = node;
}

void kkr_pend_settle_chunk(uint32_t di) {
  uint32_t *p = kkr_pend_dir[di];
  if (!p || !p[KKR_BLOCKS_PER_CHUNK])
    return;
  for (uint32_t b = 0; b < KKR_BLOCKS_PER_CHUNK; b++)
    if (p[b])
      kkr_pend_settle_entry(p, di, b);
  p[KKR_BLOCKS_PER_CHUNK] = 0;
}

/* The entries of [lo, hi): settled (tell: kkr_pend_settle_entry), or
 * dropped where the cells are cleared. */
static void pend_range(uintptr_t lo, uintptr_t hi, int tell) {
  while (lo < hi) {
    uintptr_t end = KKR_CHUNK_END(lo);
    if (end > hi || end == 0)
      end = hi;
    uint32_t di = KKR_DIR_INDEX(lo);
    uint32_t *p = kkr_pend_dir[di];
    if (p && p[KKR_BLOCKS_PER_CHUNK]) {
      for (uint32_t b = KKR_BLOCK_INDEX(lo); b <= KKR_BLOCK_INDEX(end - 1); b++) {
        if (!p[b])
          continue;
        if (tell)
          kkr_pend_settle_entry(p, di, b);
        else
          p[b] = 0;
      }
    }
    lo = end;
  }
}

void kkr_pend_settle_range(uintptr_t lo, uintptr_t hi) {
  pend_range(lo, hi, 1);
}

void kkr_shared_forget_range(uintptr_t lo, uintptr_t hi) {
  kkr_pend_settle_range(lo, hi);
  while (lo < hi) {
    uintptr_t end = KKR_CHUNK_END(lo);
    if (end > hi || end == 0)
      end = hi;
    uint32_t *s = kkr_shared_dir[KKR_DIR_INDEX(lo)];
    if (s)
      for (uint32_t b = KKR_BLOCK_INDEX(lo); b <= KKR_BLOCK_INDEX(end - 1); b++)
        s[b] = 0;
    lo = end;
  }
}

void kkr_shared_forget_chunk(uint32_t di) {
  uint32_t *s = kkr_shared_dir[di];
  if (s)
    memset(s, 0, SHARED_BYTES);
}

/* Eras are handed to threads in batches, so that a new one costs no atomic
 * operation (a thread changes node several times per dispatch): each value
 * of the 64-bit count is one era, its low 32 bits the stamp.  Batches are
 * aligned, so that the stamp 0 (never an era) is the first of its batch. */
#define ERA_BATCH 1024u
static uint64_t era_count = ERA_BATCH; /* (the stamps before it: unused) */
static __thread uint64_t era_next, era_end;

static uint32_t era_take(void) {
  /* (Any thread may begin a node; stamps are only read while one runs
   * instrumented code.) */
  if (KKR_UNLIKELY(era_next >= era_end)) {
    uint64_t b = __atomic_fetch_add(&era_count, ERA_BATCH, __ATOMIC_RELAXED);
    era_next = b;
    era_end = b + ERA_BATCH;
    if ((uint32_t)b == 0) {
      /* (Every 2^32 eras: no stamp may be taken for the new ones.) */
      for (uintptr_t i = 0; i < ((uintptr_t)1 << KKR_DIR_BITS); i++)
        if (kkr_shared_dir[i])
          kkr_shared_forget_chunk((uint32_t)i);
      era_next++;
    }
  }
  return (uint32_t)era_next++;
}

void kkr_shared_new_era(void) {
  uint32_t e = era_take();
  __atomic_store_n(&kkr_shared_era, e, __ATOMIC_RELAXED);
  __atomic_store_n(&kkr_shared_node_era, e, __ATOMIC_RELAXED);
}

void kkr_shared_new_own_era(void) {
  __atomic_store_n(&kkr_shared_era, era_take(), __ATOMIC_RELAXED);
}

void kkr_chunk_lock(void) { kkr_spin_lock(&chunk_lock); }
void kkr_chunk_unlock(void) { kkr_spin_unlock(&chunk_lock); }

__thread uint8_t kkr_shadow_bulk __attribute__((tls_model("initial-exec")));

/* Whether the shadow of chunk di will be mostly touched: a large access is
 * mapping it (kkr_shadow_bulk), its runs (made by large loops) or Views
 * hold half of its memory.  Such shadow takes huge pages: one fault
 * maps 2 MiB, and zeroing a huge page costs less than half of what the
 * faults of its small pages do (0.2 ms against 0.45 ms a MiB on a 2-core
 * virtual machine whose host has the memory backed; both about 2.5 ms a
 * MiB where it has not).  The rest (a stack, globals, a View of less than
 * half a MiB, or the part of a larger one that begins or ends in the
 * chunk, the heap's small objects) takes small pages, whose memory is only
 * what is touched: a chunk less than half of which its Views hold costs
 * less time and memory so. */
static int chunk_dense(uint32_t di) {
  if (kkr_shadow_bulk || kkr_half_is(di))
    return 1;
  if (kkr_runs_made && kkr_run_dir[di]) {
    const kkr_runs *rs = kkr_run_dir[di];
    uintptr_t bytes = 0;
    for (uint32_t i = 0; i < rs->n; i++)
      bytes += rs->run[i].hi - rs->run[i].lo;
    if (bytes >= DENSE_VIEW_BYTES)
      return 1;
  }
  uintptr_t lo = (uintptr_t)di << KKR_CHUNK_SHIFT;
  return kkr_views_bytes_in(lo, lo + ((uintptr_t)1 << KKR_CHUNK_SHIFT)) >=
         DENSE_VIEW_BYTES;
}

static void *new_chunk(uint32_t di, uintptr_t bytes) {
  void *c = kkr_mmap_noreserve(bytes, "shadow memory");
  madvise(c, bytes, chunk_dense(di) ? MADV_HUGEPAGE : MADV_NOHUGEPAGE);
  mapped_bytes += bytes;
  return c;
}

/* Maps a chunk for *slot (under chunk_lock). */
static void *map_chunk(uint32_t di, void **slot, uintptr_t bytes) {
  kkr_spin_lock(&chunk_lock);
  void *c = *slot;
  if (!c) {
    c = new_chunk(di, bytes);
    __atomic_store_n(slot, c, __ATOMIC_RELEASE);
  }
  kkr_spin_unlock(&chunk_lock);
  return c;
}

kkr_cell *kkr_shadow_chunk_slow(uintptr_t addr) {
  uint32_t di = KKR_DIR_INDEX(addr);
  if (kkr_runs_made || kkr_halves_made) {
    kkr_spin_lock(&chunk_lock);
    kkr_cell *c = kkr_runs_expand_locked(di);
    kkr_spin_unlock(&chunk_lock);
    return c;
  }
  return map_chunk(di, (void **)&kkr_dir[di], CHUNK_BYTES);
}

/* ---- Runs ----------------------------------------------------------------- */

/* Expansions per chunk, to stop converting where they keep coming. */
static uint8_t *churn;
#define CHURN_MAX 2

static void churn_count(uint32_t di) {
  if (!churn)
    churn = kkr_mmap_noreserve((uintptr_t)1 << KKR_DIR_BITS,
                               "the run expansion counts");
  if (churn[di] < 255)
    churn[di]++;
}

/* The records of run r's words written into the half-cells s of its
 * chunk. */
static void run_halves(const kkr_run *r, kkr_split *s) {
  kkr_split *h = s + KKR_CELL_INDEX(r->lo);
  uint64_t n = (r->hi - r->lo) >> KKR_GRAN_SHIFT;
  for (uint64_t k = 0; k < n; k++)
    for (uint32_t j = 0; j < 2; j++) {
      h[k].half[j].w = kkr_run_half_rec(&r->w, k, j);
      h[k].half[j].r = kkr_run_half_rec(&r->r, k, j);
    }
}

/* Chunk di is one of halves of kind on (KKR_HALVES_*) from now on (under
 * chunk_lock). */
static void half_on_as(uint32_t di, uint8_t on) {
  if (!kkr_half_on)
    kkr_half_on = kkr_mmap_noreserve((uintptr_t)1 << KKR_DIR_BITS,
                                     "the chunks of halves");
  kkr_half_on[di] = on;
  kkr_halves_made = 1;
}

static void half_on(uint32_t di) { half_on_as(di, KKR_HALVES_FULL); }

static void zero_bytes(void *p, uintptr_t n, int keep);

/* The compact halves of chunk di, mapped if need be (zero: a region left
 * from an earlier life was zeroed when it ended). */
static uint64_t *compact_region(uint32_t di) {
  if (!kkr_compact_dir[di])
    __atomic_store_n(&kkr_compact_dir[di], new_chunk(di, COMPACT_BYTES),
                     __ATOMIC_RELEASE);
  return kkr_compact_dir[di];
}

/* The split region (whole halves) of chunk di, mapped if need be. */
static kkr_split *split_region(uint32_t di) {
  if (!kkr_split_dir[di])
    __atomic_store_n(&kkr_split_dir[di], new_chunk(di, SPLIT_BYTES),
                     __ATOMIC_RELEASE);
  return kkr_split_dir[di];
}

/* Chunk di's compact halves become whole ones (under chunk_lock): each
 * record is its half's write or its reads. */
static kkr_split *compact_expand_locked(uint32_t di) {
  if (!kkr_half_is(di) || kkr_half_on[di] == KKR_WORDS_COMPACT)
    return NULL;
  if (kkr_half_on[di] == KKR_HALVES_FULL)
    return kkr_split_dir[di];
  uint64_t *cc = kkr_compact_dir[di];
  kkr_split *s = split_region(di);
  kkr_cell *h = &s[0].half[0];
  for (uint32_t i = 0; i < 2 * KKR_CELLS_PER_CHUNK; i++)
    h[i] = kkr_compact_cell(cc[i]);
  zero_bytes(cc, COMPACT_BYTES, 0);
  half_on(di);
  return s;
}

/* Chunk di's whole halves s become compact ones if every half takes one
 * record (under chunk_lock; the split region's pages go back): 1 if so.
 * Not while a half holds a plain write that is not settled: an array that
 * a kernel writes is mostly read before a fence settles the writes (a
 * particle's cell index), which would make the halves whole again at
 * once; atomic updates (a histogram's bins) are mostly read after one. */
static int halves_to_compact(uint32_t di, kkr_split *s) {
  uint32_t settled = __atomic_load_n(&kkr_nodes_settled, __ATOMIC_RELAXED);
  const kkr_cell *h = &s[0].half[0];
  uint32_t i = 0;
  uint64_t v;
  for (; i < 2 * KKR_CELLS_PER_CHUNK; i++)
    if (!kkr_compact_of(h[i].w, h[i].r, settled, &v) ||
        ((h[i].w & (KKR_R_W | KKR_R_A)) == KKR_R_W &&
         KKR_REC_NODE(h[i].w) >= settled))
      return 0;
  uint64_t *cc = compact_region(di);
  for (i = 0; i < 2 * KKR_CELLS_PER_CHUNK; i++)
    kkr_compact_of(h[i].w, h[i].r, settled, &cc[i]);
  zero_bytes(s, SPLIT_BYTES, 0);
  half_on_as(di, KKR_HALVES_COMPACT);
  return 1;
}

/* Chunk di was just made of whole halves (under chunk_lock): compact
 * halves are tried again once more nodes are settled. */
static void recompact_note(uint32_t di) {
  if (nrecompact == RECOMPACT_MAX)
    return;
  recompact[nrecompact].di = di;
  recompact[nrecompact].settled =
      __atomic_load_n(&kkr_nodes_settled, __ATOMIC_RELAXED);
  recompact[nrecompact].tries = 0;
  nrecompact++;
  kkr_recompact_waiting = 1;
}

/* The chunks noted by recompact_note, tried again where the settled bound
 * rose since their last try (one thread running instrumented code). */
static void recompact_try(void) {
  uint32_t settled = __atomic_load_n(&kkr_nodes_settled, __ATOMIC_RELAXED);
  kkr_spin_lock(&chunk_lock);
  for (uint32_t i = 0; i < nrecompact;) {
    uint32_t di = recompact[i].di;
    int keep = kkr_half_is(di) && kkr_half_on[di] == KKR_HALVES_FULL;
    if (keep && settled > recompact[i].settled) {
      keep = !halves_to_compact(di, kkr_split_dir[di]) &&
             ++recompact[i].tries < RECOMPACT_TRIES;
      recompact[i].settled = settled;
    }
    if (keep)
      i++;
    else
      recompact[i] = recompact[--nrecompact];
  }
  kkr_recompact_waiting = nrecompact != 0;
  kkr_spin_unlock(&chunk_lock);
}

kkr_split *kkr_compact_expand(uint32_t di) {
  kkr_spin_lock(&chunk_lock);
  kkr_split *s = compact_expand_locked(di);
  kkr_spin_unlock(&chunk_lock);
  return s;
}

/* ---- Compact words (kkr_shadow.h) ---------------------------------------- */

static void runs_free(kkr_runs *rs);

/* The compact words of chunk di, mapped if need be (in the region of its
 * pair of chunks; zero: a region left from an earlier life was zeroed when
 * it ended).  Under chunk_lock. */
static uint64_t *words_region(uint32_t di) {
  if (!kkr_words_dir[di]) {
    uint64_t **pair = &words_pairs[di >> 1];
    if (!*pair)
      *pair = new_chunk(di, 2 * WORDS_BYTES);
    __atomic_store_n(&kkr_words_dir[di],
                     *pair + (di & 1) * (uintptr_t)KKR_CELLS_PER_CHUNK,
                     __ATOMIC_RELEASE);
  }
  return kkr_words_dir[di];
}

/* The n records of chunk di's compact words from ww on are no more
 * (under chunk_lock): zeroed.  All of them: the chunk is compact words no
 * more, and when the other chunk of the pair has none either, the pair's
 * region goes back whole (a part of a huge page given back keeps the
 * page). */
static void words_release(uint32_t di, uint64_t *ww, uintptr_t n, int keep) {
  if (n < KKR_CELLS_PER_CHUNK) {
    zero_bytes(ww, n * sizeof(uint64_t), keep);
    return;
  }
  kkr_half_on[di] = 0;
  if (!keep && kkr_half_on[di ^ 1] != KKR_WORDS_COMPACT)
    zero_bytes(words_pairs[di >> 1], 2 * WORDS_BYTES, 0);
  else
    zero_bytes(kkr_words_dir[di], WORDS_BYTES, keep);
}

/* Chunk di's compact words become cells (under chunk_lock): each record
 * is its word's write or its reads. */
static kkr_cell *words_expand_locked(uint32_t di) {
  uint64_t *ww = kkr_words_chunk(di);
  if (!ww)
    return kkr_dir[di];
  kkr_cell *c = new_chunk(di, CHUNK_BYTES);
  for (uint32_t k = 0; k < KKR_CELLS_PER_CHUNK; k++)
    if (ww[k])
      c[k] = kkr_compact_cell(ww[k]);
  words_release(di, ww, KKR_CELLS_PER_CHUNK, 0);
  /* (Counted once, when they were made from runs: cells never become
   * compact words again.) */
  kkr_shared_forget_chunk(di);
  __atomic_store_n(&kkr_dir[di], c, __ATOMIC_RELEASE);
  return c;
}

kkr_cell *kkr_words_expand(uint32_t di) {
  kkr_spin_lock(&chunk_lock);
  kkr_cell *c = words_expand_locked(di);
  kkr_spin_unlock(&chunk_lock);
  return c;
}

uint64_t *kkr_words_fresh(uint32_t di) {
  kkr_spin_lock(&chunk_lock);
  uint64_t *ww = NULL;
  if (!kkr_dir[di] && !kkr_run_dir[di] && !kkr_half_is(di) &&
      !(churn && churn[di] >= CHURN_MAX)) {
    ww = words_region(di);
    half_on_as(di, KKR_WORDS_COMPACT);
  }
  kkr_spin_unlock(&chunk_lock);
  return ww;
}

/* Whether the words of runs rs each take one record, settled below
 * settled; if so, and ww is not NULL, they are stored there.  For reads
 * (reading), not while a run holds a write that is not settled: a
 * kernel's reads of what the one before wrote, with no fence between (a
 * vector that the next product gathers), would make them cells at once. */
static int runs_to_words(const kkr_runs *rs, uint64_t *ww, uint32_t settled,
                         int reading) {
  for (uint32_t i = 0; i < rs->n; i++) {
    const kkr_run *r = &rs->run[i];
    if (r->w.step == 2 || r->r.step == 2 ||
        (reading && r->w.rec && KKR_REC_NODE(r->w.rec) >= settled))
      return 0;
    uint64_t n = (r->hi - r->lo) >> KKR_GRAN_SHIFT;
    uint64_t *p = ww ? ww + KKR_CELL_INDEX(r->lo) : NULL;
    uint64_t v;
    if (!r->w.step && !r->r.step && r->w.per <= 1 && r->r.per <= 1) {
      /* (One record for all the words: a fill.) */
      if (!kkr_compact_of(r->w.rec, r->r.rec, settled, &v))
        return 0;
      for (uint64_t k = 0; p && v && k < n; k++)
        p[k] = v;
      continue;
    }
    for (uint64_t k = 0; k < n; k++) {
      if (!kkr_compact_of(kkr_run_rec(&r->w, k), kkr_run_rec(&r->r, k),
                          settled, &v))
        return 0;
      if (p)
        p[k] = v;
    }
  }
  /* (An exception holds a cell, or half-cells: one record a word.) */
  for (uint32_t i = 0; rs->exc && i < rs->exc->cap; i++) {
    const kkr_exc *e = &rs->exc->e[i];
    uint64_t v;
    if (!kkr_exc_live(e))
      continue;
    if (e->halves || !kkr_compact_of(e->h[0].w, e->h[0].r, settled, &v) ||
        (reading && e->h[0].w && KKR_REC_NODE(e->h[0].w) >= settled))
      return 0;
    if (ww)
      ww[e->key - 1] = v;
  }
  return 1;
}

uint64_t *kkr_words_from_runs(uint32_t di, int reading) {
  kkr_spin_lock(&chunk_lock);
  kkr_runs *rs = kkr_run_dir[di];
  uint64_t *ww = NULL;
  uint32_t settled = __atomic_load_n(&kkr_nodes_settled, __ATOMIC_RELAXED);
  if (rs && !rs->cells && !kkr_dir[di] && !kkr_half_is(di) &&
      !(churn && churn[di] >= CHURN_MAX) &&
      runs_to_words(rs, NULL, settled, reading)) {
    kkr_pend_settle_chunk(di);
    ww = words_region(di);
    runs_to_words(rs, ww, settled, reading);
    churn_count(di);
    half_on_as(di, KKR_WORDS_COMPACT);
    kkr_shared_forget_chunk(di);
    kkr_run_dir[di] = NULL;
    runs_free(rs);
  }
  kkr_spin_unlock(&chunk_lock);
  return ww;
}

/* ---- Exceptions ------------------------------------------------------------ */

#define EXC_MIN_CAP 64u
/* Slots for KKR_EXC_MAX entries at a load of 3/4 at most. */
#define EXC_MAX_CAP 32768u
_Static_assert(4 * KKR_EXC_MAX <= 3 * EXC_MAX_CAP, "exception slots");

KKR_INLINE uint32_t exc_slot(uint32_t k, uint32_t cap) {
  return (uint32_t)((k + 1) * 2654435761u) >> (32 - __builtin_ctz(cap));
}

static size_t exc_bytes(uint32_t cap) {
  return sizeof(kkr_excs) + (size_t)cap * sizeof(kkr_exc);
}

#define EXC_BITS_BYTES (KKR_CELLS_PER_CHUNK / 8)

kkr_exc *kkr_exc_find(const kkr_runs *rs, uint32_t k) {
  const kkr_excs *x = rs->exc;
  if (!x || !x->n || !(x->bits[k >> 6] >> (k & 63) & 1))
    return NULL;
  for (uint32_t i = exc_slot(k, x->cap);; i = (i + 1) & (x->cap - 1)) {
    uint32_t key = x->e[i].key;
    if (key == k + 1)
      return (kkr_exc *)&x->e[i];
    if (!key)
      return NULL;
  }
}

/* A table of cap slots holding the exceptions of x (which it frees). */
static kkr_excs *exc_rehash(kkr_excs *x, uint32_t cap) {
  kkr_excs *y = kkr_alloc(exc_bytes(cap)); /* (zeroed) */
  /* A large table's slots are spread over all its pages: mapped in by
   * one call rather than a fault each as its entries come. */
  if (exc_bytes(cap) >= ((size_t)64 << 10))
    kkr_prefault(y, exc_bytes(cap));
  y->cap = cap;
  y->bits = x ? x->bits : kkr_alloc(EXC_BITS_BYTES); /* (zeroed) */
  if (x) {
    for (uint32_t j = 0; j < x->cap; j++) {
      const kkr_exc *e = &x->e[j];
      if (!kkr_exc_live(e))
        continue;
      uint32_t i = exc_slot(e->key - 1, cap);
      while (y->e[i].key)
        i = (i + 1) & (cap - 1);
      y->e[i] = *e;
      y->n++;
    }
    kkr_free(x, exc_bytes(x->cap));
  }
  return y;
}

/* Exceptions a chunk's runs may have (KKR_EXC_RUN_SHARE).  An exception
 * is made and found through the slow path, several times the cost of an
 * inline decision in cells: runs of a small array whose words single
 * accesses keep changing (each element written by its iteration in an
 * inner loop, launch after launch, after a loop over the whole array read
 * it) are better as cells, which the accesses decide inline. */
static uint32_t exc_limit(const kkr_runs *rs) {
  uint64_t words = 0;
  for (uint32_t i = 0; i < rs->n; i++)
    words += (rs->run[i].hi - rs->run[i].lo) >> KKR_GRAN_SHIFT;
  uint32_t n = (uint32_t)(words / KKR_EXC_RUN_SHARE);
  return n < KKR_EXC_FLOOR ? KKR_EXC_FLOOR : n;
}

kkr_exc *kkr_exc_add(uint32_t di, uint32_t k) {
  kkr_spin_lock(&chunk_lock);
  kkr_runs *rs = kkr_run_dir[di];
  kkr_exc *e = NULL;
  if (rs && (!rs->exc || rs->exc->n < exc_limit(rs))) {
    kkr_excs *x = rs->exc;
    if (!x) {
      rs->exc = x = exc_rehash(NULL, EXC_MIN_CAP);
    } else if (4 * (x->n + x->dead + 1) > 3 * x->cap) {
      /* Full: larger, or the same without its tombstones. */
      uint32_t cap = x->cap;
      if (2 * (x->n + 1) > cap)
        cap = 4 * cap <= EXC_MAX_CAP ? 4 * cap : EXC_MAX_CAP;
      rs->exc = x = exc_rehash(x, cap);
    }
    /* (k has no exception: the first tombstone on its way may take it.) */
    uint32_t i = exc_slot(k, x->cap);
    while (x->e[i].key && !(x->e[i].key & KKR_EXC_DEAD))
      i = (i + 1) & (x->cap - 1);
    e = &x->e[i];
    if (e->key)
      x->dead--;
    memset(e, 0, sizeof *e);
    e->key = k + 1;
    x->bits[k >> 6] |= (uint64_t)1 << (k & 63);
    x->n++;
  }
  kkr_spin_unlock(&chunk_lock);
  return e;
}

void kkr_exc_drop(kkr_runs *rs, kkr_exc *e) {
  kkr_excs *x = rs->exc;
  uint32_t k = e->key - 1;
  x->bits[k >> 6] &= ~((uint64_t)1 << (k & 63));
  e->key |= KKR_EXC_DEAD;
  x->n--;
  x->dead++;
  if (!x->n && x->dead >= x->cap / 2) {
    /* (The table stays: a loop that made exceptions makes them again.  A
     * few tombstones stay too: rows make and drop the exception of the
     * word at their front, one word after the other.) */
    memset(x->e, 0, (size_t)x->cap * sizeof(kkr_exc));
    x->dead = 0;
  }
}

/* Frees runs rs and their exceptions. */
static void runs_free(kkr_runs *rs) {
  if (rs->exc) {
    kkr_free(rs->exc->bits, EXC_BITS_BYTES);
    kkr_free(rs->exc, exc_bytes(rs->exc->cap));
  }
  kkr_free(rs, sizeof(kkr_runs));
}

/* rec restricted to half h of its word (0 if it has none of its bytes). */
static uint64_t half_rec(uint64_t rec, uint32_t h) {
  uint64_t hmask = (uint64_t)(h ? 0xF0 : 0x0F) << 4;
  return rec & hmask ? (rec & ~(uint64_t)0xFF0) | (rec & hmask) : 0;
}

/* The records of half j of exception e's word. */
static kkr_cell exc_half(const kkr_exc *e, uint32_t j) {
  if (e->halves)
    return e->h[j];
  kkr_cell h = {half_rec(e->h[0].w, j), half_rec(e->h[0].r, j)};
  return h;
}

/* The exceptions of runs rs written over the half-cells s of their chunk
 * (a chunk of halves from now on). */
static void exc_to_halves(const kkr_runs *rs, kkr_split *s) {
  const kkr_excs *x = rs->exc;
  for (uint32_t i = 0; x && i < x->cap; i++) {
    const kkr_exc *e = &x->e[i];
    if (!kkr_exc_live(e))
      continue;
    for (uint32_t j = 0; j < 2; j++)
      s[e->key - 1].half[j] = exc_half(e, j);
  }
}

/* The records of runs rs and their exceptions as compact halves cc (zero,
 * for a chunk of runs with no parked cells): 0 if a half takes two.  With
 * cc NULL, only whether they can be (no page of cc touched for nothing).
 * Records of nodes below settled are left out (kkr_compact_of drops a
 * settled write under a read): nothing to come can race with them. */
static int runs_to_compact(const kkr_runs *rs, uint64_t *cc,
                           uint32_t settled) {
  uint64_t v;
  for (uint32_t i = 0; i < rs->n; i++) {
    const kkr_run *r = &rs->run[i];
    /* (Records all settled, or none: as good as nothing, which the region
     * holds already.) */
    if ((!r->w.rec || KKR_REC_NODE(r->w.rec) < settled) &&
        (!r->r.rec || KKR_REC_NODE(r->r.rec) < settled))
      continue;
    uint64_t *rc = cc ? cc + 2 * KKR_CELL_INDEX(r->lo) : NULL;
    uint64_t n = (r->hi - r->lo) >> KKR_GRAN_SHIFT;
    for (uint64_t k = 0; k < n; k++)
      for (uint32_t j = 0; j < 2; j++)
        if (!kkr_compact_of(kkr_run_half_rec(&r->w, k, j),
                            kkr_run_half_rec(&r->r, k, j), settled,
                            rc ? &rc[2 * k + j] : &v))
          return 0;
  }
  const kkr_excs *x = rs->exc;
  for (uint32_t i = 0; x && i < x->cap; i++) {
    const kkr_exc *e = &x->e[i];
    if (!kkr_exc_live(e))
      continue;
    for (uint32_t j = 0; j < 2; j++) {
      kkr_cell h = exc_half(e, j);
      if (!kkr_compact_of(h.w, h.r, settled,
                          cc ? &cc[2 * (e->key - 1) + j] : &v))
        return 0;
    }
  }
  return 1;
}

/* The same over the cells c of chunk di (its words of half-cells split). */
static void exc_to_cells(uint32_t di, const kkr_runs *rs, kkr_cell *c) {
  const kkr_excs *x = rs->exc;
  uint32_t nsplit = 0;
  for (uint32_t i = 0; x && i < x->cap; i++) {
    const kkr_exc *e = &x->e[i];
    if (!kkr_exc_live(e))
      continue;
    uint32_t k = e->key - 1;
    if (!e->halves) {
      c[k] = e->h[0];
      continue;
    }
    kkr_split *sr = split_region(di);
    sr[k].half[0] = e->h[0];
    sr[k].half[1] = e->h[1];
    c[k].w = KKR_W_SPLIT;
    c[k].r = 0;
    nsplit++;
  }
  if (nsplit)
    kkr_split_noted(di, nsplit);
}

/* A new empty run [lo, hi) in chunk di (its runs made if needed); NULL
 * when the chunk has all it may have (under chunk_lock). */
static kkr_run *run_add_locked(uint32_t di, uintptr_t lo, uintptr_t hi) {
  kkr_runs *rs = kkr_run_dir[di];
  if (!rs) {
    rs = kkr_alloc(sizeof(kkr_runs));
    rs->n = 0;
    rs->front = 0;
    rs->front_a = rs->front_b = rs->singles = 0;
    rs->cells = NULL;
    rs->exc = NULL;
    kkr_run_dir[di] = rs;
    kkr_runs_made = 1;
  }
  if (rs->n == KKR_RUNS_MAX)
    return NULL;
  kkr_run *r = &rs->run[rs->n++];
  memset(r, 0, sizeof *r);
  r->lo = lo;
  r->hi = hi;
  return r;
}

kkr_run *kkr_runs_add(uint32_t di, uintptr_t lo, uintptr_t hi) {
  kkr_spin_lock(&chunk_lock);
  kkr_run *r = run_add_locked(di, lo, hi);
  kkr_spin_unlock(&chunk_lock);
  return r;
}

kkr_run *kkr_runs_split(uint32_t di, kkr_run *r, uintptr_t w,
                        const kkr_runrec *rw, const kkr_runrec *rr) {
  kkr_spin_lock(&chunk_lock);
  kkr_run *b = run_add_locked(di, w, r->hi);
  if (b) {
    b->w = *rw;
    b->r = *rr;
    r->hi = w;
  }
  kkr_spin_unlock(&chunk_lock);
  return b;
}

void kkr_runs_remove(uint32_t di, uint32_t i) {
  kkr_spin_lock(&chunk_lock);
  kkr_runs *rs = kkr_run_dir[di];
  rs->run[i] = rs->run[--rs->n];
  kkr_spin_unlock(&chunk_lock);
}

/* The site of record x (site_bits: where it is). */
#define REC_SITE(x, site_bits) \
  ((uint32_t)(((x) & (site_bits)) >> KKR_REC_SITE_SHIFT))

/* The rule that the n records recs[0], recs[2], ... (one field of n cells)
 * follow: 1 with *x set, or 0 if none (kkr_runrec). */
static int rec_rule(const uint64_t *recs, uint64_t n, kkr_runrec *x) {
  uint64_t r0 = recs[0];
  memset(x, 0, sizeof *x);
  x->per = 1;
  if (!r0) {
    for (uint64_t k = 1; k < n; k++)
      if (recs[2 * k])
        return 0;
    return 1;
  }
  /* (Flags M and X: read sets, split cells, reads of several strands.) */
  if (r0 & 0xC)
    return 0;
  /* A host record has no strand: those bits are its site's. */
  int host = (kkr_node_owner(KKR_REC_NODE(r0)) & 1) != 0;
  uint64_t sb = host ? (uint64_t)0x3FFFFFF << KKR_REC_SITE_SHIFT
                     : (uint64_t)0x3F << KKR_REC_SITE_SHIFT;
  /* What is not the site: the same everywhere, or successive strands. */
  uint64_t fixed = r0 & ~sb;
  uint64_t k = 1;
  while (k < n && (recs[2 * k] & ~sb) == fixed)
    k++;
  if (k < n) {
    uint32_t s0 = KKR_REC_STRAND(r0);
    if (host || s0 < 2)
      return 0;
    fixed &= ~KKR_REC_STRAND_BITS;
    kkr_runrec probe = {.rec = fixed, .base = s0 - 2, .step = 1, .per = 1};
    for (k = 1; k < n; k++)
      if ((recs[2 * k] & ~sb) != kkr_run_rec(&probe, k))
        return 0;
    x->step = 1;
    x->base = s0 - 2;
  }
  x->rec = x->step ? (r0 & ~KKR_REC_STRAND_BITS) : r0;
  /* The sites: one, or a short cycle of them. */
  uint32_t per = 1;
  for (; per <= KKR_RUN_SITES; per++) {
    uint64_t j = 0;
    while (j < n && REC_SITE(recs[2 * j], sb) ==
                        REC_SITE(recs[2 * (j % per)], sb))
      j++;
    if (j == n)
      break;
    if (j >= 4 * KKR_RUN_SITES)
      return 0; /* (a cycle that held that long and broke: none will) */
  }
  if (per > KKR_RUN_SITES)
    return 0;
  if (per > 1) {
    x->per = (uint8_t)per;
    x->site_bits = sb;
    for (uint32_t i = 0; i < per; i++)
      x->site[i] = REC_SITE(recs[2 * i], sb);
  }
  return 1;
}

/* Whether the cells of [lo, hi) of chunk c follow a run's rule (*w, *r). */
static int cells_rule(const kkr_cell *c, uintptr_t lo, uintptr_t hi,
                      kkr_runrec *w, kkr_runrec *r) {
  const kkr_cell *rc = c + KKR_CELL_INDEX(lo);
  uint64_t n = (hi - lo) >> KKR_GRAN_SHIFT;
  return n && rec_rule(&rc->w, n, w) && rec_rule(&rc->r, n, r);
}

static void zero_bytes(void *p, uintptr_t n, int keep);

/* The parked cells c of the words [lo, hi), which a run now holds: stale
 * until the run is expanded, which writes them anew.  Their pages go back
 * to the system (a View that a kernel rewrites after deep_copy(v, value)
 * filled it cell by cell would otherwise keep both). */
static void park_range(kkr_cell *c, uintptr_t lo, uintptr_t hi) {
  zero_bytes(c + KKR_CELL_INDEX(lo), ((hi - lo) >> KKR_GRAN_SHIFT) * sizeof *c,
             0);
}

kkr_run *kkr_runs_take(uint32_t di, uintptr_t lo, uintptr_t hi) {
  kkr_runs *rs = kkr_run_dir[di];
  kkr_runrec w, r;
  if (rs && rs->cells && !cells_rule(rs->cells, lo, hi, &w, &r))
    return NULL;
  kkr_spin_lock(&chunk_lock);
  kkr_run *run = run_add_locked(di, lo, hi);
  if (run && rs && rs->cells) {
    run->w = w;
    run->r = r;
    park_range(rs->cells, lo, hi);
  }
  kkr_spin_unlock(&chunk_lock);
  return run;
}

void kkr_runs_try_convert(uint32_t di, uintptr_t lo, uintptr_t hi) {
  kkr_cell *c = kkr_dir[di];
  if (!c || kkr_run_dir[di] || (churn && churn[di] >= CHURN_MAX))
    return;
  kkr_pend_settle_chunk(di); /* (its cells' rules are read) */
  kkr_runrec w, r;
  if (!cells_rule(c, lo, hi, &w, &r)) {
    /* (Counted: a range that does not follow a rule now rarely will, and
     * each try reads all of its cells.) */
    churn_count(di);
    return;
  }
  kkr_spin_lock(&chunk_lock);
  kkr_run *run = run_add_locked(di, lo, hi);
  run->w = w;
  run->r = r;
  kkr_run_dir[di]->cells = c; /* parked */
  kkr_shared_forget_chunk(di);
  __atomic_store_n(&kkr_dir[di], NULL, __ATOMIC_RELEASE);
  park_range(c, lo, hi);
  kkr_spin_unlock(&chunk_lock);
}

kkr_cell *kkr_runs_expand_locked(uint32_t di) {
  kkr_cell *c = kkr_dir[di];
  if (c)
    return c;
  if (kkr_words_chunk(di))
    return words_expand_locked(di);
  kkr_pend_settle_chunk(di); /* (its parked cells, before they move) */
  if (compact_expand_locked(di)) {
    /* A chunk of halves: cells, every one split. */
    /* (Words whose halves hold nothing, cleared since, are not split.) */
    const kkr_split *s = kkr_split_dir[di];
    c = new_chunk(di, CHUNK_BYTES);
    for (uint32_t k = 0; k < KKR_CELLS_PER_CHUNK; k++)
      if (s[k].half[0].w | s[k].half[0].r | s[k].half[1].w | s[k].half[1].r)
        c[k].w = KKR_W_SPLIT;
    churn_count(di);
    kkr_half_on[di] = 0;
    kkr_shared_forget_chunk(di);
    __atomic_store_n(&kkr_dir[di], c, __ATOMIC_RELEASE);
    /* (Halves again at the next loop, unless that happened too often.) */
    if (split_counts)
      split_counts[di] = 0;
    kkr_split_noted(di, HALVES_SPLITS);
    return c;
  }
  kkr_runs *rs = kkr_run_dir[di];
  c = rs && rs->cells ? rs->cells : new_chunk(di, CHUNK_BYTES);
  if (rs) {
    churn_count(di);
    for (uint32_t i = 0; i < rs->n; i++) {
      const kkr_run *r = &rs->run[i];
      kkr_cell *rc = c + KKR_CELL_INDEX(r->lo);
      uint64_t n = (r->hi - r->lo) >> KKR_GRAN_SHIFT;
      if (r->w.step == 2 || r->r.step == 2) {
        /* Elements of 4 bytes by strands of their own: split cells. */
        run_halves(r, split_region(di));
        kkr_split_noted(di, (uint32_t)n);
        for (uint64_t k = 0; k < n; k++) {
          rc[k].w = KKR_W_SPLIT;
          rc[k].r = 0;
        }
        continue;
      }
      for (uint64_t k = 0; k < n; k++) {
        rc[k].w = kkr_run_rec(&r->w, k);
        rc[k].r = kkr_run_rec(&r->r, k);
      }
    }
    exc_to_cells(di, rs, c);
    kkr_run_dir[di] = NULL;
    runs_free(rs);
  }
  kkr_shared_forget_chunk(di);
  __atomic_store_n(&kkr_dir[di], c, __ATOMIC_RELEASE);
  return c;
}

/* Forgets the runs of chunk di within [lo, hi): those inside go, those
 * across the edges become cells (rare: a run is one loop's range of one
 * array).  Returns the chunk's cells, parked or not, which the caller
 * zeroes in the range. */
static kkr_cell *runs_clear(uint32_t di, uintptr_t lo, uintptr_t hi) {
  kkr_spin_lock(&chunk_lock);
  kkr_runs *rs = kkr_run_dir[di];
  if (churn && hi - lo == (uintptr_t)1 << KKR_CHUNK_SHIFT)
    churn[di] = 0; /* the memory starts a new life */
  if (rs) {
    uint32_t j = 0;
    int across = 0;
    for (uint32_t i = 0; i < rs->n; i++) {
      kkr_run *r = &rs->run[i];
      if (r->hi <= lo || r->lo >= hi)
        rs->run[j++] = *r;
      else if (r->lo < lo || r->hi > hi)
        across = 1, rs->run[j++] = *r;
    }
    rs->n = j;
    /* (The exceptions in the range go with their runs.) */
    for (uint32_t i = 0; !across && rs->exc && i < rs->exc->cap; i++) {
      kkr_exc *e = &rs->exc->e[i];
      uintptr_t w = kkr_exc_word(e, lo);
      if (kkr_exc_live(e) && w >= lo && w < hi)
        kkr_exc_drop(rs, e);
    }
    if (across) {
      kkr_runs_expand_locked(di);
    } else if (j == 0) {
      /* The parked cells are right outside the runs, and the runs' words
       * are in [lo, hi), which the caller zeroes. */
      kkr_run_dir[di] = NULL;
      if (rs->cells) {
        kkr_shared_forget_chunk(di);
        __atomic_store_n(&kkr_dir[di], rs->cells, __ATOMIC_RELEASE);
      }
      runs_free(rs);
    }
  }
  kkr_cell *c = kkr_dir[di];
  if (!c && kkr_run_dir[di])
    c = kkr_run_dir[di]->cells;
  kkr_spin_unlock(&chunk_lock);
  return c;
}

/* ---- Chunks of halves ---------------------------------------------------- */

/* Whether chunk di lies in one View whose elements are 4 bytes (as the
 * pass told their size): an array of int or float. */
static int chunk_of_ints(uint32_t di) {
  uintptr_t lo = (uintptr_t)di << KKR_CHUNK_SHIFT;
  kkr_view_alloc v;
  return kkr_views_find(lo, &v) && v.esz == 4 &&
         v.hi >= lo + ((uintptr_t)1 << KKR_CHUNK_SHIFT);
}

void kkr_split_noted(uint32_t di, uint32_t n) {
  if (!split_counts)
    split_counts = kkr_mmap_noreserve(sizeof(uint32_t) << KKR_DIR_BITS,
                                      "the split counts");
  uint32_t was = split_counts[di];
  split_counts[di] = was + n;
  /* (A chunk of an array of int is looked at from its first split too:
   * compact halves may hold it where whole ones would not pay.) */
  if (((was < HALVES_SPLITS && was + n >= HALVES_SPLITS) ||
       (was == 0 && chunk_of_ints(di))) &&
      !kkr_mt) {
    if (npending < PENDING_MAX) {
      pending[npending++] = di;
      kkr_halves_pending = 1;
    } else {
      /* (Others wait: the chunk's next split tries again.) */
      split_counts[di] = HALVES_SPLITS - 1;
    }
  }
}

/* The halves of cell c (split or not, with its split halves s) in h: 0
 * for a cell with a read set. */
static int cell_halves(const kkr_cell *c, const kkr_split *s, kkr_split *h) {
  if (c->w == KKR_W_SPLIT) {
    *h = *s;
    return 1;
  }
  if (c->r & KKR_R_X)
    return 0;
  for (uint32_t j = 0; j < 2; j++) {
    h->half[j].w = half_rec(c->w, j);
    h->half[j].r = half_rec(c->r, j);
  }
  return 1;
}

/* Chunk di's cells c (with split halves s) become compact halves if every
 * half of them takes one record (no cell pointer held, one thread): an
 * array of int with a few split words (a team's row of it that overlaps
 * the next team's by an element), which would otherwise keep its cells
 * and a region of split halves for a few words of each page. */
static void cells_try_compact(uint32_t di, kkr_cell *c, kkr_split *s) {
  uint32_t settled = __atomic_load_n(&kkr_nodes_settled, __ATOMIC_RELAXED);
  kkr_split h;
  uint64_t v;
  for (uint32_t k = 0; k < KKR_CELLS_PER_CHUNK; k++) {
    uint64_t w = c[k].w, r = c[k].r;
    /* (The common cells first: one record, or a settled write.) */
    if (!(w && r) && !((w | r) & KKR_R_X))
      continue;
    if (w != KKR_W_SPLIT && !(r & KKR_R_X) && (w & KKR_R_W) &&
        KKR_REC_NODE(w) < settled)
      continue;
    if (!cell_halves(&c[k], &s[k], &h) ||
        !kkr_compact_of(h.half[0].w, h.half[0].r, settled, &v) ||
        !kkr_compact_of(h.half[1].w, h.half[1].r, settled, &v))
      return;
  }
  kkr_spin_lock(&chunk_lock);
  uint64_t *cc = compact_region(di);
  for (uint32_t k = 0; k < KKR_CELLS_PER_CHUNK; k++) {
    if (!(c[k].w | c[k].r))
      continue;
    cell_halves(&c[k], &s[k], &h);
    kkr_compact_of(h.half[0].w, h.half[0].r, settled, &cc[2 * k]);
    kkr_compact_of(h.half[1].w, h.half[1].r, settled, &cc[2 * k + 1]);
  }
  zero_bytes(s, SPLIT_BYTES, 0);
  split_counts[di] = 0;
  half_on_as(di, KKR_HALVES_COMPACT);
  kkr_shared_forget_chunk(di);
  __atomic_store_n(&kkr_dir[di], NULL, __ATOMIC_RELEASE);
  /* (As for whole halves: the pages go back, the range stays mapped.) */
  madvise(c, CHUNK_BYTES, MADV_DONTNEED);
  kkr_spin_unlock(&chunk_lock);
}

static void halves_try_convert(uint32_t di,
                               void (*split)(kkr_cell *c, kkr_split *s)) {
  kkr_cell *c = kkr_dir[di];
  if (!c || kkr_run_dir[di] || (churn && churn[di] >= CHURN_MAX))
    return;
  kkr_pend_settle_chunk(di); /* (before its records go to halves) */
  kkr_split *s = kkr_split_dir[di];
  /* (An array of int at its first splits: compact halves or nothing, with
   * no count of its words first.) */
  if (s && split_counts[di] < HALVES_SPLITS && chunk_of_ints(di)) {
    cells_try_compact(di, c, s);
    return;
  }
  /* Mostly split (the rest is made so): else the count was old (the
   * memory was cleared since), or the chunk holds too many words accessed
   * whole (looked at again after HALVES_SPLITS splits more). */
  uint32_t split_now = 0, wide = 0;
  uint32_t settled = __atomic_load_n(&kkr_nodes_settled, __ATOMIC_RELAXED);
  for (uint32_t k = 0; k < KKR_CELLS_PER_CHUNK; k++) {
    if (c[k].w == KKR_W_SPLIT)
      split_now++;
    else
      wide += rec_wide(c[k].w, settled) | rec_wide(c[k].r, settled);
  }
  if (!s || split_now < HALVES_SPLITS || wide * 2 > split_now) {
    split_counts[di] = split_now < HALVES_SPLITS ? split_now : 0;
    return;
  }
  kkr_spin_lock(&chunk_lock);
  for (uint32_t k = 0; k < KKR_CELLS_PER_CHUNK; k++) {
    if (c[k].w == KKR_W_SPLIT)
      continue;
    if (c[k].w | c[k].r)
      split(&c[k], &s[k]);
    else if (s[k].half[0].w | s[k].half[0].r | s[k].half[1].w |
             s[k].half[1].r)
      memset(&s[k], 0, sizeof s[k]); /* (halves left from older splits; a
                                         page never written stays so) */
  }
  split_counts[di] = 0;
  if (!halves_to_compact(di, s)) {
    half_on(di);
    recompact_note(di);
  }
  kkr_shared_forget_chunk(di);
  __atomic_store_n(&kkr_dir[di], NULL, __ATOMIC_RELEASE);
  /* (The pages go back; the range stays mapped, so that a thread that
   * started in the meantime and still holds a cell reads zeroes.) */
  madvise(c, CHUNK_BYTES, MADV_DONTNEED);
  kkr_spin_unlock(&chunk_lock);
}

void kkr_halves_convert(void (*split)(kkr_cell *c, kkr_split *s)) {
  kkr_spin_lock(&chunk_lock);
  uint32_t todo[PENDING_MAX], n = npending;
  memcpy(todo, pending, n * sizeof *todo);
  npending = 0;
  kkr_halves_pending = 0;
  kkr_spin_unlock(&chunk_lock);
  for (uint32_t i = 0; i < n; i++)
    halves_try_convert(todo[i], split);
  if (kkr_recompact_waiting)
    recompact_try();
}

kkr_split *kkr_halves_fresh(uint32_t di) {
  kkr_spin_lock(&chunk_lock);
  kkr_split *s = NULL;
  if (!kkr_dir[di] && !kkr_run_dir[di] && !kkr_half_is(di) &&
      !(churn && churn[di] >= CHURN_MAX)) {
    s = (kkr_split *)((uintptr_t)compact_region(di) | KKR_HC_COMPACT);
    half_on_as(di, KKR_HALVES_COMPACT);
  }
  kkr_spin_unlock(&chunk_lock);
  return s;
}

/* Whether run r, whose records are each one for all its words (step 0: a
 * fill), lies in one View of 4-byte elements (as the pass told its
 * element size). */
static int run_of_ints(const kkr_run *r) {
  kkr_view_alloc v;
  return r->w.step == 0 && r->r.step == 0 && kkr_views_find(r->lo, &v) &&
         v.esz == 4 && r->hi <= v.hi;
}

kkr_split *kkr_halves_from_runs(uint32_t di) {
  kkr_spin_lock(&chunk_lock);
  kkr_runs *rs = kkr_run_dir[di];
  int ok = rs && !rs->cells && !kkr_dir[di] &&
           !(churn && churn[di] >= CHURN_MAX);
  for (uint32_t i = 0; ok && i < rs->n; i++)
    ok = rs->run[i].w.step == 2 || rs->run[i].r.step == 2 ||
         run_of_ints(&rs->run[i]);
  kkr_split *s = NULL;
  if (ok) {
    /* (Compact halves where every half takes one record.) */
    uint32_t settled = __atomic_load_n(&kkr_nodes_settled, __ATOMIC_RELAXED);
    if (runs_to_compact(rs, NULL, settled)) {
      uint64_t *cc = compact_region(di);
      runs_to_compact(rs, cc, settled);
      s = (kkr_split *)((uintptr_t)cc | KKR_HC_COMPACT);
      half_on_as(di, KKR_HALVES_COMPACT);
    } else {
      int older = kkr_split_dir[di] != NULL;
      s = split_region(di);
      if (older)
        memset(s, 0, SPLIT_BYTES); /* (halves of older splits) */
      for (uint32_t i = 0; i < rs->n; i++)
        run_halves(&rs->run[i], s);
      exc_to_halves(rs, s);
      half_on(di);
      recompact_note(di);
    }
    churn_count(di);
    kkr_run_dir[di] = NULL;
    runs_free(rs);
  }
  kkr_spin_unlock(&chunk_lock);
  return s;
}

kkr_split *kkr_split_chunk_slow(uintptr_t addr) {
  uint32_t di = KKR_DIR_INDEX(addr);
  return map_chunk(di, (void **)&kkr_split_dir[di], SPLIT_BYTES);
}

uintptr_t kkr_shadow_mapped_bytes(void) { return mapped_bytes; }

/* Resident bytes of [p, p + n) (mincore; 0 for a null p). */
static uintptr_t resident(const void *p, uintptr_t n) {
  static unsigned char vec[(CHUNK_BYTES > SPLIT_BYTES ? CHUNK_BYTES
                                                      : SPLIT_BYTES) /
                           4096];
  if (!p || mincore((void *)p, n, vec) != 0)
    return 0;
  uintptr_t r = 0;
  for (uintptr_t i = 0; i < n / 4096; i++)
    r += vec[i] & 1;
  return r * 4096;
}

/* Directory pages looked at per mincore call (kkr_shadow_summary). */
#define SUMMARY_PAGES 4096u

void kkr_shadow_summary(int fd) {
  if (!kkr_dir)
    return;
  /* The chunks in use: their directory entries lie in the directories'
   * resident pages (the rest were never touched). */
  const uintptr_t pages = (sizeof(void *) << KKR_DIR_BITS) / 4096;
  const uintptr_t per_page = 4096 / sizeof(void *);
  uint64_t n_cells = 0, n_split = 0, n_halves = 0, n_runs = 0, n_exc = 0;
  uint64_t n_compact = 0, n_words = 0;
  uintptr_t b_cells = 0, b_split = 0, b_halves = 0, b_words = 0;
  void **dirs[5] = {(void **)kkr_dir, (void **)kkr_split_dir,
                    (void **)kkr_run_dir, (void **)kkr_compact_dir,
                    (void **)kkr_words_dir};
  /* (Entries of page p of a directory's entries lie in pages p and p + 1
   * of its mapping, which begins before them: dir_map.) */
  static unsigned char in[5][SUMMARY_PAGES + 1];
  for (uintptr_t p0 = 0; p0 < pages; p0 += SUMMARY_PAGES) {
    uintptr_t np = pages - p0 < SUMMARY_PAGES ? pages - p0 : SUMMARY_PAGES;
    for (int d = 0; d < 5; d++) {
      if (mincore((char *)dir_page(dirs[d]) + p0 * 4096, (np + 1) * 4096,
                  in[d]) != 0)
        memset(in[d], 0, np + 1);
      for (uintptr_t p = 0; p < np; p++)
        in[d][p] |= in[d][p + 1];
    }
    for (uintptr_t p = 0; p < np; p++) {
      if (!((in[0][p] | in[1][p] | in[2][p] | in[3][p] | in[4][p]) & 1))
        continue;
      for (uintptr_t i = 0; i < per_page; i++) {
        uint32_t di = (uint32_t)((p0 + p) * per_page + i);
        kkr_cell *c = (in[0][p] & 1) ? kkr_dir[di] : NULL;
        kkr_split *s = (in[1][p] & 1) ? kkr_split_dir[di] : NULL;
        kkr_runs *rs = (in[2][p] & 1) ? kkr_run_dir[di] : NULL;
        uint64_t *cc = (in[3][p] & 1) ? kkr_compact_chunk(di) : NULL;
        uint64_t *ww = (in[4][p] & 1) ? kkr_words_chunk(di) : NULL;
        if (c) {
          n_cells++;
          b_cells += resident(c, CHUNK_BYTES);
        }
        if (ww && !c) {
          n_words++;
          b_words += resident(ww, WORDS_BYTES);
        } else if (cc && !c) {
          n_halves++;
          n_compact++;
          b_halves += resident(cc, COMPACT_BYTES);
        } else if (s && kkr_half_full(di)) {
          n_halves++;
          b_halves += resident(s, SPLIT_BYTES);
        } else if (s && c) {
          n_split++;
          b_split += resident(s, SPLIT_BYTES);
        }
        if (rs) {
          n_runs++;
          n_exc += rs->exc ? rs->exc->n : 0;
          if (rs->cells)
            b_cells += resident(rs->cells, CHUNK_BYTES);
        }
      }
    }
  }
  char line[384];
  int n = snprintf(
      line, sizeof line,
      "kkrace: shadow of %llu MiB of memory: %llu MiB as cells (%llu MiB "
      "resident), %llu of them with split cells (%llu MiB), %llu as halves "
      "(%llu compact; %llu MiB), %llu as compact words (%llu MiB), %llu as "
      "runs (%llu exceptions); %llu MiB mapped in all\n",
      (unsigned long long)(n_cells + n_halves + n_words + n_runs),
      (unsigned long long)n_cells, (unsigned long long)(b_cells >> 20),
      (unsigned long long)n_split, (unsigned long long)(b_split >> 20),
      (unsigned long long)n_halves, (unsigned long long)n_compact,
      (unsigned long long)(b_halves >> 20), (unsigned long long)n_words,
      (unsigned long long)(b_words >> 20),
      (unsigned long long)n_runs, (unsigned long long)n_exc,
      (unsigned long long)(mapped_bytes >> 20));
  kkr_write_all(fd, line, (size_t)n);
  /* (The resident figures above are what is left at exit, after the
   * program freed its Views; the peak is what it needed.) */
  int st = open("/proc/self/status", O_RDONLY | O_CLOEXEC);
  if (st < 0)
    return;
  char buf[4096];
  ssize_t got = read(st, buf, sizeof buf - 1);
  close(st);
  if (got <= 0)
    return;
  buf[got] = 0;
  const char *hwm = strstr(buf, "VmHWM:");
  if (!hwm)
    return;
  unsigned long long kib = strtoull(hwm + 6, NULL, 10);
  n = snprintf(line, sizeof line,
               "kkrace: peak resident memory of the process: %llu MiB "
               "(kkrace's shadow and tables included)\n",
               kib >> 10);
  kkr_write_all(fd, line, (size_t)n);
}

static void drop_readset(kkr_cell *c) {
  if (c->r & KKR_R_X)
    kkr_readset_free(KKR_REC_PTR(c->r));
}

/* A half-cell's read set, and its write set (kkr_access.c, write_over). */
static void drop_half(kkr_cell *h) {
  drop_readset(h);
  if (h->w & KKR_R_X)
    kkr_readset_free(KKR_REC_PTR(h->w));
}

/* Frees the read sets that n cells (and their halves) point to. */
static void drop_readsets(kkr_cell *c, kkr_split *s, uintptr_t n) {
  for (uintptr_t i = 0; i < n; i++) {
    drop_readset(&c[i]);
    if (s && (c[i].w & KKR_R_X)) {
      drop_half(&s[i].half[0]);
      drop_half(&s[i].half[1]);
    }
  }
}

/* Zeroes n bytes; whole pages go back to the system (they read as zero)
 * unless keep (memory about to be used again: a stack slot). */
static void zero_bytes(void *p, uintptr_t n, int keep) {
  uintptr_t lo = (uintptr_t)p, hi = lo + n;
  uintptr_t plo = (lo + 4095) & ~(uintptr_t)4095, phi = hi & ~(uintptr_t)4095;
  if (!keep && phi > plo && phi - plo >= 64 * 1024) {
    memset((void *)lo, 0, plo - lo);
    madvise((void *)plo, phi - plo, MADV_DONTNEED);
    memset((void *)phi, 0, hi - phi);
  } else {
    memset(p, 0, n);
  }
}

static void shadow_clear(uintptr_t addr, uintptr_t size, int keep) {
  if (!kkr_dir || size == 0)
    return;
  const uintptr_t g = KKR_GRAN - 1;
  uintptr_t lo = addr & ~g, hi = (addr + size + g) & ~g;
  pend_range(lo, hi, 0); /* (the cells are cleared) */
  kkr_shared_forget_range(lo, hi);
  while (lo < hi) {
    uintptr_t chunk_end = KKR_CHUNK_END(lo);
    uintptr_t end = hi < chunk_end ? hi : chunk_end;
    uint32_t di = KKR_DIR_INDEX(lo);
    /* The cells, or those parked under the runs that remain. */
    kkr_cell *c = kkr_runs_made && kkr_run_dir[di] ? runs_clear(di, lo, end)
                                                   : kkr_dir[di];
    uint64_t *ww = c ? NULL : kkr_words_chunk(di);
    if (ww) {
      /* Compact words: their records in the range (no sets among them). */
      uintptr_t n = (end - lo) >> KKR_GRAN_SHIFT;
      /* (A whole chunk: the memory starts a new life.) */
      words_release(di, ww + KKR_CELL_INDEX(lo), n, keep);
      lo = end;
      continue;
    }
    uint64_t *cc = c ? NULL : kkr_compact_chunk(di);
    if (cc) {
      /* Compact halves: their records in the range (no sets among them). */
      uintptr_t n = (end - lo) >> KKR_GRAN_SHIFT;
      zero_bytes(cc + 2 * KKR_CELL_INDEX(lo), 2 * n * sizeof(uint64_t), keep);
      if (n == KKR_CELLS_PER_CHUNK)
        kkr_half_on[di] = 0; /* the memory starts a new life */
      lo = end;
      continue;
    }
    kkr_split *hs = c ? NULL : kkr_half_chunk(di);
    if (hs) {
      /* A chunk of halves: its half-cells in the range. */
      hs += KKR_CELL_INDEX(lo);
      uintptr_t n = (end - lo) >> KKR_GRAN_SHIFT;
      if (__atomic_load_n(&kkr_readsets_live, __ATOMIC_RELAXED))
        for (uintptr_t i = 0; i < n; i++) {
          drop_half(&hs[i].half[0]);
          drop_half(&hs[i].half[1]);
        }
      zero_bytes(hs, n * sizeof(kkr_split), keep);
      if (n == KKR_CELLS_PER_CHUNK)
        kkr_half_on[di] = 0; /* the memory starts a new life */
    }
    if (c) {
      c += KKR_CELL_INDEX(lo);
      uintptr_t n = (end - lo) >> KKR_GRAN_SHIFT;
      kkr_split *s = kkr_split_dir[KKR_DIR_INDEX(lo)];
      if (s)
        s += KKR_CELL_INDEX(lo);
      if (__atomic_load_n(&kkr_readsets_live, __ATOMIC_RELAXED))
        drop_readsets(c, s, n);
      /* Halves are stale once their cell is cleared: zero them too. */
      if (s)
        zero_bytes(s, n * sizeof(kkr_split), keep);
      zero_bytes(c, n * sizeof(kkr_cell), keep);
    }
    lo = end;
  }
}

void kkr_shadow_clear(uintptr_t addr, uintptr_t size) {
  shadow_clear(addr, size, 0);
}

void kkr_shadow_clear_keep(uintptr_t addr, uintptr_t size) {
  shadow_clear(addr, size, 1);
}

void kkr_shadow_clear_all(void) {
  for (uintptr_t i = 0; i < ((uintptr_t)1 << KKR_DIR_BITS); i++)
    if (kkr_dir[i] || (kkr_runs_made && kkr_run_dir[i]) || kkr_half_is(i))
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
