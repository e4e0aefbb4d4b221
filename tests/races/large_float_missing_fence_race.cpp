// A large View of floats (runs of half-words cover it): the host sums what a
// kernel writes without fencing first.
// EXPECT: data-race view=x subkind=missing-fence nodes=parallel_for:init,host lines=13,15 ops=read,write
#include <Kokkos_Core.hpp>
#include <cstdio>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = 400001;
    Kokkos::View<float *, Kokkos::HostSpace> x("x", n);
    Kokkos::parallel_for("init", n,
                         KOKKOS_LAMBDA(const int i) { x(i) = 2.0f * i; });
    double s = 0;
    for (int i = 0; i < n; ++i) s += x(i);
    Kokkos::fence();
    printf("%g\n", s);
  }
  Kokkos::finalize();
  return 0;
}
