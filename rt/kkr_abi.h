/* kkrace public ABI: the __kkrace_* functions that instrumented code calls.
 *
 * Ground rule: this header includes nothing and is valid C and C++, so that
 * the LLVM pass, the runtime and the tests share it.  The functions themselves
 * are listed once, in kkr_entry.inc. */
#ifndef KKR_ABI_H
#define KKR_ABI_H

enum kkr_op_kind {
#define KKR_OP(e, s) KKR_OP_##e,
#include "kkr_ops.inc"
#undef KKR_OP
  KKR_OP_COUNT
};

/* __kkrace_loop's packed argument. */
#define KKR_LOOP_SIZE_MASK 0xFFFFu
#define KKR_LOOP_WRITE 0x10000u
/* With KKR_LOOP_WRITE: each element is read, then written (y(i) += ...). */
#define KKR_LOOP_READ 0x20000u
#define KKR_LOOP_NIDX_SHIFT 20
/* The iterations are the lanes of a ThreadVectorRange (nidx 1). */
#define KKR_LOOP_VECTOR 0x400000u
/* Each access is atomic: with KKR_LOOP_WRITE a read-modify-write (a
 * Kokkos atomic_add, checked as its write), else a read (the Atomic
 * trait's). */
#define KKR_LOOP_ATOMIC 0x800000u
#define KKR_LOOP_VARY_SHIFT 24
/* __kkrace_gather's too: its indices are 8 bytes (else 4), unsigned (else
 * signed), and the k-th is the (k * (1 + skip))-th of the array (a loop
 * unrolled skip + 1 times reads every skip + 1-th of them at one place). */
#define KKR_GATHER_IDX64 0x4000000u
#define KKR_GATHER_UNSIGNED 0x8000000u
#define KKR_GATHER_SKIP_SHIFT 28
#define KKR_GATHER_SKIP_MAX 15u
/* A gather's index truncated to its low n bits (1 to 63; 0: not), then
 * extended as the unsigned flag says (bins(key(i) & 255)): n is in bits 8
 * to 13 of the packed argument, whose size is at most 8 for a gather. */
#define KKR_GATHER_BITS_SHIFT 8
#define KKR_GATHER_SIZE_MASK 0xFFu
/* The gather also checks the loop's reads of its indices, by the same
 * strands, as reads at its own site (x(col(k)): col(k) too). */
#define KKR_GATHER_READS_INDEX 0x40000u
/* __kkrace_gather_with's: its companion's elements are 8 bytes (else 4). */
#define KKR_GATHER_WITH8 0x4000u
/* __kkrace_loop_wrap's: the remainder is unsigned (else signed, as C's %),
 * of 32-bit values (else 64). */
#define KKR_WRAP_32 0x4000000u
#define KKR_WRAP_UNSIGNED 0x8000000u
/* A flag in strand_begin's nidx: the call is a ThreadVectorRange lane. */
#define KKR_ABI_STRAND_VECTOR 16u
/* An MDRange of more than 3 indices: nidx is 3 | rank << this, and i1
 * holds the middle indices, each in 64 / (rank - 2) bits of it (i1 in the
 * low bits). */
#define KKR_ABI_STRAND_RANK_SHIFT 8

/* Flags of __kkrace_atomic. */
enum {
  KKR_AF_READ = 1,     /* the instruction reads memory */
  KKR_AF_WRITE = 2,    /* the instruction writes memory */
  KKR_AF_ACQUIRE = 4,  /* acquire (or stronger) ordering */
  KKR_AF_RELEASE = 8   /* release (or stronger) ordering */
};

/* What a site slot holds: the site table it was looked up in and the
 * index there (the runtime's business; the pass only reserves the space). */
struct kkr_site_slot {
  const void *table;
  unsigned long long idx;
};

