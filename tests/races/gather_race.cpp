// Reads and writes through index arrays (x(col(k)), y(idx(i))), which the
// pass checks before their loops run, reading the indices itself: a team's
// nested reduction gathers x through int column indices while a single of
// another team writes an element of x (teams 11, 14, 17 and 20 read it
// after team 5 wrote it: a later team's gather finds the race); a
// RangePolicy kernel scatters through 64-bit indices with repeated
// entries, so that two iterations write one element; and the host gathers
// through unsigned indices from a View that a kernel is still writing (no
// fence).
// EXPECT: data-race view=x subkind=iteration-overlap nodes=parallel_for:rows,parallel_for:rows lines=40,43
// EXPECT: data-race view=y subkind=iteration-overlap nodes=parallel_for:scatter,parallel_for:scatter lines=49,49
// EXPECT: data-race view=z subkind=missing-fence nodes=parallel_for:fill,host lines=52,55
#include <Kokkos_Core.hpp>
#include <cstdio>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    using team_t = Kokkos::TeamPolicy<>::member_type;
    const int n = 64, per_row = 4;
    Kokkos::View<int *> col("col", n * per_row);
    Kokkos::View<double *> x("x", n), out("out", n), y("y", n), z("z", n);
    Kokkos::View<long *> idx("idx", n);
    Kokkos::View<unsigned *> perm("perm", n);
    Kokkos::parallel_for("init", n, KOKKOS_LAMBDA(const int i) {
      for (int k = 0; k < per_row; ++k)
        col(i * per_row + k) = (i + 3 * k) % n;
      x(i) = i;
      idx(i) = i / 2;
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
            if (row == 5)
              x(20) = 0.5;
            out(row) = sum;
          });
        });
    Kokkos::fence();
    Kokkos::parallel_for("scatter", n, KOKKOS_LAMBDA(const int i) {
      y(idx(i)) = 2.0 * i;
    });
    Kokkos::fence();
    Kokkos::parallel_for("fill", n, KOKKOS_LAMBDA(const int i) { z(i) = i; });
    double s = 0;
    for (int k = 0; k < n; ++k)
      s += z(perm(k));
    Kokkos::fence();
    printf("%g %g %g\n", out(1), y(3), s);
  }
  Kokkos::finalize();
  return 0;
}
