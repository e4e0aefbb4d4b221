/* Deadlocks that kkrace can see coming before they hang: fences inside
 * kernels (SEMANTICS.md, "Deadlocks").  The MiniKokkos calculus is
 * deadlock-free only because fences may not run inside parallel regions;
 * Kokkos forbids it too, and the host backends of Kokkos 4.4 and later lock
 * the instance during a kernel, so a fence inside one waits forever. */
#include "kkr_report.h"
#include "kkr_rt.h"

void kkr_deadlock_fence_in_kernel(kkr_thread *t, kkr_op *op) {
  if (!kkr_flags.detect_deadlocks)
    return;
  kkr_report_fence_in_kernel(t, op, op->pc, op->fp);
}
