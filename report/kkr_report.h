/* Reports: collecting them (kkr_report.c), symbolizing their stacks
 * (kkr_symbolize.c) and printing them as text, JSON Lines and SARIF
 * (kkr_report_text.c, kkr_report_json.c, kkr_report_sarif.c).
 *
 * A report is found on the hot path's cold branch and kept pending; the
 * same pair of code locations found again only counts one more element.
 * Pending reports are printed when the Kokkos operation that found them
 * ends, when the host thread calls into Kokkos again, and at exit or crash. */
#ifndef KKR_REPORT_H
#define KKR_REPORT_H

#include <stdint.h>

#include "kkr_hash.h"
#include "kkr_rt.h"

/* The kinds of report (one table: name, JSON kind, SARIF rule prefix). */
#define KKR_REPORT_KINDS(X)             \
  X(DATA_RACE, "data-race", "data race") \
  X(DEADLOCK, "deadlock", "deadlock")

enum kkr_report_kind {
#define X(e, json, text) KKR_REPORT_##e,
  KKR_REPORT_KINDS(X)
#undef X
};

extern const char *const kkr_report_kind_json[];
extern const char *const kkr_report_kind_text[];

enum kkr_node_type {
  KKR_NODE_HOST,   /* a host thread */
  KKR_NODE_STRAND, /* one iteration / team of a dispatch */
  KKR_NODE_WORK,   /* a dispatch's own code, outside the functor */
  KKR_NODE_COPY,   /* an asynchronous deep_copy */
  KKR_NODE_FILL,   /* an asynchronous fill or View initialization */
  KKR_NODE_MPI,    /* a nonblocking MPI operation until its completion */
  KKR_NODE_GPU,    /* a CUDA kernel, copy, memset or free on a stream */
};

/* A node of the graph, as a report describes it. */
typedef struct {
  uint8_t type;         /* KKR_NODE_* */
  uint32_t node;        /* node id */
  uint32_t tl, clk, strand;
  uint32_t thread;      /* host: the thread; work: the submitting thread */
  int has_item;
  kkr_item item;
  const char *space;    /* "Serial" */
  uint32_t inst_index;
  int64_t idx[3];       /* the strand's indices */
  uint32_t nidx;        /* 0: team / sequence number */
  int idx_exact;
  uint8_t rank;         /* more than 3 indices: idx[1] holds the middle
                           ones (KKR_ABI_STRAND_RANK_SHIFT) */
  uint8_t others;       /* a shared read: by strands other than idx (which
                           is the current access's own strand) */
  uint8_t team;         /* a team's strand: sub and team_key are set */
  uint32_t sub;         /* 0: the team's own code; KKR_TEAM_SINGLE; else
                           a nested iteration's thread */
  int64_t sub_idx;      /* its nested iteration (-1: unknown) */
  uint8_t lane;         /* a vector lane of that iteration: */
  int64_t lane_idx;     /* its ThreadVectorRange index */
  uint8_t md_rank;      /* the nested iteration (the lane if lane) is an
                           MD range's, of these indices (the middle ones
                           folded into md[1] beyond rank 3); 0: not one */
  int64_t md[3];
  uint32_t team_key;    /* the team as the strand id has it */
  uintptr_t inst_ident; /* GPU: the stream's key (0: the legacy default) */
} kkr_node_info;

/* A deep copy's View labels: which 0 the destination's, 1 the source's
 * (NULL: not known). */
static inline const char *kkr_node_copy_label(const kkr_node_info *n,
                                              int which) {
  return n->item.copy ? n->item.copy->label[which] : NULL;
}

/* One frame of a symbolized stack (inlined frames are frames too). */
typedef struct {
  const char *function; /* demangled, or NULL */
  const char *file;     /* as printed: relative to the working directory */
  uint32_t line, column;
  uintptr_t pc;
  const char *module;   /* basename of the object file */
  uintptr_t offset;
} kkr_frame;

typedef struct {
  kkr_frame *frames;
  uint32_t n;
} kkr_sym_stack;

typedef struct {
  const char *what;     /* deadlocks: this step of the cycle, in words */
  uint8_t write, atomic, freed;
  uint8_t site_unknown; /* a kernel with more access sites than records hold */
  uint8_t meet;         /* addr and size: the stretch of device memory where
                           the two accesses first meet */
  const char *call;     /* the library call that made it for the thread
                           ("MPI_Send"), or NULL */
  uint32_t size;
  uintptr_t addr;
  uintptr_t pcs[64];
  uint32_t npcs;
  kkr_node_info node;
  kkr_sym_stack sym;    /* filled when printed */
} kkr_access_info;

typedef struct kkr_report {
  UT_hash_handle hh;
  struct kkr_report *next;    /* in order of discovery */
  uint64_t key;
  uint64_t fingerprint;       /* stable across runs and builds: see print_one */
  uint32_t seq;
  uint32_t kind;              /* KKR_REPORT_* */
  const char *subkind;
  uint64_t count;             /* elements (or occurrences) involved */
  struct kkr_elemset *elems;  /* data races: the elements counted */
  uint8_t count_more;         /* more elements than the set kept */
  uint32_t naccess;
  kkr_access_info acc[2];     /* [0]: the access that found it; [1]: earlier */
  int has_view;
  kkr_view_alloc view;
  const char *location;       /* memory that is not a View: heap, stack, global */
  const char *object;         /* the same without the offset: one per object */
  uint8_t printed, suppressed;
  uint8_t merged;             /* folded into an earlier report */
  const char *suppressed_by;
  /* Deadlocks: the operation and the dispatch that contains it. */
  const char *op_name;
  kkr_sym_stack dispatch_sym;
  /* Deadlocks of several steps (lock-order inversions, hangs): a title, a
   * line that names the cycle, and one stack per step (steps[i].what says
   * what the thread did there).  acc[] is unused for them. */
  const char *title, *detail, *explain;
  kkr_access_info *steps;
  uint32_t nsteps;
} kkr_report;

