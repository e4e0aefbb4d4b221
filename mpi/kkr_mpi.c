/* libkkrace_mpi: MPI's semantics for kkrace, through the MPI profiling
 * interface (each MPI_X here calls PMPI_X).  Link it before the MPI library
 * (kkrace-clang++ does when it links with -lmpi) or preload it.
 *
 *   blocking calls          the calling thread reads the send buffer and
 *                           writes the receive buffer, as host accesses:
 *                           a kernel still writing the buffer (no fence)
 *                           races with them
 *   nonblocking calls       a work item on the request (an "instance" of its
 *                           own) reads or writes the buffer until the call
 *                           that completes the request (MPI_Wait, a
 *                           successful MPI_Test, ...), which is the
 *                           request's fence
 *   persistent requests     each MPI_Start is such a work item
 *
 * The buffer's bytes are those the datatype spans: (count - 1) * extent +
 * true extent.  Without the kkrace runtime in the process (a program not
 * built with -fsanitize=kkrace) every wrapper only calls PMPI. */
#define _GNU_SOURCE
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The runtime's entry points, in the program (weak: absent without it). */
extern unsigned int __kkrace_op_begin(unsigned int kind, void *space,
                                      void *obj, unsigned long long objsize)
    __attribute__((weak));
extern void __kkrace_op_end(unsigned int token) __attribute__((weak));
extern void __kkrace_op_label(unsigned int token, const char *label)
    __attribute__((weak));
extern void __kkrace_call_access(void *p, unsigned long long n,
                                 unsigned int write, void *pc,
                                 const char *call) __attribute__((weak));
extern void __kkrace_wait_begin(const char *what, int peer)
    __attribute__((weak));
extern void __kkrace_wait_end(void) __attribute__((weak));

/* The program's call site of the MPI call being wrapped: its accesses are
 * checked as made there (each call site of the program a site of its
 * own), and reports name the call.  Every wrapper takes it first thing. */
#define CALLER ((void *)__builtin_return_address(0))

/* Operation kinds (rt/kkr_ops.inc). */
#include "kkr_abi.h"

static char mpi_space[] = "MPI";

static int on(void) {
  return __kkrace_op_begin != NULL && __kkrace_call_access != NULL;
}

static int my_rank(void) {
  int r = 0, init = 0;
  PMPI_Initialized(&init);
  if (init)
    PMPI_Comm_rank(MPI_COMM_WORLD, &r);
  return r;
}

/* Rank r of comm as a rank of MPI_COMM_WORLD (r itself for a wildcard, for
 * MPI_PROC_NULL, or when it cannot be translated). */
static int world_rank(MPI_Comm comm, int r) {
  if (r < 0 || comm == MPI_COMM_WORLD)
    return r;
  int inter = 0;
  if (PMPI_Comm_test_inter(comm, &inter) != MPI_SUCCESS || inter)
    return r;
  MPI_Group g, w;
  int out = r;
  if (PMPI_Comm_group(comm, &g) != MPI_SUCCESS)
    return r;
  if (PMPI_Comm_group(MPI_COMM_WORLD, &w) == MPI_SUCCESS) {
    if (PMPI_Group_translate_ranks(g, 1, &r, w, &out) != MPI_SUCCESS ||
        out == MPI_UNDEFINED)
      out = r;
    PMPI_Group_free(&w);
  }
  PMPI_Group_free(&g);
  return out;
}

/* ---- The bytes of a buffer --------------------------------------------------
 * What count elements of a datatype touch, block by block: a derived
 * datatype (a vector of columns, an indexed or struct type, a subarray)
 * touches its blocks, not the holes between them, where a kernel may work
 * at the same time.  Blocks that follow one another are merged; a type
 * with more than MAX_BLOCKS blocks, or one this walk does not know,
 * counts as all it spans (true extent). */
#define MAX_BLOCKS 4096
#define MAX_ARGS 256 /* a derived type's constructor arguments */

typedef struct {
  MPI_Aint lo[MAX_BLOCKS], len[MAX_BLOCKS];
  int n;
  int whole; /* too many blocks, or a type not walked: use the span */
} blocks;

static void block_add(blocks *b, MPI_Aint lo, MPI_Aint len) {
  if (len <= 0 || b->whole)
    return;
  if (b->n && b->lo[b->n - 1] + b->len[b->n - 1] == lo) {
    b->len[b->n - 1] += len;
    return;
  }
  if (b->n == MAX_BLOCKS) {
    b->whole = 1;
    return;
  }
  b->lo[b->n] = lo;
  b->len[b->n] = len;
  b->n++;
}

static MPI_Aint extent_of(MPI_Datatype t) {
  MPI_Aint lb, ext;
  return PMPI_Type_get_extent(t, &lb, &ext) == MPI_SUCCESS ? ext : 0;
}

static void walk(blocks *b, MPI_Datatype t, MPI_Aint off, int depth);

/* count copies of t, each extent(t) after the last, from off. */
static void walk_n(blocks *b, MPI_Datatype t, MPI_Aint off, long count,
                   int depth) {
  MPI_Aint ext = extent_of(t);
  for (long i = 0; i < count && !b->whole; i++)
    walk(b, t, off + i * ext, depth);
}

static void free_if_derived(MPI_Datatype t) {
  int ni, na, nd, comb;
  if (PMPI_Type_get_envelope(t, &ni, &na, &nd, &comb) == MPI_SUCCESS &&
      comb != MPI_COMBINER_NAMED)
    PMPI_Type_free(&t);
}

