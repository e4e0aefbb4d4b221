// Rows of 7 ints, one row per iteration, written in an inner loop that the
// compiler unrolls: each k a store that the pass checks as a loop over
// the iterations, 28 bytes apart, before the first of them runs.  The
// View spans several chunks, which nothing touched before, so that they
// take half-cells at once (a row's end shares a word with the next row's
// start every other row).  Races it must still show: an iteration that
// writes the first element of the next row, one that reads the last
// element of the row before, and the host reading a row before the fence.
// EXPECT: data-race view=col subkind=iteration-overlap nodes=parallel_for:fill,parallel_for:fill lines=24,26 ops=write,write
// EXPECT: data-race view=col subkind=iteration-overlap nodes=parallel_for:fill,parallel_for:fill lines=24,28 ops=write,read
// EXPECT: data-race view=col subkind=missing-fence nodes=host,parallel_for:fill lines=30,24 ops=read,write
#include <Kokkos_Core.hpp>
#include <cstdio>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = 400000, K = 7; /* 11 MB: several chunks */
    Kokkos::View<int *> col("col", n * K);
    Kokkos::View<int *> seen("seen", n);
    Kokkos::parallel_for("fill", n, KOKKOS_LAMBDA(const int i) {
      const int sz = K;
      for (int k = 0; k < sz; ++k)
        col(i * K + k) = i + (k - 3) * 97;
      if (i == 200001)
        col(i * K + K) = -1;
      if (i == 300001)
        seen(i) = col(i * K - 1);
    });
    int c = col(K * 100000 + 3);
    Kokkos::fence();
    printf("%d %d\n", c, col(5));
  }
  Kokkos::finalize();
  return 0;
}
