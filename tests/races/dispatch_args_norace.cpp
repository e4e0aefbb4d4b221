// Functions left out of line that read captured structs through reference
// arguments, each iteration reading and writing only its own elements: a
// helper taking two members of one closure, a helper called from a helper,
// a reduction, and a rank-2 MDRange.  No report; the sums are checked.
// EXPECT: no-report
#include <Kokkos_Core.hpp>
#include <cstdio>

struct Scale {
  double a, b;
};
struct Field {
  Kokkos::View<double *> v;
  int n;
};
__attribute__((noinline)) static double at(const int i, const Field &f) {
  return i < f.n ? f.v(i) : 0.0;
}
__attribute__((noinline)) static double scaled(const int i, const Field &f, const Scale &s) {
  return s.a * at(i, f) + s.b;
}

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  int bad = 0;
  {
    const int n = 1000;
    Kokkos::View<double *> v("v", n), w("w", n);
    Kokkos::View<double **> m("m", 10, n / 10);
    Field f{v, n};
    Scale s{2.0, 1.0};
    Kokkos::parallel_for(
        "fill", n, KOKKOS_LAMBDA(const int i) { v(i) = i; });
    Kokkos::parallel_for(
        "scale", n, KOKKOS_LAMBDA(const int i) { w(i) = scaled(i, f, s); });
    double sum = 0;
    Kokkos::parallel_reduce(
        "sum", n, KOKKOS_LAMBDA(const int i, double &t) { t += scaled(i, f, s) - w(i); }, sum);
    Kokkos::parallel_for(
        "md", Kokkos::MDRangePolicy<Kokkos::Rank<2>>({0, 0}, {10, n / 10}),
        KOKKOS_LAMBDA(const int r, const int c) { m(r, c) = at(r * (n / 10) + c, f); });
    double msum = 0;
    Kokkos::parallel_reduce(
        "msum", Kokkos::MDRangePolicy<Kokkos::Rank<2>>({0, 0}, {10, n / 10}),
        KOKKOS_LAMBDA(const int r, const int c, double &t) { t += m(r, c); }, msum);
    Kokkos::fence();
    bad = sum != 0.0 || msum != (double)n * (n - 1) / 2 || w(3) != 7.0;
    printf("%g %g %g\n", sum, msum, w(3));
  }
  Kokkos::finalize();
  return bad;
}
