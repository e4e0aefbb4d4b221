// Methods of captured objects left out of line, each iteration reading
// and writing only its own elements through them: a captured grid whose
// method calls a method of its member, a method called from two kernels
// and from a named functor's out-of-line call operator, a reduction.  No
// report; the sums are checked.
// EXPECT: no-report
#include <Kokkos_Core.hpp>
#include <cstdio>

struct Field {
  Kokkos::View<double *> v;
  double scale;
  __attribute__((noinline)) double get(const int i) const { return scale * v(i); }
};

struct Grid {
  Field f;
  int n;
  __attribute__((noinline)) double at(const int i) const { return i < n ? f.get(i) : 0.0; }
  __attribute__((noinline)) void put(const int i, const double x) const { f.v(i) = x; }
};

struct Step {
  Grid g;
  Kokkos::View<double *> out;
  __attribute__((noinline)) void operator()(const int i) const { out(i) = g.at(i) + 1.0; }
};

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  int bad = 0;
  {
    const int n = 1000;
    Kokkos::View<double *> v("v", n), out("out", n);
    Grid g{{v, 2.0}, n};
    Kokkos::parallel_for(
        "fill", n, KOKKOS_LAMBDA(const int i) { g.put(i, (double)i); });
    Kokkos::parallel_for("step", n, Step{g, out});
    Kokkos::parallel_for(
        "again", n, KOKKOS_LAMBDA(const int i) { g.put(i, g.at(i) + out(i)); });
    double sum = 0;
    Kokkos::parallel_reduce(
        "sum", n, KOKKOS_LAMBDA(const int i, double &s) { s += g.at(i); }, sum);
    Kokkos::fence();
    // v(i) = 2 i + (2 i + 1) = 4 i + 1, read scaled by 2: the sum of 8 i + 2.
    const double want = 8.0 * n * (n - 1) / 2 + 2.0 * n;
    if (sum != want)
      bad = 1;
    printf("sum %g want %g\n", sum, want);
  }
  Kokkos::finalize();
  return bad;
}
