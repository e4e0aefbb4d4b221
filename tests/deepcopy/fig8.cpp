// The MiniKokkos paper's Fig. 8: deep_copy(dev, x, y) then a parallel_for on
// dev that writes y.  Under the default model the instance runs them in
// order; under model=minikokkos the copy is ordered only after what was
// submitted before it (Fig. 7), so the kernel's writes of y race with the
// copy's reads.
// RUN: kokkos
// RUN: minikokkos model=minikokkos
// EXPECT[kokkos]: no-report
// EXPECT[minikokkos]: data-race view=y subkind=missing-fence nodes=deep_copy,parallel_for:write_y lines=22,24
#include <Kokkos_Core.hpp>
#include <cstdio>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = 100;
    Kokkos::DefaultExecutionSpace dev;
    Kokkos::View<double *> x("x", n), y("y", n);
    Kokkos::parallel_for("init", Kokkos::RangePolicy<>(dev, 0, n),
                         KOKKOS_LAMBDA(const int i) { y(i) = i; });
    dev.fence();
    Kokkos::deep_copy(dev, x, y);
    Kokkos::parallel_for("write_y", Kokkos::RangePolicy<>(dev, 0, n),
                         KOKKOS_LAMBDA(const int i) { y(i) = 2.0 * i; });
    dev.fence();
    printf("%g\n", x(7));
  }
  Kokkos::finalize();
  return 0;
}
