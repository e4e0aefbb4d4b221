/* The text report, modeled on ThreadSanitizer's so that people and tools that
 * read those read these (REPORTS.md). */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "kkr_report.h"

static void print_frames(kkr_str *s, const kkr_sym_stack *st) {
  uint32_t max = (uint32_t)kkr_flags.max_stack_frames;
  if (st->n == 0) {
    kkr_str_printf(s, "    <no stack>\n");
    return;
  }
  for (uint32_t i = 0; i < st->n && i < max; i++) {
    const kkr_frame *f = &st->frames[i];
    kkr_str_printf(s, "    #%u %s", i, f->function ? f->function : "<unknown>");
    if (f->file) {
      kkr_str_printf(s, " %s:%u", f->file, f->line);
      if (f->column)
        kkr_str_printf(s, ":%u", f->column);
    } else if (f->module) {
      kkr_str_printf(s, " (%s+0x%lx)", f->module, (unsigned long)f->offset);
    }
    kkr_str_putc(s, '\n');
  }
}

static const char *verb(const kkr_access_info *a, int first) {
  if (a->freed)
    return first ? "Free" : "previous free";
  if (a->atomic)
    return a->write ? (first ? "Atomic write" : "Previous atomic write")
                    : (first ? "Atomic read" : "Previous atomic read");
  return a->write ? (first ? "Write" : "Previous write")
                  : (first ? "Read" : "Previous read");
}

/* ", launched by main thread at": the host thread that submitted GPU
 * work n. */
static void print_host_caller(kkr_str *s, const kkr_node_info *n,
                              const char *verb) {
  kkr_str_printf(s, ", %s by ", verb);
  kkr_str_printf(s, n->thread ? "thread T%u" : "main thread", n->thread);
  kkr_str_printf(s, " at");
}

static void print_access(kkr_str *s, const kkr_report *r, int i) {
  const kkr_access_info *a = &r->acc[i];
  if (a->freed) {
    kkr_str_printf(s, "  Free of %u bytes at %p", a->size, (void *)a->addr);
    if (r->has_view)
      kkr_str_printf(s, " (all of '%s')", r->view.label);
    kkr_str_printf(s, " by ");
    /* (cudaFreeAsync: its stream, and who called it.) */
    kkr_describe_node(s, &a->node, a->node.type == KKR_NODE_GPU);
    if (a->node.type == KKR_NODE_GPU)
      print_host_caller(s, &a->node, "called");
    kkr_str_printf(s, ":\n");
    print_frames(s, &a->sym);
    return;
  }
  if (a->node.type == KKR_NODE_GPU) {
    /* Device code: which allocation, and where in it the two accesses
     * first meet (the first access's line); where it was launched. */
    kkr_str_printf(s, "  %s of %s", verb(a, i == 0),
                   r->has_view ? r->view.label : "memory");
    if (i == 0 && a->meet && r->has_view && a->size &&
        a->addr >= r->view.lo && a->addr < r->view.hi) {
      unsigned long off = (unsigned long)(a->addr - r->view.lo);
      unsigned long end = off + a->size;
      if (end > (unsigned long)(r->view.hi - r->view.lo))
        end = (unsigned long)(r->view.hi - r->view.lo);
      if (end - off == 1)
        kkr_str_printf(s, " (byte %lu of %lu)", off,
                       (unsigned long)(r->view.hi - r->view.lo));
      else
        kkr_str_printf(s, " (bytes %lu to %lu of %lu)", off, end - 1,
                       (unsigned long)(r->view.hi - r->view.lo));
    }
    kkr_str_printf(s, " by ");
    kkr_describe_node(s, &a->node, 1);
    if (a->node.item.gpu_conservative && a->write)
      kkr_str_printf(s, " (a conservative footprint: kkrace could not tell "
                        "that the kernel only reads it)");
    print_host_caller(s, &a->node,
                      a->node.item.kind == KKR_OP_GPU_KERNEL ||
                              a->node.item.kind == KKR_OP_GPU_HOST_FUNC
                          ? "launched"
                          : "called");
    kkr_str_printf(s, ":\n");
    print_frames(s, &a->sym);
    return;
  }
  kkr_str_printf(s, "  %s of size %u at %p", verb(a, i == 0), a->size,
                 (void *)a->addr);
  uint32_t esz = kkr_report_elem_size(r);
  if (esz && a->size) {
    unsigned long el = (unsigned long)((a->addr - r->view.lo) / esz);
    unsigned long nel = kkr_report_view_elems(r, esz);
    unsigned long k = a->size / esz; /* (a vectorized access: k of them) */
    if (nel && el < nel && el + k > nel)
      k = nel - el; /* (a range access running past the View's end) */
    if (k > 1)
      kkr_str_printf(s, " (%s[%lu..%lu], elements %lu to %lu of %lu)",
                     r->view.label, el, el + k - 1, el, el + k - 1, nel);
    else
      kkr_str_printf(s, " (%s[%lu], element %lu of %lu)", r->view.label, el,
                     el, nel);
  }
  kkr_str_printf(s, " by ");
  if (a->call && a->node.type == KKR_NODE_HOST)
    kkr_str_printf(s, "%s, called by ", a->call);
  kkr_describe_node(s, &a->node, 0);
  kkr_str_printf(s, ":\n");
  if (a->site_unknown && a->sym.n == 0)
    kkr_str_printf(s, "    <one of this kernel's accesses: it has more "
                      "access sites than kkrace records exactly>\n");
  else if (a->sym.n || a->node.type != KKR_NODE_MPI) /* MPI: "started at" */
    print_frames(s, &a->sym);
}

