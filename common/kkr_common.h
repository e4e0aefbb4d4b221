/* Tool-independent helpers of the kkrace runtime: compiler hints, spin locks,
 * the mmap arena allocator, output and fatal errors, string interning.
 *
 * Ground rules for all runtime code (rt/, report/, cupti/, common/):
 *  - The runtime never calls the program's malloc: it allocates from its own
 *    mmap'ed arenas (kkr_alloc), and uthash is configured to use them
 *    (kkr_hash.h).
 *  - Every function that prints takes a printf format and says so
 *    (KKR_FORMAT), so that the compiler checks every call.
 *  - KKR_CHECK is never compiled out.
 *  - Hot paths are small, inline and annotated with KKR_LIKELY/UNLIKELY; what
 *    reports is KKR_COLD and never inlined. */
#ifndef KKR_COMMON_H
#define KKR_COMMON_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

/* All runtime code lives in its own section, so that stacks can leave out
 * kkrace's frames (__start_kkrace_text .. __stop_kkrace_text). */
#if defined(__clang__) && !defined(KKR_NO_TEXT_SECTION)
#pragma clang section text = "kkrace_text"
#endif

#define KKR_LIKELY(x) __builtin_expect(!!(x), 1)
#define KKR_UNLIKELY(x) __builtin_expect(!!(x), 0)
#define KKR_INLINE static inline __attribute__((always_inline))
#define KKR_NOINLINE __attribute__((noinline))
#define KKR_COLD __attribute__((noinline, cold))
#define KKR_FORMAT(fmt, args) __attribute__((format(printf, fmt, args)))
#define KKR_UNUSED __attribute__((unused))
#define KKR_EXPORT __attribute__((visibility("default")))
/* On the runtime's globals: internal to the program, reached without the
 * GOT. */
#define KKR_HIDDEN __attribute__((visibility("hidden")))
#define KKR_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* ---- Fatal errors ------------------------------------------------------- */

/* Prints "kkrace: error: <message>" on stderr and ends the process with
 * status 1 without running the program's exit handlers. */
__attribute__((noreturn)) void kkr_die(const char *fmt, ...) KKR_FORMAT(1, 2);

/* An internal invariant; failing it is a kkrace bug, reported as such. */
#define KKR_CHECK(cond)                                                   \
  do {                                                                    \
    if (KKR_UNLIKELY(!(cond)))                                            \
      kkr_die("internal check failed: %s (%s:%d)", #cond, __FILE__,       \
              __LINE__);                                                  \
  } while (0)

/* ---- Spin locks --------------------------------------------------------- */

typedef struct {
  volatile int locked;
} kkr_spin;

KKR_INLINE void kkr_spin_lock(kkr_spin *l) {
  while (__atomic_exchange_n(&l->locked, 1, __ATOMIC_ACQUIRE)) {
    while (__atomic_load_n(&l->locked, __ATOMIC_RELAXED))
      __builtin_ia32_pause();
  }
}

/* 1 if the lock was free (and is now held). */
KKR_INLINE int kkr_spin_trylock(kkr_spin *l) {
  return !__atomic_exchange_n(&l->locked, 1, __ATOMIC_ACQUIRE);
}

KKR_INLINE void kkr_spin_unlock(kkr_spin *l) {
  __atomic_store_n(&l->locked, 0, __ATOMIC_RELEASE);
}

/* A 64-bit mix (splitmix64 finalizer) for hashing addresses and ids. */
static inline uint64_t kkr_mix64(uint64_t x) {
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ULL;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebULL;
  x ^= x >> 31;
  return x;
}

/* ---- Memory ------------------------------------------------------------- */

/* Allocates zeroed memory from the runtime's own arenas; never returns NULL
 * (dies when the system has no memory left). Thread-safe. */
void *kkr_alloc(size_t size);
/* Returns memory from kkr_alloc; size must be the size asked for. */
void kkr_free(void *p, size_t size);
/* Grows a kkr_alloc block, keeping its contents; new bytes are zero. */
void *kkr_realloc(void *p, size_t old_size, size_t new_size);
/* A copy of s in runtime memory. */
char *kkr_strdup(const char *s);
/* Maps size bytes of zeroed memory that the kernel backs only when touched;
 * dies on failure. */
void *kkr_mmap_noreserve(size_t size, const char *what);
/* Maps the pages of [p, p + size) in now, in one call (best effort). */
void kkr_prefault(void *p, size_t size);
/* Bytes the runtime took from the system for its own data (not the shadow). */
size_t kkr_alloc_footprint(void);

/* The one copy of s that the runtime keeps; the same pointer for equal
 * strings, never freed. NULL stays NULL. Thread-safe. */
const char *kkr_intern(const char *s);
/* An asynchronous deep_copy's or fill's Views: the labels of its
 * destination and source (interned) and their bytes (hi 0: unknown),
 * interned: one stable address for each distinct description. */
typedef struct {
  const char *label[2];
  uintptr_t lo[2], hi[2];
} kkr_copy_info;
const kkr_copy_info *kkr_intern_copy(const kkr_copy_info *c);

/* ---- Output ------------------------------------------------------------- */

/* A growable string in runtime memory. */
typedef struct {
  char *buf;
  size_t len, cap;
} kkr_str;

void kkr_str_printf(kkr_str *s, const char *fmt, ...) KKR_FORMAT(2, 3);
void kkr_str_vprintf(kkr_str *s, const char *fmt, va_list ap);
void kkr_str_putc(kkr_str *s, char c);
/* Appends s as the body of a JSON string (without quotes), escaped. */
void kkr_str_json(kkr_str *s, const char *text);
void kkr_str_free(kkr_str *s);

/* Writes all of buf to fd, retrying on EINTR and short writes. */
void kkr_write_all(int fd, const char *buf, size_t len);

/* Prints to stderr: "kkrace: <message>\n". */
void kkr_warn(const char *fmt, ...) KKR_FORMAT(1, 2);

#endif /* KKR_COMMON_H */