/* One element of type t at off. */
static void walk(blocks *b, MPI_Datatype t, MPI_Aint off, int depth) {
  int size = 0;
  MPI_Aint tlb, text;
  if (b->whole || PMPI_Type_size(t, &size) != MPI_SUCCESS ||
      PMPI_Type_get_true_extent(t, &tlb, &text) != MPI_SUCCESS) {
    b->whole = 1;
    return;
  }
  if (size == 0)
    return;
  if ((MPI_Aint)size == text) { /* no holes (a basic type, or contiguous) */
    block_add(b, off + tlb, text);
    return;
  }
  int ni, na, nd, comb;
  if (depth > 8 ||
      PMPI_Type_get_envelope(t, &ni, &na, &nd, &comb) != MPI_SUCCESS ||
      ni > MAX_ARGS || na > MAX_ARGS || nd > MAX_ARGS) {
    b->whole = 1;
    return;
  }
  int ints[MAX_ARGS];
  MPI_Aint aints[MAX_ARGS];
  MPI_Datatype types[MAX_ARGS];
  if (comb == MPI_COMBINER_NAMED ||
      PMPI_Type_get_contents(t, ni, na, nd, ints, aints, types) !=
          MPI_SUCCESS) {
    b->whole = 1;
    return;
  }
  MPI_Aint ext = nd ? extent_of(types[0]) : 0;
  switch (comb) {
  case MPI_COMBINER_DUP:
  case MPI_COMBINER_RESIZED: /* (the extent: only for repetitions) */
    walk(b, types[0], off, depth + 1);
    break;
  case MPI_COMBINER_CONTIGUOUS:
    walk_n(b, types[0], off, ints[0], depth + 1);
    break;
  case MPI_COMBINER_VECTOR:
  case MPI_COMBINER_HVECTOR: {
    MPI_Aint stride =
        comb == MPI_COMBINER_VECTOR ? (MPI_Aint)ints[2] * ext : aints[0];
    for (int i = 0; i < ints[0] && !b->whole; i++)
      walk_n(b, types[0], off + i * stride, ints[1], depth + 1);
    break;
  }
  case MPI_COMBINER_INDEXED:
  case MPI_COMBINER_HINDEXED:
    for (int i = 0; i < ints[0] && !b->whole; i++) {
      MPI_Aint d = comb == MPI_COMBINER_INDEXED
                       ? (MPI_Aint)ints[1 + ints[0] + i] * ext
                       : aints[i];
      walk_n(b, types[0], off + d, ints[1 + i], depth + 1);
    }
    break;
  case MPI_COMBINER_INDEXED_BLOCK:
  case MPI_COMBINER_HINDEXED_BLOCK:
    for (int i = 0; i < ints[0] && !b->whole; i++) {
      MPI_Aint d = comb == MPI_COMBINER_INDEXED_BLOCK
                       ? (MPI_Aint)ints[2 + i] * ext
                       : aints[i];
      walk_n(b, types[0], off + d, ints[1], depth + 1);
    }
    break;
  case MPI_COMBINER_STRUCT:
    for (int i = 0; i < ints[0] && !b->whole; i++)
      walk_n(b, types[i], off + aints[i], ints[1 + i], depth + 1);
    break;
  case MPI_COMBINER_SUBARRAY: {
    /* ints: ndims, sizes[ndims], subsizes[ndims], starts[ndims], order. */
    int nd2 = ints[0];
    if (nd2 < 1 || nd2 > 8) {
      b->whole = 1;
      break;
    }
    const int *sizes = ints + 1, *sub = ints + 1 + nd2, *st = ints + 1 + 2 * nd2;
    int c_order = ints[1 + 3 * nd2] == MPI_ORDER_C;
    /* Strides of each dimension, in elements; the fastest one last. */
    long stride[8], idx[8] = {0};
    int dims[8], d0[8], s0[8];
    for (int k = 0; k < nd2; k++) { /* k = 0: the slowest */
      int dim = c_order ? k : nd2 - 1 - k;
      dims[k] = sub[dim];
      d0[k] = st[dim];
      s0[k] = sizes[dim];
    }
    stride[nd2 - 1] = 1;
    for (int k = nd2 - 2; k >= 0; k--)
      stride[k] = stride[k + 1] * s0[k + 1];
    for (int k = 0; k < nd2; k++)
      if (dims[k] <= 0)
        goto done;
    for (;;) { /* each row of the fastest dimension */
      long e = d0[nd2 - 1];
      for (int k = 0; k < nd2 - 1; k++)
        e += (d0[k] + idx[k]) * stride[k];
      walk_n(b, types[0], off + e * ext, dims[nd2 - 1], depth + 1);
      int k = nd2 - 2;
      while (k >= 0 && ++idx[k] == dims[k])
        idx[k--] = 0;
      if (k < 0 || b->whole)
        break;
    }
  done:
    break;
  }
  default: /* darray, f90 types, ...: all it spans */
    block_add(b, off + tlb, text);
    break;
  }
  for (int i = 0; i < nd; i++)
    free_if_derived(types[i]);
}

/* The bytes a buffer of count elements of type spans (from its start). */
static size_t span(int count, MPI_Datatype type) {
  if (count <= 0 || type == MPI_DATATYPE_NULL)
    return 0;
  MPI_Aint lb, extent, tlb, textent;
  if (PMPI_Type_get_extent(type, &lb, &extent) != MPI_SUCCESS ||
      PMPI_Type_get_true_extent(type, &tlb, &textent) != MPI_SUCCESS)
    return 0;
  long long n = (long long)(count - 1) * extent + tlb + textent;
  return n > 0 ? (size_t)n : 0;
}

static int real_buf(const void *buf) {
  return buf && buf != MPI_IN_PLACE && buf != MPI_BOTTOM;
}

/* count elements of type at buf, read or written by call (made at pc):
 * checked block by block, as the calling thread's accesses (or as the
 * running work item's, inside one). */
static void buf_access(const void *buf, long count, MPI_Datatype type,
                       int write, void *pc, const char *call) {
  if (!on() || !real_buf(buf) || count <= 0 || type == MPI_DATATYPE_NULL)
    return;
  static __thread blocks *bp;
  if (!bp && !(bp = malloc(sizeof *bp))) {
    __kkrace_call_access((void *)buf, span((int)count, type), write, pc, call);
    return;
  }
  blocks *b = bp;
  b->n = b->whole = 0;
  walk_n(b, type, 0, count, 0);
  if (b->whole) {
    MPI_Aint tlb, text;
    size_t n = span((int)count, type);
    if (PMPI_Type_get_true_extent(type, &tlb, &text) == MPI_SUCCESS && n)
      __kkrace_call_access((char *)buf + tlb, n - (size_t)tlb, write, pc,
                           call);
    return;
  }
  for (int i = 0; i < b->n; i++)
    __kkrace_call_access((char *)buf + b->lo[i], (unsigned long long)b->len[i],
                         write, pc, call);
}

/* A blocking call, for the hang watchdog: what it waits for, on which
 * peer rank of MPI_COMM_WORLD (-1: any rank, a request, a collective). */
/* The peer of a collective: every rank of the communicator. */
#define KKR_MPI_COLLECTIVE (-2)

static void wait_begin(const char *call, const char *dir, MPI_Comm comm,
                       int peer, int tag) {
  if (!__kkrace_wait_begin)
    return;
  char what[160];
  int wpeer = peer >= 0 ? world_rank(comm, peer) : peer;
  if (peer >= 0 && dir)
    snprintf(what, sizeof what, "%s %s rank %d (tag %d)", call, dir, wpeer,
             tag);
  else
    snprintf(what, sizeof what, "%s", call);
  __kkrace_wait_begin(what, wpeer);
}

