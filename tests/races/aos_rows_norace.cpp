// The twin of aos_rows_race: rows of 3-vectors written and updated one
// component at a time by their own iterations, in chunks that go from runs
// to cells in the middle of a kernel, and read by the host after a fence:
// nothing races.
// EXPECT: no-report
#include <Kokkos_Core.hpp>
#include <cstdio>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = 40000;
    Kokkos::View<double *> x("x", 3 * n), v("v", 3 * n);
    Kokkos::parallel_for("init", n, KOKKOS_LAMBDA(const int i) {
      for (int k = 0; k < 3; ++k) {
        x(3 * i + k) = i * 0.001 + k;
        v(3 * i + k) = 0.5 - k;
      }
    });
    for (int s = 0; s < 2; ++s)
      Kokkos::parallel_for("push", n, KOKKOS_LAMBDA(const int i) {
        for (int k = 0; k < 3; ++k)
          x(3 * i + k) += 0.01 * v(3 * i + k);
        if (i % 1000 == 0)
          v(3 * i) = -v(3 * i);
      });
    Kokkos::fence();
    printf("%g %g\n", x(3 * 500 + 1), v(3 * 30000));
  }
  Kokkos::finalize();
  return 0;
}
