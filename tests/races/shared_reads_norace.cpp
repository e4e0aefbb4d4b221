// Every iteration of a kernel reads all of two Views and writes its own
// element of a third in the same MiB, kernel after kernel: blocks read by
// several iterations are skipped within a kernel, never across kernels,
// and the next kernel's writes of what was read, and the host's after a
// fence, are ordered after those reads.
// EXPECT: no-report
#include <Kokkos_Core.hpp>
#include <cstdio>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = 1024, m = 64;
    Kokkos::View<double *> x("x", n), y("y", n), s("s", m);
    Kokkos::deep_copy(x, 1.0);
    Kokkos::deep_copy(y, 2.0);
    for (int step = 0; step < 3; ++step) {
      Kokkos::parallel_for("sums", m, KOKKOS_LAMBDA(const int i) {
        double t = 0;
        for (int j = 0; j < n; ++j) t += x(j) * y(j);
        s(i) = t;
      });
      Kokkos::parallel_for("update", n, KOKKOS_LAMBDA(const int j) {
        x(j) += s(j % m) * 1e-9;
        y(j) = 0.5 * y(j);
      });
    }
    Kokkos::fence();
    for (int j = 0; j < n; ++j) x(j) = 0;
    double t = 0;
    for (int j = 0; j < m; ++j) t += s(j);
    printf("%g\n", t);
  }
  Kokkos::finalize();
  return 0;
}
