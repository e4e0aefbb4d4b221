// Rows (each iteration's own row of a 2D View, kept as a few runs) under
// the MiniKokkos model, where nothing orders two kernels of one instance
// but a fence: "sum" reads each row through a gather while "late" may still
// be writing it, the first half of the rows from one line and the second
// half from another.  The second half of the View lies in chunks of shadow
// that hold rows only: there each strand's row is decided once, at the
// front of the runs that the kernels sweep, and that decision must see the
// race.
// KKRACE-OPTIONS: model=minikokkos
// EXPECT: data-race view=conn subkind=missing-fence nodes=parallel_for:late,parallel_for:sum lines=32,40 ops=write,read
// EXPECT: data-race view=conn subkind=missing-fence nodes=parallel_for:late,parallel_for:sum lines=35,40 ops=write,read
#include <Kokkos_Core.hpp>
#include <cstdio>
#include <cstdlib>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int K = argc > 100 ? atoi(argv[1]) : 16;
    const int n = 80000;
    Kokkos::View<int **> conn("conn", n, K);
    Kokkos::View<double *> x("x", n), y("y", n);
    Kokkos::parallel_for("fill", n, KOKKOS_LAMBDA(const int i) {
      x(i) = i;
      for (int k = 0; k < K; ++k)
        conn(i, k) = (i + 7 * k) % n;
    });
    Kokkos::fence();
    Kokkos::parallel_for("late", n, KOKKOS_LAMBDA(const int i) {
      if (i < n / 2)
        for (int k = 0; k < K; ++k)
          conn(i, k) = (i + k) % n;
      else
        for (int k = 0; k < K; ++k)
          conn(i, k) = (i + 3 * k) % n;
    });
    Kokkos::parallel_for("sum", n, KOKKOS_LAMBDA(const int i) {
      double s = 0;
      for (int k = 0; k < K; ++k)
        s += x(conn(i, k));
      y(i) = s;
    });
    Kokkos::fence();
    printf("%g %d\n", y(5), conn(7, 3));
  }
  Kokkos::finalize();
  return 0;
}
