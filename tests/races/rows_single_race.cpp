// Rows written one element at a time (each value comes from a call, so the
// compiler keeps the stores apart): kkrace joins each strand's elements to
// the rule of the rows before them as they come, an int after the other.
// Races that rely on those records: "fill" writes the last element of the
// row before its own, which the iteration before it wrote; "dfill" does the
// same in rows of 5 doubles; the host reads a row of conn that "touch"
// writes, before the fence.  Rows of 7 ints end in the middle of a word.
// EXPECT: data-race view=conn subkind=iteration-overlap nodes=parallel_for:fill,parallel_for:fill lines=28,30 ops=write,write
// EXPECT: data-race view=pos subkind=iteration-overlap nodes=parallel_for:dfill,parallel_for:dfill lines=34,36 ops=write,write
// EXPECT: data-race view=conn subkind=missing-fence nodes=parallel_for:touch,host lines=41,43 ops=write,read
#include <Kokkos_Core.hpp>
#include <cstdio>
#include <cstdlib>

__attribute__((noinline)) int value_of(int i, int k) { return (i * 31 + k) % 1000; }

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    // (Row lengths the compiler cannot see.)
    const int K = argc > 100 ? atoi(argv[1]) : 7;
    const int D = argc > 100 ? atoi(argv[2]) : 5;
    const int n = 60000;
    Kokkos::View<int **> conn("conn", n, K);
    Kokkos::View<double **> pos("pos", n, D);
    Kokkos::parallel_for("fill", n, KOKKOS_LAMBDA(const int i) {
      for (int k = 0; k < K; ++k)
        conn(i, k) = value_of(i, k);
      if (i == n / 2)
        conn(i - 1, K - 1) = -1;
    });
    Kokkos::parallel_for("dfill", n, KOKKOS_LAMBDA(const int i) {
      for (int d = 0; d < D; ++d)
        pos(i, d) = value_of(i, d) * 0.5;
      if (i == n / 3)
        pos(i - 1, D - 1) = -1;
    });
    Kokkos::fence();
    Kokkos::parallel_for("touch", n, KOKKOS_LAMBDA(const int i) {
      for (int k = 0; k < K; ++k)
        conn(i, k) = value_of(k, i);
    });
    const int seen = conn(777, 3);
    Kokkos::fence();
    printf("%d %g\n", seen, pos(5, 1));
  }
  Kokkos::finalize();
  return 0;
}
