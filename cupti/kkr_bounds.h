/* How far a kernel's accesses through its pointer parameters reach, from
 * its machine code (SASS, as nvdisasm prints it) and a launch's geometry and
 * argument values (kkr_bounds.c). */
#ifndef KKR_BOUNDS_H
#define KKR_BOUNDS_H
#include <stddef.h>
#include <stdint.h>

typedef struct kkr_bounds_prog kkr_bounds_prog;

/* The code of one kernel (its part of nvdisasm's output, from its
 * ".text.<name>:" label on) whose parameters lie at [base, base + size) of
 * constant bank 0: NULL when the code does something the analysis cannot
 * follow (calls, local memory, computed places in the parameter bank...). */
kkr_bounds_prog *kkr_bounds_build(const char *body, size_t len, uint32_t base,
                                  uint32_t size);
void kkr_bounds_free(kkr_bounds_prog *p);

enum {
  KKR_BOUNDS_NONE = 0,    /* no access through the word */
  KKR_BOUNDS_RANGE = 1,   /* bytes [lo, hi) from the pointer it holds */
  KKR_BOUNDS_UNKNOWN = 2, /* an access the analysis cannot bound */
};
typedef struct {
  int64_t lo, hi;
  uint8_t state;
} kkr_bounds_word;

/* The bounds of a launch of grid dims[0..2] blocks of dims[3..5] threads,
 * whose parameter bytes are params[0, nbytes): out[k] for word k, k below
 * nwords.  0 if the analysis gives up (then nothing is bounded).  *used:
 * the words whose values the result depends on (not those only used as
 * the pointers accesses are bounded from): a launch with the same geometry
 * and the same values there has the same bounds. */
int kkr_bounds_eval(const kkr_bounds_prog *p, const unsigned dims[6],
                    const unsigned char *params, uint32_t nbytes,
                    kkr_bounds_word *out, uint32_t nwords, uint64_t *used);

#endif
