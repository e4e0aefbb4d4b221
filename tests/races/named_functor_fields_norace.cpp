// Named functors whose call operator the optimizer leaves out of line,
// dispatched again and again with other field values (a for, a reduce,
// and a functor built by each iteration for itself): the fields are the
// dispatch's copy, and each iteration writes only its own element.
// EXPECT: no-report
#include <Kokkos_Core.hpp>
#include <cstdio>
#include <cstdlib>

struct Axpy {
  Kokkos::View<double *> x, y;
  double a;
  int rows;
  __attribute__((noinline)) void operator()(const int i) const {
    for (int k = 0; k < rows; k++)
      y(i) += a * x(i);
  }
};

struct Sum {
  Kokkos::View<double *> y;
  double scale;
  __attribute__((noinline)) void operator()(const int i, double &s) const { s += scale * y(i); }
};

struct Weight {
  double f;
  __attribute__((noinline)) double operator()(const double v) const { return f * v; }
};

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = 1000;
    Kokkos::View<double *> x("x", n), y("y", n);
    Kokkos::deep_copy(x, 1.0);
    double total = 0;
    for (int r = 1; r <= 4; r++) {
      Kokkos::parallel_for("axpy", n, Axpy{x, y, 0.5 * r, r});
      double s = 0;
      Kokkos::parallel_reduce("sum", n, Sum{y, 1.0 / r}, s);
      total += s;
    }
    Kokkos::parallel_for(
        "own", n, KOKKOS_LAMBDA(const int i) { x(i) = Weight{2.0}(y(i)); });
    double xs = 0;
    Kokkos::parallel_reduce("xs", n, Sum{x, 1.0}, xs);
    // y(i) after step r: 0.5 * (1 + 4 + 9 + ... + r^2); the sums by 1 / r.
    const double want = n * (0.5 / 1 + 2.5 / 2 + 7.0 / 3 + 15.0 / 4);
    if (total < want - 1e-6 || total > want + 1e-6 || xs != 2.0 * n * 15.0) {
      printf("total %g (want %g), xs %g\n", total, want, xs);
      abort();
    }
    printf("ok\n");
  }
  Kokkos::finalize();
  return 0;
}
