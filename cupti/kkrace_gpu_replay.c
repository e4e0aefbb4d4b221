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

void __kkrace_gpu_alloc(void *, unsigned long long, unsigned int);
void __kkrace_gpu_free(void *, unsigned long long, unsigned int);
void __kkrace_gpu_stream(unsigned long long, unsigned int);
unsigned int __kkrace_gpu_work_begin(unsigned int, unsigned long long,
                                     const char *);
void __kkrace_gpu_access(void *, unsigned long long, unsigned int);
void __kkrace_gpu_work_end(unsigned int, unsigned int);
void __kkrace_gpu_host_access(void *, unsigned long long, unsigned int);
void __kkrace_gpu_event_record(unsigned long long, unsigned long long);
void __kkrace_gpu_stream_wait_event(unsigned long long, unsigned long long);
void __kkrace_gpu_event_sync(unsigned long long);
void __kkrace_gpu_stream_sync(unsigned long long);
void __kkrace_gpu_device_sync(void);
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
  char line[2048], ev[32], label[512];
  unsigned int toks[8];
  int ntoks = 0;
  unsigned long lineno = 0;
  while (fgets(line, sizeof line, f)) {
    lineno++;
    if (line[0] != '{')
      continue;
    str(line, "ev", ev, sizeof ev);
    void *p = (void *)(uintptr_t)num(line, "p");
    unsigned long long s = num(line, "s"), e = num(line, "e");
    unsigned int flags = (unsigned int)num(line, "flags");
    if (!strcmp(ev, "alloc")) {
      __kkrace_gpu_alloc(p, num(line, "size"), (unsigned int)num(line, "kind"));
    } else if (!strcmp(ev, "view")) { /* a Kokkos View in device memory */
      char space[64];
      __kkrace_kokkosp_allocate(str(line, "space", space, sizeof space),
                                str(line, "label", label, sizeof label), p,
                                num(line, "size"));
    } else if (!strcmp(ev, "free")) {
      __kkrace_gpu_free(p, s, flags);
    } else if (!strcmp(ev, "stream")) {
      __kkrace_gpu_stream(s, flags);
    } else if (!strcmp(ev, "work")) {
      unsigned int tok = __kkrace_gpu_work_begin(
          (unsigned int)num(line, "kind"), s, str(line, "label", label,
                                                  sizeof label));
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
    } else {
      fprintf(stderr, "kkrace-gpu-replay: %s:%lu: unknown event '%s'\n",
              argv[1], lineno, ev);
      fclose(f);
      return 2;
    }
  }
  fclose(f);
  return 0;
}
