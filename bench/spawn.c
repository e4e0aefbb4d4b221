/* spawn: runs a command and prints its wall time and peak memory.
 *
 *   spawn RESULT_FILE COMMAND [ARG...]
 *
 * Writes "SECONDS MAXRSS_KIB" to RESULT_FILE and exits with the command's
 * exit status (128 + the signal if a signal ended it).
 *
 * The peak resident set of a process that the benchmark script forked
 * directly would include the script's own (Linux keeps the larger of the
 * old and the new image's peak across exec: about 14 MiB for Python), which
 * hides what small programs use.  This process is small, so its child's
 * peak is the program's own. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: spawn RESULT_FILE COMMAND [ARG...]\n");
    return 2;
  }
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  pid_t pid = fork();
  if (pid < 0) {
    perror("spawn: fork");
    return 2;
  }
  if (pid == 0) {
    execvp(argv[2], argv + 2);
    perror(argv[2]);
    _exit(127);
  }
  int status;
  struct rusage ru;
  if (wait4(pid, &status, 0, &ru) < 0) {
    perror("spawn: wait4");
    return 2;
  }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  FILE *f = fopen(argv[1], "w");
  if (!f) {
    perror(argv[1]);
    return 2;
  }
  fprintf(f, "%.6f %ld\n",
          (double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) * 1e-9,
          ru.ru_maxrss);
  fclose(f);
  if (WIFSIGNALED(status))
    return 128 + WTERMSIG(status);
  return WEXITSTATUS(status);
}
