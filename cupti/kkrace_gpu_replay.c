/* kkrace-gpu-replay: feeds a recorded GPU event trace (KKRACE_OPTIONS
 * gpu_trace=PATH) back into the runtime, which builds the same graph and
 * reports the same races, on a machine without a GPU.
 *
 *   kkrace-gpu-replay TRACE
 *
 * The trace is one JSON object per line, in the order the events happened:
 * {"ev":"work","kind":0,"s":94368201181552,"label":"scale"} and so on (see
 * rt/kkr_gpu.c).  Reports go where KKRACE_OPTIONS says, as for a program;
 * their stacks are the replay's own, the rest (kinds, allocations, work
 * items, streams) is the recorded program's.  The replay runs the events
 * on one thread. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kkr_abi.h"

KKR_GPU_ENTRIES(KKR_GPU_DECLARE)
void __kkrace_kokkosp_allocate(const char *, const char *, const void *,
                               unsigned long long);

/* The value of "key": in line, as a number (0 if absent). */
static unsigned long long num(const char *line, const char *key) {
  char pat[32];
  snprintf(pat, sizeof pat, "\"%s\":", key);
  const char *p = strstr(line, pat);
  return p ? strtoull(p + strlen(pat), NULL, 10) : 0;
}

/* The string value of "key", copied into out. */
static const char *str(const char *line, const char *key, char *out,
                       size_t n) {
  char pat[32];
  snprintf(pat, sizeof pat, "\"%s\":\"", key);
  const char *p = strstr(line, pat);
  out[0] = 0;
  if (!p)
    return out;
  p += strlen(pat);
  size_t i = 0;
  while (p[i] && p[i] != '"' && i + 1 < n) {
    out[i] = p[i];
    i++;
  }
  out[i] = 0;
  return out;
}

/* The replay's state: the open work items' tokens, and the host function
 * whose events these are. */
static unsigned int toks[8];
static int ntoks;
static unsigned int running;

/* One event; 0 if unknown. */
static int replay(const char *line) {
  char ev[32], label[512];
  str(line, "ev", ev, sizeof ev);
  void *p = (void *)(uintptr_t)num(line, "p");
  unsigned long long s = num(line, "s"), e = num(line, "e");
  unsigned int flags = (unsigned int)num(line, "flags");
  /* A host function runs on CUDA's thread while the program goes on: its
   * accesses carry "hf"; the program's events are the program's. */
  unsigned int hf = !strcmp(ev, "host") ? (unsigned int)num(line, "hf") : 0;
  if (strncmp(ev, "host_func", 9) && hf != running) {
    if (running)
      __kkrace_gpu_host_func_replay(running, 3);
    if (hf)
      __kkrace_gpu_host_func_replay(hf, 1);
    running = hf;
  }
  if (!strcmp(ev, "alloc")) {
    __kkrace_gpu_alloc(p, num(line, "size"), (unsigned int)num(line, "kind"));
  } else if (!strcmp(ev, "view")) { /* a Kokkos View in device memory */
    char space[64];
    __kkrace_kokkosp_allocate(str(line, "space", space, sizeof space),
                              str(line, "label", label, sizeof label), p,
                              num(line, "size"));
  } else if (!strcmp(ev, "host_func")) { /* cudaLaunchHostFunc */
    __kkrace_gpu_host_func_replay((unsigned int)num(line, "id"), 0);
  } else if (!strcmp(ev, "host_func_begin")) {
    if (running)
      __kkrace_gpu_host_func_replay(running, 3);
    running = (unsigned int)num(line, "id");
    __kkrace_gpu_host_func_replay(running, 1);
  } else if (!strcmp(ev, "host_func_end")) {
    unsigned int id = (unsigned int)num(line, "id");
    if (running != id) {
      if (running)
        __kkrace_gpu_host_func_replay(running, 3);
      __kkrace_gpu_host_func_replay(id, 1); /* (resumed to end) */
    }
    __kkrace_gpu_host_func_replay(id, 2);
    running = 0;
  } else if (!strcmp(ev, "free")) {
    __kkrace_gpu_free(p, s, flags);
  } else if (!strcmp(ev, "stream")) {
    __kkrace_gpu_stream(s, flags);
  } else if (!strcmp(ev, "work")) {
    unsigned int tok = __kkrace_gpu_work_begin(
        (unsigned int)num(line, "kind"), s,
        str(line, "label", label, sizeof label));
    if (ntoks < 8)
      toks[ntoks++] = tok;
  } else if (!strcmp(ev, "access")) {
    __kkrace_gpu_access(p, num(line, "size"), flags);
  } else if (!strcmp(ev, "end")) {
    if (ntoks > 0)
      __kkrace_gpu_work_end(toks[--ntoks], flags);
  } else if (!strcmp(ev, "host")) {
    __kkrace_gpu_host_access(p, num(line, "size"), flags);
  } else if (!strcmp(ev, "record")) {
    __kkrace_gpu_event_record(e, s);
  } else if (!strcmp(ev, "wait")) {
    __kkrace_gpu_stream_wait_event(s, e);
  } else if (!strcmp(ev, "event_sync")) {
    __kkrace_gpu_event_sync(e);
  } else if (!strcmp(ev, "stream_sync")) {
    __kkrace_gpu_stream_sync(s);
  } else if (!strcmp(ev, "device_sync")) {
    __kkrace_gpu_device_sync();
  } else if (!strcmp(ev, "capture_begin")) {
    __kkrace_gpu_capture_begin(s);
  } else if (!strcmp(ev, "capture_end")) {
    __kkrace_gpu_capture_end(s, num(line, "g"));
  } else if (!strcmp(ev, "graph_exec")) {
    __kkrace_gpu_graph_exec(num(line, "x"), num(line, "g"));
  } else if (!strcmp(ev, "graph_launch")) {
    __kkrace_gpu_graph_launch(num(line, "x"), s);
  } else {
    return 0;
  }
  return 1;
}

