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
#include <string.h>

/* The runtime's entry points, in the program (weak: absent without it). */
extern unsigned int __kkrace_op_begin(unsigned int kind, void *space,
                                      void *obj, unsigned long long objsize)
    __attribute__((weak));
extern void __kkrace_op_end(unsigned int token) __attribute__((weak));
extern void __kkrace_op_label(unsigned int token, const char *label)
    __attribute__((weak));
extern void __kkrace_read_range(void *p, unsigned long long n, void *slot)
    __attribute__((weak));
extern void __kkrace_write_range(void *p, unsigned long long n, void *slot)
    __attribute__((weak));
extern void __kkrace_wait_begin(const char *what, int peer)
    __attribute__((weak));
extern void __kkrace_wait_end(void) __attribute__((weak));

/* A blocking call, for the hang watchdog: what it waits for, on which
 * peer rank (-1: any rank, a request, a collective). */
/* The peer of a collective: every rank of the communicator. */
#define KKR_MPI_COLLECTIVE (-2)

static void wait_begin(const char *call, const char *dir, int peer, int tag) {
  if (!__kkrace_wait_begin)
    return;
  char what[160];
  if (peer >= 0 && dir)
    snprintf(what, sizeof what, "%s %s rank %d (tag %d)", call, dir, peer, tag);
  else
    snprintf(what, sizeof what, "%s", call);
  __kkrace_wait_begin(what, peer);
}

static void wait_end(void) {
  if (__kkrace_wait_end)
    __kkrace_wait_end();
}

/* Operation kinds (rt/kkr_ops.inc). */
#include "kkr_abi.h"

static char mpi_space[] = "MPI";

static int on(void) { return __kkrace_op_begin != NULL; }

static int my_rank(void) {
  int r = 0, init = 0;
  PMPI_Initialized(&init);
  if (init)
    PMPI_Comm_rank(MPI_COMM_WORLD, &r);
  return r;
}

/* The bytes a buffer of count elements of type spans. */
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

/* A blocking call's accesses, made by the calling thread. */
static void host_read(const void *buf, int count, MPI_Datatype type) {
  if (on() && real_buf(buf))
    __kkrace_read_range((void *)buf, span(count, type), NULL);
}

