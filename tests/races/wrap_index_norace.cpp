// The twin of wrap_index_race: wrapped indices, checked by one call before
// their loops, where the wraps keep strands apart.  A periodic stencil from
// one View into another (1D and both indices of an MDRange); a rotation
// (out((i + 7) % n) = in(i)), each element written once; a mask over
// exactly as many iterations as elements; a table read through i % 3 by
// many iterations (read only: shared); a read through a mask after each
// iteration wrote its own element; and an unsigned 32-bit index that wraps
// around zero in the middle of the kernel, still one element per
// iteration.
// EXPECT: no-report
#include <Kokkos_Core.hpp>
#include <cstdio>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = 1000, m = 64;
    Kokkos::View<double *> u("u", n), v("v", n), out("out", n), h("h", 256),
        coef("coef", 3), big("big", 4096), x("x", 1024), y("y", 1024),
        r("r", 512), tab("tab", 100000);
    Kokkos::View<double **> a("a", m, m), b("b", m, m);
    Kokkos::parallel_for("init", n, KOKKOS_LAMBDA(int i) { u(i) = i; });
    Kokkos::parallel_for("init_a", Kokkos::MDRangePolicy<Kokkos::Rank<2>>({0, 0}, {m, m}),
                         KOKKOS_LAMBDA(int i, int j) { a(i, j) = i + j; });
    Kokkos::parallel_for("init_coef", 3, KOKKOS_LAMBDA(int i) { coef(i) = i + 1; });
    Kokkos::fence();
    for (int s = 0; s < 2; ++s) {
      Kokkos::parallel_for("periodic", n, KOKKOS_LAMBDA(int i) {
        v(i) = 0.5 * u(i) + 0.25 * (u((i + 1) % n) + u((i + n - 1) % n));
      });
      Kokkos::parallel_for("periodic_md", Kokkos::MDRangePolicy<Kokkos::Rank<2>>({0, 0}, {m, m}),
                           KOKKOS_LAMBDA(int i, int j) {
        b(i, j) = 0.2 * (a(i, j) + a((i + 1) % m, j) + a((i + m - 1) % m, j) +
                         a(i, (j + 1) % m) + a(i, (j + m - 1) % m));
      });
      auto t = u; u = v; v = t;
      auto c = a; a = b; b = c;
    }
    Kokkos::parallel_for("rotate", n, KOKKOS_LAMBDA(int i) { out((i + 7) % n) = u(i); });
    Kokkos::parallel_for("masked", Kokkos::RangePolicy<>(100, 356), KOKKOS_LAMBDA(int i) {
      h(i & 255) = big(i) + 1;
    });
    Kokkos::parallel_for("table", 100000, KOKKOS_LAMBDA(int i) {
      tab(i) = coef(i % 3);
    });
    Kokkos::parallel_for("own_then_masked", 1024, KOKKOS_LAMBDA(int i) {
      x(i) = i;
      y(i) = 2 * x(i & 1023);
    });
    Kokkos::parallel_for("wraps_at_zero", 512, KOKKOS_LAMBDA(int i) {
      unsigned k = unsigned(i) + 0xFFFFFF00u;
      r(k % 512u) = i;
    });
    Kokkos::fence();
    printf("%g %g %g %g %g %g\n", out(7), h(100), tab(5), y(3), r(256), b(1, 1));
  }
  Kokkos::finalize();
  return 0;
}
