/* The computation graph drawn in DOT (graph_path): see kkr_dot.c. */
#ifndef KKR_DOT_H
#define KKR_DOT_H

#include <stdint.h>

#include "kkr_common.h"

enum {
  KKR_DOT_PROGRAM, /* a host thread's next segment */
  KKR_DOT_SUBMIT,  /* a segment dispatches a work item */
  KKR_DOT_FIFO,    /* an instance's earlier work item before the next */
  KKR_DOT_FENCE,   /* a fence: the work it waits for before the segment */
  KKR_DOT_AFTER,   /* model=minikokkos: Fence(Q) before an async deep_copy */
  KKR_DOT_RACE,    /* two nodes that race */
  KKR_DOT_SYNC,    /* host threads: create, join, unlock -> lock, ... */
};

KKR_HIDDEN extern int kkr_dot_on;

void kkr_dot_init(void);
void kkr_dot_edge_slow(uint32_t from, uint32_t to, uint32_t kind,
                       const char *label);
/* Keeps the edge from -> to when graph_path is set. */
KKR_INLINE void kkr_dot_edge(uint32_t from, uint32_t to, uint32_t kind,
                             const char *label) {
  if (KKR_UNLIKELY(kkr_dot_on))
    kkr_dot_edge_slow(from, to, kind, label);
}
/* Writes the file (at exit). */
void kkr_dot_write(void);

#endif /* KKR_DOT_H */
