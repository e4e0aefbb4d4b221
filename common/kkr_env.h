/* The environment of a helper process kkrace starts (llvm-symbolizer,
 * addr2line, nvdisasm): the program's, without what would load kkrace into
 * it too (a preloaded runtime writing the program's files). */
#ifndef KKR_ENV_H
#define KKR_ENV_H
#include <stddef.h>
#include <string.h>

/* Fills out (max entries, the last one NULL) from env; returns out. */
static inline char **kkr_env_without_kkrace(char **env, char **out,
                                            size_t max) {
  size_t n = 0;
  for (char **e = env; e && *e && n + 1 < max; e++)
    if (strncmp(*e, "LD_PRELOAD=", 11) && strncmp(*e, "KKRACE_OPTIONS=", 15) &&
        strncmp(*e, "CUDA_INJECTION64_PATH=", 22))
      out[n++] = *e;
  out[n] = NULL;
  return out;
}

#endif
