// What a kernel reads of its own closure (the values and Views it captured)
// races with nothing: no one writes a lambda's captures once it is made, and
// kkrace does not check those reads.  What the captures point to is checked
// as any memory: "shift" reads through a captured heap pointer what the
// next iteration writes; "scale" and "sum" only read their captures, and
// write their Views' elements (no race).  The lambdas are not inlined, so
// that they read their captures through the closure.
// EXPECT: data-race view=- subkind=iteration-overlap nodes=parallel_for:shift,parallel_for:shift lines=31,31 ops=write,read
#include <Kokkos_Core.hpp>
#include <cstdio>
#include <cstdlib>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = 1000;
    const double s = argc > 100 ? atof(argv[1]) : 2.0;
    const int k = argc > 100 ? atoi(argv[2]) : 3;
    double *p = static_cast<double *>(calloc(n + 1, sizeof(double)));
    Kokkos::View<double *> a("a", n), b("b", n);
    Kokkos::parallel_for("scale", n, [=](const int i) __attribute__((noinline)) {
      for (int j = 0; j < k; ++j)
        a(i) = s * b(i) + j;
    });
    Kokkos::fence();
    Kokkos::parallel_for("sum", n, [=](const int i) __attribute__((noinline)) {
      b(i) = a(i) + s * k;
    });
    Kokkos::fence();
    Kokkos::parallel_for("shift", n, [=](const int i) __attribute__((noinline)) {
      p[i] = s * p[i + 1] + k;
    });
    Kokkos::fence();
    printf("%g %g\n", a(1), p[0]);
    free(p);
  }
  Kokkos::finalize();
  return 0;
}
