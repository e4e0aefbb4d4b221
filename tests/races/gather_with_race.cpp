// A gather's companion: the loads of a contiguous array at the gather's
// iterations by the same strands (val(k) beside x(col(k)) in a sparse
// row) are checked by the gather's call, and a write that nothing orders
// with them is a race.  A team's single writes a value of row 20 while
// team 20's nested reduction reads it; the host rewrites an int weight
// while a RangePolicy kernel that reads it beside its gather may still
// run (no fence); after a team's barrier, iteration 3 of one nested loop
// writes x(rev(10)) and w(40), which iterations 10 and 40 of the next
// loop of the same phase read: the gather's tight loop stops at the first
// race, and the companion's reads after it are still checked.  The same
// with a companion of 4-byte elements: iteration 3 writes wi(30), which
// iteration 30 of the next loop reads beside x(rev(30)).
// EXPECT: data-race view=val subkind=iteration-overlap nodes=parallel_for:rows,parallel_for:rows lines=46,50
// EXPECT: data-race view=wi subkind=missing-fence nodes=host,parallel_for:weights lines=61,58
// EXPECT: data-race view=x subkind=team-threads nodes=parallel_for:phases,parallel_for:phases lines=77,72
// EXPECT: data-race view=wi subkind=team-threads nodes=parallel_for:ints,parallel_for:ints lines=86,83
// EXPECT: data-race view=w subkind=team-threads nodes=parallel_for:phases,parallel_for:phases lines=77,73
#include <Kokkos_Core.hpp>
#include <cstdio>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    using team_t = Kokkos::TeamPolicy<>::member_type;
    const int n = 64, per_row = 4;
    Kokkos::View<int *> col("col", n * per_row), wi("wi", n * per_row), rev("rev", n);
    Kokkos::View<double *> val("val", n * per_row), x("x", n), w("w", n);
    Kokkos::View<double *> out("out", n), sums("sums", n), y("y", n);
    Kokkos::parallel_for("init", n, KOKKOS_LAMBDA(const int i) {
      for (int k = 0; k < per_row; ++k) {
        col(i * per_row + k) = (i + 3 * k) % n;
        val(i * per_row + k) = 1.0 + k;
        wi(i * per_row + k) = k;
      }
      x(i) = i;
      w(i) = 1;
      rev(i) = n - 1 - i;
    });
    Kokkos::fence();
    Kokkos::parallel_for(
        "rows", Kokkos::TeamPolicy<>(n, Kokkos::AUTO), KOKKOS_LAMBDA(const team_t &team) {
          const int row = team.league_rank();
          double sum = 0;
          Kokkos::parallel_reduce(
              Kokkos::TeamThreadRange(team, row * per_row, (row + 1) * per_row),
              [&](const int k, double &s) { s += val(k) * x(col(k)); }, sum);
          Kokkos::single(Kokkos::PerTeam(team), [&]() {
            out(row) = sum;
            if (row == 5)
              val(20 * per_row + 1) = 3;
          });
        });
    Kokkos::fence();
    const int m = argc > 100 ? 3 : per_row; // (a count the loop is not unrolled for)
    Kokkos::parallel_for("weights", n, KOKKOS_LAMBDA(const int i) {
      double s = 0;
      for (int k = 0; k < m; ++k)
        s += wi(i * per_row + k) * x(col(i * per_row + k));
      sums(i) = s;
    });
    wi(7) = 1;
    Kokkos::fence();
    Kokkos::parallel_for(
        "phases", Kokkos::TeamPolicy<>(1, Kokkos::AUTO), KOKKOS_LAMBDA(const team_t &team) {
          double s = 0;
          Kokkos::parallel_reduce(
              Kokkos::TeamThreadRange(team, n),
              [&](const int k, double &t) { t += w(k) * x(rev(k)); }, s);
          team.team_barrier();
          Kokkos::parallel_for(Kokkos::TeamThreadRange(team, n), [&](const int k) {
            if (k == 3) {
              x(rev(10)) = s;
              w(40) = 2;
            }
          });
          Kokkos::parallel_for(Kokkos::TeamThreadRange(team, n),
                               [&](const int k) { y(k) = w(k) * x(rev(k)); });
        });
    Kokkos::parallel_for(
        "ints", Kokkos::TeamPolicy<>(1, Kokkos::AUTO), KOKKOS_LAMBDA(const team_t &team) {
          Kokkos::parallel_for(Kokkos::TeamThreadRange(team, n), [&](const int k) {
            if (k == 3)
              wi(30) = 7;
          });
          Kokkos::parallel_for(Kokkos::TeamThreadRange(team, n),
                               [&](const int k) { y(k) = wi(k) * x(rev(k)); });
        });
    Kokkos::fence();
    printf("%g %g %g\n", out(1), sums(2), y(5));
  }
  Kokkos::finalize();
  return 0;
}
