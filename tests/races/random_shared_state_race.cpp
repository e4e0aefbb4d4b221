// One generator state, taken from the pool on the host and captured by
// reference: every iteration draws from it, so that they all update one
// state (each should take its own from the pool in the kernel).  The
// kernel's other accesses are checked as always: a neighbour written.  (At
// -O0 the generator's draw is a call: the earlier access is known by its
// line in Kokkos only, and the draw has two pairs of such lines that race,
// two reports; at -O2 it is inlined, one pair: built at -O2 only.)
// OPT: O2
// EXPECT: data-race view=- subkind=iteration-overlap nodes=parallel_for:draw,parallel_for:draw lines=26,26
// EXPECT: data-race view=v subkind=iteration-overlap nodes=parallel_for:draw,parallel_for:draw lines=26,28
// EXPECT-TEXT: a variable on the stack of main thread
#include <Kokkos_Core.hpp>
#include <Kokkos_Random.hpp>
#include <cstdio>

using pool_t = Kokkos::Random_XorShift64_Pool<Kokkos::DefaultExecutionSpace>;

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = 64;
    pool_t pool(12345);
    Kokkos::View<double *> v("v", n + 1);
    auto gen = pool.get_state();
    Kokkos::parallel_for("draw", n, [&](const int i) {
      v(i) += gen.drand();
      if (i % 8 == 7)
        v(i + 1) = 0.0;
    });
    Kokkos::fence();
    pool.free_state(gen);
    printf("%g\n", v(3));
  }
  Kokkos::finalize();
  return 0;
}
