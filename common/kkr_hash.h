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

#endif /* KKR_HASH_H */