static void wait_end(void) {
  if (__kkrace_wait_end)
    __kkrace_wait_end();
}

/* What each pending request waits on, for MPI_Wait's hang report. */
#define MAX_PENDING 4096
static struct pending {
  MPI_Request req;
  int peer;
  char what[96];
} pending[MAX_PENDING];
static int npending;

static void pending_add(MPI_Request req, int peer, const char *what) {
  if (!__kkrace_wait_begin || req == MPI_REQUEST_NULL)
    return;
  int slot = -1;
  for (int i = 0; i < npending && slot < 0; i++)
    if (pending[i].req == req || pending[i].req == MPI_REQUEST_NULL)
      slot = i;
  if (slot < 0 && npending < MAX_PENDING)
    slot = npending++;
  if (slot < 0)
    return;
  pending[slot].req = req;
  pending[slot].peer = peer;
  snprintf(pending[slot].what, sizeof pending[slot].what, "%s", what);
}

static struct pending *pending_find(MPI_Request req) {
  for (int i = 0; i < npending; i++)
    if (pending[i].req == req && req != MPI_REQUEST_NULL)
      return &pending[i];
  return NULL;
}

/* MPI_Wait(all, any, some) on requests: what the first one with a known
 * peer waits for. */
static void wait_on(const char *call, const MPI_Request *reqs, int n) {
  if (!__kkrace_wait_begin)
    return;
  for (int i = 0; i < n; i++) {
    struct pending *p = pending_find(reqs[i]);
    if (p && p->peer >= 0) {
      char what[160];
      snprintf(what, sizeof what, "%s on %s", call, p->what);
      __kkrace_wait_begin(what, p->peer);
      return;
    }
  }
  __kkrace_wait_begin(call, -1);
}

/* A nonblocking operation: a work item on the request that reads (send)
 * and writes (recv) its buffers, begun at the program's call site pc. */
/* (The runtime's token, plus one: 0 when nothing was begun.) */
static unsigned int async_begin(MPI_Request req, const char *label) {
  if (!on() || req == MPI_REQUEST_NULL)
    return 0;
  unsigned int tok = __kkrace_op_begin(KKR_OP_MPI_ASYNC, mpi_space,
                                       (void *)req, 0);
  __kkrace_op_label(tok, label);
  return tok + 1;
}

static void async_end(unsigned int tok) {
  if (tok)
    __kkrace_op_end(tok - 1);
}

static void async(MPI_Request req, const char *label, const void *sbuf,
                  long scount, MPI_Datatype stype, void *rbuf, long rcount,
                  MPI_Datatype rtype, void *pc, const char *call) {
  unsigned int tok = async_begin(req, label);
  if (!tok)
    return;
  if (sbuf)
    buf_access(sbuf, scount, stype, 0, pc, call);
  if (rbuf)
    buf_access(rbuf, rcount, rtype, 1, pc, call);
  async_end(tok);
}

/* The request completed: the calling thread learns what it did. */
static void completed(MPI_Request req) {
  if (!on() || req == MPI_REQUEST_NULL)
    return;
  unsigned int tok = __kkrace_op_begin(KKR_OP_FENCE_INSTANCE, mpi_space,
                                       (void *)req, 0);
  __kkrace_op_end(tok);
}

/* "MPI_Isend to rank 1 (tag 7) by rank 0": ranks of MPI_COMM_WORLD. */
static void p2p_label(char *out, size_t n, const char *call, const char *dir,
                      MPI_Comm comm, int peer, int tag) {
  if (peer == MPI_ANY_SOURCE)
    snprintf(out, n, "%s from any rank (tag %d) by rank %d", call, tag,
             my_rank());
  else
    snprintf(out, n, "%s %s rank %d (tag %d) by rank %d", call, dir,
             world_rank(comm, peer), tag, my_rank());
}

/* ---- Point to point --------------------------------------------------- */

