// Two iterations of one kernel each loop over their own half of a large
// View, then a second kernel reads both halves from each iteration.
// EXPECT: no-report
#include <Kokkos_Core.hpp>
#include <cstdio>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = 400000;
    Kokkos::View<double *> a("a", n), s("s", 2);
    Kokkos::parallel_for("init", n, KOKKOS_LAMBDA(const int i) { a(i) = i; });
    Kokkos::parallel_for(
        "halves", 2, KOKKOS_LAMBDA(const int k) {
          for (int j = k * (n / 2); j < (k + 1) * (n / 2); ++j)
            a(j) = k + a(j);
        });
    Kokkos::parallel_for(
        "sums", 2, KOKKOS_LAMBDA(const int k) {
          double t = 0;
          for (int j = 0; j < n; ++j)
            t += a(j);
          s(k) = t;
        });
    Kokkos::fence();
    printf("%g %g\n", s(0), s(1));
  }
  Kokkos::finalize();
  return 0;
}
