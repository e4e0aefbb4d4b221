// Reads that pending blocks stand for, with nothing that races with them:
// strands reading their element and the next one, and writing other Views
// or their own element that no other strand read; the next kernel writing
// what was read (ordered after the reads); a 2D Jacobi stencil swapping
// its Views step after step; every iteration reading all of a View (an
// n-body step); and the host writing after a fence.
// EXPECT: no-report
#include <Kokkos_Core.hpp>
#include <cstdio>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = 1025;
    Kokkos::View<double *> a("a", n + 1), b("b", n), c("c", n), s("s", 64);
    Kokkos::deep_copy(a, 1.0);
    for (int step = 0; step < 3; ++step) {
      Kokkos::parallel_for("pairs", n, KOKKOS_LAMBDA(const int i) {
        b(i) = a(i) + a(i + 1);
        c(i) = 0.5 * b(i);
      });
      Kokkos::parallel_for("own", n, KOKKOS_LAMBDA(const int i) {
        b(i) = c(i);
        c(i) = 2 * b(i);
      });
      Kokkos::parallel_for("back", n, KOKKOS_LAMBDA(const int i) {
        a(i) = 0.25 * c(i);
      });
      Kokkos::parallel_for("all", 64, KOKKOS_LAMBDA(const int i) {
        double t = 0;
        for (int j = 0; j < n; ++j) t += a(j);
        s(i) = t;
      });
    }
    const int m = 96;
    Kokkos::View<double **> u("u", m + 2, m + 2), v("v", m + 2, m + 2);
    Kokkos::deep_copy(u, 1.0);
    using MD = Kokkos::MDRangePolicy<Kokkos::Rank<2>>;
    for (int step = 0; step < 4; ++step) {
      // (Even steps read u and write v, odd steps the other way round.)
      auto from = step % 2 ? v : u, to = step % 2 ? u : v;
      Kokkos::parallel_for("jacobi", MD({1, 1}, {m + 1, m + 1}),
                           KOKKOS_LAMBDA(const int i, const int j) {
                             const double ns = from(i - 1, j) + from(i + 1, j);
                             const double ew = from(i, j - 1) + from(i, j + 1);
                             to(i, j) = (ns + ew) / 4;
                           });
    }
    Kokkos::fence();
    for (int j = 0; j < n; ++j) a(j) = 0;
    u(5, 5) = 0;
    printf("%g %g %g\n", s(0), c(3), u(3, 3));
  }
  Kokkos::finalize();
  return 0;
}