#define BLOCKING_SEND(name)                                                   \
  int name(const void *buf, int count, MPI_Datatype type, int dest, int tag, \
           MPI_Comm comm) {                                                   \
    void *pc = CALLER;                                                        \
    if (dest != MPI_PROC_NULL)                                                \
      buf_access(buf, count, type, 0, pc, #name);                             \
    wait_begin(#name, "to", comm, dest, tag);                                 \
    int r = P##name(buf, count, type, dest, tag, comm);                       \
    wait_end();                                                               \
    return r;                                                                 \
  }
BLOCKING_SEND(MPI_Send)
BLOCKING_SEND(MPI_Ssend)
BLOCKING_SEND(MPI_Rsend)
BLOCKING_SEND(MPI_Bsend)

int MPI_Recv(void *buf, int count, MPI_Datatype type, int source, int tag,
             MPI_Comm comm, MPI_Status *status) {
  void *pc = CALLER;
  wait_begin("MPI_Recv", "from", comm, source, tag);
  int r = PMPI_Recv(buf, count, type, source, tag, comm, status);
  wait_end();
  if (source != MPI_PROC_NULL)
    buf_access(buf, count, type, 1, pc, "MPI_Recv");
  return r;
}

int MPI_Sendrecv(const void *sbuf, int scount, MPI_Datatype stype, int dest,
                 int stag, void *rbuf, int rcount, MPI_Datatype rtype,
                 int source, int rtag, MPI_Comm comm, MPI_Status *status) {
  void *pc = CALLER;
  if (dest != MPI_PROC_NULL)
    buf_access(sbuf, scount, stype, 0, pc, "MPI_Sendrecv");
  wait_begin("MPI_Sendrecv", "from", comm, source, rtag);
  int r = PMPI_Sendrecv(sbuf, scount, stype, dest, stag, rbuf, rcount, rtype,
                        source, rtag, comm, status);
  wait_end();
  if (source != MPI_PROC_NULL)
    buf_access(rbuf, rcount, rtype, 1, pc, "MPI_Sendrecv");
  return r;
}

int MPI_Sendrecv_replace(void *buf, int count, MPI_Datatype type, int dest,
                         int stag, int source, int rtag, MPI_Comm comm,
                         MPI_Status *status) {
  void *pc = CALLER;
  if (dest != MPI_PROC_NULL)
    buf_access(buf, count, type, 0, pc, "MPI_Sendrecv_replace");
  wait_begin("MPI_Sendrecv_replace", "from", comm, source, rtag);
  int r = PMPI_Sendrecv_replace(buf, count, type, dest, stag, source, rtag,
                                comm, status);
  wait_end();
  if (source != MPI_PROC_NULL)
    buf_access(buf, count, type, 1, pc, "MPI_Sendrecv_replace");
  return r;
}

int MPI_Probe(int source, int tag, MPI_Comm comm, MPI_Status *status) {
  wait_begin("MPI_Probe", "from", comm, source, tag);
  int r = PMPI_Probe(source, tag, comm, status);
  wait_end();
  return r;
}

#define NONBLOCKING_SEND(name)                                                \
  int name(const void *buf, int count, MPI_Datatype type, int dest, int tag, \
           MPI_Comm comm, MPI_Request *req) {                                 \
    void *pc = CALLER;                                                        \
    int r = P##name(buf, count, type, dest, tag, comm, req);                  \
    if (r == MPI_SUCCESS && dest != MPI_PROC_NULL) {                          \
      char label[160];                                                        \
      p2p_label(label, sizeof label, #name, "to", comm, dest, tag);           \
      async(*req, label, buf, count, type, NULL, 0, MPI_DATATYPE_NULL, pc,    \
            #name);                                                           \
      char what[96];                                                          \
      snprintf(what, sizeof what, #name " to rank %d (tag %d)",               \
               world_rank(comm, dest), tag);                                  \
      pending_add(*req, world_rank(comm, dest), what);                        \
    }                                                                         \
    return r;                                                                 \
  }
NONBLOCKING_SEND(MPI_Isend)
NONBLOCKING_SEND(MPI_Issend)
NONBLOCKING_SEND(MPI_Irsend)
NONBLOCKING_SEND(MPI_Ibsend)

int MPI_Irecv(void *buf, int count, MPI_Datatype type, int source, int tag,
              MPI_Comm comm, MPI_Request *req) {
  void *pc = CALLER;
  int r = PMPI_Irecv(buf, count, type, source, tag, comm, req);
  if (r == MPI_SUCCESS && source != MPI_PROC_NULL) {
    char label[160];
    p2p_label(label, sizeof label, "MPI_Irecv", "from", comm, source, tag);
    async(*req, label, NULL, 0, MPI_DATATYPE_NULL, buf, count, type, pc,
          "MPI_Irecv");
    char what[96];
    snprintf(what, sizeof what, "MPI_Irecv from rank %d (tag %d)",
             world_rank(comm, source), tag);
    pending_add(*req, world_rank(comm, source), what);
  }
  return r;
}

/* ---- Persistent requests ------------------------------------------------
 * What MPI_Send_init / MPI_Recv_init said, for each MPI_Start. */

#define MAX_PERSISTENT 1024
static struct persistent {
  MPI_Request req;
  const void *sbuf;
  void *rbuf;
  int count;
  MPI_Datatype type;
  void *pc;
  const char *call;
  char label[160];
} persistent[MAX_PERSISTENT];
static int npersistent;

static void persistent_add(MPI_Request req, const void *sbuf, void *rbuf,
                           int count, MPI_Datatype type, void *pc,
                           const char *call, const char *label) {
  struct persistent *p = NULL;
  for (int i = 0; i < npersistent && !p; i++)
    if (persistent[i].req == req || persistent[i].req == MPI_REQUEST_NULL)
      p = &persistent[i];
  if (!p && npersistent < MAX_PERSISTENT)
    p = &persistent[npersistent++];
  if (!p)
    return;
  if (p->type != MPI_DATATYPE_NULL && p->type != 0)
    PMPI_Type_free(&p->type);
  /* (The program may free its type once the request holds it: a copy.) */
  MPI_Datatype copy = MPI_DATATYPE_NULL;
  if (PMPI_Type_dup(type, &copy) != MPI_SUCCESS)
    copy = MPI_DATATYPE_NULL;
  *p = (struct persistent){req, sbuf, rbuf, count, copy, pc, call, {0}};
  snprintf(p->label, sizeof p->label, "%s", label);
}

static struct persistent *persistent_find(MPI_Request req) {
  for (int i = 0; i < npersistent; i++)
    if (persistent[i].req == req)
      return &persistent[i];
  return NULL;
}

int MPI_Send_init(const void *buf, int count, MPI_Datatype type, int dest,
                  int tag, MPI_Comm comm, MPI_Request *req) {
  void *pc = CALLER;
  int r = PMPI_Send_init(buf, count, type, dest, tag, comm, req);
  if (r == MPI_SUCCESS && on() && dest != MPI_PROC_NULL) {
    char label[160];
    p2p_label(label, sizeof label, "MPI_Start of MPI_Send_init", "to", comm,
              dest, tag);
    persistent_add(*req, buf, NULL, count, type, pc, "MPI_Send_init", label);
  }
  return r;
}

int MPI_Recv_init(void *buf, int count, MPI_Datatype type, int source,
                  int tag, MPI_Comm comm, MPI_Request *req) {
  void *pc = CALLER;
  int r = PMPI_Recv_init(buf, count, type, source, tag, comm, req);
  if (r == MPI_SUCCESS && on() && source != MPI_PROC_NULL) {
    char label[160];
    p2p_label(label, sizeof label, "MPI_Start of MPI_Recv_init", "from", comm,
              source, tag);
    persistent_add(*req, NULL, buf, count, type, pc, "MPI_Recv_init", label);
  }
  return r;
}

/* (The buffer's accesses are at the init's call site.) */
static void started(MPI_Request req) {
  struct persistent *p = persistent_find(req);
  if (p && p->type != MPI_DATATYPE_NULL)
    async(req, p->label, p->sbuf, p->sbuf ? p->count : 0, p->type, p->rbuf,
          p->rbuf ? p->count : 0, p->type, p->pc, p->call);
}

int MPI_Start(MPI_Request *req) {
  int r = PMPI_Start(req);
  if (r == MPI_SUCCESS)
    started(*req);
  return r;
}

int MPI_Startall(int n, MPI_Request reqs[]) {
  int r = PMPI_Startall(n, reqs);
  if (r == MPI_SUCCESS)
    for (int i = 0; i < n; i++)
      started(reqs[i]);
  return r;
}

int MPI_Request_free(MPI_Request *req) {
  struct persistent *p = persistent_find(*req);
  if (p) {
    p->req = MPI_REQUEST_NULL;
    if (p->type != MPI_DATATYPE_NULL)
      PMPI_Type_free(&p->type);
    p->type = MPI_DATATYPE_NULL;
  }
  return PMPI_Request_free(req);
}

/* ---- Completion -------------------------------------------------------- */

int MPI_Wait(MPI_Request *req, MPI_Status *status) {
  MPI_Request before = *req;
  wait_on("MPI_Wait", req, 1);
  int r = PMPI_Wait(req, status);
  wait_end();
  if (r == MPI_SUCCESS)
    completed(before);
  return r;
}

int MPI_Test(MPI_Request *req, int *flag, MPI_Status *status) {
  MPI_Request before = *req;
  int r = PMPI_Test(req, flag, status);
  if (r == MPI_SUCCESS && *flag)
    completed(before);
  return r;
}

#define MAX_BATCH 4096

int MPI_Waitall(int n, MPI_Request reqs[], MPI_Status statuses[]) {
  MPI_Request before[MAX_BATCH];
  int k = n < MAX_BATCH ? n : MAX_BATCH;
  memcpy(before, reqs, (size_t)k * sizeof *reqs);
  wait_on("MPI_Waitall", reqs, n);
  int r = PMPI_Waitall(n, reqs, statuses);
  wait_end();
  if (r == MPI_SUCCESS)
    for (int i = 0; i < k; i++)
      completed(before[i]);
  return r;
}

int MPI_Testall(int n, MPI_Request reqs[], int *flag,
                MPI_Status statuses[]) {
  MPI_Request before[MAX_BATCH];
  int k = n < MAX_BATCH ? n : MAX_BATCH;
  memcpy(before, reqs, (size_t)k * sizeof *reqs);
  int r = PMPI_Testall(n, reqs, flag, statuses);
  if (r == MPI_SUCCESS && *flag)
    for (int i = 0; i < k; i++)
      completed(before[i]);
  return r;
}

int MPI_Waitany(int n, MPI_Request reqs[], int *index, MPI_Status *status) {
  MPI_Request before[MAX_BATCH];
  int k = n < MAX_BATCH ? n : MAX_BATCH;
  memcpy(before, reqs, (size_t)k * sizeof *reqs);
  wait_on("MPI_Waitany", reqs, n);
  int r = PMPI_Waitany(n, reqs, index, status);
  wait_end();
  if (r == MPI_SUCCESS && *index != MPI_UNDEFINED && *index < k)
    completed(before[*index]);
  return r;
}

int MPI_Testany(int n, MPI_Request reqs[], int *index, int *flag,
                MPI_Status *status) {
  MPI_Request before[MAX_BATCH];
  int k = n < MAX_BATCH ? n : MAX_BATCH;
  memcpy(before, reqs, (size_t)k * sizeof *reqs);
  int r = PMPI_Testany(n, reqs, index, flag, status);
  if (r == MPI_SUCCESS && *flag && *index != MPI_UNDEFINED && *index < k)
    completed(before[*index]);
  return r;
}

int MPI_Waitsome(int n, MPI_Request reqs[], int *outcount, int indices[],
                 MPI_Status statuses[]) {
  MPI_Request before[MAX_BATCH];
  int k = n < MAX_BATCH ? n : MAX_BATCH;
  memcpy(before, reqs, (size_t)k * sizeof *reqs);
  wait_on("MPI_Waitsome", reqs, n);
  int r = PMPI_Waitsome(n, reqs, outcount, indices, statuses);
  wait_end();
  if (r == MPI_SUCCESS && *outcount != MPI_UNDEFINED)
    for (int i = 0; i < *outcount; i++)
      if (indices[i] < k)
        completed(before[indices[i]]);
  return r;
}

int MPI_Testsome(int n, MPI_Request reqs[], int *outcount, int indices[],
                 MPI_Status statuses[]) {
  MPI_Request before[MAX_BATCH];
  int k = n < MAX_BATCH ? n : MAX_BATCH;
  memcpy(before, reqs, (size_t)k * sizeof *reqs);
  int r = PMPI_Testsome(n, reqs, outcount, indices, statuses);
  if (r == MPI_SUCCESS && *outcount != MPI_UNDEFINED)
    for (int i = 0; i < *outcount; i++)
      if (indices[i] < k)
        completed(before[indices[i]]);
  return r;
}

/* ---- Collectives --------------------------------------------------------
 * Each rank reads what it contributes and writes what it receives: the
 * blocking ones as the calling thread, the nonblocking ones as a work item
 * on their request. */

static int comm_rank(MPI_Comm comm) {
  int r = 0;
  PMPI_Comm_rank(comm, &r);
  return r;
}

static int comm_size(MPI_Comm comm) {
  int n = 1;
  int inter = 0;
  if (PMPI_Comm_test_inter(comm, &inter) == MPI_SUCCESS && inter)
    PMPI_Comm_remote_size(comm, &n);
  else
    PMPI_Comm_size(comm, &n);
  return n;
}

/* The blocks of a v-collective's buffer: counts[i] elements of type at
 * displs[i] (in units of its extent), for each rank i. */
static void v_access(const void *buf, const int counts[], const int displs[],
                     MPI_Datatype type, int n, int write, void *pc,
                     const char *call) {
  if (!on() || !real_buf(buf) || !counts || !displs)
    return;
  MPI_Aint ext = extent_of(type);
  for (int i = 0; i < n; i++)
    buf_access((const char *)buf + (MPI_Aint)displs[i] * ext, counts[i],
               type, write, pc, call);
}

static int v_total(const int counts[], int n) {
  long t = 0;
  for (int i = 0; counts && i < n; i++)
    t += counts[i];
  return t > 0x7fffffff ? 0x7fffffff : (int)t;
}

/* A blocking collective: the calling thread waits for the ranks of the
 * communicator (for the hang watchdog). */
#define COLL_WAIT(call, expr)                                                 \
  do {                                                                        \
    wait_begin(call, NULL, comm, KKR_MPI_COLLECTIVE, 0);                      \
    r = (expr);                                                               \
    wait_end();                                                               \
  } while (0)

int MPI_Barrier(MPI_Comm comm) {
  int r;
  COLL_WAIT("MPI_Barrier", PMPI_Barrier(comm));
  return r;
}

int MPI_Bcast(void *buf, int count, MPI_Datatype type, int root,
              MPI_Comm comm) {
  void *pc = CALLER;
  int me = comm_rank(comm), r;
  if (me == root)
    buf_access(buf, count, type, 0, pc, "MPI_Bcast");
  COLL_WAIT("MPI_Bcast", PMPI_Bcast(buf, count, type, root, comm));
  if (me != root)
    buf_access(buf, count, type, 1, pc, "MPI_Bcast");
  return r;
}

int MPI_Reduce(const void *sbuf, void *rbuf, int count, MPI_Datatype type,
               MPI_Op op, int root, MPI_Comm comm) {
  void *pc = CALLER;
  int me = comm_rank(comm), r;
  buf_access(sbuf == MPI_IN_PLACE ? rbuf : sbuf, count, type, 0, pc,
             "MPI_Reduce");
  COLL_WAIT("MPI_Reduce", PMPI_Reduce(sbuf, rbuf, count, type, op, root, comm));
  if (me == root)
    buf_access(rbuf, count, type, 1, pc, "MPI_Reduce");
  return r;
}

int MPI_Allreduce(const void *sbuf, void *rbuf, int count, MPI_Datatype type,
                  MPI_Op op, MPI_Comm comm) {
  void *pc = CALLER;
  int r;
  buf_access(sbuf == MPI_IN_PLACE ? rbuf : sbuf, count, type, 0, pc,
             "MPI_Allreduce");
  COLL_WAIT("MPI_Allreduce",
            PMPI_Allreduce(sbuf, rbuf, count, type, op, comm));
  buf_access(rbuf, count, type, 1, pc, "MPI_Allreduce");
  return r;
}

int MPI_Scan(const void *sbuf, void *rbuf, int count, MPI_Datatype type,
             MPI_Op op, MPI_Comm comm) {
  void *pc = CALLER;
  int r;
  buf_access(sbuf == MPI_IN_PLACE ? rbuf : sbuf, count, type, 0, pc,
             "MPI_Scan");
  COLL_WAIT("MPI_Scan", PMPI_Scan(sbuf, rbuf, count, type, op, comm));
  buf_access(rbuf, count, type, 1, pc, "MPI_Scan");
  return r;
}

int MPI_Exscan(const void *sbuf, void *rbuf, int count, MPI_Datatype type,
               MPI_Op op, MPI_Comm comm) {
  void *pc = CALLER;
  int r;
  buf_access(sbuf == MPI_IN_PLACE ? rbuf : sbuf, count, type, 0, pc,
             "MPI_Exscan");
  COLL_WAIT("MPI_Exscan", PMPI_Exscan(sbuf, rbuf, count, type, op, comm));
  if (comm_rank(comm) > 0)
    buf_access(rbuf, count, type, 1, pc, "MPI_Exscan");
  return r;
}

int MPI_Reduce_scatter_block(const void *sbuf, void *rbuf, int rcount,
                             MPI_Datatype type, MPI_Op op, MPI_Comm comm) {
  void *pc = CALLER;
  int r, n = comm_size(comm);
  buf_access(sbuf == MPI_IN_PLACE ? rbuf : sbuf, (long)rcount * n, type, 0,
             pc, "MPI_Reduce_scatter_block");
  COLL_WAIT("MPI_Reduce_scatter_block",
            PMPI_Reduce_scatter_block(sbuf, rbuf, rcount, type, op, comm));
  buf_access(rbuf, rcount, type, 1, pc, "MPI_Reduce_scatter_block");
  return r;
}

int MPI_Reduce_scatter(const void *sbuf, void *rbuf, const int rcounts[],
                       MPI_Datatype type, MPI_Op op, MPI_Comm comm) {
  void *pc = CALLER;
  int r, n = comm_size(comm), me = comm_rank(comm);
  buf_access(sbuf == MPI_IN_PLACE ? rbuf : sbuf, v_total(rcounts, n), type, 0,
             pc, "MPI_Reduce_scatter");
  COLL_WAIT("MPI_Reduce_scatter",
            PMPI_Reduce_scatter(sbuf, rbuf, rcounts, type, op, comm));
  buf_access(rbuf, rcounts[me], type, 1, pc, "MPI_Reduce_scatter");
  return r;
}

int MPI_Gather(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
               int rcount, MPI_Datatype rtype, int root, MPI_Comm comm) {
  void *pc = CALLER;
  int me = comm_rank(comm), r;
  if (sbuf != MPI_IN_PLACE)
    buf_access(sbuf, scount, stype, 0, pc, "MPI_Gather");
  COLL_WAIT("MPI_Gather", PMPI_Gather(sbuf, scount, stype, rbuf, rcount,
                                      rtype, root, comm));
  if (me == root)
    buf_access(rbuf, (long)rcount * comm_size(comm), rtype, 1, pc,
               "MPI_Gather");
  return r;
}

int MPI_Gatherv(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                const int rcounts[], const int displs[], MPI_Datatype rtype,
                int root, MPI_Comm comm) {
  void *pc = CALLER;
  int me = comm_rank(comm), r;
  if (sbuf != MPI_IN_PLACE)
    buf_access(sbuf, scount, stype, 0, pc, "MPI_Gatherv");
  COLL_WAIT("MPI_Gatherv", PMPI_Gatherv(sbuf, scount, stype, rbuf, rcounts,
                                        displs, rtype, root, comm));
  if (me == root)
    v_access(rbuf, rcounts, displs, rtype, comm_size(comm), 1, pc,
             "MPI_Gatherv");
  return r;
}

int MPI_Scatter(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                int rcount, MPI_Datatype rtype, int root, MPI_Comm comm) {
  void *pc = CALLER;
  int me = comm_rank(comm), r;
  if (me == root)
    buf_access(sbuf, (long)scount * comm_size(comm), stype, 0, pc,
               "MPI_Scatter");
  COLL_WAIT("MPI_Scatter", PMPI_Scatter(sbuf, scount, stype, rbuf, rcount,
                                        rtype, root, comm));
  if (rbuf != MPI_IN_PLACE)
    buf_access(rbuf, rcount, rtype, 1, pc, "MPI_Scatter");
  return r;
}

int MPI_Scatterv(const void *sbuf, const int scounts[], const int displs[],
                 MPI_Datatype stype, void *rbuf, int rcount,
                 MPI_Datatype rtype, int root, MPI_Comm comm) {
  void *pc = CALLER;
  int me = comm_rank(comm), r;
  if (me == root)
    v_access(sbuf, scounts, displs, stype, comm_size(comm), 0, pc,
             "MPI_Scatterv");
  COLL_WAIT("MPI_Scatterv", PMPI_Scatterv(sbuf, scounts, displs, stype, rbuf,
                                          rcount, rtype, root, comm));
  if (rbuf != MPI_IN_PLACE)
    buf_access(rbuf, rcount, rtype, 1, pc, "MPI_Scatterv");
  return r;
}

int MPI_Allgather(const void *sbuf, int scount, MPI_Datatype stype,
                  void *rbuf, int rcount, MPI_Datatype rtype, MPI_Comm comm) {
  void *pc = CALLER;
  int r;
  if (sbuf != MPI_IN_PLACE)
    buf_access(sbuf, scount, stype, 0, pc, "MPI_Allgather");
  COLL_WAIT("MPI_Allgather", PMPI_Allgather(sbuf, scount, stype, rbuf, rcount,
                                            rtype, comm));
  buf_access(rbuf, (long)rcount * comm_size(comm), rtype, 1, pc,
             "MPI_Allgather");
  return r;
}

int MPI_Allgatherv(const void *sbuf, int scount, MPI_Datatype stype,
                   void *rbuf, const int rcounts[], const int displs[],
                   MPI_Datatype rtype, MPI_Comm comm) {
  void *pc = CALLER;
  int r;
  if (sbuf != MPI_IN_PLACE)
    buf_access(sbuf, scount, stype, 0, pc, "MPI_Allgatherv");
  COLL_WAIT("MPI_Allgatherv", PMPI_Allgatherv(sbuf, scount, stype, rbuf,
                                              rcounts, displs, rtype, comm));
  v_access(rbuf, rcounts, displs, rtype, comm_size(comm), 1, pc,
           "MPI_Allgatherv");
  return r;
}

int MPI_Alltoall(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                 int rcount, MPI_Datatype rtype, MPI_Comm comm) {
  void *pc = CALLER;
  int n = comm_size(comm), r;
  if (sbuf != MPI_IN_PLACE)
    buf_access(sbuf, (long)scount * n, stype, 0, pc, "MPI_Alltoall");
  COLL_WAIT("MPI_Alltoall", PMPI_Alltoall(sbuf, scount, stype, rbuf, rcount,
                                          rtype, comm));
  buf_access(rbuf, (long)rcount * n, rtype, 1, pc, "MPI_Alltoall");
  return r;
}

int MPI_Alltoallv(const void *sbuf, const int scounts[], const int sdispls[],
                  MPI_Datatype stype, void *rbuf, const int rcounts[],
                  const int rdispls[], MPI_Datatype rtype, MPI_Comm comm) {
  void *pc = CALLER;
  int n = comm_size(comm), r;
  if (sbuf != MPI_IN_PLACE)
    v_access(sbuf, scounts, sdispls, stype, n, 0, pc, "MPI_Alltoallv");
  COLL_WAIT("MPI_Alltoallv", PMPI_Alltoallv(sbuf, scounts, sdispls, stype,
                                            rbuf, rcounts, rdispls, rtype,
                                            comm));
  v_access(rbuf, rcounts, rdispls, rtype, n, 1, pc, "MPI_Alltoallv");
  return r;
}

/* Nonblocking collectives: work items on their requests. */

static void coll_label(char *out, size_t n, const char *call, int root,
                       MPI_Comm comm) {
  if (root >= 0)
    snprintf(out, n, "%s (root %d) by rank %d", call, world_rank(comm, root),
             my_rank());
  else
    snprintf(out, n, "%s by rank %d", call, my_rank());
}

/* A nonblocking collective that call started (r: its result): a work item
 * on its request that reads sbuf and writes rbuf (either NULL: none). */
static void icoll(int r, MPI_Request *req, const char *call, int root,
                  MPI_Comm comm, const void *sbuf, long scount,
                  MPI_Datatype stype, void *rbuf, long rcount,
                  MPI_Datatype rtype, void *pc) {
  if (r != MPI_SUCCESS)
    return;
  char label[96];
  coll_label(label, sizeof label, call, root, comm);
  async(*req, label, sbuf, scount, stype, rbuf, rcount, rtype, pc, call);
}

int MPI_Ibarrier(MPI_Comm comm, MPI_Request *req) {
  return PMPI_Ibarrier(comm, req);
}

int MPI_Ibcast(void *buf, int count, MPI_Datatype type, int root,
               MPI_Comm comm, MPI_Request *req) {
  void *pc = CALLER;
  int me = comm_rank(comm);
  int r = PMPI_Ibcast(buf, count, type, root, comm, req);
  icoll(r, req, "MPI_Ibcast", root, comm, me == root ? buf : NULL, count, type,
        me == root ? NULL : buf, count, type, pc);
  return r;
}

int MPI_Iallreduce(const void *sbuf, void *rbuf, int count, MPI_Datatype type,
                   MPI_Op op, MPI_Comm comm, MPI_Request *req) {
  void *pc = CALLER;
  int r = PMPI_Iallreduce(sbuf, rbuf, count, type, op, comm, req);
  icoll(r, req, "MPI_Iallreduce", -1, comm, sbuf == MPI_IN_PLACE ? rbuf : sbuf,
        count, type, rbuf, count, type, pc);
  return r;
}

int MPI_Ireduce(const void *sbuf, void *rbuf, int count, MPI_Datatype type,
                MPI_Op op, int root, MPI_Comm comm, MPI_Request *req) {
  void *pc = CALLER;
  int me = comm_rank(comm);
  int r = PMPI_Ireduce(sbuf, rbuf, count, type, op, root, comm, req);
  icoll(r, req, "MPI_Ireduce", root, comm, sbuf == MPI_IN_PLACE ? rbuf : sbuf,
        count, type, me == root ? rbuf : NULL, count, type, pc);
  return r;
}

int MPI_Iscan(const void *sbuf, void *rbuf, int count, MPI_Datatype type,
              MPI_Op op, MPI_Comm comm, MPI_Request *req) {
  void *pc = CALLER;
  int r = PMPI_Iscan(sbuf, rbuf, count, type, op, comm, req);
  icoll(r, req, "MPI_Iscan", -1, comm, sbuf == MPI_IN_PLACE ? rbuf : sbuf,
        count, type, rbuf, count, type, pc);
  return r;
}

int MPI_Iexscan(const void *sbuf, void *rbuf, int count, MPI_Datatype type,
                MPI_Op op, MPI_Comm comm, MPI_Request *req) {
  void *pc = CALLER;
  int r = PMPI_Iexscan(sbuf, rbuf, count, type, op, comm, req);
  icoll(r, req, "MPI_Iexscan", -1, comm, sbuf == MPI_IN_PLACE ? rbuf : sbuf,
        count, type, comm_rank(comm) > 0 ? rbuf : NULL, count, type, pc);
  return r;
}

int MPI_Ireduce_scatter_block(const void *sbuf, void *rbuf, int rcount,
                              MPI_Datatype type, MPI_Op op, MPI_Comm comm,
                              MPI_Request *req) {
  void *pc = CALLER;
  int n = comm_size(comm);
  int r = PMPI_Ireduce_scatter_block(sbuf, rbuf, rcount, type, op, comm, req);
  icoll(r, req, "MPI_Ireduce_scatter_block", -1, comm,
        sbuf == MPI_IN_PLACE ? rbuf : sbuf, (long)rcount * n, type, rbuf,
        rcount, type, pc);
  return r;
}

int MPI_Igather(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                int rcount, MPI_Datatype rtype, int root, MPI_Comm comm,
                MPI_Request *req) {
  void *pc = CALLER;
  int me = comm_rank(comm), n = comm_size(comm);
  int r = PMPI_Igather(sbuf, scount, stype, rbuf, rcount, rtype, root, comm,
                       req);
  icoll(r, req, "MPI_Igather", root, comm, sbuf == MPI_IN_PLACE ? NULL : sbuf,
        scount, stype, me == root ? rbuf : NULL, (long)rcount * n, rtype, pc);
  return r;
}

int MPI_Iscatter(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                 int rcount, MPI_Datatype rtype, int root, MPI_Comm comm,
                 MPI_Request *req) {
  void *pc = CALLER;
  int me = comm_rank(comm), n = comm_size(comm);
  int r = PMPI_Iscatter(sbuf, scount, stype, rbuf, rcount, rtype, root, comm,
                        req);
  icoll(r, req, "MPI_Iscatter", root, comm, me == root ? sbuf : NULL,
        (long)scount * n, stype, rbuf == MPI_IN_PLACE ? NULL : rbuf, rcount,
        rtype, pc);
  return r;
}

int MPI_Iallgather(const void *sbuf, int scount, MPI_Datatype stype,
                   void *rbuf, int rcount, MPI_Datatype rtype, MPI_Comm comm,
                   MPI_Request *req) {
  void *pc = CALLER;
  int n = comm_size(comm);
  int r = PMPI_Iallgather(sbuf, scount, stype, rbuf, rcount, rtype, comm, req);
  icoll(r, req, "MPI_Iallgather", -1, comm, sbuf == MPI_IN_PLACE ? NULL : sbuf,
        scount, stype, rbuf, (long)rcount * n, rtype, pc);
  return r;
}

int MPI_Ialltoall(const void *sbuf, int scount, MPI_Datatype stype,
                  void *rbuf, int rcount, MPI_Datatype rtype, MPI_Comm comm,
                  MPI_Request *req) {
  void *pc = CALLER;
  int n = comm_size(comm);
  int r = PMPI_Ialltoall(sbuf, scount, stype, rbuf, rcount, rtype, comm, req);
  icoll(r, req, "MPI_Ialltoall", -1, comm, sbuf == MPI_IN_PLACE ? NULL : sbuf,
        (long)scount * n, stype, rbuf, (long)rcount * n, rtype, pc);
  return r;
}

/* The v-forms: a work item with a block per rank. */
int MPI_Igatherv(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                 const int rcounts[], const int displs[], MPI_Datatype rtype,
                 int root, MPI_Comm comm, MPI_Request *req) {
  void *pc = CALLER;
  int me = comm_rank(comm), n = comm_size(comm);
  int r = PMPI_Igatherv(sbuf, scount, stype, rbuf, rcounts, displs, rtype,
                        root, comm, req);
  if (r == MPI_SUCCESS) {
    char label[96];
    coll_label(label, sizeof label, "MPI_Igatherv", root, comm);
    unsigned int tok = async_begin(*req, label);
    if (tok) {
      if (sbuf != MPI_IN_PLACE)
        buf_access(sbuf, scount, stype, 0, pc, "MPI_Igatherv");
      if (me == root)
        v_access(rbuf, rcounts, displs, rtype, n, 1, pc, "MPI_Igatherv");
      async_end(tok);
    }
  }
  return r;
}

int MPI_Iscatterv(const void *sbuf, const int scounts[], const int displs[],
                  MPI_Datatype stype, void *rbuf, int rcount,
                  MPI_Datatype rtype, int root, MPI_Comm comm,
                  MPI_Request *req) {
  void *pc = CALLER;
  int me = comm_rank(comm), n = comm_size(comm);
  int r = PMPI_Iscatterv(sbuf, scounts, displs, stype, rbuf, rcount, rtype,
                         root, comm, req);
  if (r == MPI_SUCCESS) {
    char label[96];
    coll_label(label, sizeof label, "MPI_Iscatterv", root, comm);
    unsigned int tok = async_begin(*req, label);
    if (tok) {
      if (me == root)
        v_access(sbuf, scounts, displs, stype, n, 0, pc, "MPI_Iscatterv");
      if (rbuf != MPI_IN_PLACE)
        buf_access(rbuf, rcount, rtype, 1, pc, "MPI_Iscatterv");
      async_end(tok);
    }
  }
  return r;
}

int MPI_Iallgatherv(const void *sbuf, int scount, MPI_Datatype stype,
                    void *rbuf, const int rcounts[], const int displs[],
                    MPI_Datatype rtype, MPI_Comm comm, MPI_Request *req) {
  void *pc = CALLER;
  int n = comm_size(comm);
  int r = PMPI_Iallgatherv(sbuf, scount, stype, rbuf, rcounts, displs, rtype,
                           comm, req);
  if (r == MPI_SUCCESS) {
    char label[96];
    coll_label(label, sizeof label, "MPI_Iallgatherv", -1, comm);
    unsigned int tok = async_begin(*req, label);
    if (tok) {
      if (sbuf != MPI_IN_PLACE)
        buf_access(sbuf, scount, stype, 0, pc, "MPI_Iallgatherv");
      v_access(rbuf, rcounts, displs, rtype, n, 1, pc, "MPI_Iallgatherv");
      async_end(tok);
    }
  }
  return r;
}

int MPI_Ialltoallv(const void *sbuf, const int scounts[], const int sdispls[],
                   MPI_Datatype stype, void *rbuf, const int rcounts[],
                   const int rdispls[], MPI_Datatype rtype, MPI_Comm comm,
                   MPI_Request *req) {
  void *pc = CALLER;
  int n = comm_size(comm);
  int r = PMPI_Ialltoallv(sbuf, scounts, sdispls, stype, rbuf, rcounts,
                          rdispls, rtype, comm, req);
  if (r == MPI_SUCCESS) {
    char label[96];
    coll_label(label, sizeof label, "MPI_Ialltoallv", -1, comm);
    unsigned int tok = async_begin(*req, label);
    if (tok) {
      if (sbuf != MPI_IN_PLACE)
        v_access(sbuf, scounts, sdispls, stype, n, 0, pc, "MPI_Ialltoallv");
      v_access(rbuf, rcounts, rdispls, rtype, n, 1, pc, "MPI_Ialltoallv");
      async_end(tok);
    }
  }
  return r;
}