static void describe_submitter(kkr_str *s, const kkr_node_info *n) {
  if (n->type == KKR_NODE_MPI)
    kkr_str_printf(s, " by ");
  else
    kkr_str_printf(s, " on %s instance %u by ", n->space ? n->space : "?",
                   n->inst_index);
  if (n->thread == 0)
    kkr_str_printf(s, "main thread");
  else
    kkr_str_printf(s, "thread T%u", n->thread);
}

/* "'shift' was dispatched on Serial instance 0 by main thread at:" */
static void print_dispatch(kkr_str *s, const kkr_node_info *n) {
  if (!n->has_item || n->type == KKR_NODE_GPU) /* GPU: the access's stack */
    return;
  kkr_str_printf(s, "  ");
  switch (n->type) {
  case KKR_NODE_COPY:
  case KKR_NODE_FILL:
    kkr_describe_node(s, n, 0);
    kkr_str_printf(s, " was submitted");
    break;
  case KKR_NODE_MPI:
    kkr_describe_node(s, n, 0);
    kkr_str_printf(s, " was started");
    break;
  default:
    kkr_str_printf(s, "%s '%s' was dispatched", kkr_work_kind(n),
                   n->item.label && *n->item.label ? n->item.label
                                                   : "(unnamed)");
  }
  describe_submitter(s, n);
  kkr_str_printf(s, " at:\n");
  uint32_t np = 0;
  const uintptr_t *pcs = kkr_stack_get(n->item.stack, &np);
  kkr_sym_stack st = {0};
  if (pcs)
    kkr_symbolize(pcs, np, 0, &st);
  kkr_stack_drop_kkrace(&st);
  kkr_stack_cut_after_main(&st);
  print_frames(s, &st);
  kkr_free(st.frames, (st.n ? st.n : 1) * sizeof(kkr_frame));
}

