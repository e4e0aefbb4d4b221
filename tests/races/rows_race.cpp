// Rows: each iteration of a kernel writes or reads a row of its own of a 2D
// View (`conn(i, k)` for k < K), which kkrace keeps as a few runs (one rule
// for all rows) rather than a record per element.  Races that reach into
// them: "peek" reads the first element of the row before its own, which
// that iteration writes in the same kernel; "gather" reads x through its
// row of conn while the next iteration writes that row's second element;
// "force" writes its row of pos and reads the next one's, which that
// iteration writes; the host reads a row of conn that "touch" writes,
// before the fence.  Rows of 24 ints cross the chunks of shadow.
// EXPECT: data-race view=conn subkind=iteration-overlap nodes=parallel_for:peek,parallel_for:peek lines=37,39 ops=write,read
// EXPECT: data-race view=conn subkind=iteration-overlap nodes=parallel_for:gather,parallel_for:gather lines=44,47 ops=read,write
// EXPECT: data-race view=pos subkind=iteration-overlap nodes=parallel_for:force,parallel_for:force lines=52,53 ops=read,write
// EXPECT: data-race view=conn subkind=missing-fence nodes=parallel_for:touch,host lines=58,60 ops=write,read
#include <Kokkos_Core.hpp>
#include <cstdio>
#include <cstdlib>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    // (A row length the compiler cannot see.)
    const int K = argc > 100 ? atoi(argv[1]) : 24;
    const int n = 40000;
    Kokkos::View<int **> conn("conn", n, K);
    Kokkos::View<double **> pos("pos", n, 3);
    Kokkos::View<double *> x("x", n), y("y", n);
    Kokkos::parallel_for("fill", n, KOKKOS_LAMBDA(const int i) {
      for (int k = 0; k < K; ++k)
        conn(i, k) = (i + 7 * k) % n;
      for (int d = 0; d < 3; ++d)
        pos(i, d) = i + d;
      x(i) = i;
    });
    Kokkos::fence();
    Kokkos::parallel_for("peek", n, KOKKOS_LAMBDA(const int i) {
      for (int k = 0; k < K; ++k)
        conn(i, k) += 1;
      if (i > 0)
        y(i) = conn(i - 1, 0);
    });
    Kokkos::parallel_for("gather", n, KOKKOS_LAMBDA(const int i) {
      double s = 0;
      for (int k = 0; k < K; ++k)
        s += x(conn(i, k) % n);
      y(i) = s;
      if (i > 0)
        conn(i - 1, 1) = 0;
    });
    Kokkos::parallel_for("force", n - 1, KOKKOS_LAMBDA(const int i) {
      double f = 0;
      for (int d = 0; d < 3; ++d)
        f += pos(i + 1, d) - pos(i, d);
      pos(i, 0) += f;
    });
    Kokkos::fence();
    Kokkos::parallel_for("touch", n, KOKKOS_LAMBDA(const int i) {
      for (int k = 0; k < K; ++k)
        conn(i, k) = k;
    });
    const int seen = conn(777, 3);
    Kokkos::fence();
    printf("%d %g\n", seen, y(5));
  }
  Kokkos::finalize();
  return 0;
}
