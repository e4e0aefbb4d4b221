// Loops over cells whose records are all ordered before them (the kernel
// before, fenced, or an earlier kernel of the same instance) are decided
// in a tight loop that replaces the records.  What it takes must still
// race: the kernels' writes and reads meet the host's unfenced accesses
// (rows of 80 words, decided block by block, and rows of 20); and the
// loop stops at records of the running kernel, so that an iteration
// writing what the next one read is found.
// EXPECT: data-race view=V subkind=missing-fence nodes=parallel_for:fill,host lines=30,46 ops=write,read
// EXPECT: data-race view=U subkind=missing-fence nodes=parallel_for:scan,host lines=34,47 ops=read,write
// EXPECT: data-race view=W subkind=missing-fence nodes=parallel_for:short_rows,host lines=38,48 ops=read,write
// EXPECT: data-race view=S subkind=iteration-overlap nodes=parallel_for:shift,parallel_for:shift lines=42,43 ops=read,write
#include <Kokkos_Core.hpp>
#include <cstdio>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = 64, m = 80, k = 20;
    Kokkos::View<double **> U("U", n, m), V("V", n, m), T("T", n, m), S("S", n, m);
    Kokkos::View<double **> W("W", n, k), X("X", n, k);
    using MD = Kokkos::MDRangePolicy<Kokkos::Rank<2>>;
    Kokkos::parallel_for("init", MD({0, 0}, {n, m}), KOKKOS_LAMBDA(const int i, const int j) {
      U(i, j) = V(i, j) = S(i, j) = 1.0;
      if (j < k)
        W(i, j) = 2.0;
    });
    Kokkos::fence();
    // V's, U's and W's records are init's, fenced: below the horizon.
    Kokkos::parallel_for("fill", MD({0, 0}, {n, m}), KOKKOS_LAMBDA(const int i, const int j) {
      V(i, j) = i + j;
    });
    Kokkos::parallel_for("scan", MD({0, 0}, {n, m}), KOKKOS_LAMBDA(const int i, const int j) {
      T(i, j) = 2.0 *
                U(i, j);
    });
    Kokkos::parallel_for("short_rows", MD({0, 0}, {n, k}), KOKKOS_LAMBDA(const int i, const int j) {
      X(i, j) =
          W(i, j) + 1.0;
    });
    // S's rows: each iteration reads its element, then writes the next.
    Kokkos::parallel_for("shift", MD({0, 0}, {n, m - 1}), KOKKOS_LAMBDA(const int i, const int j) {
      const double s = S(i, j);
      S(i, j + 1) = s;
    });
    // The host, no fence: each access races with a kernel above.
    double r = V(5, 40);
    U(7, 50) = 3.0;
    W(3, 4) = 4.0;
    Kokkos::fence();
    printf("%g %g\n", r, T(1, 1) + X(1, 1));
  }
  Kokkos::finalize();
  return 0;
}