static void print_explanation(kkr_str *s, const kkr_report *r) {
  const kkr_node_info *a = &r->acc[0].node, *b = &r->acc[1].node;
  const kkr_node_info *work = a->type != KKR_NODE_HOST ? a : b;
  if (!strcmp(r->subkind, "iteration-overlap")) {
    kkr_str_printf(s,
                   "  Nothing orders two %s of one %s: they may run in any "
                   "order, or at the same time.\n",
                   a->nidx == 0 ? "teams" : "iterations", kkr_work_kind(a));
  } else if (!strcmp(r->subkind, "team-threads") && a->lane && b->lane &&
             a->sub == b->sub && a->sub_idx == b->sub_idx) {
    kkr_str_printf(s,
                   "  Two vector lanes of one thread (ThreadVectorRange "
                   "iterations) access the same memory: the lanes of one loop "
                   "run at the same time (a vector reduction or an atomic is "
                   "the fix).\n");
  } else if (!strcmp(r->subkind, "team-threads") && a->team && b->team &&
             a->sub == 0 && b->sub == 0 && !a->lane && !b->lane) {
    kkr_str_printf(s,
                   "  Every thread of a team runs the team's own code (outside "
                   "its nested loops), each making this write, where Serial "
                   "runs one thread per team: write from one thread only "
                   "(Kokkos::single(Kokkos::PerTeam(team), ...), or under "
                   "if (team.team_rank() == 0)), or from the iterations of a "
                   "nested loop.\n");
  } else if (!strcmp(r->subkind, "team-threads")) {
    kkr_str_printf(s,
                   "  Two threads of one team access the same memory and "
                   "nothing orders them: no team_barrier between them (two "
                   "iterations of one nested loop are never ordered: a "
                   "nested reduction or an atomic is the fix there).\n");
  } else if (!strcmp(r->subkind, "submission-order")) {
    kkr_str_printf(s,
                   "  Both run on %s instance %u, but two host threads "
                   "submitted them without synchronizing: the instance runs "
                   "them in an order that nothing in the program fixes.\n",
                   a->space, a->inst_index);
  } else if (!strcmp(r->subkind, "use-after-free")) {
    if (a->type == KKR_NODE_GPU || b->type == KKR_NODE_GPU)
      kkr_str_printf(s, "  The memory was freed while GPU work that uses it "
                        "may still be running: no synchronization of the "
                        "host, and no event that the freeing stream waits "
                        "on (cudaEventRecord, cudaStreamWaitEvent), orders "
                        "that work before the free.\n");
    else
      kkr_str_printf(s, "  The memory was freed while work that uses it may "
                        "still be running: no fence orders that work before "
                        "the free.\n");
  } else if (!strcmp(r->subkind, "mpi-pending")) {
    kkr_str_printf(s, "  The MPI request is still pending: MPI may read or "
                      "write its buffer until MPI_Wait (or a successful "
                      "MPI_Test) completes it, and nothing orders the other "
                      "access with that completion.\n");
  } else if (!strcmp(r->subkind, "unordered-streams")) {
    kkr_str_printf(s, "  The two run on streams that nothing orders: no "
                      "event recorded after the first and waited on before "
                      "the second (cudaEventRecord, cudaStreamWaitEvent), no "
                      "synchronization of the host between them.\n");
    if ((a->inst_ident == 0 && kkr_gpu_stream_nonblocking(b->inst_ident)) ||
        (b->inst_ident == 0 && kkr_gpu_stream_nonblocking(a->inst_ident)))
      kkr_str_printf(s, "  The legacy default stream does not wait for a "
                        "stream created with cudaStreamNonBlocking, nor "
                        "that stream for it.\n");
  } else if (!strcmp(r->subkind, "missing-sync")) {
    kkr_str_printf(s, "  The host did not wait for the GPU work: no "
                      "cudaStreamSynchronize, cudaEventSynchronize, "
                      "cudaDeviceSynchronize or synchronous call orders it "
                      "with the host's access.\n");
  } else if (!strcmp(r->subkind, "host-threads")) {
    kkr_str_printf(s, "  No synchronization orders these two threads' "
                      "accesses.\n");
  } else if (a->type == KKR_NODE_HOST || b->type == KKR_NODE_HOST) {
    kkr_str_printf(s,
                   "  No fence orders the work on %s instance %u with the "
                   "host thread's access: the work may still be running.\n",
                   work->space, work->inst_index);
  } else {
    kkr_str_printf(s, "  No fence, barrier or other synchronization orders "
                      "these two accesses.\n");
  }
}

