/* GPU work through the runtime's __kkrace_gpu_* entry points, as the CUPTI
 * module calls them: device memory's shadow, one cell per segment of an
 * allocation, cut where the work items' accesses begin and end. */
#include <criterion/criterion.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/redirect.h>

#include "kkr_abi.h"
#include "kkr_report.h"
#include "kkr_rt.h"

KKR_GPU_ENTRIES(KKR_GPU_DECLARE)

/* Addresses as CUDA hands them out; nothing is stored there. */
#define DEV ((char *)0x7f1200000000)
#define DEV2 ((char *)0x7f1300000000)

static uint64_t reports(void) {
  kkr_report_flush();
  return kkr_reports_total();
}

/* What was printed so far (the test redirects stderr). */
static void reported_text(char *text, size_t cap) {
  fflush(stderr);
  size_t n = fread(text, 1, cap - 1, cr_get_redirected_stderr());
  text[n] = 0;
}

static void streams(unsigned n) {
  for (unsigned s = 1; s <= n; s++)
    __kkrace_gpu_stream(s * 16, KKR_GPU_STREAM_NONBLOCKING);
}

/* A work item of kind on stream s that accesses [p, p + size). */
static void work(unsigned kind, unsigned s, void *p, unsigned long long size,
                 unsigned flags) {
  unsigned tok = __kkrace_gpu_work_begin(kind, s * 16, "k");
  __kkrace_gpu_access(p, size, flags);
  __kkrace_gpu_work_end(tok, 0);
}

static void kernel(unsigned s, void *p, unsigned long long size,
                   unsigned flags) {
  work(KKR_GPU_KERNEL, s, p, size, flags);
}

/* Three chunks of 1000 floats, one stream each: copy in, kernel, copy
 * out.  Their boundaries fall anywhere: each chunk meets only itself. */
Test(gpu, chunks_of_any_size_are_apart) {
  const unsigned long long chunk = 1000 * sizeof(float);
  __kkrace_gpu_alloc(DEV, 3 * chunk, KKR_GPU_MEM_DEVICE);
  streams(3);
  for (unsigned k = 0; k < 3; k++) {
    work(KKR_GPU_MEMCPY, k + 1, DEV + k * chunk, chunk, KKR_GPU_ACC_WRITE);
    kernel(k + 1, DEV + k * chunk, chunk,
           KKR_GPU_ACC_READ | KKR_GPU_ACC_WRITE);
    work(KKR_GPU_MEMCPY, k + 1, DEV + k * chunk, chunk, KKR_GPU_ACC_READ);
  }
  __kkrace_gpu_device_sync();
  cr_assert_eq(reports(), 0);
}

/* One float of overlap is a race, and the report says where. */
Test(gpu, one_element_of_overlap_races, .init = cr_redirect_stderr) {
  const unsigned long long chunk = 1000 * sizeof(float);
  __kkrace_gpu_alloc(DEV, 3 * chunk, KKR_GPU_MEM_DEVICE);
  streams(3);
  for (unsigned k = 0; k < 3; k++)
    work(KKR_GPU_MEMCPY, k + 1, DEV + k * chunk, chunk, KKR_GPU_ACC_WRITE);
  kernel(1, DEV, chunk + sizeof(float), KKR_GPU_ACC_READ);
  cr_assert_eq(reports(), 1);
  char text[4096];
  reported_text(text, sizeof text);
  cr_expect(strstr(text, "Read of cudaMalloc#1 (bytes 4000 to 4003 of 12000) by "
                         "kernel 'k'"),
            "%s", text);
}

/* Rounds of chunks whose boundaries move: more boundaries than an
 * allocation has segments, but segments that hold the same records (one
 * kernel's, or the last round's once it is ordered) merge and make room. */
