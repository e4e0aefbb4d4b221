// Histograms of int bins through int keys, each iteration adding its row
// of keys' counts in a loop of its own (Kokkos::atomic_add): the bins and
// the keys are both arrays of int, so that the compiler cannot tell the
// adds from the keys; kkrace checks the loop's adds before it when none of
// them lands among the keys (`hist`), and each add in the loop when one
// does (`self`: a table whose counts and keys share one View, some keys
// naming keys of their own row, whose adds change keys that the row reads
// after them).  The host then reads a bin of each before a fence: two
// races with the kernels' adds.
// EXPECT: data-race view=bins subkind=missing-fence nodes=host,parallel_for:hist lines=40,30
// EXPECT: data-race view=table subkind=missing-fence nodes=host,parallel_for:self lines=41,36
#include <Kokkos_Core.hpp>
#include <cstdio>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = 4096, m = 16, nb = 64;
    Kokkos::View<int **> keys("keys", n, m);
    Kokkos::View<int *> bins("bins", nb), table("table", nb + n * m);
    Kokkos::parallel_for("fill", n, KOKKOS_LAMBDA(const int i) {
      for (int j = 0; j < m; ++j) {
        keys(i, j) = (i * 7 + j * 13) % nb;
        table(nb + i * m + j) = (i + j) % 3 == 0 ? nb + i * m + (j + 1) % m : (i + j) % nb;
      }
    });
    Kokkos::fence();
    Kokkos::parallel_for("hist", n, KOKKOS_LAMBDA(const int i) {
      for (int j = 0; j < m; ++j)
        Kokkos::atomic_add(&bins(keys(i, j)), 1);
    });
    Kokkos::parallel_for("self", n, KOKKOS_LAMBDA(const int i) {
      // (Some keys name keys of the row: their adds change keys that the
      // loop reads after them.)
      for (int j = 0; j < m; ++j)
        Kokkos::atomic_add(&table(table(nb + i * m + j)), 1);
    });
    int b = 0, t = 0;
    for (int k = 0; k < nb; ++k) {
      b += bins(k);
      t += table(k);
    }
    Kokkos::fence();
    printf("%d %d\n", b, t);
  }
  Kokkos::finalize();
  return 0;
}
