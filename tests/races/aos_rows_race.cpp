// Rows of 3-vectors that each iteration writes one component at a time
// (the loop over k unrolled: single accesses, not a loop's), many enough
// that the chunks of runs they make go to cells in the middle of the
// kernel.  Races it must still show: an iteration that reads a component
// that an early iteration wrote while its chunk was runs, one that writes
// the last component of the next iteration's row once the chunk is cells,
// and the host reading a component that the runs held when they went to
// cells.
// EXPECT: data-race view=v subkind=iteration-overlap nodes=parallel_for:init,parallel_for:init lines=25,28 ops=write,read
// EXPECT: data-race view=v subkind=iteration-overlap nodes=parallel_for:init,parallel_for:init lines=25,30 ops=write,write
// EXPECT: data-race view=v subkind=missing-fence nodes=parallel_for:init,host lines=25,32 ops=write,read
#include <Kokkos_Core.hpp>
#include <cstdio>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    // (Each View's chunk takes a few thousand rows before it goes to
    // cells.)
    const int n = 40000;
    Kokkos::View<double *> x("x", 3 * n), v("v", 3 * n);
    Kokkos::parallel_for("init", n, KOKKOS_LAMBDA(const int i) {
      for (int k = 0; k < 3; ++k) {
        x(3 * i + k) = i * 0.001 + k;
        v(3 * i + k) = 0.5 - k;
      }
      if (i == 10000)
        x(3 * i) = v(3 * 500 + 1);
      if (i == 30000)
        v(3 * (i + 1) + 2) = -2.0;
    });
    double s = v(3 * 600 + 1);
    Kokkos::fence();
    printf("%g\n", s);
  }
  Kokkos::finalize();
  return 0;
}
