/* kkrace public ABI: the __kkrace_* functions that instrumented code calls.
 *
 * Ground rule: this header includes nothing and is valid C and C++, so that
 * the LLVM pass, the runtime and the tests share it.  The functions themselves
 * are listed once, in kkr_entry.inc. */
#ifndef KKR_ABI_H
#define KKR_ABI_H

enum kkr_op_kind {
#define KKR_OP(e, s) KKR_OP_##e,
#include "kkr_ops.inc"
#undef KKR_OP
  KKR_OP_COUNT
};

/* Flags of __kkrace_atomic. */
enum {
  KKR_AF_READ = 1,     /* the instruction reads memory */
  KKR_AF_WRITE = 2,    /* the instruction writes memory */
  KKR_AF_ACQUIRE = 4,  /* acquire (or stronger) ordering */
  KKR_AF_RELEASE = 8   /* release (or stronger) ordering */
};

/* What a site slot holds: the site table it was looked up in and the
 * index there (the runtime's business; the pass only reserves the space). */
struct kkr_site_slot {
  const void *table;
  unsigned long long idx;
};

#define KKR_T_VOID void
#define KKR_T_PTR void *
#define KKR_T_I32 unsigned int
#define KKR_T_I64 unsigned long long
#define KKR_PARAMS_0(a, b, c, d, e, f) void
#define KKR_PARAMS_1(a, b, c, d, e, f) KKR_T_##a
#define KKR_PARAMS_2(a, b, c, d, e, f) KKR_T_##a, KKR_T_##b
#define KKR_PARAMS_3(a, b, c, d, e, f) KKR_T_##a, KKR_T_##b, KKR_T_##c
#define KKR_PARAMS_4(a, b, c, d, e, f) \
  KKR_T_##a, KKR_T_##b, KKR_T_##c, KKR_T_##d
#define KKR_PARAMS_5(a, b, c, d, e, f) \
  KKR_T_##a, KKR_T_##b, KKR_T_##c, KKR_T_##d, KKR_T_##e
#define KKR_PARAMS_6(a, b, c, d, e, f) \
  KKR_T_##a, KKR_T_##b, KKR_T_##c, KKR_T_##d, KKR_T_##e, KKR_T_##f

#ifdef __cplusplus
extern "C" {
#endif

/* Exported from the program even where the runtime hides the rest. */
#if defined(__GNUC__)
#define KKR_ABI_VISIBLE __attribute__((visibility("default")))
#else
#define KKR_ABI_VISIBLE
#endif

#define KKR_ENTRY(name, ret, n, a, b, c, d, e, f) \
  KKR_ABI_VISIBLE KKR_T_##ret __kkrace_##name(KKR_PARAMS_##n(a, b, c, d, e, f));
#include "kkr_entry.inc"
#undef KKR_ENTRY

#ifdef __cplusplus
}
#endif

#endif /* KKR_ABI_H */