/* The start of the runtime's per-thread state, which instrumented code
 * reads and writes itself to begin and end the strands of a RangePolicy
 * kernel without a call (the pass emits the code; the runtime decides when
 * it may run by setting strand_mode).  __kkrace_tls points to it, or is null
 * for a thread the runtime does not know yet. */
struct kkr_abi_thread {
  unsigned int strand_depth;     /* nesting of functor calls */
  unsigned int strand_mode;      /* 0: strands only through the calls;
                                    1: a RangePolicy for is running;
                                    2: a RangePolicy reduce or scan (the
                                       value argument is the strand's) */
  unsigned long long item_rec;   /* the running work item's record bits */
  unsigned long long cur_rec;    /* the current strand's record bits */
  long long strand_idx0;         /* the current strand's index */
  unsigned long long upd_lo;     /* the strand's private reduction value */
  unsigned long long upd_len;
  /* A team's nested TeamThreadRange iterations, begun and ended without a
   * call (the runtime sets team_mode to 1 where that may happen: in a
   * team's own code, no nested strand open; the inline code sets 2 while
   * an iteration runs, and the runtime takes over what it finds in 2). */
  unsigned int team_mode;
  unsigned int item_lossy;       /* the runtime has seen a RangePolicy index
                                    of KKR_ABI_STRAND_INLINE_MAX or more in
                                    the running item (and marked its ids
                                    lossy): the inline code takes the
                                    others too, index modulo that */
  unsigned long long team_rec;   /* the record bits of the team's thread 0
                                    in its current phase: thread k of the
                                    team is team_rec | k << 18 */
  unsigned long long saved_rec;  /* mode 2: the team strand's cur_rec, */
  unsigned long long saved_upd_lo; /* upd_lo and upd_len */
  unsigned long long saved_upd_len;
  long long team_idx;            /* mode 2: the nested iteration's index */
  /* The strands of an MDRange kernel of 2 or 3 indices, begun without a
   * call too (strand_mode 3 to 6, below): */
  long long strand_idx1;         /* the current strand's indices 1 and 2 */
  long long strand_idx2;
  unsigned long long row_i0;     /* the last row whose indices did not pack: */
  unsigned long long row_i1;     /* its indices before the last (row_i1 ~0 */
  unsigned long long row_base;   /* for 2 indices) and its ids' base */
  /* The layout of the running MDRange item's packed ids (below): */
  unsigned long long md_lim0;    /* first index below this, */
  unsigned long long md_m1;      /* the second below this, */
  unsigned long long md_m2;      /* the third below this (1: 2 indices) */
};
/* Byte offsets of its fields, for the pass. */
#define KKR_ABI_STRAND_DEPTH 0
#define KKR_ABI_STRAND_MODE 4
#define KKR_ABI_ITEM_REC 8
#define KKR_ABI_CUR_REC 16
#define KKR_ABI_STRAND_IDX0 24
#define KKR_ABI_UPD_LO 32
#define KKR_ABI_UPD_LEN 40
#define KKR_ABI_TEAM_MODE 48
#define KKR_ABI_ITEM_LOSSY 52
#define KKR_ABI_TEAM_REC 56
#define KKR_ABI_SAVED_REC 64
#define KKR_ABI_SAVED_UPD_LO 72
#define KKR_ABI_SAVED_UPD_LEN 80
#define KKR_ABI_TEAM_IDX 88
#define KKR_ABI_STRAND_IDX1 96
#define KKR_ABI_STRAND_IDX2 104
#define KKR_ABI_ROW_I0 112
#define KKR_ABI_ROW_I1 120
#define KKR_ABI_ROW_BASE 128
#define KKR_ABI_MD_LIM0 136
#define KKR_ABI_MD_M1 144
#define KKR_ABI_MD_M2 152
/* strand_mode of a RangePolicy for (1), reduce or scan (2), and of an
 * MDRange kernel of 2 indices (3, 4) or 3 (5, 6), for or reduce.  An
 * MDRange strand's id packs its indices when they are small enough: with
 * i0 < md_lim0, i1 < md_m1 and i2 < md_m2 (2 indices: i2 is 0, md_m2 1) it
 * is (i0 * md_m1 + i1) * md_m2 + i2, which stays below
 * KKR_ABI_STRAND_INLINE_MAX (the runtime lays each item out by the extents
 * its kernel had before: 1024 for 2 indices, 128 and 64 for 3, the first
 * time); else it is the row's base plus its last index, base + i modulo
 * KKR_ABI_STRAND_INLINE_MAX, which the inline code computes only for the
 * row of row_i0 and row_i1 and once item_lossy is set.  Either way the
 * record's strand bits are id % INLINE_MAX + 2. */