static void print_summary_line(kkr_str *s, const kkr_report *r) {
  kkr_str_printf(s, "SUMMARY: kkrace: %s", kkr_report_kind_text[r->kind]);
  if (r->kind == KKR_REPORT_DATA_RACE) {
    if (r->has_view)
      kkr_str_printf(s, " on View '%s'", r->view.label);
    else if (r->location)
      kkr_str_printf(s, " on %s", r->location);
  } else {
    kkr_str_printf(s, " (%s)", r->subkind);
  }
  const kkr_frame *f = kkr_report_top_frame(r->nsteps ? &r->steps[0].sym
                                                     : &r->acc[0].sym);
  if (f && f->file)
    kkr_str_printf(s, " %s:%u:%u", f->file, f->line, f->column);
  if (f && f->function) {
    kkr_str_printf(s, " in ");
    kkr_function_short(s, f->function);
  }
  kkr_str_putc(s, '\n');
}

/* " (pid=1234)", or " (pid=1234, rank=0)" in an MPI job, and the end of
 * the line. */
static void print_pid(kkr_str *s) {
  if (kkr_rank >= 0)
    kkr_str_printf(s, " (pid=%d, rank=%d)\n", (int)getpid(), kkr_rank);
  else
    kkr_str_printf(s, " (pid=%d)\n", (int)getpid());
}

/* Where the threads the report names (other than the main one) were
 * created, as ThreadSanitizer says it. */
static void print_threads(kkr_str *s, const kkr_report *r) {
  uint32_t ids[2] = {r->naccess > 0 ? r->acc[0].node.thread : 0,
                     r->naccess > 1 ? r->acc[1].node.thread : 0};
  if (ids[0] > ids[1]) { /* (in order, each once) */
    uint32_t x = ids[0];
    ids[0] = ids[1];
    ids[1] = x;
  }
  for (uint32_t i = 0; i < 2; i++) {
    uint32_t id = ids[i];
    if (!id || (i && id == ids[0]))
      continue;
    uint32_t creator, n = 0;
    uint32_t stack = kkr_thread_created(id, &creator);
    const uintptr_t *pcs = stack ? kkr_stack_get(stack, &n) : NULL;
    if (!pcs || !n)
      continue;
    kkr_sym_stack st = {0};
    kkr_symbolize(pcs, n, 0, &st);
    kkr_stack_drop_kkrace(&st);
    /* From the program's first frame (std::thread's own, in the C++
     * library, say less) to main. */
    uint32_t top = 0;
    while (top < st.n && !st.frames[top].file)
      top++;
    if (top == st.n)
      top = 0;
    uint32_t end = top;
    while (end < st.n && !(st.frames[end].function &&
                           !strcmp(st.frames[end].function, "main")))
      end++;
    kkr_sym_stack shown = {st.frames + top, (end < st.n ? end + 1 : st.n) - top};
    if (creator)
      kkr_str_printf(s, "  Thread T%u was created by thread T%u at:\n", id,
                     creator);
    else
      kkr_str_printf(s, "  Thread T%u was created by main thread at:\n", id);
    print_frames(s, &shown);
    kkr_free(st.frames, (st.n ? st.n : 1) * sizeof(kkr_frame));
  }
}

/* A deadlock of several steps: the cycle, then each step with its stack. */
static void print_steps(const kkr_report *r, kkr_str *s) {
  kkr_str_printf(s, "WARNING: kkrace: %s", r->title);
  print_pid(s);
  if (r->detail)
    kkr_str_printf(s, "  %s\n", r->detail);
  for (uint32_t i = 0; i < r->nsteps; i++) {
    const kkr_access_info *a = &r->steps[i];
    kkr_str_printf(s, "  %s%s\n", a->what, a->sym.n ? ":" : ".");
    if (a->sym.n)
      print_frames(s, &a->sym);
  }
  if (r->explain)
    kkr_str_printf(s, "  %s\n", r->explain);
  print_summary_line(s, r);
  kkr_str_printf(s, "==================\n");
}

