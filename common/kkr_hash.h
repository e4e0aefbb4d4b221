/* uthash, configured to allocate from the runtime's arenas: include this
 * instead of <uthash.h> everywhere in the runtime. */
#ifndef KKR_HASH_H
#define KKR_HASH_H

#include "kkr_common.h"

#define uthash_malloc(sz) kkr_alloc(sz)
#define uthash_free(ptr, sz) kkr_free(ptr, sz)
#define uthash_fatal(msg) kkr_die("%s", msg)
#define HASH_FUNCTION HASH_JEN
#include <uthash.h>

/* A 64-bit mix (splitmix64 finalizer) for hashing addresses and ids. */
static inline uint64_t kkr_mix64(uint64_t x) {
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ULL;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebULL;
  x ^= x >> 31;
  return x;
}

#endif /* KKR_HASH_H */