Test(gpu, segments_merge_when_full) {
  const unsigned n = 700, chunk = 40;
  __kkrace_gpu_alloc(DEV, (unsigned long long)n * chunk, KKR_GPU_MEM_DEVICE);
  streams(2);
  for (unsigned round = 0; round < 3; round++) {
    /* (Chunks shifted by 8 bytes each round: new boundaries.) */
    unsigned shift = 8 * round;
    for (unsigned k = 0; k + 1 < n; k++)
      kernel(1 + (k & 1), DEV + shift + k * chunk, chunk, KKR_GPU_ACC_WRITE);
    __kkrace_gpu_device_sync();
    kernel(1, DEV, (unsigned long long)n * chunk, KKR_GPU_ACC_WRITE);
    __kkrace_gpu_device_sync();
  }
  cr_assert_eq(reports(), 0);
}

/* Cutting a segment that unordered kernels read keeps both readers on
 * each side. */
Test(gpu, cut_keeps_the_readers) {
  __kkrace_gpu_alloc(DEV, 4096, KKR_GPU_MEM_DEVICE);
  streams(3);
  kernel(1, DEV, 4096, KKR_GPU_ACC_READ);
  kernel(2, DEV, 4096, KKR_GPU_ACC_READ);
  cr_assert_eq(reports(), 0);
  /* Stream 3 writes the second half: it meets both readers there. */
  kernel(3, DEV + 2048, 2048, KKR_GPU_ACC_WRITE);
  uint64_t second_half = reports();
  cr_assert_gt(second_half, 0);
  __kkrace_gpu_device_sync();
  /* Ordered after all of them now: no more reports, on either half. */
  kernel(3, DEV, 4096, KKR_GPU_ACC_WRITE);
  cr_assert_eq(reports(), second_half);
}

/* Reports number the program's streams from 1 in order of first use (the
 * legacy default stream is "the default stream" and takes no number), and
 * a cudaFreeAsync names its stream and its caller. */
Test(gpu, reports_name_streams_from_one, .init = cr_redirect_stderr) {
  __kkrace_gpu_alloc(DEV, 4096, KKR_GPU_MEM_DEVICE);
  streams(2);
  kernel(0, DEV, 4096, KKR_GPU_ACC_READ); /* (the legacy stream) */
  __kkrace_gpu_device_sync();
  kernel(1, DEV, 4096, KKR_GPU_ACC_WRITE);
  __kkrace_gpu_free(DEV, 2 * 16, KKR_GPU_ASYNC);
  cr_assert_eq(reports(), 1);
  char text[4096];
  reported_text(text, sizeof text);
  cr_expect(strstr(text, "by cudaFreeAsync on stream 2, called by main "
                         "thread at:"),
            "%s", text);
  cr_expect(strstr(text, "by kernel 'k' on stream 1, launched by"), "%s",
            text);
  cr_expect(strstr(text, "no event that the freeing stream waits on"), "%s",
            text);
}

/* The legacy default stream and a non-blocking stream: the report says
 * that the one does not wait for the other. */
Test(gpu, legacy_and_nonblocking_explained, .init = cr_redirect_stderr) {
  __kkrace_gpu_alloc(DEV, 4096, KKR_GPU_MEM_DEVICE);
  streams(1);
  kernel(1, DEV, 4096, KKR_GPU_ACC_WRITE);
  kernel(0, DEV, 4096, KKR_GPU_ACC_READ);
  cr_assert_eq(reports(), 1);
  char text[4096];
  reported_text(text, sizeof text);
  cr_expect(strstr(text, "The legacy default stream does not wait for a "
                         "stream created with cudaStreamNonBlocking"),
            "%s", text);
}

/* A free while a kernel on another stream still uses a chunk races; a
 * free after the device synchronized does not; and the memory that the
 * next allocation gets starts clean. */
Test(gpu, free_meets_the_chunks) {
  __kkrace_gpu_alloc(DEV, 3000, KKR_GPU_MEM_DEVICE);
  streams(2);
  kernel(1, DEV + 1000, 1000, KKR_GPU_ACC_WRITE);
  __kkrace_gpu_device_sync();
  __kkrace_gpu_free(DEV, 0, KKR_GPU_WAIT);
  cr_assert_eq(reports(), 0);
  __kkrace_gpu_alloc(DEV, 3000, KKR_GPU_MEM_DEVICE);
  kernel(1, DEV + 1000, 1000, KKR_GPU_ACC_WRITE);
  __kkrace_gpu_free(DEV, 2 * 16, KKR_GPU_ASYNC);
  cr_assert_eq(reports(), 1);
  /* A new allocation in the same slot: nothing from before. */
  __kkrace_gpu_alloc(DEV2, 3000, KKR_GPU_MEM_DEVICE);
  kernel(2, DEV2, 3000, KKR_GPU_ACC_WRITE);
  cr_assert_eq(reports(), 1);
}

