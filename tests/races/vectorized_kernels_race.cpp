// Kernels whose every access is checked before their loop lose their
// strand markers and are vectorized after the instrumentation, as they are
// without it (an update of arrays, a reduction).  Their races must stay:
// the host's unfenced read of what a vectorized kernel writes, an
// iteration that reads the element the next one writes, and the host's
// write of what a reduction into a View (which does not wait) read.
// EXPECT: data-race view=y subkind=missing-fence nodes=parallel_for:axpy,host lines=20,23 ops=write,read
// EXPECT: data-race view=x subkind=iteration-overlap nodes=parallel_for:shift,parallel_for:shift lines=26,26 ops=write,read
// EXPECT: data-race view=z subkind=missing-fence nodes=parallel_reduce:sum,host lines=30,32 ops=read,write
#include <Kokkos_Core.hpp>
#include <cstdio>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = 4096;
    Kokkos::View<double *> x("x", n + 1), y("y", n), z("z", n);
    Kokkos::parallel_for("init", n, KOKKOS_LAMBDA(const int i) { x(i) = i; z(i) = 1.0; });
    Kokkos::fence();
    Kokkos::parallel_for("axpy", n, KOKKOS_LAMBDA(const int i) { y(i) = 2.0 * x(i) + y(i); });
    // No fence: the host's read races with axpy's write.
    double r = 0;
    r += y(7);
    Kokkos::parallel_for("shift", n, KOKKOS_LAMBDA(const int i) {
      // x(i + 1) is the next iteration's x(i).
      x(i) = 0.5 * x(i + 1);
    });
    Kokkos::fence();
    Kokkos::View<double, Kokkos::HostSpace> s("s");
    Kokkos::parallel_reduce("sum", n, KOKKOS_LAMBDA(const int i, double &t) { t += z(i); }, s);
    // No fence: the reduction into a View may still be running.
    z(9) = 3.0;
    Kokkos::fence();
    printf("%g %g\n", s(), r);
  }
  Kokkos::finalize();
  return 0;
}
