// Every iteration reads the same coefficients and its own element, in
// several kernels in a row: reads shared by all strands never race.
// EXPECT: no-report
#include <Kokkos_Core.hpp>
#include <cstdio>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = 1000;
    Kokkos::View<double *> x("x", n), coef("coef", 2);
    Kokkos::View<int *> idx("idx", n);
    Kokkos::deep_copy(coef, 2.0);
    for (int r = 0; r < 3; ++r) {
      Kokkos::parallel_for("scale", n, KOKKOS_LAMBDA(const int i) {
        x(i) = x(i) * coef(0) + coef(1) + idx(i) + idx((i * 7) % n);
      });
      Kokkos::parallel_for("index", n, KOKKOS_LAMBDA(const int i) {
        idx(i) = (i + r) % n;
      });
    }
    Kokkos::fence();
    printf("%g\n", x(0));
  }
  Kokkos::finalize();
  return 0;
}
