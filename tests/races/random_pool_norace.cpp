// Random numbers in kernels: each iteration takes a generator state from
// the pool, draws, and gives it back (64-bit and 1024-bit XorShift pools);
// the pool hands a state to one thread at a time (on Serial: state 0 to
// every iteration, one after the other).
// EXPECT: no-report
#include <Kokkos_Core.hpp>
#include <Kokkos_Random.hpp>
#include <cstdio>

using space = Kokkos::DefaultExecutionSpace;

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = 100;
    Kokkos::Random_XorShift64_Pool<space> pool64(12345);
    Kokkos::Random_XorShift1024_Pool<space> pool1024(6789);
    Kokkos::View<double *> x("x", n), y("y", n);
    Kokkos::parallel_for(
        "draw64", n, KOKKOS_LAMBDA(const int i) {
          auto gen = pool64.get_state();
          x(i) = gen.drand(0.0, 1.0);
          pool64.free_state(gen);
        });
    Kokkos::parallel_for(
        "draw1024", n, KOKKOS_LAMBDA(const int i) {
          auto gen = pool1024.get_state();
          y(i) = gen.normal();
          pool1024.free_state(gen);
        });
    Kokkos::fence();
    printf("%g %g\n", x(0), y(0));
  }
  Kokkos::finalize();
  return 0;
}
