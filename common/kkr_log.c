/* Output helpers: growable strings, JSON escaping, fatal errors. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "kkr_common.h"

void kkr_write_all(int fd, const char *buf, size_t len) {
  while (len > 0) {
    ssize_t n = write(fd, buf, len);
    if (n < 0) {
      if (errno == EINTR)
        continue;
      return;
    }
    buf += n;
    len -= (size_t)n;
  }
}

static void str_reserve(kkr_str *s, size_t extra) {
  if (s->len + extra + 1 <= s->cap)
    return;
  size_t cap = s->cap ? s->cap : 256;
  while (cap < s->len + extra + 1)
    cap *= 2;
  s->buf = kkr_realloc(s->buf, s->cap, cap);
  s->cap = cap;
}

void kkr_str_vprintf(kkr_str *s, const char *fmt, va_list ap) {
  va_list ap2;
  va_copy(ap2, ap);
  char small[256];
  int n = vsnprintf(small, sizeof small, fmt, ap);
  if (n < 0) {
    va_end(ap2);
    return;
  }
  str_reserve(s, (size_t)n);
  if ((size_t)n < sizeof small)
    memcpy(s->buf + s->len, small, (size_t)n + 1);
  else
    vsnprintf(s->buf + s->len, (size_t)n + 1, fmt, ap2);
  s->len += (size_t)n;
  va_end(ap2);
}

void kkr_str_printf(kkr_str *s, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  kkr_str_vprintf(s, fmt, ap);
  va_end(ap);
}

void kkr_str_putc(kkr_str *s, char c) {
  str_reserve(s, 1);
  s->buf[s->len++] = c;
  s->buf[s->len] = 0;
}

void kkr_str_json(kkr_str *s, const char *text) {
  static const char hex[] = "0123456789abcdef";
  for (const unsigned char *p = (const unsigned char *)text; *p; p++) {
    switch (*p) {
    case '"': kkr_str_printf(s, "\\\""); break;
    case '\\': kkr_str_printf(s, "\\\\"); break;
    case '\n': kkr_str_printf(s, "\\n"); break;
    case '\r': kkr_str_printf(s, "\\r"); break;
    case '\t': kkr_str_printf(s, "\\t"); break;
    default:
      if (*p < 0x20) {
        kkr_str_printf(s, "\\u00%c%c", hex[*p >> 4], hex[*p & 15]);
      } else {
        kkr_str_putc(s, (char)*p);
      }
    }
  }
}

void kkr_str_free(kkr_str *s) {
  kkr_free(s->buf, s->cap);
  s->buf = NULL;
  s->len = s->cap = 0;
}

static void vmessage(const char *prefix, const char *fmt, va_list ap) {
  char buf[1024];
  int n = snprintf(buf, sizeof buf, "%s", prefix);
  int m = vsnprintf(buf + n, sizeof buf - (size_t)n - 1, fmt, ap);
  if (m < 0)
    m = 0;
  size_t len = (size_t)n + (size_t)m;
  if (len > sizeof buf - 2)
    len = sizeof buf - 2;
  buf[len++] = '\n';
  kkr_write_all(2, buf, len);
}

void kkr_die(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vmessage("kkrace: error: ", fmt, ap);
  va_end(ap);
  syscall(SYS_exit_group, 1);
  __builtin_unreachable();
}

void kkr_warn(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vmessage("kkrace: ", fmt, ap);
  va_end(ap);
}