static void host_write(void *buf, int count, MPI_Datatype type) {
  if (on() && real_buf(buf))
    __kkrace_write_range(buf, span(count, type), NULL);
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

/* MPI_Wait(all) on requests: what the first one with a known peer waits
 * for. */
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
 * and writes (recv) its buffers. */
static void async(MPI_Request req, const char *label, const void *sbuf,
                  size_t sbytes, void *rbuf, size_t rbytes) {
  if (!on() || req == MPI_REQUEST_NULL)
    return;
  unsigned int tok = __kkrace_op_begin(KKR_OP_MPI_ASYNC, mpi_space,
                                       (void *)req, 0);
  __kkrace_op_label(tok, label);
  if (real_buf(sbuf) && sbytes)
    __kkrace_read_range((void *)sbuf, sbytes, NULL);
  if (real_buf(rbuf) && rbytes)
    __kkrace_write_range(rbuf, rbytes, NULL);
  __kkrace_op_end(tok);
}

/* The request completed: the calling thread learns what it did. */
static void completed(MPI_Request req) {
  if (!on() || req == MPI_REQUEST_NULL)
    return;
  unsigned int tok = __kkrace_op_begin(KKR_OP_FENCE_INSTANCE, mpi_space,
                                       (void *)req, 0);
  __kkrace_op_end(tok);
}

static void p2p_label(char *out, size_t n, const char *call, const char *dir,
                      int peer, int tag) {
  if (peer == MPI_ANY_SOURCE)
    snprintf(out, n, "%s from any rank (tag %d, rank %d)", call, tag,
             my_rank());
  else
    snprintf(out, n, "%s %s rank %d (tag %d, rank %d)", call, dir, peer, tag,
             my_rank());
}

/* ---- Point to point --------------------------------------------------- */

#define BLOCKING_SEND(name)                                                   \
  int name(const void *buf, int count, MPI_Datatype type, int dest, int tag, \
           MPI_Comm comm) {                                                   \
    host_read(buf, count, type);                                              \
    wait_begin(#name, "to", dest, tag);                                       \
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
  wait_begin("MPI_Recv", "from", source, tag);
  int r = PMPI_Recv(buf, count, type, source, tag, comm, status);
  wait_end();
  host_write(buf, count, type);
  return r;
}

int MPI_Sendrecv(const void *sbuf, int scount, MPI_Datatype stype, int dest,
                 int stag, void *rbuf, int rcount, MPI_Datatype rtype,
                 int source, int rtag, MPI_Comm comm, MPI_Status *status) {
  host_read(sbuf, scount, stype);
  wait_begin("MPI_Sendrecv", "from", source, rtag);
  int r = PMPI_Sendrecv(sbuf, scount, stype, dest, stag, rbuf, rcount, rtype,
                        source, rtag, comm, status);
  wait_end();
  host_write(rbuf, rcount, rtype);
  return r;
}

#define NONBLOCKING_SEND(name)                                                \
  int name(const void *buf, int count, MPI_Datatype type, int dest, int tag, \
           MPI_Comm comm, MPI_Request *req) {                                 \
    int r = P##name(buf, count, type, dest, tag, comm, req);                  \
    if (r == MPI_SUCCESS) {                                                   \
      char label[160];                                                        \
      p2p_label(label, sizeof label, #name, "to", dest, tag);                 \
      async(*req, label, buf, span(count, type), NULL, 0);                    \
      char what[96];                                                          \
      snprintf(what, sizeof what, #name " to rank %d (tag %d)", dest, tag);   \
      pending_add(*req, dest, what);                                          \
    }                                                                         \
    return r;                                                                 \
  }
NONBLOCKING_SEND(MPI_Isend)
NONBLOCKING_SEND(MPI_Issend)
NONBLOCKING_SEND(MPI_Irsend)
NONBLOCKING_SEND(MPI_Ibsend)

int MPI_Irecv(void *buf, int count, MPI_Datatype type, int source, int tag,
              MPI_Comm comm, MPI_Request *req) {
  int r = PMPI_Irecv(buf, count, type, source, tag, comm, req);
  if (r == MPI_SUCCESS) {
    char label[160];
    p2p_label(label, sizeof label, "MPI_Irecv", "from", source, tag);
    async(*req, label, NULL, 0, buf, span(count, type));
    char what[96];
    snprintf(what, sizeof what, "MPI_Irecv from rank %d (tag %d)", source, tag);
    pending_add(*req, source, what);
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
  size_t bytes;
  char label[160];
} persistent[MAX_PERSISTENT];
static int npersistent;

static void persistent_add(MPI_Request req, const void *sbuf, void *rbuf,
                           size_t bytes, const char *label) {
  for (int i = 0; i < npersistent; i++)
    if (persistent[i].req == req || persistent[i].req == MPI_REQUEST_NULL) {
      persistent[i] = (struct persistent){req, sbuf, rbuf, bytes, {0}};
      snprintf(persistent[i].label, sizeof persistent[i].label, "%s", label);
      return;
    }
  if (npersistent < MAX_PERSISTENT) {
    persistent[npersistent] = (struct persistent){req, sbuf, rbuf, bytes, {0}};
    snprintf(persistent[npersistent].label, sizeof persistent[0].label, "%s",
             label);
    npersistent++;
  }
}

static struct persistent *persistent_find(MPI_Request req) {
  for (int i = 0; i < npersistent; i++)
    if (persistent[i].req == req)
      return &persistent[i];
  return NULL;
}

int MPI_Send_init(const void *buf, int count, MPI_Datatype type, int dest,
                  int tag, MPI_Comm comm, MPI_Request *req) {
  int r = PMPI_Send_init(buf, count, type, dest, tag, comm, req);
  if (r == MPI_SUCCESS && on()) {
    char label[160];
    p2p_label(label, sizeof label, "MPI_Start of MPI_Send_init", "to", dest,
              tag);
    persistent_add(*req, buf, NULL, span(count, type), label);
  }
  return r;
}

int MPI_Recv_init(void *buf, int count, MPI_Datatype type, int source,
                  int tag, MPI_Comm comm, MPI_Request *req) {
  int r = PMPI_Recv_init(buf, count, type, source, tag, comm, req);
  if (r == MPI_SUCCESS && on()) {
    char label[160];
    p2p_label(label, sizeof label, "MPI_Start of MPI_Recv_init", "from",
              source, tag);
    persistent_add(*req, NULL, buf, span(count, type), label);
  }
  return r;
}

static void started(MPI_Request req) {
  struct persistent *p = persistent_find(req);
  if (p)
    async(req, p->label, p->sbuf, p->sbuf ? p->bytes : 0, p->rbuf,
          p->rbuf ? p->bytes : 0);
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
  if (p)
    p->req = MPI_REQUEST_NULL;
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
  int r = PMPI_Waitany(n, reqs, index, status);
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
  int r = PMPI_Waitsome(n, reqs, outcount, indices, statuses);
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
 * Each rank reads what it contributes and writes what it receives. */

static int comm_rank(MPI_Comm comm) {
  int r = 0;
  PMPI_Comm_rank(comm, &r);
  return r;
}

static int comm_size(MPI_Comm comm) {
  int n = 1;
  PMPI_Comm_size(comm, &n);
  return n;
}

int MPI_Bcast(void *buf, int count, MPI_Datatype type, int root,
              MPI_Comm comm) {
  int me = comm_rank(comm);
  if (me == root)
    host_read(buf, count, type);
  wait_begin("MPI_Bcast", NULL, KKR_MPI_COLLECTIVE, 0);
  int r = PMPI_Bcast(buf, count, type, root, comm);
  wait_end();
  if (me != root)
    host_write(buf, count, type);
  return r;
}

int MPI_Reduce(const void *sbuf, void *rbuf, int count, MPI_Datatype type,
               MPI_Op op, int root, MPI_Comm comm) {
  int me = comm_rank(comm);
  host_read(sbuf == MPI_IN_PLACE ? rbuf : sbuf, count, type);
  int r = PMPI_Reduce(sbuf, rbuf, count, type, op, root, comm);
  if (me == root)
    host_write(rbuf, count, type);
  return r;
}

int MPI_Allreduce(const void *sbuf, void *rbuf, int count, MPI_Datatype type,
                  MPI_Op op, MPI_Comm comm) {
  host_read(sbuf == MPI_IN_PLACE ? rbuf : sbuf, count, type);
  wait_begin("MPI_Allreduce", NULL, KKR_MPI_COLLECTIVE, 0);
  int r = PMPI_Allreduce(sbuf, rbuf, count, type, op, comm);
  wait_end();
  host_write(rbuf, count, type);
  return r;
}

int MPI_Gather(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
               int rcount, MPI_Datatype rtype, int root, MPI_Comm comm) {
  int me = comm_rank(comm);
  if (sbuf != MPI_IN_PLACE)
    host_read(sbuf, scount, stype);
  int r = PMPI_Gather(sbuf, scount, stype, rbuf, rcount, rtype, root, comm);
  if (me == root)
    host_write(rbuf, rcount * comm_size(comm), rtype);
  return r;
}

int MPI_Scatter(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                int rcount, MPI_Datatype rtype, int root, MPI_Comm comm) {
  int me = comm_rank(comm);
  if (me == root)
    host_read(sbuf, scount * comm_size(comm), stype);
  int r = PMPI_Scatter(sbuf, scount, stype, rbuf, rcount, rtype, root, comm);
  if (rbuf != MPI_IN_PLACE)
    host_write(rbuf, rcount, rtype);
  return r;
}

int MPI_Allgather(const void *sbuf, int scount, MPI_Datatype stype,
                  void *rbuf, int rcount, MPI_Datatype rtype, MPI_Comm comm) {
  if (sbuf != MPI_IN_PLACE)
    host_read(sbuf, scount, stype);
  int r = PMPI_Allgather(sbuf, scount, stype, rbuf, rcount, rtype, comm);
  host_write(rbuf, rcount * comm_size(comm), rtype);
  return r;
}

int MPI_Alltoall(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                 int rcount, MPI_Datatype rtype, MPI_Comm comm) {
  int n = comm_size(comm);
  if (sbuf != MPI_IN_PLACE)
    host_read(sbuf, scount * n, stype);
  int r = PMPI_Alltoall(sbuf, scount, stype, rbuf, rcount, rtype, comm);
  host_write(rbuf, rcount * n, rtype);
  return r;
}

int MPI_Barrier(MPI_Comm comm) {
  wait_begin("MPI_Barrier", NULL, KKR_MPI_COLLECTIVE, 0);
  int r = PMPI_Barrier(comm);
  wait_end();
  return r;
}

/* Nonblocking collectives: work items on their requests. */
int MPI_Ibcast(void *buf, int count, MPI_Datatype type, int root,
               MPI_Comm comm, MPI_Request *req) {
  int me = comm_rank(comm);
  int r = PMPI_Ibcast(buf, count, type, root, comm, req);
  if (r == MPI_SUCCESS) {
    char label[96];
    snprintf(label, sizeof label, "MPI_Ibcast (root %d, rank %d)", root,
             my_rank());
    size_t b = span(count, type);
    async(*req, label, me == root ? buf : NULL, me == root ? b : 0,
          me == root ? NULL : buf, me == root ? 0 : b);
  }
  return r;
}

int MPI_Iallreduce(const void *sbuf, void *rbuf, int count, MPI_Datatype type,
                   MPI_Op op, MPI_Comm comm, MPI_Request *req) {
  int r = PMPI_Iallreduce(sbuf, rbuf, count, type, op, comm, req);
  if (r == MPI_SUCCESS) {
    char label[96];
    snprintf(label, sizeof label, "MPI_Iallreduce (rank %d)", my_rank());
    size_t b = span(count, type);
    async(*req, label, sbuf == MPI_IN_PLACE ? rbuf : sbuf, b, rbuf, b);
  }
  return r;
}

int MPI_Ireduce(const void *sbuf, void *rbuf, int count, MPI_Datatype type,
                MPI_Op op, int root, MPI_Comm comm, MPI_Request *req) {
  int me = comm_rank(comm);
  int r = PMPI_Ireduce(sbuf, rbuf, count, type, op, root, comm, req);
  if (r == MPI_SUCCESS) {
    char label[96];
    snprintf(label, sizeof label, "MPI_Ireduce (root %d, rank %d)", root,
             my_rank());
    size_t b = span(count, type);
    async(*req, label, sbuf == MPI_IN_PLACE ? rbuf : sbuf, b,
          me == root ? rbuf : NULL, me == root ? b : 0);
  }
  return r;
}