int main(int argc, char **argv) {
  if (argc != 2 || !strcmp(argv[1], "--help")) {
    fprintf(stderr, "usage: kkrace-gpu-replay TRACE\n"
                    "Replays a GPU event trace written with "
                    "KKRACE_OPTIONS=gpu_trace=TRACE and reports its races.\n");
    return argc == 2 ? 0 : 2;
  }
  FILE *f = fopen(argv[1], "r");
  if (!f) {
    fprintf(stderr, "kkrace-gpu-replay: cannot read %s: %s\n", argv[1],
            strerror(errno));
    return 2;
  }
  /* A host function's accesses traced while the program's thread was
   * submitting work (between "work" and "end") wait for its end: the
   * replay's one thread cannot be in both at once (and the two are
   * concurrent, so the order between them does not matter). */
  char **deferred = NULL;
  size_t ndeferred = 0;
  char line[2048];
  unsigned long lineno = 0;
  int bad = 0;
  while (!bad && fgets(line, sizeof line, f)) {
    lineno++;
    if (line[0] != '{')
      continue;
    if (ntoks > 0 && strstr(line, "\"ev\":\"host\"") && num(line, "hf")) {
      char **d = realloc(deferred, (ndeferred + 1) * sizeof *d);
      if (!d || !(d[ndeferred] = strdup(line))) {
        fprintf(stderr, "kkrace-gpu-replay: out of memory\n");
        return 2;
      }
      deferred = d;
      ndeferred++;
      continue;
    }
    if (!replay(line)) {
      char ev[32];
      fprintf(stderr, "kkrace-gpu-replay: %s:%lu: unknown event '%s'\n",
              argv[1], lineno, str(line, "ev", ev, sizeof ev));
      bad = 1;
    }
    if (ntoks == 0 && ndeferred) {
      for (size_t i = 0; i < ndeferred; i++) {
        replay(deferred[i]);
        free(deferred[i]);
      }
      ndeferred = 0;
    }
  }
  for (size_t i = 0; i < ndeferred; i++) {
    replay(deferred[i]);
    free(deferred[i]);
  }
  free(deferred);
  fclose(f);
  return bad ? 2 : 0;
}
