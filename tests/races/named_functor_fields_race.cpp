// Named functors whose call operator the optimizer leaves out of line: the
// fields of the dispatch's copy are not checked, what they point to is.
// Each iteration of an axpy reads the element that the next one writes;
// and a functor type that is also called on objects in a View: there its
// fields are the program's data, checked, and iteration 3 of a kernel
// writes the weight that iteration 4 reads through the call operator.
// EXPECT: data-race view=y subkind=iteration-overlap nodes=parallel_for:axpy,parallel_for:axpy lines=19,19
// EXPECT: data-race view=ws subkind=iteration-overlap nodes=parallel_for:apply,parallel_for:apply lines=25,46
#include <Kokkos_Core.hpp>
#include <cstdio>

struct Axpy {
  Kokkos::View<double *> x, y;
  double a;
  int n;
  __attribute__((noinline)) void operator()(const int i) const {
    for (int k = 0; k < 4; k++)
      if (i + 1 < n)
        y(i) = a * x(i) + y(i + 1) + k;
  }
};

struct Weight {
  double f;
  __attribute__((noinline)) double operator()(const double v) const { return f * v; }
};

struct Apply {
  Kokkos::View<Weight *> ws;
  Kokkos::View<double *> out;
  __attribute__((noinline)) void operator()(const int i) const {
    out(i) = ws(i)(1.0);
  }
};

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = 64;
    Kokkos::View<double *> x("x", n), y("y", n), out("out", n);
    Kokkos::View<Weight *> ws("ws", n);
    Kokkos::parallel_for("axpy", n, Axpy{x, y, 2.0, n});
    Kokkos::parallel_for(
        "apply", n, KOKKOS_LAMBDA(const int i) {
          if (i == 3)
            ws(i + 1).f = 2.0;
          Apply{ws, out}(i);
        });
    Kokkos::fence();
    printf("%g %g\n", y(0), out(4));
  }
  Kokkos::finalize();
  return 0;
}