/* Work captured into a graph runs when the graph is launched: the host
 * may fill a copy's source after the capture, not after the launch until
 * it waits for the stream. */
Test(gpu, captured_work_runs_at_launch) {
  double *h = calloc(64, sizeof *h);
  __kkrace_gpu_alloc(h, 64 * sizeof *h, KKR_GPU_MEM_PINNED);
  __kkrace_gpu_alloc(DEV, 64 * sizeof *h, KKR_GPU_MEM_DEVICE);
  streams(1);
  __kkrace_gpu_capture_begin(16);
  work(KKR_GPU_MEMCPY, 1, DEV, 64 * sizeof *h, KKR_GPU_ACC_WRITE);
  unsigned tok = __kkrace_gpu_work_begin(KKR_GPU_MEMCPY, 16, "copy");
  __kkrace_gpu_access(h, 64 * sizeof *h, KKR_GPU_ACC_READ);
  __kkrace_gpu_work_end(tok, 0);
  __kkrace_gpu_capture_end(16, 0x1000);
  __kkrace_gpu_graph_exec(0x2000, 0x1000);
  __kkrace_write8(&h[3], NULL); /* (the capture ran nothing) */
  cr_assert_eq(reports(), 0);
  __kkrace_gpu_graph_launch(0x2000, 16);
  __kkrace_gpu_stream_sync(16);
  __kkrace_write8(&h[4], NULL); /* (after the stream's work) */
  cr_assert_eq(reports(), 0);
  __kkrace_gpu_graph_launch(0x2000, 16);
  __kkrace_write8(&h[5], NULL); /* the launched copy may still read it */
  cr_assert_eq(reports(), 1);
}

/* The same copy submitted to the stream itself runs when submitted. */
Test(gpu, uncaptured_work_runs_at_once) {
  double *h = calloc(64, sizeof *h);
  __kkrace_gpu_alloc(h, 64 * sizeof *h, KKR_GPU_MEM_PINNED);
  streams(1);
  unsigned tok = __kkrace_gpu_work_begin(KKR_GPU_MEMCPY, 16, "copy");
  __kkrace_gpu_access(h, 64 * sizeof *h, KKR_GPU_ACC_READ);
  __kkrace_gpu_work_end(tok, 0);
  __kkrace_write8(&h[3], NULL);
  cr_assert_eq(reports(), 1);
}

/* A graph kkrace did not see captured runs unseen, and kkrace says so. */
Test(gpu, graph_not_captured_is_named, .init = cr_redirect_stderr) {
  streams(1);
  __kkrace_gpu_graph_launch(0x3000, 16);
  __kkrace_gpu_graph_launch(0x3000, 16);
  cr_assert_eq(reports(), 0);
  char text[4096];
  reported_text(text, sizeof text);
  const char *w = strstr(text, "was not captured from streams");
  cr_expect(w, "%s", text);
  cr_expect(!w || !strstr(w + 1, "was not captured from streams"),
            "said once: %s", text);
}

/* A kernel launch as the CUPTI module makes it: its inputs (key) first,
 * and the footprint only when they repeat no recent launch's.  Returns 1
 * when the inputs alone made it a repeat.  (The module calls both entry
 * points from its own code, whose frames a launch's stack leaves out: the
 * same stack for both.  Here one call instruction stands for that.) */
typedef unsigned long (*entry4)(unsigned long, unsigned long, unsigned long,
                                unsigned long);
