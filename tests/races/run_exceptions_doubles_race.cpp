// A large double View kept as a run, a few of its elements written one at
// a time by a kernel (the run's exceptions), one of them read by the host
// before the fence.
// EXPECT: data-race view=x subkind=missing-fence nodes=parallel_for:mark,host lines=18,20 ops=write,read
#include <Kokkos_Core.hpp>
#include <cstdio>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = 400000;
    Kokkos::View<double *, Kokkos::HostSpace> x("x", n);
    Kokkos::parallel_for("init", n,
                         KOKKOS_LAMBDA(const int i) { x(i) = 2.0 * i; });
    Kokkos::fence();
    Kokkos::parallel_for("mark", n, KOKKOS_LAMBDA(const int i) {
      if (i % 997 == 0)
        x(i) = -1.0;
    });
    const double last = x(997 * 300);
    Kokkos::fence();
    printf("%g\n", last);
  }
  Kokkos::finalize();
  return 0;
}
