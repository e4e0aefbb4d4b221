// Kokkos::fence() inside a kernel: forbidden, and a hang on backends that
// lock the instance during a kernel.  The program itself goes on.
// On Kokkos 4.4 and later the fence then waits forever for the lock its
// own thread holds: the watchdog reports the hang and ends the program.
// KKRACE-OPTIONS: hang_timeout_ms=2000
// EXPECT-KOKKOS44: deadlock subkind=hang
// EXPECT: deadlock subkind=fence-in-kernel nodes=parallel_for:bad
// EXPECT-TEXT: deadlock: Kokkos::fence called inside a kernel
#include <Kokkos_Core.hpp>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    Kokkos::View<double *> x("x", 10);
    Kokkos::parallel_for(
        "bad", 10, KOKKOS_LAMBDA(const int i) {
          x(i) = i;
          if (i == 3) Kokkos::fence();
        });
    Kokkos::fence();
  }
  Kokkos::finalize();
  return 0;
}
