// A generator's draws inside a loop (rejection loops of their own, which
// touch nothing but registers): the loop's accesses are checked before it,
// and its races are found.  Each iteration fills its row of 16 with
// draws, and one also writes the first element of the next row; in a
// reduction, each iteration weighs its row with draws, and the last one
// weighs row 3 and writes it.
// EXPECT: data-race view=out subkind=iteration-overlap nodes=parallel_for:rows,parallel_for:rows lines=24,27
// EXPECT: data-race view=w subkind=iteration-overlap nodes=parallel_reduce:weights,parallel_reduce:weights lines=38,40
#include <Kokkos_Core.hpp>
#include <Kokkos_Random.hpp>
#include <cstdio>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = 64, m = 16;
    Kokkos::Random_XorShift64_Pool<> pool(2024);
    Kokkos::View<int *> out("out", n * m);
    Kokkos::View<double *> w("w", n * m);
    Kokkos::parallel_for(
        "rows", n, KOKKOS_LAMBDA(const int i) {
          auto gen = pool.get_state();
          for (int j = 0; j < m; j++)
            out(i * m + j) = gen.rand(0, 100);
          pool.free_state(gen);
          if (i == 20)
            out((i + 1) * m) = -1;
        });
    Kokkos::fence();
    double total = 0;
    Kokkos::parallel_reduce(
        "weights", n,
        KOKKOS_LAMBDA(const int i, double &s) {
          auto gen = pool.get_state();
          const int row = i == n - 1 ? 3 : i;
          for (int j = 0; j < m; j++) {
            const double x = gen.drand(0.5, 1.5);
            s += w(row * m + j) * x;
            if (i == n - 1)
              w(row * m + j) = x;
          }
          pool.free_state(gen);
        },
        total);
    printf("%d %g\n", out(5), total);
  }
  Kokkos::finalize();
  return 0;
}
