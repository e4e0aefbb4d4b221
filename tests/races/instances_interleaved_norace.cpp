// Two instances of the host space, each with its own chain of kernels over
// its own Views, submitted in turn and fenced only at the end (the
// tutorials' "instances" exercise).  The other instance's first unfenced
// kernel stops each kernel's horizon, so that the earlier kernels of its
// own instance lie above it: submission order on the instance orders them
// all the same.  Nothing races.
// REQUIRES: kokkos4
// EXPECT: no-report
#include <Kokkos_Core.hpp>
#include <cstdio>

using exec_t = Kokkos::DefaultHostExecutionSpace;
using view_t = Kokkos::View<double *, Kokkos::HostSpace>;

static void chain(const exec_t &e, view_t x, view_t y, view_t dot) {
  const int n = x.extent(0);
  Kokkos::deep_copy(e, y, -2.5);
  Kokkos::parallel_for("add", Kokkos::RangePolicy<exec_t>(e, 0, n),
                       KOKKOS_LAMBDA(const int i) { x(i) += y(i); });
  Kokkos::parallel_for("shift", Kokkos::RangePolicy<exec_t>(e, 0, n),
                       KOKKOS_LAMBDA(const int i) {
                         double t = 0;
                         for (int j = 0; j < n; ++j)
                           t += x(j) * (i == j ? 2.0 : 0.001);
                         y(i) = t;
                       });
  Kokkos::parallel_for("dot", Kokkos::RangePolicy<exec_t>(e, 0, 1),
                       KOKKOS_LAMBDA(const int) {
                         double s = 0;
                         for (int j = 0; j < n; ++j)
                           s += y(j) * y(j);
                         dot(0) = s;
                       });
}

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    auto inst = Kokkos::Experimental::partition_space(exec_t(), 1, 1);
    const int n = 512;
    view_t x1("x1", n), y1("y1", n), d1("d1", 1);
    view_t x2("x2", n), y2("y2", n), d2("d2", 1);
    Kokkos::deep_copy(x1, 3.0);
    Kokkos::deep_copy(x2, 3.5);
    for (int r = 0; r < 4; ++r) {
      chain(inst[0], x1, y1, d1);
      chain(inst[1], x2, y2, d2);
    }
    Kokkos::fence();
    printf("%g %g\n", d1(0), d2(0));
  }
  Kokkos::finalize();
  return 0;
}
