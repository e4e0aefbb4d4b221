// A gather's companion (val(k) beside x(col(k)), checked by the gather's
// call) makes no report where nothing races: a sparse product whose teams
// take blocks of rows, each row a nested reduction; after a team's
// barrier, a nested loop that writes the values that the reduction before
// it read; a companion of 4-byte elements; and the rows of a RangePolicy
// kernel, each the current strand's.  The results are checked.
// EXPECT: no-report
#include <Kokkos_Core.hpp>
#include <cstdio>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  int bad = 0;
  {
    using team_t = Kokkos::TeamPolicy<>::member_type;
    const int n = 1000, per_row = 5, rows_per_team = 16;
    const int m = argc > 100 ? 3 : per_row; // (a count the loop is not unrolled for)
    Kokkos::View<int *> rowptr("rowptr", n + 1), col("col", n * per_row), wi("wi", n);
    Kokkos::View<double *> val("val", n * per_row), x("x", n), y("y", n), z("z", n);
    Kokkos::parallel_for("matrix", n, KOKKOS_LAMBDA(const int i) {
      rowptr(i + 1) = (i + 1) * per_row;
      for (int k = 0; k < per_row; ++k) {
        col(i * per_row + k) = (i + (k - per_row / 2) * 37 + n) % n;
        val(i * per_row + k) = k == per_row / 2 ? 4.0 : -1.0;
      }
      x(i) = 1.0;
      wi(i) = 2;
    });
    Kokkos::fence();
    const int league = (n + rows_per_team - 1) / rows_per_team;
    for (int it = 0; it < 3; ++it) {
      Kokkos::parallel_for(
          "spmv", Kokkos::TeamPolicy<>(league, Kokkos::AUTO), KOKKOS_LAMBDA(const team_t &team) {
            const int first = team.league_rank() * rows_per_team;
            const int last = first + rows_per_team < n ? first + rows_per_team : n;
            for (int row = first; row < last; ++row) {
              double sum = 0;
              Kokkos::parallel_reduce(
                  Kokkos::TeamThreadRange(team, rowptr(row), rowptr(row + 1)),
                  [&](const int k, double &s) { s += val(k) * x(col(k)); }, sum);
              Kokkos::single(Kokkos::PerTeam(team), [&]() { y(row) = sum; });
            }
          });
      Kokkos::fence();
    }
    Kokkos::parallel_for(
        "update", Kokkos::TeamPolicy<>(1, Kokkos::AUTO), KOKKOS_LAMBDA(const team_t &team) {
          double s = 0;
          Kokkos::parallel_reduce(
              Kokkos::TeamThreadRange(team, n),
              [&](const int k, double &t) { t += val(k) * x(col(k)); }, s);
          team.team_barrier();
          Kokkos::parallel_for(Kokkos::TeamThreadRange(team, n),
                               [&](const int k) { val(k) = s; });
          Kokkos::parallel_for(Kokkos::TeamThreadRange(team, n),
                               [&](const int k) { z(k) = wi(k) * x(col(k)); });
        });
    Kokkos::parallel_for("rows", n, KOKKOS_LAMBDA(const int i) {
      double s = 0;
      for (int k = 0; k < m; ++k)
        s += val(i * per_row + k) * x(col(i * per_row + k));
      y(i) = s;
    });
    Kokkos::fence();
    // (Row sums of the matrix: 4 - 4 = 0; the update's sum: n * 0 = 0; z = 2.)
    if (z(7) != 2.0 || val(3) != 0.0 || y(5) != 0.0)
      bad = 1;
    printf("%g %g %g\n", z(7), val(3), y(5));
  }
  Kokkos::finalize();
  return bad;
}