#define KKR_ABI_MODE_MD(nidx, reduce) (2u * (nidx) - 1u + (reduce))
/* The threads of a team: nested iteration i is thread i % 126 + 1, and a
 * single(PerTeam) (a nested call of no index) thread 127. */
#define KKR_ABI_TEAM_THREADS 126
#define KKR_ABI_TEAM_SINGLE 127
/* A strand of index i has the record bits item_rec | (i + 2) << 18, for
 * i below KKR_ABI_STRAND_INLINE_MAX (beyond, once item_lossy is set:
 * i % KKR_ABI_STRAND_INLINE_MAX + 2); the runtime's own code does the
 * rest. */
#define KKR_ABI_STRAND_SHIFT 18
#define KKR_ABI_STRAND_INLINE_MAX ((1ull << 20) - 2)
#define KKR_ABI_STRAND_BACKEND 1ull
/* Size of a reduction value the pass could not size (array reductions):
 * the bytes after the value pointer are treated as private to the strand. */
#define KKR_ABI_UNKNOWN_VALUE_SIZE 65536

/* GPU work (the __kkrace_gpu_* entry points, called by the CUPTI module
 * and by kkrace-gpu-replay). */
enum {
  KKR_GPU_MEM_HOST,      /* pageable host memory (not the GPU's) */
  KKR_GPU_MEM_PINNED,    /* cudaMallocHost, cudaHostAlloc */
  KKR_GPU_MEM_DEVICE,    /* cudaMalloc, cudaMallocPitch, cuMemAlloc */
  KKR_GPU_MEM_MANAGED,   /* cudaMallocManaged */
  KKR_GPU_MEM_ASYNC,     /* cudaMallocAsync (device memory of a pool) */
  KKR_GPU_MEM_REGISTERED, /* cudaHostRegister'ed host memory */
  KKR_GPU_MEM_COUNT
};
enum { KKR_GPU_KERNEL, KKR_GPU_MEMCPY, KKR_GPU_MEMSET, KKR_GPU_FREE,
       KKR_GPU_HOST_FUNC, KKR_GPU_WORK_COUNT };
enum {
  KKR_GPU_ACC_READ = 1,
  KKR_GPU_ACC_WRITE = 2,
  KKR_GPU_ACC_FREE = 4,
  KKR_GPU_ACC_CONSERVATIVE = 8, /* not known to be only read: maybe written */
  KKR_GPU_ACC_ATOMIC = 16 /* by atomics only (two such accesses never race) */
};
#define KKR_GPU_STREAM_NONBLOCKING 1u
#define KKR_GPU_WAIT 1u  /* the host waits for it (work_end, free) */
#define KKR_GPU_ASYNC 2u /* free: cudaFreeAsync on the stream */

/* The entry points, as X(return type, name, parameter types...):
 * KKR_GPU_ENTRIES(KKR_GPU_DECLARE) declares __kkrace_gpu_<name> for each. */
