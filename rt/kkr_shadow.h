/* Shadow memory: for every aligned 4-byte granule of the program that
 * instrumented code touches, the last write and the reads since it.
 *
 * Layout: a two-level table.  kkr_dir[addr >> 20] points to the shadow chunk
 * of one MiB of program memory (256 Ki cells of 32 bytes), mapped without
 * reserve when first touched; memory that no instrumented code touches gets
 * no shadow.  Granules of 4 bytes keep Views of int and float exact: two
 * iterations that touch neighbouring elements never share a record.
 *
 * A record (16 bytes) is one access:
 *   a: [63:32] epoch (clock) | [31:16] timeline | [15:12] log2 of the access
 *      size | [11:8] byte mask in the granule | [7:0] flags
 *   b: [63:32] compressed pc  | [31:0] strand
 * A zero 'a' is an empty record.  The node of an access is (timeline, epoch):
 * a host thread's segment, or one work item (see kkr_graph.c).  The strand
 * tells the logical threads of one work item apart.
 *
 * The read record may instead point to a read set (KKR_F_SET) when nodes that
 * nothing orders read the word (FastTrack's read-shared state). */
#ifndef KKR_SHADOW_H
#define KKR_SHADOW_H

#include <stdint.h>

#include "kkr_common.h"

enum {
  KKR_F_WRITE = 1,   /* write (else read) */
  KKR_F_ATOMIC = 2,  /* atomic access */
  KKR_F_MULTI = 4,   /* read: several strands of this work item read it */
  KKR_F_SET = 8,     /* read record: b points to a kkr_readset */
  KKR_F_FREE = 16,   /* write: the memory was freed */
};

typedef struct {
  uint64_t a, b;
} kkr_rec;

typedef struct {
  kkr_rec w; /* last write */
  kkr_rec r; /* reads since the last write */
} kkr_cell;

typedef struct {
  uint32_t n, cap;
  kkr_rec recs[];
} kkr_readset;

#define KKR_GRAN 4
#define KKR_GRAN_SHIFT 2
#define KKR_CHUNK_SHIFT 20
#define KKR_DIR_BITS 28 /* 2^(20+28) = 256 TiB of address space */
#define KKR_CELLS_PER_CHUNK (1u << (KKR_CHUNK_SHIFT - KKR_GRAN_SHIFT))

/* Fields of a record's 'a' word. */
#define KKR_REC_MASK(a) ((uint32_t)((a) >> 8) & 0xf)
#define KKR_REC_SIZE(a) (1u << (((a) >> 12) & 0xf))

extern kkr_cell **kkr_dir;

kkr_cell *kkr_shadow_chunk_slow(uintptr_t addr);

/* The cell of the granule holding addr; maps its chunk if needed. */
KKR_INLINE kkr_cell *kkr_shadow_cell(uintptr_t addr) {
  kkr_cell *chunk =
      kkr_dir[(addr >> KKR_CHUNK_SHIFT) & ((1u << KKR_DIR_BITS) - 1)];
  if (KKR_UNLIKELY(!chunk))
    chunk = kkr_shadow_chunk_slow(addr);
  return chunk + ((addr >> KKR_GRAN_SHIFT) & (KKR_CELLS_PER_CHUNK - 1));
}

/* The cell of addr, or NULL when its chunk was never touched. */
KKR_INLINE kkr_cell *kkr_shadow_cell_if_mapped(uintptr_t addr) {
  kkr_cell *chunk =
      kkr_dir[(addr >> KKR_CHUNK_SHIFT) & ((1u << KKR_DIR_BITS) - 1)];
  return chunk ? chunk + ((addr >> KKR_GRAN_SHIFT) & (KKR_CELLS_PER_CHUNK - 1))
               : NULL;
}

void kkr_shadow_init(void);
/* Forgets every access to [addr, addr + size): the memory was freed or is new.
 * Whole shadow pages are returned to the system. */
void kkr_shadow_clear(uintptr_t addr, uintptr_t size);
/* Bytes of shadow mapped so far (virtual) and chunks in use. */
uintptr_t kkr_shadow_mapped_bytes(void);

/* Read sets (rare: reads by nodes that nothing orders). */
kkr_readset *kkr_readset_new(uint32_t cap);
kkr_readset *kkr_readset_grow(kkr_readset *s);
void kkr_readset_free(kkr_readset *s);
/* Live read sets: when zero, clearing need not look for them. */
extern uint64_t kkr_readsets_live;

#endif /* KKR_SHADOW_H */
