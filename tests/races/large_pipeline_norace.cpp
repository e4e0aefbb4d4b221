// Large Views through a pipeline of kernels, reductions, host loops, deep
// copies and frees, each ordered by the instance's order or by a fence.
// EXPECT: no-report
#include <Kokkos_Core.hpp>
#include <cstdio>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = 300000;
    Kokkos::View<double *> a("a", n), b("b", n), c("c", n);
    auto h = Kokkos::create_mirror_view(a);
    for (int i = 0; i < n; ++i) h(i) = 0.5 * i;
    Kokkos::deep_copy(b, h);
    Kokkos::parallel_for("init", n, KOKKOS_LAMBDA(const int i) { c(i) = 1.0 + i % 3; });
    for (int r = 0; r < 3; ++r) {
      Kokkos::parallel_for("triad", n, KOKKOS_LAMBDA(const int i) { a(i) = b(i) + 2.0 * c(i); });
      Kokkos::parallel_for("back", n, KOKKOS_LAMBDA(const int i) { b(i) = 0.5 * a(i); });
      double s = 0;
      Kokkos::parallel_reduce("sum", n, KOKKOS_LAMBDA(const int i, double &t) { t += a(i); }, s);
      Kokkos::parallel_for("scale", n, KOKKOS_LAMBDA(const int i) { c(i) = c(i) / (1.0 + s * 1e-12); });
    }
    Kokkos::deep_copy(h, a);
    double t = 0;
    for (int i = 0; i < n; ++i) t += h(i);
    Kokkos::View<double *> d("d", n);
    Kokkos::deep_copy(d, a);
    Kokkos::fence();
    printf("%g %g\n", t, d(n - 1));
  }
  Kokkos::finalize();
  return 0;
}