#define KKR_GPU_ENTRIES(X)                                                   \
  X(void, alloc, void *, unsigned long long, unsigned int)                   \
  X(void, free, void *, unsigned long long, unsigned int)                    \
  X(void, stream, unsigned long long, unsigned int)                          \
  X(unsigned int, work_begin, unsigned int, unsigned long long, const char *) \
  X(void, access, void *, unsigned long long, unsigned int)                  \
  X(void, work_end, unsigned int, unsigned int)                              \
  X(void, host_access, void *, unsigned long long, unsigned int)             \
  X(unsigned int, mem_kind, const void *)                                    \
  X(int, alloc_range, const void *, unsigned long long *,                    \
    unsigned long long *)                                                    \
  X(void, event_record, unsigned long long, unsigned long long)              \
  X(void, stream_wait_event, unsigned long long, unsigned long long)         \
  X(void, event_sync, unsigned long long)                                    \
  X(void, stream_sync, unsigned long long)                                   \
  X(void, device_sync, void)                                                 \
  X(void, host_func_replay, unsigned int, unsigned int)                      \
  X(void, capture_begin, unsigned long long)                                 \
  X(void, capture_end, unsigned long long, unsigned long long)               \
  X(void, graph_exec, unsigned long long, unsigned long long)                \
  X(void, graph_launch, unsigned long long, unsigned long long)              \
  X(int, launch_repeat, unsigned long long, const char *, const void *,       \
    unsigned int)
#define KKR_GPU_DECLARE(ret, name, ...) ret __kkrace_gpu_##name(__VA_ARGS__);

#define KKR_T_VOID void
#define KKR_T_PTR void *
#define KKR_T_I32 unsigned int
#define KKR_T_I64 unsigned long long
#define KKR_PARAMS_0(a, b, c, d, e, f, g, h, i, j, k) void
#define KKR_PARAMS_1(a, b, c, d, e, f, g, h, i, j, k) KKR_T_##a
#define KKR_PARAMS_2(a, b, c, d, e, f, g, h, i, j, k) KKR_T_##a, KKR_T_##b
#define KKR_PARAMS_3(a, b, c, d, e, f, g, h, i, j, k) KKR_T_##a, KKR_T_##b, KKR_T_##c
#define KKR_PARAMS_4(a, b, c, d, e, f, g, h, i, j, k) \
  KKR_T_##a, KKR_T_##b, KKR_T_##c, KKR_T_##d
#define KKR_PARAMS_5(a, b, c, d, e, f, g, h, i, j, k) \
  KKR_T_##a, KKR_T_##b, KKR_T_##c, KKR_T_##d, KKR_T_##e
#define KKR_PARAMS_6(a, b, c, d, e, f, g, h, i, j, k) \
  KKR_T_##a, KKR_T_##b, KKR_T_##c, KKR_T_##d, KKR_T_##e, KKR_T_##f
#define KKR_PARAMS_9(a, b, c, d, e, f, g, h, i, j, k)                          \
  KKR_T_##a, KKR_T_##b, KKR_T_##c, KKR_T_##d, KKR_T_##e, KKR_T_##f,      \
      KKR_T_##g, KKR_T_##h, KKR_T_##i
#define KKR_PARAMS_11(a, b, c, d, e, f, g, h, i, j, k)                   \
  KKR_T_##a, KKR_T_##b, KKR_T_##c, KKR_T_##d, KKR_T_##e, KKR_T_##f,      \
      KKR_T_##g, KKR_T_##h, KKR_T_##i, KKR_T_##j, KKR_T_##k

#ifdef __cplusplus
extern "C" {
#endif

/* Exported from the program even where the runtime hides the rest. */
#if defined(__GNUC__)
#define KKR_ABI_VISIBLE __attribute__((visibility("default")))
#else
#define KKR_ABI_VISIBLE
#endif

#define KKR_ENTRY(name, ret, n, a, b, c, d, e, f, g, h, i, j, k) \
  KKR_ABI_VISIBLE KKR_T_##ret __kkrace_##name(                      \
      KKR_PARAMS_##n(a, b, c, d, e, f, g, h, i, j, k));
#include "kkr_entry.inc"
#undef KKR_ENTRY

#ifdef __cplusplus
}
#endif

#endif /* KKR_ABI_H */
