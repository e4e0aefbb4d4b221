// A Monte Carlo histogram: each iteration draws from a random pool and adds
// one to the bin it lands in, with a plain `+=`.  Two iterations that land
// in one bin race (on OpenMP, Threads or CUDA they run at the same time);
// the generator state they take from the pool is theirs alone and does
// not hide that.
// EXPECT: data-race view=hist subkind=iteration-overlap nodes=parallel_for:sample,parallel_for:sample lines=26,26
#include <Kokkos_Core.hpp>
#include <Kokkos_Random.hpp>
#include <cstdio>

using space = Kokkos::DefaultExecutionSpace;

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = 1000, bins = 16;
    Kokkos::Random_XorShift64_Pool<space> pool(2024);
    Kokkos::View<int *> hist("hist", bins);
    Kokkos::View<double *> x("x", n);
    Kokkos::parallel_for(
        "sample", n, KOKKOS_LAMBDA(const int i) {
          auto gen = pool.get_state();
          const double v = gen.drand(0.0, 1.0);
          x(i) = v;
          const int b = static_cast<int>(v * bins);
          hist(b) += 1;
          pool.free_state(gen);
        });
    Kokkos::fence();
    printf("%d %g\n", hist(0), x(0));
  }
  Kokkos::finalize();
  return 0;
}