void kkr_print_text(const kkr_report *r, kkr_str *s) {
  kkr_str_printf(s, "==================\n");
  if (r->title) {
    print_steps(r, s);
    return;
  }
  if (r->kind == KKR_REPORT_DEADLOCK) {
    const kkr_node_info *n = &r->acc[0].node;
    int divergent = !strcmp(r->subkind, "divergent-barrier");
    if (divergent)
      kkr_str_printf(s, "WARNING: kkrace: deadlock: %s that not every thread "
                        "of the team reaches",
                     r->op_name);
    else
      kkr_str_printf(s, "WARNING: kkrace: deadlock: %s called inside a kernel",
                     r->op_name);
    print_pid(s);
    /* (A branch on team_rank() before the collective: detail says where
     * the collective is.) */
    kkr_str_printf(s, "  %s by ", r->detail ? "branch on team_rank()" : r->op_name);
    kkr_describe_node(s, n, 1);
    kkr_str_printf(s, ":\n");
    print_frames(s, &r->acc[0].sym);
    print_dispatch(s, n);
    if (divergent && r->detail)
      kkr_str_printf(s,
                     "  The branch depends on the thread's team_rank(): the "
                     "team's threads go different ways to the %s at %s, "
                     "some of them not at all or a different number of "
                     "times.  On a backend that runs a team with several "
                     "threads (OpenMP, Threads, CUDA), the others wait there "
                     "forever.  Serial runs teams of one thread, where it "
                     "returns at once.\n",
                     r->op_name, r->detail);
    else if (divergent)
      kkr_str_printf(s,
                     "  The call is inside a nested TeamThreadRange, "
                     "ThreadVectorRange or single: on a backend that runs a "
                     "team with several threads (OpenMP, Threads, CUDA), only "
                     "some of them reach it, or they reach it a different "
                     "number of times, and the others wait there forever.  "
                     "Serial runs teams of one thread, where it returns at "
                     "once.\n");
    else if (!strcmp(r->subkind, "dispatch-in-kernel"))
      kkr_str_printf(s,
                     "  Kokkos forbids dispatches of a top-level policy "
                     "inside parallel regions: a backend that locks the "
                     "instance during a kernel (the host backends of Kokkos "
                     "4.4 and later) waits here forever.\n");
    else
      kkr_str_printf(s,
                     "  Kokkos forbids fences inside parallel regions: a "
                     "backend that locks the instance during a kernel (the "
                     "host backends of Kokkos 4.4 and later) waits here "
                     "forever.\n");
    print_summary_line(s, r);
    kkr_str_printf(s, "==================\n");
    return;
  }
  kkr_str_printf(s, "WARNING: kkrace: data race on ");
  if (r->has_view)
    kkr_str_printf(s, "View '%s'", r->view.label);
  else
    kkr_str_printf(s, "%s", r->location ? r->location : "memory");
  print_pid(s);
  print_access(s, r, 0);
  print_access(s, r, 1);
  const kkr_node_info *a = &r->acc[0].node, *b = &r->acc[1].node;
  if (a->type != KKR_NODE_HOST)
    print_dispatch(s, a);
  if (b->type != KKR_NODE_HOST && b->node != a->node)
    print_dispatch(s, b);
  print_explanation(s, r);
  print_threads(s, r);
  /* (Device memory is shadowed in segments, not elements: the bytes where
   * the two meet are in the first access's line.) */
  if (r->count > 1 && !r->acc[0].meet)
    kkr_str_printf(s,
                   "  This pair of code locations raced on %llu%s elements "
                   "(reported once).\n",
                   (unsigned long long)r->count,
                   r->count_more ? " or more" : "");
  print_summary_line(s, r);
  kkr_str_printf(s, "==================\n");
}
