// The race-free Monte Carlo histogram: each iteration draws from a random
// pool (64-bit and 1024-bit XorShift generators, whose states the pool
// hands to one thread at a time) and adds one to its bin atomically.
// EXPECT: no-report
#include <Kokkos_Core.hpp>
#include <Kokkos_Random.hpp>
#include <cstdio>

using space = Kokkos::DefaultExecutionSpace;

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = 1000, bins = 16;
    Kokkos::Random_XorShift64_Pool<space> pool(2024);
    Kokkos::Random_XorShift1024_Pool<space> pool1024(7);
    Kokkos::View<int *> hist("hist", bins);
    Kokkos::View<double *> x("x", n);
    Kokkos::parallel_for(
        "sample", n, KOKKOS_LAMBDA(const int i) {
          auto gen = pool.get_state();
          const double v = gen.drand(0.0, 1.0);
          x(i) = v;
          Kokkos::atomic_add(&hist(static_cast<int>(v * bins)), 1);
          pool.free_state(gen);
        });
    Kokkos::parallel_for(
        "sample1024", n, KOKKOS_LAMBDA(const int i) {
          auto gen = pool1024.get_state();
          const int b = gen.urand(bins);
          x(i) += gen.normal();
          Kokkos::atomic_increment(&hist(b));
          pool1024.free_state(gen);
        });
    Kokkos::fence();
    printf("%d %g\n", hist(0), x(0));
  }
  Kokkos::finalize();
  return 0;
}
