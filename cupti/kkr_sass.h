/* Kernel machine code (SASS from nvdisasm): which parameters a kernel may
 * write through (kkr_sass.c). */
#ifndef KKR_SASS_H
#define KKR_SASS_H
#include <stddef.h>
#include <stdint.h>

/* Where a kernel's parameters lie in constant bank 0. */
typedef struct {
  char name[256]; /* the kernel's mangled name */
  uint32_t base, size;
} kkr_sass_bank;

/* Per kernel: written has bit k set when the kernel may store through the
 * pointer in parameter bytes [8k, 8k + 8), atomic when it reaches memory
 * through that pointer only by reductions and atomics (atomicAdd), never
 * by a plain load or store; ok is 0 when the analysis could not follow the
 * code (then written is all ones, atomic zero). */
typedef void (*kkr_sass_fn_cb)(const char *name, uint64_t written,
                               uint64_t atomic, int ok, void *arg);

/* The parameter banks of the kernels of a cubin (an ELF image). */
uint32_t kkr_sass_banks(const void *cubin, size_t size, kkr_sass_bank *out,
                        uint32_t max);
/* Where a __constant__ variable of the cubin lies in constant bank 3 (its
 * symbol table): 1 and *base, *size if found. */
int kkr_sass_constant(const void *cubin, size_t size, const char *symbol,
                      uint32_t *base, uint32_t *bytes);

/* A __constant__ variable (bank 3, [base, base + size)) that kernels
 * without parameters read their arguments from: Kokkos' CUDA backend copies
 * a functor too large for a kernel argument to one. */
typedef struct {
  uint32_t base, size;
} kkr_sass_const;

/* Analyzes nvdisasm's output for those kernels.  A kernel without
 * parameters is analyzed against c3 too (if given): window k of 64 words of
 * the variable is reported as kernel "<name>@c3:<k>" (KKR_SASS_C3_NAME). */
void kkr_sass_parse(const char *text, const kkr_sass_bank *banks,
                    uint32_t nbanks, const kkr_sass_const *c3,
                    kkr_sass_fn_cb cb, void *arg);
#define KKR_SASS_C3_NAME "%s@c3:%u"

/* The instruction of a line of nvdisasm's output ("@!P0 EXIT ;" after the
 * address in its comment):
 * 1, its text without the predicate in out ("EXIT") and the predicate in
 * pred ("!P0", or empty); 0 if the line holds none. */
int kkr_sass_instruction(const char *line, char *out, size_t n, char *pred,
                         size_t pn);

/* The subroutine a "CALL.REL.NOINC `($name)" instruction (ins) of the
 * function whose code is body calls: 1 if it touches no memory and calls
 * nothing (the slow paths of sqrtf, sinf, division), with written[r]
 * (R0-R255, then UR0-UR255) bit 0 set for the registers it may write, bit
 * 1 for those it may read. */
int kkr_sass_leaf_call(const char *body, size_t len, const char *ins,
                       uint8_t written[512]);

#endif
