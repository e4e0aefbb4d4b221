// parallel_reduce into a View is asynchronous: reading the result on the
// host needs a fence.
// EXPECT: data-race view=sum subkind=missing-fence nodes=parallel_reduce:total,host
#include <Kokkos_Core.hpp>
#include <cstdio>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = 100;
    Kokkos::View<double *> x("x", n);
    Kokkos::View<double, Kokkos::HostSpace> sum("sum");
    Kokkos::parallel_for("init", n, KOKKOS_LAMBDA(const int i) { x(i) = i; });
    Kokkos::parallel_reduce(
        "total", n,
        KOKKOS_LAMBDA(const int i, double &s) { s += x(i); }, sum);
    printf("%g\n", sum());
    Kokkos::fence();
  }
  Kokkos::finalize();
  return 0;
}
