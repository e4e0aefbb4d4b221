/* Access sites: records hold a site index, the tables here hold the pcs.
 *
 * A work item's records have 6 bits for it: the first 63 distinct access
 * sites of a kernel (its submission site's table) are exact, the others are
 * "one of this kernel's accesses".  A host thread's records have 26 bits,
 * for all its sites. */
#include <string.h>

#include "kkr_hash.h"
#include "kkr_rt.h"

typedef struct kkr_site_entry {
  UT_hash_handle hh;
  uintptr_t pc;
  uint32_t idx;
} kkr_site_entry;

kkr_sites *kkr_sites_new(uint32_t max) {
  kkr_sites *s = kkr_alloc(sizeof *s);
  s->max = max;
  return s;
}

static uint32_t lookup_or_add(kkr_sites *s, uintptr_t pc) {
  uint32_t idx;
  if (s->max <= KKR_SITE_OTHER) {
    /* Small tables only grow, in place (room for all 63 from the start):
     * look without the lock first. */
    uint32_t n = __atomic_load_n(&s->n, __ATOMIC_ACQUIRE);
    for (idx = 0; idx < n; idx++)
      if (s->pcs[idx] == pc)
        return idx;
  }
  kkr_spin_lock(&s->lock);
  if (s->max > KKR_SITE_OTHER) {
    kkr_site_entry *e;
    HASH_FIND(hh, s->index, &pc, sizeof pc, e);
    if (e) {
      kkr_spin_unlock(&s->lock);
      return e->idx;
    }
  } else {
    for (idx = 0; idx < s->n; idx++)
      if (s->pcs[idx] == pc) {
        kkr_spin_unlock(&s->lock);
        return idx;
      }
  }
  if (s->n >= s->max) {
    kkr_spin_unlock(&s->lock);
    return s->max; /* "another site" */
  }
  if (s->n == s->cap) {
    uint32_t cap = s->cap ? s->cap * 2 : (s->max <= KKR_SITE_OTHER ? 64 : 16);
    s->pcs = kkr_realloc(s->pcs, s->cap * sizeof(uintptr_t),
                         cap * sizeof(uintptr_t));
    s->cap = cap;
  }
  idx = s->n;
  s->pcs[idx] = pc;
  __atomic_store_n(&s->n, idx + 1, __ATOMIC_RELEASE);
  if (s->max > KKR_SITE_OTHER) {
    kkr_site_entry *e = kkr_alloc(sizeof *e);
    e->pc = pc;
    e->idx = idx;
    HASH_ADD(hh, s->index, pc, sizeof pc, e);
  }
  kkr_spin_unlock(&s->lock);
  return idx;
}

uint32_t kkr_site_index_slow(kkr_thread *t, struct kkr_site_slot *slot,
                             uintptr_t pc) {
  uint32_t idx = t->sites ? lookup_or_add(t->sites, pc) : KKR_SITE_OTHER;
  /* One instruction runs in one table most of the time (the kernel it
   * belongs to, or host code): remember it there.  A slot shared by two
   * threads may hold either's answer; both are right for their table. */
  if (slot) {
    slot->idx = idx;
    __atomic_store_n(&slot->table, (const void *)t->sites, __ATOMIC_RELEASE);
  }
  return idx;
}

static kkr_sites *host_table;
static kkr_spin host_table_lock;

kkr_sites *kkr_host_sites(void) {
  kkr_spin_lock(&host_table_lock);
  if (!host_table)
    host_table = kkr_sites_new((1u << 26) - 2);
  kkr_spin_unlock(&host_table_lock);
  return host_table;
}

uintptr_t kkr_site_pc(const kkr_sites *s, uint32_t idx) {
  if (!s)
    return 0;
  kkr_spin_lock((kkr_spin *)&s->lock);
  uintptr_t pc = idx < s->n ? s->pcs[idx] : 0;
  kkr_spin_unlock((kkr_spin *)&s->lock);
  return pc;
}

typedef struct {
  UT_hash_handle hh;
  uintptr_t key;
  kkr_sites *sites;
} sites_by_key;

static sites_by_key *tables;
static kkr_spin tables_lock;

kkr_sites *kkr_sites_for(uintptr_t key) {
  kkr_spin_lock(&tables_lock);
  sites_by_key *e;
  HASH_FIND(hh, tables, &key, sizeof key, e);
  if (!e) {
    e = kkr_alloc(sizeof *e);
    e->key = key;
    e->sites = kkr_sites_new(KKR_SITE_OTHER);
    HASH_ADD(hh, tables, key, sizeof key, e);
  }
  kkr_spin_unlock(&tables_lock);
  return e->sites;
}

/* ---- Library calls that access memory for the program --------------------
 * A library kkrace ships (libkkrace_mpi) checks the buffers of a call it
 * wraps as the calling thread's accesses made at the program's call site;
 * the call's name, kept here by that site, says in reports what made
 * them ("MPI_Send"). */
typedef struct {
  UT_hash_handle hh;
  uintptr_t pc;
  const char *call; /* interned */
} call_site;

static call_site *call_sites;
static kkr_spin call_sites_lock;

void kkr_call_site_set(uintptr_t pc, const char *call) {
  if (!pc || !call)
    return;
  kkr_spin_lock(&call_sites_lock);
  call_site *c;
  HASH_FIND(hh, call_sites, &pc, sizeof pc, c);
  if (!c) {
    c = kkr_alloc(sizeof *c);
    c->pc = pc;
    HASH_ADD(hh, call_sites, pc, sizeof pc, c);
  }
  c->call = call;
  kkr_spin_unlock(&call_sites_lock);
}

const char *kkr_call_site(uintptr_t pc) {
  if (!pc || !call_sites)
    return NULL;
  kkr_spin_lock(&call_sites_lock);
  call_site *c;
  HASH_FIND(hh, call_sites, &pc, sizeof pc, c);
  const char *call = c ? c->call : NULL;
  kkr_spin_unlock(&call_sites_lock);
  return call;
}
