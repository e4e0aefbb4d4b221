/* The runtime's own allocator: size classes over mmap'ed chunks.
 *
 * The runtime must not call the program's malloc: the program may be inside
 * malloc when an access is checked, and kkrace intercepts free itself.  Blocks
 * up to 64 KiB come from per-class free lists fed by 1 MiB chunks; larger
 * blocks are mapped directly.  One spin lock: the runtime allocates on slow
 * paths only (new work items, reports, tables that grow). */
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "kkr_common.h"
#include "kkr_hash.h"

#define KKR_MIN_SHIFT 4  /* 16 bytes */
#define KKR_MAX_SHIFT 16 /* 64 KiB */
#define KKR_NCLASS (KKR_MAX_SHIFT - KKR_MIN_SHIFT + 1)
#define KKR_CHUNK (1u << 20)

typedef struct kkr_free_block {
  struct kkr_free_block *next;
} kkr_free_block;

static kkr_spin arena_lock;
static kkr_free_block *free_list[KKR_NCLASS];
static char *bump_ptr, *bump_end;
static size_t footprint;

void *kkr_mmap_noreserve(size_t size, const char *what) {
  void *p = mmap(NULL, size, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (p == MAP_FAILED)
    kkr_die("cannot map %zu bytes for %s", size, what);
  /* No huge pages unless asked for (the shadow's chunks ask): with
   * transparent huge pages on "always", a sparse table (the node table,
   * the chunk directories) would take 2 MiB of memory for each page of
   * it that is touched. */
  madvise(p, size, MADV_NOHUGEPAGE);
  return p;
}

static unsigned size_class(size_t size) {
  unsigned c = 0;
  size_t s = (size_t)1 << KKR_MIN_SHIFT;
  while (s < size) {
    s <<= 1;
    c++;
  }
  return c;
}

void kkr_prefault(void *p, size_t size) {
#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23 /* Linux 5.14 */
#endif
  /* One call for many pages instead of a fault per page (a fault costs
   * several microseconds in a virtual machine); an older kernel says
   * EINVAL and the pages fault in one by one as before. */
  (void)madvise(p, size, MADV_POPULATE_WRITE);
}

static size_t page_round(size_t size) { return (size + 4095) & ~(size_t)4095; }

void *kkr_alloc(size_t size) {
  if (size == 0)
    size = 1;
  if (size > ((size_t)1 << KKR_MAX_SHIFT)) {
    void *p = kkr_mmap_noreserve(page_round(size), "runtime data");
    __atomic_add_fetch(&footprint, page_round(size), __ATOMIC_RELAXED);
    return p;
  }
  unsigned c = size_class(size);
  size_t bsize = (size_t)1 << (c + KKR_MIN_SHIFT);
  kkr_spin_lock(&arena_lock);
  kkr_free_block *b = free_list[c];
  if (b) {
    free_list[c] = b->next;
    kkr_spin_unlock(&arena_lock);
    memset(b, 0, bsize);
    return b;
  }
  if ((size_t)(bump_end - bump_ptr) < bsize) {
    /* Fresh chunks are zero; the tail of the old one is lost (< 64 KiB). */
    bump_ptr = kkr_mmap_noreserve(KKR_CHUNK, "runtime data");
    bump_end = bump_ptr + KKR_CHUNK;
    footprint += KKR_CHUNK;
  }
  void *p = bump_ptr;
  bump_ptr += bsize;
  kkr_spin_unlock(&arena_lock);
  return p;
}

void kkr_free(void *p, size_t size) {
  if (!p)
    return;
  if (size == 0)
    size = 1;
  if (size > ((size_t)1 << KKR_MAX_SHIFT)) {
    /* (Straight to the kernel: the program's munmap, which kkrace wraps,
     * clears shadow, which the runtime's own memory never has, and may be
     * called with shadow locks held.) */
    syscall(SYS_munmap, p, page_round(size));
    __atomic_sub_fetch(&footprint, page_round(size), __ATOMIC_RELAXED);
    return;
  }
  unsigned c = size_class(size);
  kkr_free_block *b = p;
  kkr_spin_lock(&arena_lock);
  b->next = free_list[c];
  free_list[c] = b;
  kkr_spin_unlock(&arena_lock);
}

void *kkr_realloc(void *p, size_t old_size, size_t new_size) {
  void *q = kkr_alloc(new_size);
  if (p) {
    memcpy(q, p, old_size < new_size ? old_size : new_size);
    kkr_free(p, old_size);
  }
  return q;
}

size_t kkr_alloc_footprint(void) {
  return __atomic_load_n(&footprint, __ATOMIC_RELAXED);
}

char *kkr_strdup(const char *s) {
  size_t n = strlen(s) + 1;
  char *p = kkr_alloc(n);
  memcpy(p, s, n);
  return p;
}

/* ---- Interned strings --------------------------------------------------- */

typedef struct {
  UT_hash_handle hh;
  char *s;
} kkr_interned;

static kkr_spin intern_lock;
static kkr_interned *interned;

const char *kkr_intern(const char *s) {
  if (!s)
    return NULL;
  /* A thread asks for one string again and again (the label of a loop's
   * dispatch, the name of a kernel launched in a loop): its last answer is
   * tried first, by content. */
  static __thread const char *last;
  if (last && (s == last || !strcmp(s, last)))
    return last;
  kkr_spin_lock(&intern_lock);
  kkr_interned *e;
  HASH_FIND_STR(interned, s, e);
  if (!e) {
    e = kkr_alloc(sizeof *e);
    e->s = kkr_strdup(s);
    HASH_ADD_KEYPTR(hh, interned, e->s, strlen(e->s), e);
  }
  kkr_spin_unlock(&intern_lock);
  last = e->s;
  return last;
}

typedef struct {
  UT_hash_handle hh;
  kkr_copy_info c;
} kkr_interned_copy;

static kkr_interned_copy *interned_copies;

/* (kkr_copy_info has no padding: its bytes are its key.) */
_Static_assert(sizeof(kkr_copy_info) == 6 * sizeof(uintptr_t),
               "kkr_copy_info is hashed as bytes");

const kkr_copy_info *kkr_intern_copy(const kkr_copy_info *c) {
  kkr_spin_lock(&intern_lock);
  kkr_interned_copy *e;
  HASH_FIND(hh, interned_copies, c, sizeof *c, e);
  if (!e) {
    e = kkr_alloc(sizeof *e);
    e->c = *c;
    HASH_ADD(hh, interned_copies, c, sizeof e->c, e);
  }
  kkr_spin_unlock(&intern_lock);
  return &e->c;
}