/* One step of a deadlock report: what happened, where, on which thread. */
typedef struct {
  const char *what;       /* copied */
  const uintptr_t *pcs;   /* copied; the first is a return address */
  uint32_t npcs;
  uint32_t thread;        /* thread id */
  uint8_t op;             /* KKR_STEP_* */
} kkr_step;

enum { KKR_STEP_LOCK, KKR_STEP_WAIT, KKR_STEP_FENCE, KKR_STEP_SUBMIT };
extern const char *const kkr_step_op_json[];

extern volatile int kkr_reports_pending;

/* The size of an element of the View a data race is on: its value type's,
 * as the pass told it, else as the accesses show it, the smaller of the two
 * (a vectorized access covers several elements).  0 when there is no View. */
uint32_t kkr_report_elem_size(const kkr_report *r);
/* The number of elements of esz bytes in the report's View: as the pass
 * told it, else as many as its allocation holds. */
unsigned long kkr_report_view_elems(const kkr_report *r, uint32_t esz);

/* A conflicting pair: the current access (granule, mask, flags at pc with
 * the entry's frame fp; rec_pc is the pc it is recorded under, the program's
 * call site for accesses inside Kokkos atomics) and the record of the
 * earlier access. */
void kkr_report_race(kkr_thread *t, uintptr_t word, uint32_t mask,
                     uint32_t flags, uintptr_t pc, uintptr_t rec_pc,
                     uintptr_t fp, uint64_t prev);
/* A fence (or another fencing call, or a dispatch: subkind says which)
 * inside a strand. */
void kkr_report_fence_in_kernel(kkr_thread *t, kkr_op *op, uintptr_t pc,
                                uintptr_t fp, const char *subkind);
/* A branch on team_rank() (at pc, frame fp) before which the team's
 * threads part ways to the collective 'name' at 'where' (divergent-barrier). */
void kkr_report_divergent_branch(kkr_thread *t, uintptr_t pc, uintptr_t fp,
                                 const char *name, const char *where);
/* A deadlock of several steps; key identifies it (reported once).  Strings
 * are copied.  May be called from a thread kkrace does not follow (the
 * watchdog). */
void kkr_report_deadlock(const char *subkind, const char *title,
                         const char *detail, const char *explain,
                         uint64_t key, const kkr_step *steps, uint32_t n);

void kkr_report_init(void);
void kkr_report_flush(void);
void kkr_report_finish(void);
/* Reports printed and not suppressed. */
uint64_t kkr_reports_total(void);
/* In a forked child: its exit status reflects its own reports only. */
void kkr_report_forget_counts(void);

/* Descriptions shared by the output formats. */
void kkr_describe_node(kkr_str *s, const kkr_node_info *n, int with_where);
const char *kkr_work_kind(const kkr_node_info *n);
/* A node id as a graph picture names it. */
void kkr_describe_node_id(kkr_str *s, uint32_t node);
const char *kkr_node_type_json(const kkr_node_info *n);
/* "(i, j, ...)": the indices of an iteration of rank indices (the middle
 * ones folded into idx[1] beyond rank 3). */
void kkr_describe_indices(kkr_str *s, uint32_t rank, const int64_t idx[3]);
void kkr_describe_strand(kkr_str *s, const kkr_node_info *n);
void kkr_describe_stream(kkr_str *s, const kkr_node_info *n);
void kkr_report_summary(kkr_str *s, const kkr_report *r);
/* The first frame of a stack worth naming (the program's, not Kokkos'). */
const kkr_frame *kkr_report_top_frame(const kkr_sym_stack *st);
/* Leaves out the frames of kkrace's own libraries. */
void kkr_stack_drop_kkrace(kkr_sym_stack *st);
/* Frames below main are the C library's: leave them out. */
void kkr_stack_cut_after_main(kkr_sym_stack *st);
/* "main::$_1::operator()" for "main::$_1::operator()(int) const". */
void kkr_function_short(kkr_str *s, const char *function);

/* Output formats. */
void kkr_print_text(const kkr_report *r, kkr_str *out);
void kkr_print_json(const kkr_report *r, kkr_str *out);
void kkr_sarif_write(const char *path, kkr_report *const *reports,
                     uint32_t n);

/* Suppressions (kkr_suppress.c). */
void kkr_suppressions_init(const char *path);
/* The matching rule ("race:foo") or NULL. */
const char *kkr_suppressed(const kkr_report *r);
void kkr_suppressions_summary(int fd);

/* Symbolization (kkr_symbolize.c). */
void kkr_symbolize(const uintptr_t *pcs, uint32_t n, int first_is_exact,
                   kkr_sym_stack *out);
/* A global variable's name for addr (NULL if none); *start its address. */
const char *kkr_symbolize_data(uintptr_t addr, uintptr_t *start);
void kkr_symbolizer_close(void);
/* Another thread is printing reports or finishing them (the hang
 * watchdog, say). */
int kkr_report_busy(void);
/* A hash of the text of line `line` of source file `file` (as a frame
 * names it), white space left out; 0 if the file cannot be read. */
uint64_t kkr_source_line_hash(const char *file, uint32_t line);

#endif /* KKR_REPORT_H */
