// A gather's index array is itself checked: the reads of col(k) in
// x(col(k)) are checked by the gather's own call (one line, one strand),
// and a write of col that nothing orders with them is a race.  A team's
// single writes an entry of row 20's indices while team 20's nested
// reduction reads it; the host rewrites an index while a RangePolicy
// kernel that gathers through it may still run (no fence).
// EXPECT: data-race view=col subkind=iteration-overlap nodes=parallel_for:rows,parallel_for:rows lines=32,36
// EXPECT: data-race view=col subkind=missing-fence nodes=parallel_for:sum,host lines=43,46
#include <Kokkos_Core.hpp>
#include <cstdio>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    using team_t = Kokkos::TeamPolicy<>::member_type;
    const int n = 64, per_row = 4;
    Kokkos::View<int *> col("col", n * per_row);
    Kokkos::View<double *> x("x", n), out("out", n), sums("sums", n);
    Kokkos::parallel_for("init", n, KOKKOS_LAMBDA(const int i) {
      for (int k = 0; k < per_row; ++k)
        col(i * per_row + k) = (i + 3 * k) % n;
      x(i) = i;
    });
    Kokkos::fence();
    Kokkos::parallel_for(
        "rows", Kokkos::TeamPolicy<>(n, Kokkos::AUTO),
        KOKKOS_LAMBDA(const team_t &team) {
          const int row = team.league_rank();
          double sum = 0;
          Kokkos::parallel_reduce(
              Kokkos::TeamThreadRange(team, row * per_row, (row + 1) * per_row),
              [&](const int k, double &s) { s += x(col(k)); }, sum);
          Kokkos::single(Kokkos::PerTeam(team), [&]() {
            out(row) = sum;
            if (row == 5)
              col(20 * per_row + 1) = 3;
          });
        });
    Kokkos::fence();
    Kokkos::parallel_for("sum", n, KOKKOS_LAMBDA(const int i) {
      double s = 0;
      for (int k = 0; k < per_row; ++k)
        s += x(col(i * per_row + k));
      sums(i) = s;
    });
    col(7) = 1;
    Kokkos::fence();
    printf("%g %g\n", out(1), sums(2));
  }
  Kokkos::finalize();
  return 0;
}
