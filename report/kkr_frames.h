/* Which frames of a symbolized stack are the program's: the rules the
 * runtime's reports and kkrace-report share (header only, no allocation). */
#ifndef KKR_FRAMES_H
#define KKR_FRAMES_H

#include <stddef.h>
#include <string.h>

/* Where the qualified name of a demangled function lies, without its return
 * type and parameters: "Kokkos::Impl::ParallelFor<...>::exec<void>" in
 * "std::enable_if<...>::type Kokkos::Impl::ParallelFor<...>::exec<void>() const". */
static inline void kkr_qualified_span(const char *function, size_t *start,
                                      size_t *end) {
  static const char anon[] = "(anonymous namespace)"; /* part of the name */
  size_t len = strlen(function), e = len, s = 0;
  int depth = 0;
  for (size_t i = 0; i < len; i++) {
    char c = function[i];
    if (c == '(' && !strncmp(function + i, anon, sizeof anon - 1))
      i += sizeof anon - 2;
    else if (c == '<')
      depth++;
    else if (c == '>')
      depth--;
    else if (c == ' ' && depth == 0 && e == len)
      s = i + 1;
    else if (c == '(' && depth == 0) {
      if (i >= 8 && !strncmp(function + i - 8, "operator", 8) &&
          function[i + 1] == ')') {
        i++;
        continue;
      }
      e = i;
      break;
    }
  }
  if (s >= e)
    s = 0;
  *start = s;
  *end = e;
}

/* Does the qualified name of function start with prefix? */
static inline int kkr_qualified_in(const char *function, const char *prefix) {
  size_t s, e, n = strlen(prefix);
  kkr_qualified_span(function, &s, &e);
  return e - s >= n && !strncmp(function + s, prefix, n);
}

/* A frame of Kokkos (or desul, under it). */
static inline int kkr_is_kokkos_function(const char *f) {
  return f && (kkr_qualified_in(f, "Kokkos::") || kkr_qualified_in(f, "desul::"));
}

/* A frame of the C++ standard library (std::mutex::lock, ...): by name, or
 * by the library's headers. */
static inline int kkr_is_std_frame(const char *fn, const char *file) {
  if (fn && (!strncmp(fn, "std::", 5) || !strncmp(fn, "__gnu_cxx::", 11) ||
             !strncmp(fn, "__gthread", 9) || kkr_qualified_in(fn, "std::")))
    return 1;
  return file && (strstr(file, "/include/c++/") || strstr(file, "/c++/12/bits/") ||
                  strstr(file, "/gthr-default.h"));
}

#endif /* KKR_FRAMES_H */