static __attribute__((noinline)) int launch_keyed(unsigned s, const char *key,
                                                  void *p,
                                                  unsigned long long size,
                                                  unsigned flags) {
  const entry4 fn[2] = {(entry4)__kkrace_gpu_launch_repeat,
                        (entry4)__kkrace_gpu_work_begin};
  const unsigned long arg[2][4] = {
      {s * 16, (uintptr_t) "k", (uintptr_t)key, strlen(key)},
      {KKR_GPU_KERNEL, s * 16, (uintptr_t) "k", 0}};
  unsigned long r = 0;
#ifdef __clang__
#pragma clang loop unroll(disable)
#endif
  for (volatile int i = 0; i < 2; i++) {
    r = fn[i](arg[i][0], arg[i][1], arg[i][2], arg[i][3]);
    if (i == 0 && (int)r)
      return 1;
  }
  __kkrace_gpu_access(p, size, flags);
  __kkrace_gpu_work_end((unsigned)r, 0);
  return 0;
}

/* The same inputs from the same place on the same stream, nothing
 * between: a repeat, known from the inputs; any GPU event, another stream
 * or other inputs: the footprint is computed again. */
Test(gpu, repeated_inputs_are_repeats) {
  const unsigned long long n = 4096;
  __kkrace_gpu_alloc(DEV, n, KKR_GPU_MEM_DEVICE);
  streams(2);
  const unsigned rw = KKR_GPU_ACC_READ | KKR_GPU_ACC_WRITE;
  int fast[8];
  /* (One call site: an unrolled loop would make eight.) */
#ifdef __clang__
#pragma clang loop unroll(disable)
#endif
  for (int i = 0; i < 8; i++) {
    /* (Inputs "a" and "b" in turn from one call site, "c" once.) */
    const char *key = i == 5 ? "c" : i % 2 ? "b" : "a";
    if (i == 6)
      __kkrace_gpu_alloc(DEV2, n, KKR_GPU_MEM_DEVICE); /* an event */
    fast[i] = launch_keyed(1, key, DEV, i % 2 ? n / 2 : n, rw);
  }
  /* a, b: new; a, b: repeats by their inputs; a again; c: same footprint
   * as a, but its inputs are new; a after the allocation: new; b: new. */
  int want[8] = {0, 0, 1, 1, 1, 0, 0, 0};
  for (int i = 0; i < 8; i++)
    cr_expect_eq(fast[i], want[i], "launch %d", i);
  cr_expect_eq(launch_keyed(2, "a", DEV, n, rw), 0, "another stream");
  cr_assert_eq(reports(), 1, "stream 2's launch races with stream 1's");
}

/* Launches merged by their inputs stand in the graph as the launch they
 * repeat; one after the host waited for the stream is no repeat of those
 * before: work ordered after the wait races with it. */
Test(gpu, repeats_by_inputs_end_at_a_wait) {
  const unsigned long long n = 4096;
  __kkrace_gpu_alloc(DEV, n, KKR_GPU_MEM_DEVICE);
  streams(2);
  const unsigned rw = KKR_GPU_ACC_READ | KKR_GPU_ACC_WRITE;
  for (volatile int r = 0; r < 2; r++) { /* (one place for both rounds) */
    for (int i = 0; i < 100; i++)
      launch_keyed(1, "a", DEV, n, rw);
    if (r == 0)
      __kkrace_gpu_stream_sync(16);
  }
  kernel(2, DEV + 8, 8, KKR_GPU_ACC_READ);
  cr_assert_eq(reports(), 1);
}

/* Its twin: the host waits for the second round too. */
Test(gpu, repeats_by_inputs_waited_for) {
  const unsigned long long n = 4096;
  __kkrace_gpu_alloc(DEV, n, KKR_GPU_MEM_DEVICE);
  streams(2);
  const unsigned rw = KKR_GPU_ACC_READ | KKR_GPU_ACC_WRITE;
  for (volatile int r = 0; r < 2; r++) {
    for (int i = 0; i < 100; i++)
      launch_keyed(1, "a", DEV, n, rw);
    __kkrace_gpu_stream_sync(16);
  }
  kernel(2, DEV + 8, 8, KKR_GPU_ACC_READ);
  cr_assert_eq(reports(), 0);
}
