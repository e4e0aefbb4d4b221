// The twin of gather_race.cpp, race-free: the team that writes x writes its
// own View (w), the scatter's 64-bit indices are a permutation, and the
// host gathers after the fence.
// EXPECT: no-report
#include <Kokkos_Core.hpp>
#include <cstdio>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    using team_t = Kokkos::TeamPolicy<>::member_type;
    const int n = 64, per_row = 4;
    Kokkos::View<int *> col("col", n * per_row);
    Kokkos::View<double *> x("x", n), w("w", n), out("out", n), y("y", n),
        z("z", n);
    Kokkos::View<long *> idx("idx", n);
    Kokkos::View<unsigned *> perm("perm", n);
    Kokkos::parallel_for("init", n, KOKKOS_LAMBDA(const int i) {
      for (int k = 0; k < per_row; ++k)
        col(i * per_row + k) = (i + 3 * k) % n;
      x(i) = i;
      idx(i) = (i * 5) % n;
      perm(i) = (unsigned)(n - 1 - i);
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
            if (row == 40)
              w(20) = 0.5;
            out(row) = sum;
          });
        });
    Kokkos::fence();
    Kokkos::parallel_for("scatter", n, KOKKOS_LAMBDA(const int i) {
      y(idx(i)) = 2.0 * i;
    });
    Kokkos::fence();
    Kokkos::parallel_for("fill", n, KOKKOS_LAMBDA(const int i) { z(i) = i; });
    Kokkos::fence();
    double s = 0;
    for (int k = 0; k < n; ++k)
      s += z(perm(k));
    printf("%g %g %g\n", out(1), y(3), s);
  }
  Kokkos::finalize();
  return 0;
}
